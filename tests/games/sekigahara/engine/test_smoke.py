"""A few self-played games: the engine plays to the end with every invariant intact."""

from __future__ import annotations

from companion.games.sekigahara.engine.simulator import play_game


def test_a_few_random_games_complete_cleanly() -> None:
    for seed in range(3):
        report = play_game(seed)
        assert report.error is None, report.error
        assert report.rejections == []
        assert report.invariant_violations == []
        assert report.completed
