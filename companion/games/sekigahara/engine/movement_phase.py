"""The Movement Phase (7.1-7.4, 8.9.6, 9.3): buying movement, mustering, Mori arrivals, stack
moves and the Overruns they cause. Geometry comes from :mod:`companion.games.sekigahara.movement`.
"""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Clan, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import (
    blocks_at,
    castle_controller,
    castle_owner,
    is_besieged,
    occupancy,
)
from companion.games.sekigahara.engine.commands import BuyMovement, EndPhase, MoveStack
from companion.games.sekigahara.engine.data import BOARD, FACES, side_of
from companion.games.sekigahara.engine.flow import Emitter, draw_cards, reject
from companion.games.sekigahara.engine.overrun import destroy, resolve_overruns
from companion.games.sekigahara.engine.state import Level, State
from companion.games.sekigahara.engine.turns import end_phase
from companion.games.sekigahara.movement import (
    MoveAnalysis,
    MoveSituation,
    StackMove,
    leadership_at,
    validate_stack_move,
)

CARDS_FOR = {Level.NONE: 0, Level.MINIMAL: 0, Level.LIMITED: 1, Level.TOTAL: 2}


def require_bought(state: State) -> None:
    if state.level is None:
        raise reject("7.1", "movement must first be bought with 0, 1 or 2 cards")


def buy_movement(state: State, cmd: BuyMovement) -> list[ev.Event]:
    """7.1: discard 0, 1 or 2 cards for no, minimal, limited or total movement."""
    if state.level is not None:
        raise reject("7.1", "movement has already been bought this phase")
    cards = CARDS_FOR[cmd.level]
    if state.hand[cmd.side] < cards:
        raise reject("7.1", f"{cmd.level.value} movement costs {cards} cards")
    if cmd.replace and cmd.level is not Level.NONE:
        raise reject("7.1", "cards are replaced only with No Movement")
    if not 0 <= cmd.replace <= state.hand[cmd.side]:
        raise reject("7.1", "cannot replace more cards than are in hand")
    em = Emitter(state)
    if cards:
        em.emit(ev.CardsDiscarded(side=cmd.side, count=cards, rule="7.1"))
    em.emit(ev.MovementBought(side=cmd.side, level=cmd.level, cards=cards))
    if cmd.replace:
        em.emit(ev.CardsDiscarded(side=cmd.side, count=cmd.replace, rule="7.1"))
        draw_cards(em, cmd.side, cmd.replace, "7.1")
    return em.events


def situation(state: State, side: Side, moving: frozenset[str] = frozenset()) -> MoveSituation:
    """The board as ``side`` sees it for a move (7.3.1, 7.3.2, 7.4): counts, castles held by the
    enemy, road segments already used this phase."""
    occ = occupancy(state)
    friendly = {loc: row[side] for loc, row in occ.items() if row[side]}
    for b in moving:
        loc = state.pos[b]
        friendly[loc] = friendly.get(loc, 0) - 1
    enemy = {loc: row[side.opponent] for loc, row in occ.items() if row[side.opponent]}
    holds = frozenset(
        loc for loc in enemy
        if BOARD.locations[loc].castle is not None and castle_owner(state, loc) is side.opponent
    )
    return MoveSituation(
        friendly_count={k: v for k, v in friendly.items() if v > 0},
        enemy_count=enemy,
        enemy_holds_castle=holds,
        used_segments=frozenset(frozenset(s) for s in state.used_segments),
    )


def public_leadership(state: State, origin: str, side: Side) -> bool:
    """7.3.4: Leadership both players can see at the origin: the side's capital, or an aligned
    castle it controls. A leader block is hidden until the move uses it (C10, C12)."""
    return leadership_at(
        BOARD, origin, side, leader_present=False,
        castle_controller=castle_controller(state, origin),
    )


def leader_at(state: State, origin: str, side: Side) -> bool:
    """Whether a leader block of ``side`` stands at ``origin`` (hidden from the opponent)."""
    return any(FACES[b].leader for b in blocks_at(state, origin, side))


def movable(state: State, side: Side, origin: str) -> list[str]:
    """Blocks of ``side`` at ``origin`` that may still move this phase (7.2, 7.3.1, 8.9.6, 9.3):
    none once a move has left from ``origin`` this phase (C13)."""
    if origin in state.sources:
        return []
    return [
        b for b in blocks_at(state, origin, side)
        if b not in state.moved and b not in state.immobile and not is_besieged(state, b)
    ]


def _check_move(state: State, cmd: MoveStack) -> tuple[frozenset[str], ...]:
    """What is judged of a stack move before its route (7.1, 7.3.1, 7.3.3, 8.9.6, 9.3, C13): all
    public, the same whoever stands at the origin. Returns its force march groups."""
    require_bought(state)
    side = cmd.side
    if state.level is Level.NONE or state.moves_left < 1:
        raise reject("7.1", "no stack move is left this phase")
    if cmd.origin not in BOARD.locations:
        raise reject("4.1", f"{cmd.origin!r} is not a location")
    if not cmd.paths:
        raise reject("7.3.1", "a move needs at least one moving block")
    if cmd.origin in state.sources:
        raise reject("C13", f"a move has already left {cmd.origin} this phase: a location is "
                     "the source of one move per Movement Phase (7.3.1)")
    for b in cmd.paths:
        if b not in FACES or side_of(b) is not side or state.pos[b] != cmd.origin:
            raise reject("7.3.1", f"a moving block is not a {side.value} block at {cmd.origin}",
                         private=f"{b} is not there")
        if b in state.moved:
            raise reject("7.3.1", "no block may be part of more than one move per turn")
        if b in state.immobile:
            mori = FACES[b].setup is not None and FACES[b].clan is Clan.MORI
            raise reject("9.3" if mori else "7.2",
                         "blocks mustered or arrived this turn may not move")
        if is_besieged(state, b):
            raise reject("8.9.6", "besieged blocks may not leave the castle's location")
    marches = tuple(frozenset(g) for g in cmd.force_marches)
    if state.hand[side] < len(marches):
        raise reject("7.3.3", "each force march discards one card")
    return marches


def verdict_with_leadership(state: State, cmd: MoveStack) -> RuleViolation | None:
    """The verdict on ``cmd`` were Leadership at its origin (7.3.4): None if the move would
    then be legal. It reads nothing hidden, so the table offers such a move whoever stands at
    the origin (C12); :func:`move_stack` accepts it only where a leader does."""
    try:
        marches = _check_move(state, cmd)
        led = StackMove(side=cmd.side, origin=cmd.origin, paths=dict(cmd.paths),
                        force_marches=marches, leadership=True)
        validate_stack_move(BOARD, led, situation(state, cmd.side, frozenset(cmd.paths)))
    except RuleViolation as exc:
        return RuleViolation(exc.rule, exc.message)
    return None


def move_stack(state: State, cmd: MoveStack) -> list[ev.Event]:
    """7.3: one stack's move, with its force marches, Overruns and Resource Locations."""
    side = cmd.side
    marches = _check_move(state, cmd)
    move, analysis = _analyse(state, cmd, marches)
    em = Emitter(state)
    if analysis.force_march_cards:
        em.emit(ev.CardsDiscarded(side=side, count=analysis.force_march_cards, rule="7.3.3"))
    segments = tuple(sorted(tuple(sorted(seg)) for seg in analysis.segments))
    em.emit(ev.StackMoved(
        side=side, origin=cmd.origin, paths=dict(cmd.paths),
        force_marches=analysis.force_march_cards, leadership=move.leadership,
        segments=tuple((a, b) for a, b in segments),
    ))
    for overrun in analysis.overruns:
        if blocks_at(em.state, overrun.location, side.opponent):
            destroy(em, overrun.location, side.opponent)
            if em.over:
                return em.events
    for loc in analysis.resources:
        if em.state.resource_control.get(loc) is not side:
            em.emit(ev.ResourceControlled(location=loc, side=side))
    touched = [cmd.origin, *(p[-1] for p in cmd.paths.values())]
    resolve_overruns(em, touched, side)
    return em.events


def _analyse(
    state: State, cmd: MoveStack, marches: tuple[frozenset[str], ...]
) -> tuple[StackMove, MoveAnalysis]:
    """Validate the move, using Leadership only if the move needs it (7.3.4, C12).

    The move is judged first without Leadership; only if that fails and Leadership is present
    at the origin is it judged with it, and the move is then announced "with leadership" (a
    leader so used is declared, C10). A move that fails either way is refused with the reason
    that holds without a hidden leader: the public message never depends on one. The acting
    side's private detail says why it fails with the leader.
    """
    side = cmd.side
    plain = StackMove(side=side, origin=cmd.origin, paths=dict(cmd.paths), force_marches=marches)
    seen = situation(state, side, frozenset(cmd.paths))
    try:
        return plain, validate_stack_move(BOARD, plain, seen)
    except RuleViolation as exc:
        failure = exc
    public = public_leadership(state, cmd.origin, side)
    if not (public or leader_at(state, cmd.origin, side)):
        raise reject(failure.rule, failure.message, private=(
            f"{failure.message}: no leader of yours stands there to give Leadership (7.3.4)"
            if verdict_with_leadership(state, cmd) is None else None)) from None
    led = plain.model_copy(update={"leadership": True})
    try:
        return led, validate_stack_move(BOARD, led, seen)
    except RuleViolation as exc:
        if public:
            raise reject(exc.rule, exc.message) from None
        raise reject(failure.rule, failure.message,
                     private=f"with your leader's leadership: {exc.message} ({exc.rule})",
                     ) from None


def end_movement(state: State, cmd: EndPhase) -> list[ev.Event]:
    require_bought(state)
    em = Emitter(state)
    end_phase(em)
    return em.events
