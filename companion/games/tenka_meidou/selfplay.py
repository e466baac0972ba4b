"""``companion tenka selfplay --games N --seed S``: random legal games, invariants checked.

Prints one JSON object with the same keys as Sekigahara's ``companion selfplay``; Tenka Meidou
has no instant victory, so ``instant_victories`` is always 0.
"""

from __future__ import annotations

from typing import Any

from companion.core.selfplay import Tally
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.simulator import play_game


def run(games: int, seed: int, *, check: bool = True,
        rules: TenkaRules | None = None) -> dict[str, Any]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    rules = rules or TenkaRules()
    tally = Tally(c.value for c in Colour)
    for n in range(games):
        tally.add(play_game(seed + n, check=check, rules=rules))
    return tally.summary()
