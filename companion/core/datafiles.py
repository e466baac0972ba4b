"""Reading user-editable YAML data files with errors that name the file and the field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from companion.core import inputs
from companion.core.inputs import InputError, one_line, short

Model = TypeVar("Model", bound=BaseModel)


class DataFileError(InputError):
    """A data file that cannot be read or does not describe what it should (one line)."""


def describe_validation_error(exc: ValidationError) -> str:
    """The first problem pydantic found, as ``field.path: message`` (long keys shortened)."""
    err = exc.errors()[0]
    where = ".".join(short(p) for p in err["loc"])
    message = str(err["msg"]).removeprefix("Value error, ")
    return one_line(f"{where}: {message}" if where else message)


def read_yaml(path: Path, error: type[DataFileError] = DataFileError) -> Any:
    """Parse the YAML file at ``path``, read bounded (:mod:`companion.core.inputs`); raise
    ``error`` naming the file if it cannot."""
    try:
        return inputs.read_yaml(path)
    except InputError as exc:
        raise error(exc.message) from None


def parse_yaml(text: str, name: str, error: type[DataFileError] = DataFileError) -> Any:
    """Parse YAML ``text`` read from ``name``; raise ``error`` naming it if it is not YAML."""
    try:
        return inputs.parse_yaml(text, name)
    except InputError as exc:
        raise error(exc.message) from None

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
