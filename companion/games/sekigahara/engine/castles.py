"""Who is where and who controls what (4.2, 4.3, 8.9.1): read-only helpers on a state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.games.sekigahara.components import Disk, Side
from companion.games.sekigahara.engine.data import BOARD, CASTLES, DISK_SIDE, SIDE_BLOCKS, side_of
from companion.games.sekigahara.engine.state import State


def blocks_at(state: State, location: str, side: Side | None = None) -> list[str]:
    """Blocks in ``location`` (inside its castle or not), sorted, optionally of one side."""
    here = state.at.get(location, frozenset())
    return sorted(here if side is None else here & SIDE_BLOCKS[side])


def disks_at(state: State, location: str) -> list[Disk]:
    return [d for d, where in state.disks.items() if where == location]


def units_count(state: State, location: str, side: Side) -> int:
    """Blocks plus disks (3.4: disks are units) of ``side`` at ``location``."""
    n = len(state.at.get(location, frozenset()) & SIDE_BLOCKS[side])
    return n + sum(1 for d in disks_at(state, location) if DISK_SIDE[d] is side)


def occupancy(state: State) -> dict[str, dict[Side, int]]:
    """Units per location and side (locations with any unit only)."""
    table: dict[str, dict[Side, int]] = {}
    ishida_blocks, locations = SIDE_BLOCKS[Side.ISHIDA], BOARD.locations
    for z, here in state.at.items():
        if z in locations:
            ishida = len(here & ishida_blocks)
            table[z] = {Side.ISHIDA: ishida, Side.TOKUGAWA: len(here) - ishida}
    for d, where in state.disks.items():
        if where is not None:
            row = table.setdefault(where, {Side.ISHIDA: 0, Side.TOKUGAWA: 0})
            row[DISK_SIDE[d]] += 1
    return table


def contested(state: State, occ: Mapping[str, Mapping[Side, int]] | None = None) -> list[str]:
    """Locations where opposing units appear together (8.1), in board order. ``occ`` is
    :func:`occupancy` if the caller already has it."""
    occ = occupancy(state) if occ is None else occ
    return [
        loc for loc in BOARD.locations
        if loc in occ and occ[loc][Side.ISHIDA] and occ[loc][Side.TOKUGAWA]
    ]


def castle_owner(state: State, location: str) -> Side | None:
    """The side that owns the castle at ``location``: the one there first (8.9.1)."""
    if BOARD.locations[location].castle is None:
        return None
    return state.castle_owner.get(location, BOARD.locations[location].castle)


def castle_controller(
    state: State, location: str, occ: Mapping[str, Mapping[Side, int]] | None = None
) -> Side | None:
    """4.3: the side with blocks there and the enemy without; with neither, the castle's natural
    alignment; with both (a siege, or before combat), the castle's owner (8.9.1). Disks count as
    units inside the castle: a castle whose disk stands is still held. ``occ`` is
    :func:`occupancy` if the caller already has it."""
    natural = BOARD.locations[location].castle
    if natural is None:
        return None
    if occ is None:
        ishida = units_count(state, location, Side.ISHIDA) > 0
        tokugawa = units_count(state, location, Side.TOKUGAWA) > 0
    else:
        row = occ.get(location)
        ishida = bool(row and row.get(Side.ISHIDA))
        tokugawa = bool(row and row.get(Side.TOKUGAWA))
    if ishida != tokugawa:
        return Side.ISHIDA if ishida else Side.TOKUGAWA
    if not ishida:
        return natural
    return castle_owner(state, location)


def castles_controlled(state: State, side: Side) -> int:
    occ = occupancy(state)
    return sum(1 for loc in CASTLES if castle_controller(state, loc, occ) is side)


def resources_controlled(state: State, side: Side) -> int:
    """4.2: Resource Locations whose last mover was ``side`` (capitals start with their side)."""
    return sum(1 for s in state.resource_control.values() if s is side)


def normalise(state: State, locations: Iterable[str]) -> None:
    """Keep castle ownership and castle interiors consistent after units moved (in place).

    A castle belongs to the side alone there, keeps its owner while both sides are present and
    reverts to its natural alignment when empty (8.9.1, 4.3). Nobody stays "inside" a castle
    whose location holds no enemy.
    """
    for loc in set(locations):
        if loc not in BOARD.locations:
            continue
        present = {s for s in Side if units_count(state, loc, s)}
        natural = BOARD.locations[loc].castle
        if natural is not None:
            if len(present) == 1:
                state.castle_owner[loc] = next(iter(present))
            elif not present:
                state.castle_owner[loc] = natural
        if len(present) < 2:
            state.inside -= {b for b in state.inside if state.pos.get(b) == loc}
    state.inside = {b for b in state.inside if state.pos.get(b) in BOARD.locations}


def is_besieged(state: State, block: str) -> bool:
    """8.9.6: a block inside a castle whose location holds enemy units."""
    if block not in state.inside:
        return False
    loc = state.pos[block]
    return units_count(state, loc, side_of(block).opponent) > 0
