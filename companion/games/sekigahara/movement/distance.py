"""How far a group may move (7.3.3-7.3.6), where Leadership is present (7.3.4), and the Overrun
threshold (7.4.1, 7.4.3). Pure arithmetic on plain data."""

from __future__ import annotations

from companion.games.sekigahara.components import Board, Side

BASE_MOVEMENT = 1
"""The Base Movement Rate: one location per move (7.3.3)."""

MAX_MOVEMENT = 4
"""The most locations any move can cover: base 1 + highway + leadership + force march (7.3.3)."""

OVERRUN_RATIO = 4
"""An Overrun needs at least four times as many blocks present as the enemy (7.4.1)."""


def size_penalty(group_size: int) -> int:
    """The size penalty of a group (7.3.5): -1 at the 5th, 9th, 13th and 17th block, and so on."""
    if group_size < 1:
        raise ValueError(f"a group has at least one block, not {group_size}")
    return (group_size - 1) // 4


def movement_allowance(
    group_size: int, *, leadership: bool, highway: bool, force_march: bool
) -> int:
    """How many locations a group of ``group_size`` blocks may move (7.3.3-7.3.6).

    Base 1 (7.3.3), +1 if the whole move is on highways (7.3.3, C9), +1 for Leadership at the
    origin (7.3.4: at most +1 whatever its sources, so the caller passes one bool), +1 for a
    force march (7.3.3), minus the size penalty (7.3.5). Never below 0: a group of 17 or more
    blocks cannot move at all (1 + 3 - 4 = 0 at best).
    """
    bonus = int(highway) + int(leadership) + int(force_march)
    return max(0, BASE_MOVEMENT + bonus - size_penalty(group_size))


def leadership_at(
    board: Board,
    location: str,
    side: Side,
    *,
    leader_present: bool,
    castle_controller: Side | None,
) -> bool:
    """Whether a move by ``side`` from ``location`` begins in the presence of Leadership (7.3.4).

    Leadership is any of: a leader block of the side there (``leader_present``; the engine has
    it declared to the opponent, not shown, C10); a castle there aligned with the side AND
    controlled by it (``castle_controller``, 4.3); or the side's own capital (Kyoto for Ishida,
    Edo for Tokugawa, 4.5). Several sources still give only +1, hence a bool.
    """
    loc = board.locations[location]
    if leader_present or loc.capital is side:
        return True
    return loc.castle is side and castle_controller is side


def can_overrun(blocks_present: int, enemy_units: int, *, enemy_holds_castle: bool) -> bool:
    """Whether ``blocks_present`` friendly blocks Overrun ``enemy_units`` enemy units (7.4.1).

    The strength of the blocks has no effect, only their count: at least four times as many.
    Enemy units that control a castle can never be Overrun (7.4.3). There must be an enemy.
    """
    if enemy_holds_castle or enemy_units <= 0:
        return False
    return blocks_present >= OVERRUN_RATIO * enemy_units


def allowance_breakdown(
    group_size: int, *, leadership: bool, highway: bool, force_march: bool
) -> str:
    """The allowance as players say it, e.g. ``"base 1, highway +1, size -1"``."""
    parts = [f"base {BASE_MOVEMENT}"]
    if highway:
        parts.append("highway +1")
    if leadership:
        parts.append("leadership +1")
    if force_march:
        parts.append("force march +1")
    penalty = size_penalty(group_size)
    if penalty:
        parts.append(f"size -{penalty}")
    return ", ".join(parts)
