"""``companion kensei selfplay --games N --seed S``: random legal battles, invariants checked.

Prints one JSON object with the same keys as the other games' self-play; the winners are
"a", "b" and "draw"."""

from __future__ import annotations

from typing import Any

from companion.core.selfplay import Tally
from companion.games.kensei.battle.simulator import Outcome, play_battle


def run(games: int, seed: int, *, check: bool = True) -> dict[str, Any]:
    """Play ``games`` battles with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    tally = Tally(o.value for o in Outcome)
    for n in range(games):
        tally.add(play_battle(seed + n, check=check))
    return tally.summary()
