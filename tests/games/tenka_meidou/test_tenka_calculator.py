"""``companion tenka war FILE|-``: the input and output formats, and errors (exit 2, JSON)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from _tenka_kit import CASTLES, rulebook_example

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any,
        *extra: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "war.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    status = main(["tenka", "war", str(path), *extra])
    return status, json.loads(capsys.readouterr().out)


def test_output_has_exactly_the_documented_keys(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = run(capsys, tmp_path, rulebook_example())
    assert status == 0
    assert set(out) == {"zones", "scores", "winner", "rulings"}
    assert all(set(z) == {"zone", "value", "winner", "second", "small_value", "reinforcements"}
               for z in out["zones"])
    assert all(set(r) == {"rule", "text"} for r in out["rulings"])


def test_reads_standard_input(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(rulebook_example())))
    assert main(["tenka", "war", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == "red"


def _with(**changes: Any) -> dict[str, Any]:
    return {**rulebook_example(), **changes}


BAD: list[tuple[str, Any, str | None, str]] = [
    ("not json", "{", None, "not valid JSON"),
    ("unknown key", _with(extra=1), None, "extra: unknown key"),
    ("one player", _with(players=["red"], swords={"red": 1}), "1", "2 to 4"),
    ("unknown colour", _with(players=["red", "green"]), None, "players.1"),
    ("sword missing", _with(swords={"red": 3, "blue": 2}), "5.I", "one sword for each"),
    ("sword 4 with 3 players", _with(swords={"red": 4, "blue": 2, "yellow": 1}), "3.4",
     "[1, 2, 3]"),
    ("zone without castle", _with(castles={k: v for k, v in CASTLES.items() if k != "oko"}),
     "3.2", "'oko'"),
    ("castle value twice", _with(castles={**CASTLES, "oko": 2}), "3.2", "2 to 12"),
    ("unknown zone", _with(soldiers={"edo": {"red": 1}}), None, "unknown zone 'edo'"),
    ("colour not playing", _with(soldiers={"kyoto": {"black": 1}}), None, "black is not"),
    ("negative", _with(soldiers={"kyoto": {"red": -1}}), None, "negative"),
    ("too many", _with(soldiers={"kyoto": {"red": 19}}), "2", "18"),
    ("too many with daimyo", _with(soldiers={"kyoto": {"red": 17}}, daimyo={"red": "oko"}),
     "9", "16"),
    ("daimyo in unknown zone", _with(daimyo={"red": "edo"}), None, "unknown zone"),
]


@pytest.mark.parametrize(("data", "rule", "words"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_bad_input_is_a_json_error_with_exit_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any, rule: str | None,
        words: str) -> None:
    status, out = run(capsys, tmp_path, data)
    assert status == 2
    assert set(out) == {"error"}
    assert out["error"]["rule"] == rule
    assert words in out["error"]["message"]


def test_unreadable_file_and_bad_board(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    assert main(["tenka", "war", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in json.loads(capsys.readouterr().out)["error"]["message"]
    board = tmp_path / "board.yaml"
    board.write_text("schema_version: 1\nzones: []\n", "utf-8")
    status, out = run(capsys, tmp_path, rulebook_example(), "--board", str(board))
    assert status == 2 and str(board) in out["error"]["message"]
