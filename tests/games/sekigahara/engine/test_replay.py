"""Events are the single source of truth: replaying a game's event list (also after a JSON
round trip) rebuilds an equal state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.game import replay
from companion.games.sekigahara.engine.game import SekigaharaRules, load_events, new_game
from companion.games.sekigahara.engine.simulator import play_game


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), cut=st.floats(min_value=0, max_value=1))
def test_replay_rebuilds_an_equal_state(seed: int, cut: float) -> None:
    report = play_game(seed, check=False)
    assert report.game is not None and report.error is None
    events = report.game.events
    assert replay(SekigaharaRules(), events) == report.game.state
    prefix = events[: int(len(events) * cut)]
    once = replay(SekigaharaRules(), prefix)
    assert replay(SekigaharaRules(), prefix) == once
    raw = [e.model_dump(mode="json") for e in prefix]
    assert new_game(load_events(raw)).state == once
