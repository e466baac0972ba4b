"""The one YAML reader every data and configuration file goes through."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from companion.core.datafiles import (
    DataFileError,
    describe_validation_error,
    parse_yaml,
    read_yaml,
)
from companion.games.sekigahara.components import load_blocks
from firmware_bridge.files import ConfigFileError
from firmware_bridge.wiring import WiringMap


class _Point(BaseModel):
    x: int


def test_a_file_that_is_not_utf8_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "blocks.yaml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DataFileError, match=r"blocks\.yaml: not UTF-8 text"):
        load_blocks(path)
    with pytest.raises(ConfigFileError, match=r"blocks\.yaml: not UTF-8 text"):
        WiringMap.load(path)


def test_the_error_class_is_the_callers(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="cannot read"):
        read_yaml(tmp_path / "missing.yaml", ConfigFileError)
    assert issubclass(ConfigFileError, DataFileError)


def test_parse_yaml_names_the_source() -> None:
    assert parse_yaml("a: 1", "x") == {"a": 1}
    with pytest.raises(DataFileError, match=r"^built-in board\.yaml is not valid YAML"):
        parse_yaml("a: [", "built-in board.yaml")


def test_validation_errors_read_as_field_and_message() -> None:
    with pytest.raises(ValidationError) as err:
        _Point.model_validate({"x": "many"})
    assert describe_validation_error(err.value) == (
        "x: Input should be a valid integer, unable to parse string as an integer"
    )
