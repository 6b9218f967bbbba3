"""Bot specs: one string names a bot wherever a bot is expected, in the API and on the command line.

==========================  ==============================================================
``greedy``, ``random``      a built-in bot
``mybot``                   a bot installed under that name in the ``thousand.players``
                            entry point group
``package.module:Class``    a class (or any callable returning a player) in an importable
                            module
``path/to/file.py:Class``   a class in a Python file
``cmd:<command line>``      an external program speaking the bot protocol
                            (see :mod:`thousand.table.external`)
``openspiel:<bot>``         an OpenSpiel bot, e.g. ``openspiel:ismcts(simulations=200)``
                            (the ``rl`` extra; see :mod:`thousand.rl.openspiel`)
==========================  ==============================================================

Any Python bot spec may end with options in parentheses, passed to the class as keyword
arguments: ``pimc(steps=4000)``, ``mybot.py:Bot(depth=3, style=cautious)``. Values are read as
whole numbers, decimals, ``true``/``false``/``none``, or else kept as text.

    >>> make = load_player("random")
    >>> make().act.__name__
    'act'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import random
import shlex
import stat
import sys
from collections.abc import Callable
from importlib.metadata import EntryPoints, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, cast

import attrs

from thousand.bots import BUILTIN
from thousand.errors import BotFailure, BotSpecError
from thousand.players import AnyPlayer
from thousand.table.interrupts import noting_interrupts
from thousand.table.sandbox import Isolation, SandboxOptions, require_sandbox

if TYPE_CHECKING:
    from thousand import bluff
    from thousand.classic.rules import Rules
    from thousand.table.external import BotLimits

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotInfo",
    "authors_code_here",
    "available_bots",
    "check_player",
    "load_player",
]

ENTRY_POINT_GROUP = "thousand.players"
"""The entry point group where installed packages list their bots."""

OPENSPIEL = "openspiel:"
"""The prefix of specs naming OpenSpiel bots, made by :mod:`thousand.rl.openspiel`."""

PlayerFactory = Callable[[], AnyPlayer]
"""Makes a fresh player for each match."""


@attrs.frozen
class BotInfo:
    """A bot that can be named by a spec, and where it comes from."""

    name: str
    origin: str
    """``built-in``, or the installed distribution that provides it."""
    summary: str
    """The first line of its documentation."""


def available_bots() -> tuple[BotInfo, ...]:
    """The built-in bots, then every bot installed through entry points, by name. An installed
    bot that fails to load is listed with the reason."""
    bots = [BotInfo(name, "built-in", _summary(cls)) for name, cls in BUILTIN.items()]
    for point in sorted(_entry_points(), key=lambda point: point.name):
        dist = point.dist
        origin = f"{dist.name} {dist.version}" if dist is not None else point.value
        if point.name in BUILTIN:
            summary = f"not usable: the name is taken by the built-in bot ({point.value})"
        else:
            try:
                summary = _summary(point.load())
            except Exception as error:
                summary = f"not usable: {describe_error(error)}"
        bots.append(BotInfo(point.name, origin, summary))
    return tuple(bots)


def load_player(
    spec: str,
    *,
    isolate: Isolation | bool | str = False,
    sandbox: SandboxOptions | None = None,
    log_dir: str | None = None,
    limits: BotLimits | None = None,
) -> PlayerFactory:
    """What makes the player named by ``spec``, one fresh player per call.

    ``isolate`` says how a bot that is not built in is kept from the driver's state (an
    :class:`~thousand.table.sandbox.Isolation` or its name; ``True`` is the sandbox, ``False``
    none). In the sandbox, a Python bot or a program runs walled in for each match, reaching
    what ``sandbox`` allows (by default the system and its own folder), never the folder of
    its logs; with ``process`` a Python bot runs in a process of its own for each match
    (:mod:`thousand.table.isolation`); with ``none`` it runs here. Either way it is spoken to
    through the bot protocol. ``log_dir`` keeps external bots' error output and ``limits``
    caps their processes (see :class:`~thousand.table.external.ExternalPlayer`).

    Raises:
        BotSpecError: the spec names nothing that can be loaded, with the reason.
        SandboxUnavailable: the bot is to be sandboxed and sandboxes cannot be made here.
        ValueError: ``isolate`` names no isolation.
    """
    from thousand.table.external import ExternalPlayer
    from thousand.table.sandboxed import SandboxedBot, SandboxedPlayer

    mode = Isolation.of(isolate)
    spec = spec.strip()
    if spec.startswith("cmd:"):
        try:
            command = shlex.split(spec[4:])
        except ValueError as error:
            raise BotSpecError(
                f"bot spec {spec!r}: cannot split the command line: {error}"
            ) from None
        if not command:
            raise BotSpecError(f"bot spec {spec!r}: no command after 'cmd:'")
        if mode is Isolation.SANDBOX:
            walls = _sandbox(sandbox)
            return lambda: SandboxedPlayer(
                command, walls, name=spec, log_dir=log_dir, limits=limits
            )
        return lambda: ExternalPlayer(command, name=spec, log_dir=log_dir, limits=limits)
    name, options = _options(spec)
    if name.startswith(OPENSPIEL):
        name = f"thousand.rl.openspiel:{name[len(OPENSPIEL) :]}"
    if mode is Isolation.NONE or name in BUILTIN:
        return _python_factory(name, options, spec)
    _check_form(name)
    if mode is Isolation.PROCESS:
        from thousand.table.isolation import IsolatedPlayer

        return lambda: IsolatedPlayer(spec, log_dir=log_dir, limits=limits)
    served, file = _anywhere(spec, name)
    walls = _sandbox(sandbox)
    if file is not None:
        _check_readable_by_nobody(spec, file)
        walls = attrs.evolve(walls, readable=(*walls.readable, os.path.dirname(file)))
    return lambda: SandboxedBot(spec, served, walls, log_dir=log_dir, limits=limits)


def _check_readable_by_nobody(spec: str, file: str) -> None:
    """As root, check that the user a sandboxed bot runs as (``nobody``) may read its file.

    Raises:
        BotSpecError: it may not, with what to do.
    """
    if os.geteuid() != 0:
        return
    try:
        readable = os.stat(file).st_mode & stat.S_IROTH
        enterable = os.stat(os.path.dirname(file)).st_mode & stat.S_IXOTH
    except OSError:
        return  # missing: the bot's own start tells it
    if not (readable and enterable):
        raise BotSpecError(
            f"bot spec {spec!r}: as root, the sandbox runs bots as the user nobody, who cannot"
            f" read {file}: make it readable by others (chmod o+r on the file, o+x on its"
            " folder), or choose --isolate=process"
        )


def _sandbox(options: SandboxOptions | None) -> SandboxOptions:
    """The sandbox a bot is to run in, once sandboxes are known to work here.

    Raises:
        SandboxUnavailable: they do not.
    """
    require_sandbox()
    return options or SandboxOptions()


def _anywhere(spec: str, name: str) -> tuple[str, str | None]:
    """A Python bot's spec loadable from any folder (its file's path made absolute), and its
    file; ``None`` for a bot in a module."""
    location = _location(name)
    if location is None or not location[0].endswith(".py") or not spec.startswith(location[0]):
        return spec, None
    where = location[0]
    file = os.path.abspath(where)
    return file + spec[len(where) :], file


def authors_code_here(spec: str, *, isolate: Isolation | bool | str = False) -> bool:
    """Whether the player ``spec`` names runs its author's Python code in this process: not a
    built-in bot, a program or an isolated bot."""
    spec = spec.strip()
    if spec.startswith("cmd:") or Isolation.of(isolate) is not Isolation.NONE:
        return False
    return spec.partition("(")[0].strip() not in BUILTIN


def check_player(
    spec: str,
    rules: Rules | bluff.Rules,
    *,
    isolate: Isolation | bool | str = False,
    sandbox: SandboxOptions | None = None,
    log_dir: str | None = None,
    limits: BotLimits | None = None,
) -> None:
    """Make the player ``spec`` names once, start it in seat 0 under ``rules`` (an external
    program must answer the hello) and end it: a bot that cannot start is found before a run.
    ``isolate`` and ``sandbox`` are as for :func:`load_player`.

    Raises:
        BotSpecError: the spec names nothing loadable, or its player cannot start; the message
            names the spec.
        SandboxUnavailable: the bot is to be sandboxed and sandboxes cannot be made here.
    """
    make = load_player(spec, isolate=isolate, sandbox=sandbox, log_dir=log_dir, limits=limits)
    player: object = None
    with noting_interrupts() as interrupts:
        try:
            player = make()
            start = getattr(player, "start", None)
            if start is not None:
                start(0, rules, random.Random(0))
        except BotSpecError:
            raise
        except BaseException as error:
            if interrupts.users(error):
                raise
            if isinstance(error.__cause__, BotSpecError):  # found by an isolated bot's loader
                raise error.__cause__ from None
            reason = str(error).strip() if isinstance(error, BotFailure) else describe_error(error)
            raise BotSpecError(f"bot {spec!r} cannot start: {reason}") from None
        finally:
            interrupts.call_end(player, None)


def _options(spec: str) -> tuple[str, dict[str, object]]:
    """A spec split into the bot it names and the options in its trailing parentheses."""
    if not spec.endswith(")"):
        return spec, {}
    name, bracket, inside = spec[:-1].partition("(")
    if not bracket or not name.strip():
        raise BotSpecError(f"bot spec {spec!r}: options go in parentheses after a bot's name")
    options: dict[str, object] = {}
    for item in inside.split(","):
        if not item.strip():
            continue
        key, equals, text = (part.strip() for part in item.partition("="))
        if not equals or not key.isidentifier():
            raise BotSpecError(
                f"bot spec {spec!r}: options are written name=value, not {item.strip()!r}"
            )
        if key in options:
            raise BotSpecError(f"bot spec {spec!r}: option {key!r} is given twice")
        options[key] = _option_value(text)
    return name.strip(), options


def _option_value(text: str) -> object:
    words: dict[str, object] = {"true": True, "false": False, "none": None}
    if text.lower() in words:
        return words[text.lower()]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _check_form(spec: str) -> None:
    """Check, without running any of its code here, that a spec names something loadable."""
    location = _location(spec)
    if location is not None:
        where = location[0]
        if where.endswith(".py"):
            if not Path(where).is_file():
                raise BotSpecError(f"bot spec {spec!r}: no file {where}")
        elif _find_module(where) is None:
            raise BotSpecError(f"bot spec {spec!r}: cannot import {where}: no such module")
    elif spec not in BUILTIN and spec not in {point.name for point in _entry_points()}:
        _entry_point(spec)


def _location(spec: str) -> tuple[str, str] | None:
    """A ``where:attribute`` spec split in two; ``None`` for a bot name."""
    if not spec:
        raise BotSpecError("empty bot spec; try 'random', 'greedy' or see 'thousand bots'")
    if ":" not in spec:
        return None
    where, _, attribute = spec.rpartition(":")
    if not where or not attribute:
        raise BotSpecError(f"bot spec {spec!r}: expected 'module:Class' or 'file.py:Class'")
    return where, attribute


def _find_module(name: str) -> object:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _python_factory(spec: str, options: dict[str, object], full: str) -> PlayerFactory:
    """The class or factory a Python bot spec names, checked to make players with ``options``
    (``full`` is the spec as given, options included, for messages)."""
    location = _location(spec)
    if location is not None:
        where, attribute = location
        module = _load_file(spec, where) if where.endswith(".py") else _import(spec, where)
        try:
            target = getattr(module, attribute)
        except AttributeError:
            raise BotSpecError(f"bot spec {spec!r}: {where} has no {attribute!r}") from None
    elif spec in BUILTIN:
        target = BUILTIN[spec]
    else:
        target = _entry_point(spec)
    if not callable(target):
        raise BotSpecError(f"bot spec {spec!r}: {target!r} is not a class or a function")
    if isinstance(target, type) and not callable(getattr(target, "act", None)):
        raise BotSpecError(f"bot spec {spec!r}: {target.__name__} has no act(observation) method")
    if not options:
        return _checked(spec, target)
    _check_names(target, options, full)
    make = target

    def configured() -> object:
        return make(**options)

    try:
        configured()
    except (TypeError, ValueError) as error:
        raise BotSpecError(f"bot spec {full!r}: bad options: {describe_error(error)}") from None
    except KeyboardInterrupt:
        raise
    except BaseException:
        pass  # the bot's own failure, its seat's fault when a match starts, as without options
    return _checked(full, configured)


def _check_names(target: Callable[..., object], options: dict[str, object], full: str) -> None:
    """Refuse an option the bot's constructor does not take, naming those it does (from its
    signature; a constructor taking ``**options`` or without a signature is left to refuse)."""
    name = full.partition("(")[0].strip()
    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return
    taken = [
        parameter.name
        for parameter in parameters
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    ]
    for key in options:
        if key not in taken:
            fault = f"{name} has no option {key!r}; its options are {', '.join(taken)}"
            raise BotSpecError(
                f"bot spec {full!r}: {fault if taken else name + ' takes no options'}"
            )


def _checked(spec: str, make: Callable[[], object]) -> PlayerFactory:
    def factory() -> AnyPlayer:
        player = make()
        if not callable(getattr(player, "act", None)):
            raise BotSpecError(f"bot spec {spec!r} made {player!r}, which has no act method")
        return cast("AnyPlayer", player)

    return factory


def _import(spec: str, name: str) -> object:
    try:
        return importlib.import_module(name)
    except (Exception, SystemExit) as error:
        raise BotSpecError(
            f"bot spec {spec!r}: cannot import {name}: {describe_error(error)}"
        ) from None


def _load_file(spec: str, path: str) -> object:
    file = Path(path)
    if not file.is_file():
        raise BotSpecError(f"bot spec {spec!r}: no file {path}")
    resolved = file.resolve()
    name = "thousand_bot_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    location = importlib.util.spec_from_file_location(name, resolved)
    if location is None or location.loader is None:
        raise BotSpecError(f"bot spec {spec!r}: {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(location)
    sys.modules[name] = module
    try:
        location.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        del sys.modules[name]
        raise BotSpecError(
            f"bot spec {spec!r}: {path} failed to load: {describe_error(error)}"
        ) from None
    return module


def _entry_points() -> EntryPoints:
    return entry_points(group=ENTRY_POINT_GROUP)


def _entry_point(spec: str) -> object:
    for point in _entry_points():
        if point.name == spec:
            try:
                return point.load()
            except Exception as error:
                reason = describe_error(error)
                raise BotSpecError(
                    f"bot {spec!r} (installed as {point.value}) failed to load: {reason}"
                ) from None
    known = ", ".join(bot.name for bot in available_bots())
    raise BotSpecError(
        f"no bot named {spec!r}; known bots: {known} (or give 'module:Class', "
        "'file.py:Class' or 'cmd:<command>')"
    )


def describe_error(error: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def _summary(target: object) -> str:
    doc = getattr(target, "__doc__", None) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""
