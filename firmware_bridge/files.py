"""Reading and writing the user-edited YAML files (wiring map, tag registry) with clear errors."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from companion.core.datafiles import DataFileError, describe_validation_error, read_yaml

ModelT = TypeVar("ModelT", bound=BaseModel)


class ConfigFileError(DataFileError):
    """A wiring map or tag registry that cannot be read; the message names the file and field."""


def load_model(path: Path, model: type[ModelT], context: dict[str, Any] | None = None) -> ModelT:
    """Parse ``path`` as YAML into ``model``, or raise :class:`ConfigFileError` naming the field."""
    raw = read_yaml(path, ConfigFileError)
    if raw is None:
        raw = {}
    try:
        return model.model_validate(raw, context=context)
    except ValidationError as exc:
        raise ConfigFileError(f"{path}: {describe_validation_error(exc)}") from None


def save_yaml(path: Path, data: Any, header: str) -> None:
    """Write ``data`` atomically (a crash never leaves half a file) with a comment header."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(f"# {line}\n" for line in header.splitlines())
    text += yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
