"""Questions the touchscreen and the tracker ask: what is legal now."""

from __future__ import annotations

from companion.games.sekigahara import combat
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.combat_phase import declarable, must_declare
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.movement_phase import (
    leader_at,
    movable,
    public_leadership,
    situation,
)
from companion.games.sekigahara.engine.muster import may_muster, muster_locations
from companion.games.sekigahara.engine.retreat import retreat_options
from companion.games.sekigahara.engine.setup import next_draw
from companion.games.sekigahara.engine.state import RECRUITMENT, Level, Phase, Stage, State
from companion.games.sekigahara.movement import MoveExplanation, Route, explain_move
from companion.games.sekigahara.movement import legal_destinations as _destinations

__all__ = [
    "awaiting",
    "declarable",
    "explain_stack_move",
    "legal_destinations",
    "may_muster",
    "movable",
    "movable_stacks",
    "must_declare",
    "muster_locations",
    "next_draw",
    "retreat_options",
]


def movable_stacks(state: State, side: Side) -> dict[str, list[str]]:
    """Origins with blocks that may still move, and those blocks (7.1, 7.2, 7.3.1, 8.9.6)."""
    if state.phase is not Phase.MOVEMENT or state.active is not side or state.level in (
        None, Level.NONE,
    ) or state.moves_left < 1:
        return {}
    found: dict[str, list[str]] = {}
    for loc in BOARD.locations:
        if loc in state.at and (blocks := movable(state, side, loc)):
            found[loc] = blocks
    return found


def legal_destinations(
    state: State, side: Side, origin: str, blocks: tuple[str, ...], *, force_march: bool = True,
    leader: bool = True,
) -> dict[str, list[Route]]:
    """Where ``blocks`` moving together from ``origin`` can go, with every route (7.3, 7.4).

    ``force_march``: whether a card may be spent (only if one is in hand, 7.3.3); routes that
    need it say so (``Route.needs_force_march``). ``leader``: whether routes that need a hidden
    leader's Leadership are listed too (``Route.needs_leader``: the move would declare the
    leader, C12); False for anything both players see (the board's lit destinations)."""
    def reach(leadership: bool) -> dict[str, list[Route]]:
        return _destinations(
            BOARD, origin, len(blocks), side=side, leadership=leadership,
            force_march=force_march and state.hand[side] > 0,
            situation=situation(state, side, frozenset(blocks)),
        )

    public = public_leadership(state, origin, side)
    found = reach(public)
    if public or not leader or not leader_at(state, origin, side):
        return found
    for loc, routes in reach(True).items():
        known = {r.path for r in found.get(loc, [])}
        extra = [r.model_copy(update={"needs_leader": True}) for r in routes
                 if r.path not in known]
        if extra:
            found.setdefault(loc, []).extend(extra)
    return found


def explain_stack_move(
    state: State, side: Side, origin: str, destination: str, blocks: tuple[str, ...], *,
    any_leader: bool = False,
) -> MoveExplanation:
    """Given an origin, a destination and the blocks that went: the legal routes (the player
    picks one when several fit) or the rule that makes the move illegal.

    Leadership is used only if the move needs it (7.3.4, C12): the routes are those open
    without a hidden leader; only when there are none are the routes a leader opens given
    (marked ``needs_leader``: the move declares the leader). An illegal move's reason is the
    one that holds without a hidden leader, so it is the same whoever stands at the origin.
    ``any_leader``: give the routes a leader would open whoever stands there, for what both
    players see (the table's route question, C12); the move is refused when made if no leader
    stands there."""
    def explain(leadership: bool) -> MoveExplanation:
        return explain_move(
            BOARD, origin, destination, len(blocks), side=side, leadership=leadership,
            force_march_available=state.hand[side] > 0,
            situation=situation(state, side, frozenset(blocks)),
        )

    public = public_leadership(state, origin, side)
    plain = explain(public)
    if plain.legal or public or not (any_leader or leader_at(state, origin, side)):
        return plain
    led = explain(True)
    if not led.legal:
        return plain
    routes = tuple(r.model_copy(update={"needs_leader": True}) for r in led.routes)
    return led.model_copy(update={"routes": routes})


def _name(zone: str) -> str:
    return BOARD.locations[zone].name if zone in BOARD.locations else zone


def awaiting(state: State) -> dict[Side, str]:
    """Who the engine waits for now and for what: the touchscreen's prompt (one entry per side
    that may act; in a combat, both when a Loyalty Challenge may interrupt, 8.6.1, C7)."""
    p = state.pending
    if state.phase is Phase.GAME_OVER or state.phase is Phase.NOT_STARTED:
        return {}
    if state.phase in (Phase.SETUP, Phase.REINFORCEMENT):
        due = next_draw(state)
        if due is None:
            return {}
        drawer, zone, n = due
        blocks = f"{n} block{'s' * (n != 1)}"
        into = (f"into the {drawer.value.capitalize()} Recruitment Box" if zone == RECRUITMENT
                else f"onto {_name(zone)}")
        rule = "6.2" if state.phase is Phase.REINFORCEMENT else (
            "5.2.3" if zone == RECRUITMENT else "5.2.2")
        return {drawer: f"draw {blocks} from your bag {into} ({rule})"}
    if state.phase is Phase.BID:
        return {side: "bid a card face down" for side in Side if side not in state.bids}
    if state.phase is Phase.CHOOSE_FIRST:
        return {state.bid_winner: "choose the first player"} if state.bid_winner else {}
    side = state.active
    assert side is not None
    if state.phase is Phase.MOVEMENT:
        return {side: "buy movement" if state.level is None else "move, muster or end the phase"}
    if p is None:
        left = must_declare(state)
        return {side: "declare combat at " + ", ".join(_name(loc) for loc in left) if left
                else "declare combat or end the phase"}
    if p.stage is Stage.CASTLE_CHOICE and p.owner is not None:
        return {p.owner: f"stay inside the castle at {_name(p.location)} or fight outside"}
    if p.stage is Stage.RETREAT and p.retreating is not None:
        return {p.retreating: f"retreat from {_name(p.location)}: move all your blocks there "
                              "to one neighbouring location (8.8)"}
    waiting: dict[Side, str] = {}
    losing = combat.awaiting_losses(p.combat)
    if losing is not None:
        return {losing: "choose the blocks lost and put them on the casualty tray (8.7.2)"}
    holder = combat.initiative(p.combat)
    if holder is not None:
        waiting[holder] = "deploy a block on your deployment tray, or finish (8.2.3, 8.5)"
    challenger = combat.challenge_window(p.combat)
    if challenger is not None and challenger not in waiting:
        waiting[challenger] = "a Loyalty Challenge may be played now"
    return waiting
