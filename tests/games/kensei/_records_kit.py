"""Stored Kensei battles for the records, explain and tournament tests: the simulator's seeded
battles (``tournament.SelfPlay``) recorded in a Store."""

from __future__ import annotations

from typing import Any

from companion.core.game import judge_of
from companion.core.store import Store
from companion.games.kensei import records
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.tournament import SelfPlay

TO_THE_END = 6
"""Plays to the end of turn 5, scenario 1 (B15): the second army wins, 11 melees, 5 shots, 3
retreat rolls (a golden seed)."""
ROUTED = 0
"""Ends in a rout in turn 4 (B3.1), scenario 1 scored from the state (B15); the Kuroi-te keep
a troop hidden (B12), offerings and command duels (B9.1) (a golden seed)."""
CONCEDED = 26
"""A concession in turn 5, scenario 4 scored from the players' inputs (a golden seed)."""


def play_stored(store: Store, seed: int, commands: int | None = None) -> int:
    """A seeded battle recorded in ``store`` (``commands`` of them, or to the end); its id."""
    game_id, game = records.start(store)
    SelfPlay(seed).play(game, commands)
    records.finish_if_over(store, game_id, game)
    return game_id


def replayed(commands: list[Any]) -> tuple[list[list[dict[str, Any]]], str | None] | None:
    """Each command's events as stored and the result, or None when the rules refuse one."""
    rules = KenseiRules()
    judge = judge_of(rules)
    state = rules.initial_state()
    events = []
    for command in commands:
        try:
            produced, state = judge(state, command, None)
        except Exception:
            return None
        events.append([e.model_dump(mode="json") for e in produced])
    return events, records.result(state)
