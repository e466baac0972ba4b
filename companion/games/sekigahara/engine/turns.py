"""The turn sequence (6.1, 6.4): Movement then Combat, first player then second, turn A then
B, then the next week or the end of the game."""

from __future__ import annotations

from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.flow import Emitter
from companion.games.sekigahara.engine.reinforcement import begin_week
from companion.games.sekigahara.engine.state import Phase
from companion.games.sekigahara.engine.victory import final_score


def end_phase(em: Emitter) -> None:
    """6.4: Movement then Combat for the first player, then the second; turn A then B."""
    s = em.state
    assert s.active is not None and s.first is not None
    if s.phase is Phase.MOVEMENT:
        em.emit(ev.PhaseBegan(phase=Phase.COMBAT, week=s.week, turn=s.turn, active=s.active))
        return
    if s.active is s.first:
        em.emit(
            ev.PhaseBegan(
                phase=Phase.MOVEMENT, week=s.week, turn=s.turn, active=s.first.opponent
            )
        )
    elif s.turn == "A":
        em.emit(ev.PhaseBegan(phase=Phase.MOVEMENT, week=s.week, turn="B", active=s.first))
    elif s.week >= BOARD.turn_track.weeks:
        final_score(em)
    else:
        begin_week(em, s.week + 1)
