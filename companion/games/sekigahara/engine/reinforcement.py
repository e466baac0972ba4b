"""The start of a week: the Reinforcement Step (6.2), skipped in week 1, then the Turn Order
Step (6.3)."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import (
    blocks_at,
    castles_controlled,
    resources_controlled,
)
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.flow import Emitter, draw_cards
from companion.games.sekigahara.engine.state import BAG, RECRUITMENT, Phase, State


def _bag(state: State, side: Side) -> int:
    return len(blocks_at(state, BAG, side))


def begin_week(em: Emitter, week: int) -> None:
    """6.2 (skipped in week 1), then 6.3."""
    s = em.state
    if week == 1:
        em.emit(ev.PhaseBegan(phase=Phase.BID, week=1, turn="A"))
        return
    castles = {side: castles_controlled(s, side) for side in Side}
    resources = {side: resources_controlled(s, side) for side in Side}
    for side in Side:
        half = s.hand[side] // 2
        if half:
            em.emit(ev.CardsDiscarded(side=side, count=half, rule="6.2"))
    for side in Side:
        extra = int(castles[side] > castles[side.opponent])
        draw_cards(em, side, 5 + extra, "6.2")
    due: list[tuple[Side, str, int]] = []
    row = BOARD.turn_track.recruitment[week - 1]
    for side in Side:
        extra = int(resources[side] >= resources[side.opponent])
        n = min(row + extra, _bag(em.state, side))
        if n:
            due.append((side, RECRUITMENT, n))
    if due:
        em.emit(
            ev.PhaseBegan(phase=Phase.REINFORCEMENT, week=week, turn="A", draws_due=tuple(due))
        )
    else:
        em.emit(ev.PhaseBegan(phase=Phase.BID, week=week, turn="A"))
