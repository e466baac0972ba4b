"""Overruns (7.4) wherever units arrive, with C1 card replenishment and 2.1 victory."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import blocks_at, castle_owner, units_count
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.flow import Emitter, draw_cards
from companion.games.sekigahara.engine.state import State
from companion.games.sekigahara.engine.victory import check_instant_victory
from companion.games.sekigahara.movement import can_overrun


def overrun_possible(state: State, location: str, side: Side) -> bool:
    """7.4.1, 7.4.3: ``side``'s blocks present (those in a castle and those committed to battle
    included) number at least four times the enemy's units, and the enemy does not hold a castle
    there."""
    enemy = side.opponent
    holds = BOARD.locations[location].castle is not None and castle_owner(state, location) is enemy
    return can_overrun(
        len(blocks_at(state, location, side)),
        units_count(state, location, enemy),
        enemy_holds_castle=holds,
    )


def destroy(em: Emitter, location: str, side: Side) -> None:
    """7.4.2: the overrun units are destroyed; C1: their side draws a card per two lost."""
    lost = tuple(blocks_at(em.state, location, side))
    em.emit(ev.Overrun(location=location, side=side, blocks=lost))
    draw_cards(em, side, len(lost) // 2, "C1")
    check_instant_victory(em, "7.4.2")


def resolve_overruns(em: Emitter, locations: Iterable[str], first: Side) -> None:
    """Check each location for an Overrun, ``first``'s (the arriving side's) first."""
    for loc in dict.fromkeys(locations):
        if loc not in BOARD.locations:
            continue
        for side in (first, first.opponent):
            if em.over:
                return
            if overrun_possible(em.state, loc, side):
                destroy(em, loc, side.opponent)
