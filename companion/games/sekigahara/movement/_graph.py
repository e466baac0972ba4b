"""A per-board index of roads and short simple paths, built once so queries allocate little.

The queries run on every RFID reader update; every route they can ever return is a simple path
of at most ``MAX_MOVEMENT`` roads, so those are enumerated once per board and then only judged
against the situation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.sekigahara.components import Board, RoadKind
from companion.games.sekigahara.movement.distance import MAX_MOVEMENT
from companion.games.sekigahara.movement.model import Route, Segment

RouteKey = tuple[int, bool, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Step:
    to: str
    segment: Segment
    highway: bool


@dataclass(frozen=True, slots=True)
class RawPath:
    """A simple path from ``origin``: no location twice."""

    origin: str
    locations: tuple[str, ...]
    """After the origin, ending at the destination."""
    segments: tuple[Segment, ...]
    all_highway: bool
    resources: tuple[str, ...]
    routes: dict[RouteKey, Route] = field(default_factory=dict, compare=False)
    """The immutable :class:`Route` objects already built on this path, by (allowance, needs
    force march, overruns): queries run on every reader update and mostly rebuild the same."""


@dataclass(frozen=True, slots=True)
class BoardIndex:
    steps: dict[str, tuple[Step, ...]]
    names: dict[str, str]
    resources: frozenset[str]
    paths_from: dict[str, tuple[RawPath, ...]]
    """Every simple path of 1..MAX_MOVEMENT roads from each origin, shortest first."""
    paths_between: dict[tuple[str, str], tuple[RawPath, ...]]

    def name(self, location: str) -> str:
        return self.names.get(location, location)

    def segment_name(self, segment: Segment) -> str:
        return "-".join(sorted(self.name(x) for x in segment))


_INDEXES: dict[int, tuple[Board, BoardIndex]] = {}


def board_index(board: Board) -> BoardIndex:
    """The index of ``board``; boards are frozen, so it is built once per board object."""
    hit = _INDEXES.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    index = _build(board)
    if len(_INDEXES) > 32:  # custom boards in tests: keep the cache bounded
        _INDEXES.clear()
    _INDEXES[id(board)] = (board, index)  # holding the board keeps its id from being reused
    return index


def _build(board: Board) -> BoardIndex:
    segments = {road.key: road.key for road in board.roads}
    steps = {
        loc: tuple(
            Step(r.other_end(loc), segments[r.key], r.kind is RoadKind.HIGHWAY)
            for r in board.roads_from(loc)
        )
        for loc in board.locations
    }
    resources = frozenset(loc.id for loc in board.resource_locations)
    paths_from: dict[str, tuple[RawPath, ...]] = {}
    paths_between: dict[tuple[str, str], list[RawPath]] = {}
    for origin in board.locations:
        found: list[RawPath] = []
        _extend(steps, resources, origin, origin, (), (), True, found)
        found.sort(key=lambda p: len(p.locations))
        paths_from[origin] = tuple(found)
        for path in found:
            paths_between.setdefault((origin, path.locations[-1]), []).append(path)
    return BoardIndex(
        steps=steps,
        names={loc.id: loc.name for loc in board.locations.values()},
        resources=resources,
        paths_from=paths_from,
        paths_between={k: tuple(v) for k, v in paths_between.items()},
    )


def _extend(
    steps: dict[str, tuple[Step, ...]],
    resources: frozenset[str],
    origin: str,
    at: str,
    locs: tuple[str, ...],
    segs: tuple[Segment, ...],
    highway: bool,
    found: list[RawPath],
) -> None:
    for step in steps[at]:
        if step.to == origin or step.to in locs:
            continue
        here = (*locs, step.to)
        path = RawPath(
            origin,
            here,
            (*segs, step.segment),
            highway and step.highway,
            tuple(x for x in here if x in resources),
        )
        found.append(path)
        if len(here) < MAX_MOVEMENT:
            _extend(steps, resources, origin, step.to, here, path.segments, path.all_highway, found)
