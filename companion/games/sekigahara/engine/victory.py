"""Victory: instant victory at any moment (2.1, 9.1, 9.5) and victory points (2.2)."""

from __future__ import annotations

from companion.games.sekigahara.components import Disk, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import castles_controlled, resources_controlled
from companion.games.sekigahara.engine.data import ISHIDA_LEADER, TOKUGAWA_LEADER
from companion.games.sekigahara.engine.flow import Emitter
from companion.games.sekigahara.engine.state import DEAD, State


def check_instant_victory(em: Emitter, rule: str = "2.1") -> None:
    """2.1: Ishida killed or Hideyori captured: Tokugawa wins; Tokugawa killed: Ishida wins;
    both in the same battle: Ishida wins."""
    if em.over:
        return
    s = em.state
    tokugawa_wins = s.pos[ISHIDA_LEADER] == DEAD or (
        Disk.HIDEYORI in s.disks and s.disks[Disk.HIDEYORI] is None
    )
    ishida_wins = s.pos[TOKUGAWA_LEADER] == DEAD
    if ishida_wins:
        reason = "both protagonists fell" if tokugawa_wins else "Tokugawa Ieyasu killed"
        em.emit(ev.GameWon(winner=Side.ISHIDA, reason=f"{reason} ({rule})"))
    elif tokugawa_wins:
        reason = (
            "Ishida Mitsunari killed" if s.pos[ISHIDA_LEADER] == DEAD else "Hideyori captured"
        )
        em.emit(ev.GameWon(winner=Side.TOKUGAWA, reason=f"{reason} ({rule})"))


def victory_points(castles: int, resources: int) -> int:
    """2.2: two points a castle, one a Resource Location."""
    return 2 * castles + resources


def points_now(s: State) -> dict[Side, int]:
    """2.2: each side's victory points were the game to end now."""
    return {side: victory_points(castles_controlled(s, side), resources_controlled(s, side))
            for side in Side}


def final_score(em: Emitter) -> None:
    """2.2: the points of the castles and Resource Locations held; a tie goes to Ishida."""
    score = points_now(em.state)
    winner = Side.TOKUGAWA if score[Side.TOKUGAWA] > score[Side.ISHIDA] else Side.ISHIDA
    em.emit(ev.GameWon(winner=winner, reason="victory points (2.2)", score=score))
