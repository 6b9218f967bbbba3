"""The Thousand engine's modules under the paths they had before they moved into
``thousand.classic``: ``import thousand.rules`` gives the module ``thousand.classic.rules``
itself, so that code written against the old paths keeps working. (mypy knows the new paths
only: type-checked code imports ``thousand.classic``.)"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import importlib.abc

__all__ = ["MOVED", "OldPaths", "keep_old_paths"]

MOVED = frozenset(
    {
        "actions", "bidding", "cards", "determinise", "engine", "inference", "layout",
        "marriages", "observation", "record", "redeals", "results", "rules", "sampling",
        "scoring", "seating", "spectator", "state", "talon", "tricks",
    }
)  # fmt: skip
"""The modules that sat at the top of ``thousand`` before they moved into ``thousand.classic``."""


class OldPaths:
    """Finds ``thousand.<module>``, for a module that moved, and loads it as the very module
    ``thousand.classic.<module>`` (a finder and loader by protocol: ``importlib.abc`` would load
    tempfile, shutil and the compressors with every ``import thousand``)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old path, and nothing for any other module."""
        package, _, name = fullname.rpartition(".")
        if package != "thousand" or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("importlib.abc.Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        """Let the import system make the blank module that :meth:`exec_module` replaces."""

    def exec_module(self, module: types.ModuleType) -> None:
        """Put the new module in the place of the blank one the import system made: it then
        hands out the module that ``sys.modules`` holds under the old name."""
        new = importlib.import_module(f"thousand.classic.{module.__name__.rpartition('.')[2]}")
        sys.modules[module.__name__] = new


def keep_old_paths() -> None:
    """Have the old paths found first, before the files they name (left over by an older
    install, say), and only once."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
