"""docs/kensei.md: every example's input gives exactly the output printed beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _kensei_kit import run

DOC = Path(__file__).resolve().parents[3] / "docs" / "kensei.md"
BLOCK = re.compile(r"<!-- example (\S+) (input|output) -->\n```json\n(.*?)```", re.S)


def examples() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for name, part, body in BLOCK.findall(DOC.read_text("utf-8")):
        found.setdefault(name, {})[part] = body
    return found


def test_the_page_has_its_examples() -> None:
    assert set(examples()) == {"melee", "shoot", "duel", "melee-error"}
    assert all(set(parts) == {"input", "output"} for parts in examples().values())


@pytest.mark.parametrize("name", sorted(examples()))
def test_example(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parts = examples()[name]
    status, out = run(name.split("-")[0], parts["input"], tmp_path, capsys)
    assert out == json.loads(parts["output"])
    assert status == (2 if "error" in out else 0)
