"""Questions the touchscreen and the tracker ask: what is legal now."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.combat_phase import declarable, must_declare
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.movement_phase import has_leadership, movable, situation
from companion.games.sekigahara.engine.muster import may_muster, muster_locations
from companion.games.sekigahara.engine.retreat import retreat_options
from companion.games.sekigahara.engine.setup import next_draw
from companion.games.sekigahara.engine.state import Level, Phase, State
from companion.games.sekigahara.movement import MoveExplanation, Route, explain_move
from companion.games.sekigahara.movement import legal_destinations as _destinations

__all__ = [
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
        blocks = movable(state, side, loc)
        if blocks:
            found[loc] = blocks
    return found


def legal_destinations(
    state: State, side: Side, origin: str, blocks: tuple[str, ...], *, force_march: bool = True
) -> dict[str, list[Route]]:
    """Where ``blocks`` moving together from ``origin`` can go, with every route (7.3, 7.4).

    ``force_march``: whether a card may be spent (only if one is in hand, 7.3.3); routes that
    need it say so (``Route.needs_force_march``)."""
    return _destinations(
        BOARD, origin, len(blocks), side=side,
        leadership=has_leadership(state, origin, side),
        force_march=force_march and state.hand[side] > 0,
        situation=situation(state, side, frozenset(blocks)),
    )


def explain_stack_move(
    state: State, side: Side, origin: str, destination: str, blocks: tuple[str, ...]
) -> MoveExplanation:
    """Given an origin, a destination and the blocks that went: the legal routes (the player
    picks one when several fit) or the rule that makes the move illegal."""
    return explain_move(
        BOARD, origin, destination, len(blocks), side=side,
        leadership=has_leadership(state, origin, side),
        force_march_available=state.hand[side] > 0,
        situation=situation(state, side, frozenset(blocks)),
    )
