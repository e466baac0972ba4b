"""docs/clarifications.md: every clarification the code cites is written out, and every test it
names exists (a referee must be able to read each ruling a citation points to)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[3]
DOC = (ROOT / "docs" / "clarifications.md").read_text("utf-8")
CITED = re.compile(r"\bC(\d+)\b")


def test_every_clarification_cited_in_the_code_is_written_out() -> None:
    written = {int(n) for n in re.findall(r"^### C(\d+)$", DOC, flags=re.M)}
    assert written == set(range(1, max(written) + 1))
    source = ROOT / "companion" / "games" / "sekigahara"
    cited = {int(n) for path in source.rglob("*.py") for n in CITED.findall(path.read_text())}
    assert cited and cited <= written, sorted(cited - written)


def test_every_test_the_clarifications_name_exists() -> None:
    tests = ROOT / "tests" / "games" / "sekigahara"
    named = re.findall(r"`([\w/]+\.py)::(test_\w+?)(\*?)`", DOC)
    assert len(named) >= 18
    for file, name, star in named:
        text = (tests / file).read_text("utf-8")
        pattern = rf"def {name}\w*\(" if star else rf"def {name}\("
        assert re.search(pattern, text), f"{file}::{name}"
