"""The ``thousand`` command line: a module for each command, on the group in
:mod:`tournament.cli.app` and the options of :mod:`tournament.cli.options`. Each command loads the
engines, the bots and the runner only when it runs, so that ``thousand --help`` starts quickly."""

# Imported for their commands, in the order the help lists them.
# isort: off
from tournament.cli import rules  # noqa: F401
from tournament.cli import tournament  # noqa: F401
from tournament.cli import report  # noqa: F401
from tournament.cli import train  # noqa: F401
from tournament.cli import ladder  # noqa: F401
from tournament.cli import bots  # noqa: F401
from tournament.cli import match  # noqa: F401
from tournament.cli import play  # noqa: F401
from tournament.cli import replay  # noqa: F401
from tournament.cli import check_bot  # noqa: F401
from tournament.cli import server  # noqa: F401

# isort: on
from tournament.cli.app import app, main

__all__ = ["app", "main"]
