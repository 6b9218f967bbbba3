"""A Griffe extension for the documentation site: the docstrings name other objects with
reStructuredText roles (``:class:`Rules```, ``:func:`~thousand.table.driver.play```), which
Markdown would show as they are written. The site shows the name alone, as code: ``Rules``,
``play`` (a leading ``~`` keeps the last part of a dotted name, as Sphinx does).

mkdocs.yml loads it in the options of the Python handler (``extensions``), and leaves it out of
the site (``exclude_docs``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:attr|class|data|exc|func|meth|mod|obj):`(~?)([^`]+)`")


def plain_name(match: re.Match[str]) -> str:
    """The name a role refers to, as inline code."""
    short, target = match.groups()
    return f"``{target.rsplit('.', 1)[-1] if short else target}``"


class Roles(griffe.Extension):
    """Replaces every role in a docstring by the name it refers to."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of each object as it is loaded."""
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(plain_name, obj.docstring.value)
