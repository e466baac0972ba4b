"""Self-play: the ``companion selfplay`` command, and 1,000 random legal games (slow tier)."""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from companion.cli import main
from companion.games.sekigahara.selfplay import run


def test_selfplay_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "3", "--seed", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == out["completed"] == 3
    assert out["errors"] == 0 and out["invariant_violations"] == 0
    assert sum(out["winners"].values()) == 3
    assert {"instant_victories", "games_per_second"} <= set(out)


def _chunk(args: tuple[int, int]) -> dict[str, Any]:
    games, seed = args
    return run(games, seed)


@pytest.mark.slow
def test_a_thousand_random_games_play_out_legally() -> None:
    """Every game completes with no rejection of a query-chosen command, and the invariants
    (96 blocks, 110 cards, no hidden identity in the public view) hold after every command."""
    workers = max(1, min(4, os.cpu_count() or 1))
    per = 1000 // workers
    chunks = [(per + (1000 - per * workers if i == 0 else 0), i * 100_000) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_chunk, chunks))
    total = sum(r["games"] for r in results)
    assert total == 1000
    assert sum(r["completed"] for r in results) == 1000, [r.get("failures") for r in results]
    assert sum(r["errors"] for r in results) == 0
    assert sum(r["invariant_violations"] for r in results) == 0
    assert sum(r["instant_victories"] for r in results) > 0
