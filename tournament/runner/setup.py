"""The names :mod:`tournament.runner.options` was first imported by, kept for programs that
import them from here."""

from tournament.runner.options import Options, configure

__all__ = ["Options", "configure"]
