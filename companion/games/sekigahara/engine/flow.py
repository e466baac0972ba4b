"""Handler plumbing and the weekly cycle's sequence (6.1, 6.4) and victory (2.1, 2.2)."""

from __future__ import annotations

import re

from companion.core.game import HiddenViolation
from companion.games.sekigahara.components import Disk, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import apply_event
from companion.games.sekigahara.engine.control import castles_controlled, resources_controlled
from companion.games.sekigahara.engine.data import (
    BOARD,
    ISHIDA_LEADER,
    TOKUGAWA_LEADER,
    side_of,
)
from companion.games.sekigahara.engine.state import BAG, DEAD, RECRUITMENT, Phase, State

_BLOCK_ID = re.compile(r"\b[IT]\d\d\b")


def scrub(text: str) -> str:
    """Remove block ids from a message meant for the shared screen."""
    return _BLOCK_ID.sub("a block", text)


class Emitter:
    """Collects a command's events, applying each so later checks see its effect."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = apply_event(self.state, event)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER


def reject(rule: str, message: str, private: str | None = None) -> HiddenViolation:
    """A rejection: ``message`` is public (no hidden identity), ``private`` for the actor."""
    return HiddenViolation(rule, scrub(message), private)


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


def draw_cards(em: Emitter, side: Side, count: int, rule: str) -> None:
    if count > 0:
        em.emit(ev.CardsDrawn(side=side, count=count, rule=rule))


def _bag(state: State, side: Side) -> int:
    return sum(1 for b, z in state.pos.items() if z == BAG and side_of(b) is side)


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


def final_score(em: Emitter) -> None:
    """2.2: two points a castle, one a Resource Location; a tie goes to Ishida."""
    s = em.state
    score = {
        side: 2 * castles_controlled(s, side) + resources_controlled(s, side) for side in Side
    }
    winner = Side.TOKUGAWA if score[Side.TOKUGAWA] > score[Side.ISHIDA] else Side.ISHIDA
    em.emit(ev.GameWon(winner=winner, reason="victory points (2.2)", score=score))


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
