"""A bot's token: made at random, shown once, kept only as its hash, and checked in constant
time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["PREFIX", "new_token", "token_hash", "token_matches"]

PREFIX = "thb_"
"""How every token begins, so that one pasted in the wrong place is recognised."""


def new_token() -> str:
    """A new token: 256 random bits, written URL-safe after :data:`PREFIX`."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hexadecimal. A token is random and
    long, so a fast hash is enough; a slow one would only slow every connection."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, kept_hash: str) -> bool:
    """Whether ``token`` is the one whose hash was kept, compared in constant time."""
    return hmac.compare_digest(token_hash(token), kept_hash)
