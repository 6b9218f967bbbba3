"""What the search bots' learned models share as files: a set of models (one per preset or table
size) with the seed they were trained from, saved as JSON that the same models always write
byte for byte, read back with one-line errors, and shipped inside the package.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import attrs

from thousand.common.config import decode_json
from thousand.errors import ModelError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["Model", "ModelFile", "read_models_text"]


class Model(Protocol):
    """One model of a file: it writes itself as plain JSON data."""

    def to_dict(self) -> dict[str, Any]: ...


M = TypeVar("M", bound=Model)


@attrs.frozen
class ModelFile(Generic[M]):
    """Models for several sets of rules, as saved in one file, with the seed they came from.

    A kind of model names itself (``kind``, as an error message says it) and reads one model's
    data (:meth:`read_model`)."""

    seed: int
    models: tuple[M, ...]

    kind: ClassVar[str] = "models"
    """What the models are, in a message: ``bidding models``."""
    format: ClassVar[int] = 1
    """The version of the file's layout."""

    @classmethod
    def read_model(cls, data: Mapping[str, Any]) -> M:
        """One model from its data.

        Raises:
            ModelError: the data is not such a model.
        """
        raise NotImplementedError

    def to_json(self) -> str:
        """The file's text: the same models always give the same bytes."""
        data = {
            "format": self.format,
            "seed": self.seed,
            "models": [model.to_dict() for model in self.models],
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Self:
        """The models from :meth:`to_json`'s text.

        Raises:
            ModelError: the text is not a file of these models.
        """
        try:
            data = decode_json(text)
            if data["format"] != cls.format:
                raise ModelError(f"{cls.kind} of format {data['format']!r} are not known")
            models = tuple(cls.read_model(model) for model in data["models"])
            return cls(seed=int(data["seed"]), models=models)
        except (KeyError, TypeError, ValueError) as error:
            raise ModelError(f"not a file of {cls.kind}: {error}") from None

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """The models saved in ``path``.

        Raises:
            ModelError: it cannot be read or is not a file of these models.
        """
        return cls.from_json(read_models_text(path, cls.kind))

    @classmethod
    def packaged(cls, name: str) -> Self:
        """The models shipped with the library as ``thousand/bots/NAME``."""
        return cls.from_json(resources.files("thousand.bots").joinpath(name).read_text("utf-8"))


def read_models_text(path: str | Path, kind: str) -> str:
    """The text of the file of ``kind`` (as a message names them: ``bidding models``) at
    ``path``.

    Raises:
        ModelError: the file cannot be read, saying why.
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ModelError(f"cannot read the {kind} {path}: {error.strerror}") from None
