"""Golden playthroughs (see ``golden.py``): the seeded games play out event for event as the
checked-in logs say, and each log replays to the final state of the game.

Regenerate on purpose with ``UPDATE_GOLDEN=1`` or ``python -m tests.games.golden --write``."""

from __future__ import annotations

import json

import pytest
from golden import PLAYTHROUGHS, Playthrough, first_difference, line, read, updating, write

from companion.games.kensei.battle.simulator import play_battle as kensei_play_battle
from companion.games.tenka_meidou.simulator import play_game as tenka_play_game


def _id(p: Playthrough) -> str:
    return f"{p.game}-{p.seed}"


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=_id)
def test_a_seeded_game_plays_out_as_its_golden_log(playthrough: Playthrough) -> None:
    if updating():
        write(playthrough)
    events, state = playthrough.play(playthrough.seed)
    golden = read(playthrough.path)
    diff = first_difference(golden, [line(e) for e in events])
    assert diff is None, (
        f"{playthrough.path.name} ({playthrough.about}): {diff}\n"
        "if the rules changed on purpose, regenerate: UPDATE_GOLDEN=1 (docs/engine.md)")
    replayed = playthrough.replayed(playthrough.parse([json.loads(x) for x in golden]))
    assert replayed == state  # the log is the source of truth: it rebuilds the game exactly


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=_id)
def test_a_golden_log_is_in_stable_key_order_one_event_a_line(playthrough: Playthrough) -> None:
    for index, text in enumerate(read(playthrough.path)):
        raw = json.loads(text)
        assert list(raw) == sorted(raw), f"event {index}: keys out of order"
        assert json.dumps(raw, sort_keys=True, ensure_ascii=False) == text, index


def test_the_golden_games_end_as_the_simulators_say() -> None:
    """The golden drivers of Tenka Meidou and Kensei play as their simulators do, and every
    golden game ends (a Sekigahara game in victory, a Tenka Meidou game in the War, a Kensei
    battle scored, B15)."""
    ends = {"sekigahara": "game_won", "tenka_meidou": "war_fought", "kensei": "battle_scored"}
    for p in PLAYTHROUGHS:
        last = json.loads(read(p.path)[-1])
        assert last["type"] == ends[p.game], p
        if p.game == "kensei":
            battle = kensei_play_battle(p.seed, check=False)
            assert battle.completed and [line(e) for e in battle.events] == read(p.path)
            assert last["winner"] == (None if battle.winner is None
                                      or battle.winner.value == "draw" else battle.winner.value)
        if p.game == "tenka_meidou":
            report = tenka_play_game(p.seed, check=False)
            assert report.completed and report.winner is not None
            assert last["result"]["winner"] == report.winner.value


def test_a_difference_is_shown_with_its_index_and_both_versions() -> None:
    assert first_difference(["a", "b"], ["a", "b"]) is None
    diff = first_difference(['{"x": 1}', '{"x": 2}', "c"], ['{"x": 1}', '{"x": 3}'])
    assert diff is not None
    assert diff.splitlines() == ["event 1 differs (of 3 golden, 2 now)",
                                 '  golden: {"x": 2}', '  now:    {"x": 3}']
    shorter = first_difference(["a", "b", "c"], ["a", "b"])
    assert shorter is not None and shorter.startswith("the logs agree for 2 events")
    assert shorter.splitlines()[1] == "  golden: c"


def test_the_golden_games_cover_what_they_are_kept_for() -> None:
    """Regenerated logs must still cover an instant victory, sieges, battles and retreats."""
    def kinds(seed: int) -> list[dict[str, object]]:
        path = next(p.path for p in PLAYTHROUGHS if p.game == "sekigahara" and p.seed == seed)
        return [json.loads(x) for x in read(path)]

    instant = kinds(2)[-1]
    assert instant["type"] == "game_won" and "(2.1)" in str(instant["reason"])
    heavy = kinds(21)
    opened = [e for e in heavy if e["type"] == "combat_opened"]
    assert len(opened) >= 20 and sum(bool(e["siege"]) for e in opened) >= 5
    assert sum(e["type"] == "retreated" for e in heavy) >= 3
    assert "(2.2)" in str(heavy[-1]["reason"])
    assert sum(e["type"] == "combat_opened" and e["siege"] for e in kinds(0)) >= 3
