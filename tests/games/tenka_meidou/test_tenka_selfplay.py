"""Self-play: ``companion tenka selfplay``, and 1,000 random legal games (slow tier)."""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from companion.cli import main
from companion.games.tenka_meidou.selfplay import run
from companion.games.tenka_meidou.simulator import play_game


def test_selfplay_command_prints_the_sekigahara_summary_shape(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tenka", "selfplay", "--games", "5", "--seed", "7"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"games", "completed", "errors", "invariant_violations", "winners",
                        "instant_victories", "games_per_second"}
    assert out["games"] == out["completed"] == 5
    assert out["errors"] == out["invariant_violations"] == 0
    assert sum(out["winners"].values()) == 5


def test_self_play_covers_every_player_count_both_games_and_cards() -> None:
    reports = [play_game(seed) for seed in range(60)]
    assert all(r.completed and not r.invariant_violations for r in reports)
    assert {(r.players, r.advanced) for r in reports} == {
        (n, a) for n in (2, 3, 4) for a in (False, True)}
    assert sum(r.cards for r in reports) > 60


def _chunk(args: tuple[int, int]) -> dict[str, Any]:
    games, seed = args
    return run(games, seed)


@pytest.mark.slow
def test_a_thousand_random_games_play_out_legally() -> None:
    """Every game completes, no generated command is rejected, and the invariants (pawns
    conserved, swords by finishing order, the face-down Daimyo hidden, the War's totals, the
    JSON log replays to the same state) hold after every command."""
    workers = max(1, min(2, os.cpu_count() or 1))
    per = 1000 // workers
    chunks = [(per + (1000 - per * workers if i == 0 else 0), i * 100_000) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_chunk, chunks))
    assert sum(r["games"] for r in results) == 1000
    assert sum(r["completed"] for r in results) == 1000, [r.get("failures") for r in results]
    assert sum(r["errors"] for r in results) == 0
    assert sum(r["invariant_violations"] for r in results) == 0
