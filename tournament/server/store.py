"""The server's database: its bots and their tokens, on SQLite or PostgreSQL through SQLAlchemy,
its schema made and brought up to date by the migrations in ``migrations/`` (alembic).

A :class:`Store` only opens a database whose schema is the current one: ``thousand server
migrate`` brings an older one up to date, and an empty one is made by the same migrations."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import sqlalchemy
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import BigInteger, DateTime, ForeignKey, Select, String, Text, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, defer, mapped_column, sessionmaker

from thousand.bots import BUILTIN
from tournament.server.tokens import new_token, token_hash, token_matches

__all__ = [
    "DEFAULT_DATABASE",
    "Base",
    "BotEntry",
    "BotRow",
    "CasualGame",
    "CasualGameRow",
    "DatabaseError",
    "GameRow",
    "GroupRow",
    "PlayedGame",
    "Store",
    "database_url",
    "migrate",
    "shown_url",
]

DEFAULT_DATABASE = "sqlite:///thousand-server.db"
"""The database ``thousand server`` keeps when given none: a SQLite file in the current folder."""
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
"""A bot's name: up to 40 letters, digits, dots, dashes and underscores, not starting with a
sign, so that it reads the same in a URL, a table and a shell."""


class DatabaseError(ValueError):
    """The database cannot be used: unreachable, or its schema is not the current one."""


class Base(DeclarativeBase):
    """The tables of the server's database."""


class BotRow(Base):
    """A bot that may connect: its name and its token's hash (``None`` once revoked)."""

    __tablename__ = "bots"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    checked: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True))
    """When the bot passed its check game: it is rated only once it has."""


class GroupRow(Base):
    """A group: the same cards dealt to the same bots under every seating, rated as one. It is
    ``playing`` until its games are kept together with it (``finished``), or ``void`` (never
    rated) when it could not finish."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    bots: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10))
    started: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    ended: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """One game of a finished group: who sat where, and its outcome and record (JSON)."""

    __tablename__ = "games"
    __table_args__ = (sqlalchemy.UniqueConstraint("group_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"))
    number: Mapped[int]
    seats: Mapped[str] = mapped_column(Text)
    places: Mapped[str] = mapped_column(Text)
    scores: Mapped[str] = mapped_column(Text)
    statuses: Mapped[str] = mapped_column(Text)
    record: Mapped[str] = mapped_column(Text)


class CasualGameRow(Base):
    """A finished game of a casual table (people and bots, never rated)."""

    __tablename__ = "casual_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), unique=True)
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(32))
    seats: Mapped[str] = mapped_column(Text)
    scores: Mapped[str] = mapped_column(Text)
    record: Mapped[str] = mapped_column(Text)
    ended: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


@attrs.frozen
class CasualGame:
    """A finished game of a casual table as the store keeps it."""

    table_id: str
    game: str
    rules: str
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    record: dict[str, Any] = attrs.field(eq=False, repr=False)


@attrs.frozen
class PlayedGame:
    """A game of a group as the store keeps it."""

    seats: tuple[str, ...]
    """Each seat's bot."""
    places: tuple[int, ...]
    """Each seat's place, 1 the best (equal places for a tie)."""
    scores: tuple[int, ...]
    statuses: tuple[str, ...]
    """Each seat's status (``ok`` or its fault)."""
    record: dict[str, Any] = attrs.field(eq=False, repr=False)
    """The game's record, as ``thousand replay`` reads it."""


@attrs.frozen
class BotEntry:
    """A bot as the server lists it."""

    name: str
    created: datetime.datetime
    revoked: bool


def database_url(given: str | None) -> str:
    """The SQLAlchemy URL of the database given as ``--db`` (``None``: :data:`DEFAULT_DATABASE`):
    a ``sqlite:///`` file, or a ``postgresql://`` server reached with psycopg."""
    text = DEFAULT_DATABASE if given is None else given
    try:
        url = make_url(text)
    except ArgumentError:
        raise DatabaseError(
            f"--db must be a sqlite:/// or postgresql:// URL, not {text!r}"
        ) from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        return url.render_as_string(hide_password=False)
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise DatabaseError(f"--db must be a sqlite:/// or postgresql:// URL, not {shown_url(text)!r}")


def shown_url(url: str) -> str:
    """``url`` as it may be shown or logged: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _alembic(connection: sqlalchemy.Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _engine(url: str) -> Engine:
    return sqlalchemy.create_engine(database_url(url), pool_pre_ping=True)


def migrate(url: str | None, to: str = "head") -> tuple[str | None, str]:
    """Bring the database at ``url`` to the current schema (making it, when empty), or to the
    version ``to``: the versions it was at before and is at now."""
    engine = _engine(url or DEFAULT_DATABASE)
    try:
        with engine.begin() as connection:
            before = MigrationContext.configure(connection).get_current_revision()
            command.upgrade(_alembic(connection), to)
            return before, MigrationContext.configure(connection).get_current_revision() or ""
    except SQLAlchemyError as error:
        raise DatabaseError(
            f"cannot migrate {shown_url(str(engine.url))}: {_reason(error)}"
        ) from None
    finally:
        engine.dispose()


def _head() -> str:
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None
    return head


def _reason(error: SQLAlchemyError) -> str:
    """The first line of what the database said."""
    cause = error.orig if isinstance(error, sqlalchemy.exc.DBAPIError) else error
    return str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__


class Store:
    """The server's database, opened at the current schema."""

    def __init__(self, url: str | None = None, *, make: bool = False) -> None:
        """Open the database at ``url`` (the default one when ``None``). With ``make``, an empty
        database is given the current schema first; an older schema is always refused, with the
        command that brings it up to date."""
        self.url = database_url(url)
        self.engine = _engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        try:
            with self.engine.connect() as connection:
                version = MigrationContext.configure(connection).get_current_revision()
            if version is None and make:
                migrate(self.url)
                version = _head()
        except SQLAlchemyError as error:
            self.engine.dispose()
            raise DatabaseError(f"cannot open {shown_url(self.url)}: {_reason(error)}") from None
        if version != _head():
            self.engine.dispose()
            state = "has no tables" if version is None else f"is at schema version {version}"
            raise DatabaseError(
                f"the database {shown_url(self.url)} {state}, not the current {_head()}: "
                f"bring it up to date with: thousand server migrate --db {shown_url(self.url)}"
            )

    def close(self) -> None:
        """Close every connection to the database."""
        self.engine.dispose()

    def keep_casual(self, played: CasualGame) -> None:
        """Keep a casual table's finished game."""
        with self.sessions.begin() as session:
            session.add(
                CasualGameRow(
                    table_id=played.table_id,
                    game=played.game,
                    rules=played.rules,
                    seats=json.dumps(played.seats),
                    scores=json.dumps(played.scores),
                    record=json.dumps(played.record),
                    ended=_now(),
                )
            )

    def casual_game(self, table_id: str) -> CasualGame | None:
        """The finished game of the casual table ``table_id``, if it was kept."""
        with self.sessions() as session:
            query = select(CasualGameRow).where(CasualGameRow.table_id == table_id)
            row = session.scalars(query).first()
            if row is None:
                return None
            return CasualGame(
                row.table_id,
                row.game,
                row.rules,
                tuple(json.loads(row.seats)),
                tuple(json.loads(row.scores)),
                json.loads(row.record),
            )

    def add_bot(self, name: str) -> str:
        """Add a bot named ``name``: its token, shown this once (only its hash is kept)."""
        if not NAME.fullmatch(name):
            raise ValueError(
                f"a bot's name is 1 to 40 letters, digits, dots, dashes and underscores, "
                f"starting with a letter or digit, not {name!r}"
            )
        if name in BUILTIN:
            raise ValueError(
                f"{name} is the name of a built-in bot, which the server may play itself; "
                "choose another"
            )
        token = new_token()
        with self.sessions.begin() as session:
            if self._bot(session, name) is not None:
                raise ValueError(f"there is already a bot named {name}")
            session.add(BotRow(name=name, token_hash=token_hash(token), created=_now()))
        return token

    def revoke_bot(self, name: str) -> None:
        """Revoke the token of the bot named ``name``: it can no longer connect until it is
        given a new one (:meth:`rotate_token`). Its results are kept."""
        with self.sessions.begin() as session:
            self._named(session, name).token_hash = None

    def rotate_token(self, name: str) -> str:
        """Give the bot named ``name`` a new token, which replaces its old one (revoked or not)."""
        token = new_token()
        with self.sessions.begin() as session:
            self._named(session, name).token_hash = token_hash(token)
        return token

    def bot_with_token(self, token: str) -> str | None:
        """The name of the bot whose token is ``token``, or ``None`` when no bot has it."""
        kept = token_hash(token)
        with self.sessions() as session:
            row = session.scalars(select(BotRow).where(BotRow.token_hash == kept)).first()
        if row is None or row.token_hash is None or not token_matches(token, row.token_hash):
            return None
        return row.name

    def begin_group(self, game: str, rules: str, seed: int, bots: Sequence[str]) -> int:
        """Note a group as begun: the number it is kept under."""
        with self.sessions.begin() as session:
            row = GroupRow(
                game=game,
                rules=rules,
                seed=seed,
                bots=json.dumps(list(bots)),
                status="playing",
                started=_now(),
            )
            session.add(row)
            session.flush()
            return row.id

    def finish_group(self, group: int, games: Sequence[PlayedGame]) -> None:
        """Keep a group's games and mark it finished, all in one transaction: a group is kept
        whole or not at all."""
        with self.sessions.begin() as session:
            for number, game in enumerate(games):
                session.add(
                    GameRow(
                        group_id=group,
                        number=number,
                        seats=json.dumps(game.seats),
                        places=json.dumps(game.places),
                        scores=json.dumps(game.scores),
                        statuses=json.dumps(game.statuses),
                        record=json.dumps(game.record, separators=(",", ":")),
                    )
                )
            finished = session.execute(
                update(GroupRow)
                .where(GroupRow.id == group, GroupRow.status == "playing")
                .values(status="finished", ended=_now())
            )
            if finished.rowcount != 1:  # type: ignore[attr-defined]
                raise ValueError(f"group {group} is not being played")

    def void_unfinished(self) -> int:
        """Void every group left playing (by a server that stopped): how many. A void group is
        never rated."""
        return self._void()

    def void_unfinished_group(self, group: int) -> None:
        """Void a group that could not finish: it is never rated."""
        self._void(GroupRow.id == group)

    def _void(self, *where: Any) -> int:
        """Void the groups still playing that ``where`` picks: how many."""
        with self.sessions.begin() as session:
            voided = session.execute(
                update(GroupRow)
                .where(GroupRow.status == "playing", *where)
                .values(status="void", ended=_now())
            )
            return int(voided.rowcount)  # type: ignore[attr-defined]

    def finished_groups(
        self, game: str, rules: str, *, records: bool = True
    ) -> list[list[PlayedGame]]:
        """The games of every finished group of a pool, group by group in the order played;
        without ``records`` their records are left out (empty), which reads far less."""
        return list(self.numbered_groups(game, rules, records=records).values())

    def numbered_groups(
        self, game: str, rules: str, *, records: bool = True
    ) -> dict[int, list[PlayedGame]]:
        """The games of every finished group of a pool by the group's number, in the order
        played (see :meth:`finished_groups`)."""
        query = (
            _kept_games()
            .where(GroupRow.game == game, GroupRow.rules == rules)
            .order_by(GroupRow.id, GameRow.number)
        )
        if not records:
            query = query.options(defer(GameRow.record))
        with self.sessions() as session:
            groups: dict[int, list[PlayedGame]] = {}
            for row in session.execute(query).scalars():
                groups.setdefault(row.group_id, []).append(_played(row, records))
        return groups

    def played_game(self, group: int, number: int) -> PlayedGame | None:
        """A game of a finished group (``None`` while its group is not finished, or when there
        is no such game): a game's cards are shown only once its group is kept."""
        with self.sessions() as session:
            row = session.execute(
                _kept_games().where(GameRow.group_id == group, GameRow.number == number)
            ).scalar_one_or_none()
            return None if row is None else _played(row)

    def every_game(self) -> list[tuple[str, PlayedGame]]:
        """Every game of every finished group, with its name (``group-number``), in the order
        played."""
        with self.sessions() as session:
            rows = session.execute(_kept_games().order_by(GroupRow.id, GameRow.number)).scalars()
            return [(f"{row.group_id}-{row.number}", _played(row)) for row in rows]

    def is_checked(self, name: str) -> bool:
        """Whether the bot has passed its check game."""
        with self.sessions() as session:
            row = self._bot(session, name)
            return row is not None and row.checked is not None

    def mark_checked(self, name: str) -> None:
        """Note that the bot passed its check game."""
        with self.sessions.begin() as session:
            self._named(session, name).checked = _now()

    def bots(self) -> list[BotEntry]:
        """Every bot, by name."""
        with self.sessions() as session:
            rows = session.scalars(select(BotRow).order_by(BotRow.name)).all()
        return [BotEntry(row.name, row.created, row.token_hash is None) for row in rows]

    @staticmethod
    def _bot(session: Session, name: str) -> BotRow | None:
        return session.scalars(select(BotRow).where(BotRow.name == name)).first()

    def _named(self, session: Session, name: str) -> BotRow:
        row = self._bot(session, name)
        if row is None:
            raise ValueError(f"there is no bot named {name!r}")
        return row


def _kept_games() -> Select[GameRow]:
    """The games of the finished groups: the only ones shown."""
    return (
        select(GameRow)
        .join(GroupRow, GameRow.group_id == GroupRow.id)
        .where(GroupRow.status == "finished")
    )


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _played(row: GameRow, record: bool = True) -> PlayedGame:
    return PlayedGame(
        tuple(json.loads(row.seats)),
        tuple(json.loads(row.places)),
        tuple(json.loads(row.scores)),
        tuple(json.loads(row.statuses)),
        json.loads(row.record) if record else {},
    )
