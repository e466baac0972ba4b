"""docs/rules-coverage*.md: every rule a row names is in the game's rules data, every test it
cites exists (a glob with "(N tests)" matches N tests), and every ``module:name`` of its code
column is defined there. A rename that leaves a row pointing at nothing fails here.

Cell syntax, as the pages write it: ``file.py::test_name``, ``file.py::test_prefix_*`` (with
"(N tests)" after it), ``file.py::test_name[param id]``, ``...::test_name`` (the file named just
before in the cell), ``file.py::...[param id]`` and ``...[param id]`` (the test named last for
that file); paths under ``tests/games/<game>/`` unless they start with ``tests/``. Code is
``module.py:Name`` or ``module.py:Class.member`` under ``companion/games/<game>/``.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"sekigahara": ROOT / "docs" / "rules-coverage.md",
         "tenka_meidou": ROOT / "docs" / "rules-coverage-tenka-meidou.md",
         "kensei": ROOT / "docs" / "rules-coverage-kensei.md"}
NUMBERED = ("sekigahara", "tenka_meidou")
"""The games whose rules data lists their rule numbers (Kensei's rows are digest sections)."""
RULE = re.compile(r"^(C\d+|TM\d+|\d+(?:\.(?:\d+|[IVX]+))*)\b")


@dataclass(frozen=True)
class Row:
    game: str
    line: int
    rule: str
    code: str
    tests: str


def rows(game: str) -> list[Row]:
    found = []
    for n, text in enumerate(PAGES[game].read_text(encoding="utf-8").splitlines(), start=1):
        cells = [c.strip() for c in text.strip().strip("|").split("|")]
        if not text.startswith("|") or len(cells) != 4 or cells[0] in ("rule", "---"):
            continue
        found.append(Row(game, n, cells[0], cells[2], cells[3]))
    return found


@functools.cache
def rule_numbers(game: str) -> frozenset[str]:
    data = yaml.safe_load((ROOT / "companion" / "games" / game / "data" / "rules.yaml")
                          .read_text(encoding="utf-8"))
    return frozenset(str(entry["number"]) for entry in data["rules"])


def rules_named(cell: str) -> list[str]:
    """The rule numbers of a rule cell: ``8.2.2``, ``7 Explorar`` (7), ``TM1-TM9`` (each),
    ``9 (hidden)`` (9); ``(table)`` and ``(core)`` name none."""
    span = re.fullmatch(r"(TM|C)(\d+)-(?:TM|C)(\d+)", cell)
    if span:
        return [f"{span.group(1)}{n}" for n in range(int(span.group(2)), int(span.group(3)) + 1)]
    found = RULE.match(cell)
    return [found.group(1)] if found else []


# ------------------------------------------------------------------ tests
@functools.cache
def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def functions_in(path: Path) -> list[str]:
    return re.findall(r"^\s*def (test_\w+)\(", source(path), flags=re.M)


def refs_in(row: Row) -> list[tuple[str, str, str, str, int | None]]:
    """(file, test name or glob or "", param id, the reference as written, "(N tests)")."""
    refs = []
    last_file = ""
    for found in re.finditer(r"`([^`]+)`(\s*\((\d+) tests\))?", row.tests):
        text, count = found.group(1), found.group(3)
        ref = re.fullmatch(r"(\.\.\.|[\w/]+\.py)(?:::(\.\.\.|[\w*]+))?(?:\[(.+)\])?", text)
        if ref is None or not (ref.group(1).startswith(("test", "...", "tests/"))
                               or "/test_" in ref.group(1)):
            continue
        file = last_file if ref.group(1) == "..." else ref.group(1)
        last_file = file
        name = ref.group(2) or ("..." if ref.group(3) else "")
        refs.append((file, name, ref.group(3) or "", text, int(count) if count else None))
    return refs


def cited_path(row: Row, file: str) -> Path:
    return ROOT / file if file.startswith("tests/") else ROOT / "tests" / "games" / row.game / file


def wrong_test_refs(row: Row, last: dict[str, str]) -> list[str]:
    """What in the row's test cell points at nothing; ``last`` is the test named last for each
    file, carried from row to row."""
    wrong = []
    for file, name, param, text, count in refs_in(row):
        path = cited_path(row, file)
        if not path.is_file():
            wrong.append(f"{text}: no file {path.relative_to(ROOT)}")
            continue
        if name == "...":
            name = last.get(file, "")
        if not name:
            if count is not None and len(functions_in(path)) != count:
                wrong.append(f"{text}: {len(functions_in(path))} tests, not {count}")
            continue
        matching = [t for t in functions_in(path) if re.fullmatch(
            re.escape(name).replace(r"\*", r"\w*"), t)]
        if not matching:
            wrong.append(f"{text}: no test {name} in {file}")
        elif count is not None and len(matching) != count:
            wrong.append(f"{text}: {len(matching)} tests match, not {count}")
        elif param and f'"{param}"' not in source(path):
            wrong.append(f"{text}: no parameter {param!r} in {file}")
        if "*" not in name:
            last[file] = name
    return wrong


# ------------------------------------------------------------------ code
@functools.cache
def defined(path: Path) -> frozenset[str]:
    """The names a module defines: top-level functions, classes and assignments, and
    ``Class.member`` for what its classes define."""
    names: set[str] = set()

    def targets(node: ast.stmt) -> list[str]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return [node.name]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return [node.target.id]
        if isinstance(node, ast.Assign):
            return [t.id for t in node.targets if isinstance(t, ast.Name)]
        return []

    for node in ast.parse(source(path)).body:
        names.update(targets(node))
        if isinstance(node, ast.ClassDef):
            names.update(f"{node.name}.{n}" for item in node.body for n in targets(item))
    return frozenset(names)


def wrong_code_refs(row: Row) -> list[str]:
    wrong = []
    base = ROOT / "companion" / "games" / row.game
    for text in re.findall(r"`([^`]+)`", row.code):
        if re.search(r"(^|/)test_\w*\.py", text):
            wrong.append(f"{text}: a test in the code column")
            continue
        ref = re.fullmatch(r"([\w/]+\.(?:py|yaml))(?::([\w.]+))?", text)
        if ref is None:
            continue
        path = base / ref.group(1)
        if not path.is_file():
            wrong.append(f"{text}: no file {path.relative_to(ROOT)}")
        elif ref.group(2) and ref.group(2) not in defined(path):
            wrong.append(f"{text}: {ref.group(2)} is not defined in {ref.group(1)}")
    return wrong


# ------------------------------------------------------------------ the checks
@pytest.mark.parametrize("game", NUMBERED)
def test_every_rule_listed_is_in_the_rules_data(game: str) -> None:
    missing = {f"line {r.line}": n for r in rows(game) for n in rules_named(r.rule)
               if n not in rule_numbers(game)}
    assert missing == {}
    assert len({n for r in rows(game) for n in rules_named(r.rule)}) > 25


@pytest.mark.parametrize("game", sorted(PAGES))
def test_every_test_cited_exists(game: str) -> None:
    last: dict[str, str] = {}
    wrong = {f"line {r.line} ({r.rule})": bad for r in rows(game)
             if (bad := wrong_test_refs(r, last))}
    assert wrong == {}
    assert sum(len(refs_in(r)) for r in rows(game)) > 40


@pytest.mark.parametrize("game", sorted(PAGES))
def test_every_code_reference_is_defined(game: str) -> None:
    wrong = {f"line {r.line} ({r.rule})": bad for r in rows(game) if (bad := wrong_code_refs(r))}
    assert wrong == {}


def test_the_clarifications_in_the_rules_data_are_those_written_out() -> None:
    """rules.yaml carries a summary of every clarification of docs/clarifications.md, and says
    how many there are."""
    written = set(re.findall(r"^### (C\d+)$", source(ROOT / "docs" / "clarifications.md"),
                             flags=re.M))
    assert {n for n in rule_numbers("sekigahara") if n.startswith("C")} == written
    header = source(ROOT / "companion" / "games" / "sekigahara" / "data" / "rules.yaml")
    last = max(written, key=lambda n: int(n[1:]))
    assert f"C1-{last}" in header and "docs/clarifications.md" in header
    tm = {n for n in rule_numbers("tenka_meidou") if n.startswith("TM")}
    assert tm == set(re.findall(r"^\| (TM\d+) \|", source(ROOT / "docs" / "tenka-meidou.md"),
                                flags=re.M))


def test_a_stale_reference_is_caught() -> None:
    row = Row("sekigahara", 1, "8.5", "`combat/initiative.py:initiative`, `combat/nowhere.py:x`,"
              " `combat/loyalty.py:gone`, `combat/test_combat_initiative.py::test_8_5_x`",
              "`combat/test_combat_initiative.py::test_8_5_*` (99 tests), `...::test_gone`, "
              "`combat/test_combat_missing.py::test_x`")
    assert len(wrong_code_refs(row)) == 3
    tests = wrong_test_refs(row, {})
    initiative = functions_in(cited_path(row, "combat/test_combat_initiative.py"))
    matching = len([t for t in initiative if t.startswith("test_8_5_")])
    assert [t.split(":")[-1].strip() for t in tests] == [
        f"{matching} tests match, not 99",
        "no test test_gone in combat/test_combat_initiative.py",
        "no file tests/games/sekigahara/combat/test_combat_missing.py"]
    assert rules_named("TM1-TM3") == ["TM1", "TM2", "TM3"]
    assert rules_named("7 Explorar") == ["7"] and rules_named("(table)") == []
    assert rules_named("5.II.3") == ["5.II.3"] and rules_named("C12") == ["C12"]
