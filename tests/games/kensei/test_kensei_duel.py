"""``companion kensei duel``: DUELO DE MANDO (B9.1) and the deck and hand limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import run

Cap = pytest.CaptureFixture[str]


def duel(a: list[int], b: list[int], **keys: Any) -> dict[str, Any]:
    return {"initiative": "a", "caller": "b", "bids": {"a": a, "b": b}, **keys}


def test_higher_sum_takes_the_initiative(tmp_path: Path, capsys: Cap) -> None:
    """b (without the initiative) calls; 3 + 1 = 4 beats 2 + 0 + 1 = 3."""
    status, out = run("duel", duel([2, 0, 1], [3, 1]), tmp_path, capsys)
    assert status == 0
    assert out == {"sums": {"a": 3, "b": 4}, "tie": False, "initiative_after": "b",
                   "discarded": {"a": 3, "b": 2}}


def test_a_tie_keeps_the_initiative(tmp_path: Path, capsys: Cap) -> None:
    """"En caso de empate el jugador que tenía la iniciativa la mantiene"."""
    status, out = run("duel", duel([3], [2, 1], battle_points=400), tmp_path, capsys)
    assert status == 0 and out["tie"] and out["initiative_after"] == "a"


@pytest.mark.parametrize(("data", "rule", "words"), [
    (duel([4], [1]), "PREPARA TU BARAJA DE MANDO", "0 to 3"),
    (duel([-1], [1]), "PREPARA TU BARAJA DE MANDO", "0 to 3"),
    (duel([3, 3, 3, 3], [1]), "PREPARA TU BARAJA DE MANDO", "3 cards of 3"),
    (duel([0] * 7, [2] * 7), "PREPARA TU BARAJA DE MANDO", "6 cards of 2"),
    (duel([1] * 5, [1], battle_points=399), "USANDO LA BARAJA DE MANDO", "holds 4"),
    (duel([1] * 6, [1], battle_points=400), "USANDO LA BARAJA DE MANDO", "holds 5"),
    (duel([1], [1], battle_points=150), "USANDO LA BARAJA DE MANDO", "200"),
    (duel([1], [1]) | {"caller": "a"}, "DUELO DE MANDO", "without the initiative"),
    (duel([], [1]), "DUELO DE MANDO", "one card or more"),
    (duel([1], [1], duel_this_pair=True), "DUELO DE MANDO", "one command duel"),
])
def test_refused(tmp_path: Path, capsys: Cap, data: dict[str, Any], rule: str,
                 words: str) -> None:
    status, out = run("duel", data, tmp_path, capsys)
    assert status == 2
    assert out["error"]["rule"] == rule and words in out["error"]["message"]


def test_six_cards_at_six_hundred_points(tmp_path: Path, capsys: Cap) -> None:
    status, out = run("duel", duel([1] * 6, [0], battle_points=600), tmp_path, capsys)
    assert status == 0 and out["sums"] == {"a": 6, "b": 0}
