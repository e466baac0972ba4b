"""Reading user-editable YAML data files with errors that name the file and the field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

Model = TypeVar("Model", bound=BaseModel)

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's C loader when PyYAML was built with it (several times faster at start-up)."""


class DataFileError(ValueError):
    """A data file that cannot be read or does not describe what it should."""


def describe_validation_error(exc: ValidationError) -> str:
    """The first problem pydantic found, as ``field.path: message``."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def read_yaml(path: Path, error: type[DataFileError] = DataFileError) -> Any:
    """Parse the YAML file at ``path``; raise ``error`` naming the file if it cannot."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path} is not valid YAML: {exc}") from None
    return parse_yaml(text, str(path), error)


def parse_yaml(text: str, name: str, error: type[DataFileError] = DataFileError) -> Any:
    """Parse YAML ``text`` read from ``name``; raise ``error`` naming it if it is not YAML."""
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise error(f"{name} is not valid YAML: {exc}") from None


def validate(
    model: type[Model], data: Any, name: str, error: type[DataFileError] = DataFileError
) -> Model:
    """``data`` (parsed from ``name``) as a ``model``; raise ``error`` naming the file and the
    first field that is wrong if it is not one."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(f"{name}: {describe_validation_error(exc)}") from None


def load_packaged(package: str, name: str, model: type[Model]) -> Model:
    """The data file ``data/<name>`` shipped inside ``package``, parsed and validated."""
    text = resources.files(package).joinpath("data", name).read_text("utf-8")
    return validate(model, parse_yaml(text, name), name)
