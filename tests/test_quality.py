"""The code checks run by the suite itself: mypy --strict, ruff, the typed marker and the module
layering (the library never imports the command line; phase modules never import each other; the
engines never import the players; no import cycle but each game's state and dispatcher; no module
imports the Thousand engine by the paths it had before it moved into thousand.classic), as
docs/architecture.md draws it."""

from __future__ import annotations

import ast
import doctest
import fnmatch
import graphlib
import importlib
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
import yaml

import thousand
from thousand.classic.old_paths import MOVED

ROOT = Path(__file__).resolve().parent.parent
PHASES = {"bidding", "talon", "tricks", "scoring"}
PLAYING = (
    "thousand.table",
    "thousand.serve",
    "thousand.players",
    "thousand.bots",
    "thousand.rl",
    "thousand.frontends",
)
"""The driver, the players, the bots and the learning environments: above both engines, which
never import them."""
STATE_AND_DISPATCHER = {
    ("thousand.classic.state", "thousand.classic.engine"),
    ("thousand.classic.state", "thousand.classic.observation"),
    ("thousand.bluff.state", "thousand.bluff.engine"),
    ("thousand.bluff.state", "thousand.bluff.observation"),
}
"""The only imports that close a cycle: a game's state module, at its end, imports the
dispatcher and the observation that its methods hand over to."""


MYPY = ("mypy", "--strict", "thousand", "tournament", "examples", "benchmarks")
RUFF_CHECK = ("ruff", "check", ".")
RUFF_FORMAT = ("ruff", "format", "--check", ".")
"""The checks of the code, each run as ``python -m`` and these arguments from the project's
root, here and by the hooks of .pre-commit-config.yaml."""


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict() -> None:
    """The library, the command line, the examples and the benchmarks pass mypy --strict."""
    result = run(sys.executable, "-m", *MYPY)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_lint() -> None:
    """ruff finds nothing to complain about anywhere in the project."""
    result = run(sys.executable, "-m", *RUFF_CHECK)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    """Every Python file is formatted as ruff formats it."""
    result = run(sys.executable, "-m", *RUFF_FORMAT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pre_commit_runs_the_suites_checks() -> None:
    """.pre-commit-config.yaml runs exactly the suite's ruff and mypy commands, on the same
    paths with the same options, with the environment's own ruff and mypy (a local hook, its
    language ``system``), on the whole project rather than the files a commit changes, so that
    a commit its hooks let through passes the checks above."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    [repo] = config["repos"]
    assert repo["repo"] == "local"
    hooks = {hook["id"]: hook for hook in repo["hooks"]}
    commands = {"ruff-check": RUFF_CHECK, "ruff-format": RUFF_FORMAT, "mypy": MYPY}
    assert set(hooks) == set(commands)
    for name, command in commands.items():
        hook = hooks[name]
        assert hook["entry"] == " ".join(("python", "-m", *command)), name
        assert hook["language"] == "system", name
        assert hook["pass_filenames"] is False, name
        assert hook["always_run"] is True, name
        assert not {"args", "files", "exclude"} & set(hook), name


def test_typed_marker_shipped() -> None:
    """Both packages ship py.typed, declared as package data."""
    assert (ROOT / "thousand" / "py.typed").exists()
    assert (ROOT / "tournament" / "py.typed").exists()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text()


def imported_modules(path: Path) -> set[str]:
    """Every name imported anywhere in the file, at run time or for the type checker."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {name for node in ast.walk(tree) for name in imported_by(node)}


def imported_by(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom) and node.module:
        yield node.module
        yield from (f"{node.module}.{alias.name}" for alias in node.names)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


LIBRARY = {module_name(path): path for path in sorted((ROOT / "thousand").rglob("*.py"))}
ENGINES = sorted(
    name
    for name in LIBRARY
    if name != "thousand" and not any(name.startswith(upper) for upper in PLAYING)
)
"""Both engines and the values they share: every module but the root and the playing ones."""


def loaded_on_import(path: Path) -> set[str]:
    """The library modules a file imports as it loads (not in functions, not for the type
    checker). ``from package import module`` names the module only: a package always loads
    before its modules, so that edge closes no cycle."""

    def walk(nodes: Iterable[ast.AST]) -> Iterator[str]:
        for node in nodes:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                yield from walk(node.orelse)
                continue
            if isinstance(node, ast.Import):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    module = f"{node.module}.{alias.name}"
                    yield module if module in LIBRARY else node.module
            yield from walk(ast.iter_child_nodes(node))

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {name for name in walk(tree.body) if name in LIBRARY}


@pytest.mark.parametrize("path", sorted((ROOT / "thousand").rglob("*.py")), ids=lambda p: p.name)
def test_library_never_imports_the_command_line(path: Path) -> None:
    """The library depends on the standard library and attrs only."""
    forbidden = {"tournament", "typer", "click", "rich"}
    used = {name.split(".")[0] for name in imported_modules(path)}
    assert not used & forbidden


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_phase_modules_meet_only_in_the_dispatcher(phase: str) -> None:
    """A phase module imports no other phase module (they meet in thousand.classic.engine)."""
    used = {
        name.split(".")[2]
        for name in imported_modules(ROOT / "thousand" / "classic" / f"{phase}.py")
        if name.startswith("thousand.classic.")
    }
    assert used & PHASES <= {phase}


@pytest.mark.parametrize("module", ENGINES)
def test_engines_never_name_the_players(module: str) -> None:
    """An engine or shared module imports nothing of the driver, the players or the bots, not
    even for the type checker."""
    used = imported_modules(LIBRARY[module])
    assert not {name for name in used if name.startswith(PLAYING)}


@pytest.mark.parametrize("module", ENGINES)
def test_engine_loads_alone(module: str) -> None:
    """Importing an engine module in a fresh interpreter loads none of the playing modules."""
    probe = f"import sys, {module}; print(*sorted(sys.modules))"
    result = run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr
    assert not [name for name in result.stdout.split() if name.startswith(PLAYING)]


@pytest.mark.parametrize("module", ["thousand.classic.cards", "thousand.cards"])
def test_the_cards_load_with_the_errors_alone(module: str) -> None:
    """Importing the cards, by their path or the one they had before they moved, loads the
    package, the cards and the errors, and no other module of the library."""
    probe = f"import sys, {module}; print(*sorted(sys.modules))"
    result = run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr
    loaded = {name for name in result.stdout.split() if name.split(".")[0] == "thousand"}
    assert loaded == {
        "thousand", "thousand.classic", "thousand.classic.old_paths", "thousand.classic.cards",
        "thousand.errors", module,
    }  # fmt: skip


def old_paths_imported(source: str) -> Iterator[str]:
    """Every import in ``source`` of a Thousand engine module by the path it had before it moved
    into ``thousand.classic`` (``from thousand import cards`` imports the function, not one)."""
    old = {f"thousand.{name}" for name in MOVED}
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module == "thousand":
            names = [f"thousand.{alias.name}" for alias in node.names]
            names = [name for name in names if name.split(".")[1] not in thousand._HOMES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        yield from (name for name in names if ".".join(name.split(".")[:2]) in old)


def examples(text: str) -> str:
    """The code of every doctest example in ``text``."""
    return "".join(example.source for example in doctest.DocTestParser().get_examples(text))


def docstrings(source: str) -> Iterator[str]:
    """Every docstring of the module ``source``, its own, its classes' and its functions'."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, kinds):
            yield ast.get_docstring(node) or ""


PROJECT_CODE = sorted(
    path
    for top in ("thousand", "tournament", "tests", "examples", "benchmarks")
    for path in (ROOT / top).rglob("*.py")
    if path.name != "test_moved_modules.py"  # where the old paths are checked
)
PROJECT_PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])


@pytest.mark.parametrize(
    "path", PROJECT_CODE + PROJECT_PAGES, ids=lambda path: path.relative_to(ROOT).as_posix()
)
def test_no_module_imports_an_old_path(path: Path) -> None:
    """The project imports the Thousand engine from ``thousand.classic``, in its code and in the
    examples of its docstrings and pages: the old paths are kept for code written against them,
    and mypy does not know them."""
    text = path.read_text(encoding="utf-8")
    code = text if path.suffix == ".py" else ""
    pages = docstrings(text) if path.suffix == ".py" else [text]
    found = [
        name for source in [code, *map(examples, pages)] for name in old_paths_imported(source)
    ]
    assert found == []


def test_the_check_for_old_paths_finds_them() -> None:
    """The check above catches an old path in each form of import, in code and in examples, and
    lets the root's functions named like modules pass."""
    code = (
        "import thousand.rules\n"
        "from thousand.tricks import beats\n"
        "from thousand import cards, determinise, scoring\n"
        "from thousand.classic import talon\n"
    )
    assert list(old_paths_imported(code)) == [
        "thousand.rules",
        "thousand.tricks",
        "thousand.scoring",
    ]
    page = "An example:\n\n>>> import thousand\n>>> from thousand import spectator\n"
    assert list(old_paths_imported(examples(page))) == ["thousand.spectator"]


def test_command_line_help_loads_no_engine() -> None:
    """``thousand --help`` loads the command line alone: no engine, game interface, bot,
    driver, runner or package metadata (the commands load what they use), so it answers fast."""
    probe = (
        "import sys\n"
        "sys.argv = ['thousand', '--help']\n"
        "from tournament.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(*sorted(sys.modules), file=sys.stderr)"
    )
    result = run(sys.executable, "-c", probe)
    assert "tournament" in result.stdout, result.stderr
    loaded = result.stderr.split()
    heavy = ("thousand.classic.engine", "thousand.games", "thousand.bots", "thousand.table.driver")
    heavy += ("thousand.table.specs", "thousand.bluff.engine", "tournament.runner")
    assert not [name for name in loaded if name.startswith(heavy)]
    assert "importlib.metadata" not in loaded


def test_bots_use_only_the_engines_and_the_player_protocol() -> None:
    """A bot imports no driver, spec loader or bot process: it only plays observations."""
    for path in (ROOT / "thousand" / "bots").rglob("*.py"):
        used = {name for name in imported_modules(path) if name.startswith(PLAYING)}
        assert all(name.startswith(("thousand.bots", "thousand.players")) for name in used), path


def test_no_import_cycle_but_state_and_dispatcher() -> None:
    """The library's load-time imports form no cycle once each game's state module is kept from
    importing its dispatcher and observation."""
    graph = {
        module: {
            used for used in loaded_on_import(path) if (module, used) not in STATE_AND_DISPATCHER
        }
        for module, path in LIBRARY.items()
    }
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the cycle


def test_root_names_load_on_first_use() -> None:
    """Every public name of the package is imported from the module the type checker is told
    of, and ``from thousand import *`` binds them all."""
    tree = ast.parse((ROOT / "thousand" / "__init__.py").read_text(encoding="utf-8"))
    shown_to_mypy = {
        (node.module, alias.name)
        for block in tree.body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    homes = thousand._HOMES
    assert shown_to_mypy == {(f"thousand.{module}", name) for name, module in homes.items()}
    assert sorted(homes) == sorted(thousand.__all__)
    for name, module in homes.items():
        assert getattr(thousand, name) is getattr(
            importlib.import_module(f"thousand.{module}"), name
        )
    namespace: dict[str, object] = {}
    exec("from thousand import *", namespace)
    assert set(thousand.__all__) <= set(namespace)
    assert set(thousand.__all__) <= set(dir(thousand))


def test_root_functions_keep_their_modules_names() -> None:
    """``thousand.cards`` and ``thousand.determinise`` are the functions, even once the modules
    of those names are loaded (by their old paths too), and submodules are reached as
    attributes."""
    result = run(
        sys.executable, "-c",
        "import thousand.cards, thousand.determinise, thousand.classic.cards, thousand; "
        "print(thousand.cards.__module__, thousand.determinise.__module__, "
        "thousand.bluff.__name__, thousand.table.__name__, callable(thousand.cards))",
    )  # fmt: skip
    assert result.stdout.split() == [
        "thousand.classic.cards", "thousand.games", "thousand.bluff", "thousand.table", "True"
    ]  # fmt: skip
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        thousand.nothing  # noqa: B018


def test_typer_only_in_the_command_line() -> None:
    """Only the command line, the package tournament/cli, imports typer; the library never."""
    users = {
        path.relative_to(ROOT).parent.as_posix()
        for top in ("thousand", "tournament")
        for path in (ROOT / top).rglob("*.py")
        if any(name.split(".")[0] == "typer" for name in imported_modules(path))
    }
    assert users == {"tournament/cli"}


def test_every_package_is_shipped() -> None:
    """A plain (non-editable) install ships every package and subpackage of the project."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = [
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("thousand", "tournament")
        for init in (ROOT / top).rglob("__init__.py")
    ]
    assert {"thousand.bluff", "thousand.classic", "thousand.common"} <= set(packages)
    for package in packages:
        assert any(fnmatch.fnmatch(package, pattern) for pattern in patterns), package


def project_imports(path: Path) -> set[str]:
    """The project's modules (and names in them) a file imports, anywhere in it."""
    return {
        name for name in imported_modules(path) if name.split(".")[0] in {"thousand", "tournament"}
    }


@pytest.mark.parametrize(
    "path", sorted((ROOT / "thousand" / "common").glob("*.py")), ids=lambda p: p.name
)
def test_the_shared_values_know_neither_game(path: Path) -> None:
    """What both games share imports only the library's errors and its own kind."""
    for name in project_imports(path):
        assert name.startswith(("thousand.errors", "thousand.common")), (path.name, name)


RUNNER = ROOT / "tournament" / "runner"
FRONT_ENDS = ROOT / "thousand" / "frontends"


@pytest.mark.parametrize(
    ("part", "forbidden"),
    [(RUNNER, "thousand.frontends"), (FRONT_ENDS, "tournament")],
    ids=["runner", "front-ends"],
)
def test_the_runner_and_the_front_ends_stand_apart(part: Path, forbidden: str) -> None:
    """The tournament runner never imports the table front-ends nor the command line, and the
    front-ends (in the library, for any host: the command line, a server) never import the
    tournament: each can change without the other."""
    refused = (forbidden, "tournament.cli", "tournament.checkbot")
    for path in part.glob("*.py"):
        for name in project_imports(path):
            assert not name.startswith(refused), (path.name, name)


ENGINE_INTERNALS = tuple(
    f"thousand.{name}"
    for name in (
        "classic.state", "classic.engine", "classic.bidding", "classic.talon", "classic.tricks",
        "classic.scoring", "classic.redeals", "classic.layout", "classic.inference",
        "classic.sampling", "classic.determinise", "bluff.state", "bluff.engine", "bluff.climb",
        "bluff.challenge", "bluff.pile", "bluff.tracking", "bluff.determinise",
    )
)  # fmt: skip
"""What happens inside the engines: states, the dispatchers and their phase modules, and the
search's deductions. What a front-end shows comes from the views (observations, spectators,
records), the rules and the games."""


@pytest.mark.parametrize("path", sorted(FRONT_ENDS.glob("*.py")), ids=lambda path: path.name)
def test_the_front_ends_never_reach_into_the_engines(path: Path) -> None:
    for name in project_imports(path):
        assert not any(
            name == internal or name.startswith(internal + ".") for internal in ENGINE_INTERNALS
        ), (path.name, name)


GAME_TYPES = {"Rules", "GameState", "State", "Observation", "Record", "Layout"}
"""The names of what makes a game a game: rules, states, observations, records, layouts."""
GAME_NAMES = {"bluff", "1000?"}
"""1000?'s key and name. ("thousand" is the package's and the program's name as well as the
game's, so its text cannot tell which is meant; the game objects carry every game's words.)"""
GAME_PACKAGES = ("thousand.classic", "thousand.bluff", "thousand.games")
"""The games' own modules: each game's package, and ``games.py``, where each game is
described."""
OUTSIDE_THE_GAMES = sorted(
    [
        *(path for name, path in LIBRARY.items() if not name.startswith(GAME_PACKAGES)),
        *(ROOT / "tournament").rglob("*.py"),
    ]
)
"""Every module but the games' own."""


@pytest.mark.parametrize(
    "path", OUTSIDE_THE_GAMES, ids=lambda path: path.relative_to(ROOT).as_posix()
)
def test_no_part_outside_the_games_tells_a_game_by_its_types_or_name(path: Path) -> None:
    """What a part does differently in each game comes from the game object or a table keyed
    by it (:func:`thousand.games.per_game`), never from testing whose rules, state,
    observation, record or layout a value is, nor from a game's name written out: a third game
    would then get an error, not another game's branch."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            for kind in kinds:
                name = kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", "")
                assert name not in GAME_TYPES, (node.lineno, ast.unparse(node))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert node.value.lower() not in GAME_NAMES, (node.lineno, node.value)


SEEN_NAMES = {
    "state", "states", "world", "engine", "observation", "observations", "seen", "view", "where",
}  # fmt: skip
"""Names that hold a game's state or a seat's observation wherever they appear."""
JSON_DATA = ("dict[", "list[", "Mapping[")
"""Annotations of JSON data, which holds text and numbers, never a state or an observation."""
GENERIC_OVER_GAMES = (
    "Match[", "Search[", "Game[", "Player[", "SeatedPlayer[", "Reader[", "ObservationEncoder[",
    "Table[", "_Spec[",
)  # fmt: skip
"""The generic types whose parameters are a game's state, observation or action types."""


def _any_typed(path: Path) -> Iterator[str]:
    """Every annotation in ``path`` that gives a state or an observation the type ``Any``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        annotated: list[tuple[str, ast.expr | None]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
                annotated.append((argument.arg, argument.annotation))
            annotated.append(("", node.returns))
        elif isinstance(node, ast.AnnAssign):
            annotated.append((ast.unparse(node.target).split(".")[-1], node.annotation))
        elif isinstance(node, ast.Assign):
            annotated.append(("", node.value))
        for name, annotation in annotated:
            if annotation is None:
                continue
            text = ast.unparse(annotation)
            if not re.search(r"\bAny\b", text) or text.startswith(JSON_DATA):
                continue
            if name.strip("_") in SEEN_NAMES or any(kind in text for kind in GENERIC_OVER_GAMES):
                yield f"line {node.lineno}: {name or '->'} {text}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "thousand").rglob("*.py")), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_state_or_observation_is_typed_any(path: Path) -> None:
    """States and observations keep their games' types through the library, the bots and the
    table (a bot's ``act`` is generic in the observation it takes), so that the type checker
    sees what reaches a seat."""
    assert list(_any_typed(path)) == []


def test_the_check_for_any_finds_it(tmp_path: Path) -> None:
    """The check above catches a state or an observation typed ``Any`` in each of its forms."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def act(self, observation: Any) -> object: ...\n"
        "def step(match: Match[Any, Any, Any, Any, Any]) -> None: ...\n"
        "state: Any = None\n"
        "def fine(data: dict[str, Any], observation: Observation) -> Any: ...\n"
    )
    assert [line.split(":")[0] for line in _any_typed(sample)] == ["line 1", "line 2", "line 3"]


def test_mutation_testing_reaches_the_engines_and_the_runner_tests() -> None:
    """The mutation testing configuration (docs/contributing.md) names modules and tests that
    exist, covering both engines and the runner's ratings, SPRT, schedule, seatings and
    journal."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    patterns = config["only_mutate"]
    for pattern in patterns:
        assert list(ROOT.glob(pattern)), f"{pattern} names no file"
    for module in ("ratings", "sprt", "schedule", "balanced_seatings", "journal"):
        assert f"tournament/runner/{module}.py" in patterns
    assert {"thousand/classic/*", "thousand/bluff/*"} <= set(patterns)
    for test in config["pytest_add_cli_args_test_selection"]:
        assert (ROOT / test).is_file(), f"{test} is no test file"
    assert config["pytest_add_cli_args"][:2] == ["-n", "0"]
