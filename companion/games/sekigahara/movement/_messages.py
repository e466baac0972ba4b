"""Rule-citing texts shared by validation and the queries. They name locations and count blocks,
never a block's identity: both players read them."""

from __future__ import annotations

from companion.core.rules import Ruling
from companion.games.sekigahara.movement.distance import (
    OVERRUN_RATIO,
    allowance_breakdown,
    movement_allowance,
)


def blocks(n: int) -> str:
    return f"{n} block" if n == 1 else f"{n} blocks"


def locations(n: int) -> str:
    return f"{n} location" if n == 1 else f"{n} locations"


def too_far(
    group_size: int, length: int, *, leadership: bool, highway: bool, force_march: bool
) -> Ruling:
    """Why ``length`` locations is beyond a group's allowance: 7.3.5 when the size penalty is what
    stops it, 7.3.3 otherwise."""
    allowed = movement_allowance(
        group_size, leadership=leadership, highway=highway, force_march=force_march
    )
    if allowed == 0:
        return Ruling(rule="7.3.5", text=f"a group of {blocks(group_size)} cannot move")
    why = allowance_breakdown(
        group_size, leadership=leadership, highway=highway, force_march=force_march
    )
    unpenalised = movement_allowance(
        1, leadership=leadership, highway=highway, force_march=force_march
    )
    if length <= unpenalised:
        return Ruling(
            rule="7.3.5",
            text=f"a group of {blocks(group_size)} moves at most {locations(allowed)} here ({why})",
        )
    verb = "moves" if group_size == 1 else "move"
    text = f"{blocks(group_size)} {verb} at most {locations(allowed)} here ({why})"
    if not force_march and length == allowed + 1:
        text += "; a force march would add 1"
    return Ruling(rule="7.3.3", text=text)


def must_stop(name: str, present: int, enemy: int, *, castle: bool) -> Ruling:
    """Why a group cannot go on from a location with enemy units (7.3.2, 7.4.1, 7.4.3)."""
    if castle:
        if enemy > 0 and present >= OVERRUN_RATIO * enemy:
            return Ruling(
                rule="7.4.3",
                text=f"must stop at {name}: enemy units holding the castle cannot be overrun",
            )
        return Ruling(rule="7.3.2", text=f"must stop at {name} (enemy units hold the castle)")
    return Ruling(
        rule="7.3.2",
        text=f"must stop at {name}: {blocks(present)} cannot overrun {enemy} enemy "
        f"{'unit' if enemy == 1 else 'units'} (that needs {OVERRUN_RATIO * enemy})",
    )


def road_used(segment_name: str) -> Ruling:
    return Ruling(
        rule="7.3.1", text=f"road {segment_name} has already been used this Movement Phase"
    )
