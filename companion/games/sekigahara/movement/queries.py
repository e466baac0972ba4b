"""Queries for the touchscreen and the RFID tracker: where can a group go, and how did it get
there (7.3, 7.4)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.rules import Ruling
from companion.games.sekigahara.components import Board, Side
from companion.games.sekigahara.movement import _messages as say
from companion.games.sekigahara.movement._graph import BoardIndex, RawPath, board_index
from companion.games.sekigahara.movement.distance import (
    MAX_MOVEMENT,
    OVERRUN_RATIO,
    movement_allowance,
)
from companion.games.sekigahara.movement.model import (
    EMPTY_SITUATION,
    MoveExplanation,
    MoveSituation,
    Route,
)

# Kinds of obstacle; explain_move ranks obstacles on routes of equal length by how far along the
# route they happened, then by kind.
_USED, _STOP = 0, 1


@dataclass(frozen=True, slots=True)
class _Limits:
    """The group's allowance on and off highways, with and without a force march."""

    road: int
    highway: int
    road_unforced: int
    highway_unforced: int

    @classmethod
    def of(cls, group_size: int, leadership: bool, force_march: bool) -> _Limits:
        def allow(highway: bool, forced: bool) -> int:
            return movement_allowance(
                group_size, leadership=leadership, highway=highway, force_march=forced
            )

        return cls(
            allow(False, force_march),
            allow(True, force_march),
            allow(False, False),
            allow(True, False),
        )


@dataclass(frozen=True, slots=True)
class _Failure:
    step: int
    kind: int
    ruling: Ruling


def _judge(
    index: BoardIndex,
    origin: str,
    raw: RawPath,
    group_size: int,
    limits: _Limits,
    situation: MoveSituation,
) -> Route | _Failure:
    """Judge one simple path for a group moving together against the situation (7.3.1, 7.3.2,
    7.4); the caller has checked that the path is within the group's allowance (7.3.3-7.3.5)."""
    used = situation.used_segments
    enemies = situation.enemy_count
    holds = situation.enemy_holds_castle
    last = len(raw.locations) - 1
    overruns: list[str] | None = None
    for k, loc in enumerate(raw.locations):
        segment = raw.segments[k]
        if used and segment in used:
            return _Failure(k, _USED, say.road_used(index.segment_name(segment)))
        enemy = enemies.get(loc, 0)
        castle = loc in holds
        if enemy > 0 or castle:
            present = group_size + situation.friendly_count.get(loc, 0)
            if not castle and present >= OVERRUN_RATIO * enemy:
                if overruns is None:
                    overruns = []
                overruns.append(loc)
            elif k < last:
                return _Failure(
                    k, _STOP, say.must_stop(index.name(loc), present, enemy, castle=castle)
                )
    length = last + 1
    allowance = limits.highway if raw.all_highway else limits.road
    unforced = limits.highway_unforced if raw.all_highway else limits.road_unforced
    key = (allowance, length > unforced, () if overruns is None else tuple(overruns))
    route = raw.routes.get(key)
    if route is None:
        route = raw.routes[key] = Route(
            origin=origin,
            path=raw.locations,
            segments=raw.segments,
            all_highway=raw.all_highway,
            overruns=key[2],
            resources=raw.resources,
            allowance_used=length,
            allowance=allowance,
            needs_force_march=key[1],
        )
    return route


def _check_location(board: Board, location: str) -> None:
    if location not in board.locations:
        raise ValueError(f"{location!r} is not a location on the map")


def legal_destinations(
    board: Board,
    origin: str,
    group_size: int,
    *,
    side: Side,
    leadership: bool,
    force_march: bool,
    situation: MoveSituation = EMPTY_SITUATION,
) -> dict[str, list[Route]]:
    """Every location a group of ``group_size`` blocks moving together from ``origin`` can reach,
    with every distinct route there, shortest first (7.3.1-7.3.5, 7.4).

    Routes follow roads (4.1), avoid ``situation.used_segments`` (7.3.1), stop at enemy units that
    cannot be Overrun (7.3.2, 7.4.1, 7.4.3) and keep within the allowance (7.3.3-7.3.5): the
    highway bonus counts only for routes wholly on highways (C9); ``force_march`` says whether a
    card may be spent, and ``Route.needs_force_march`` tells which routes need it.

    Routes never visit a location twice. A loop cannot help to reach a destination, and a loop
    that re-entered a location along the road it left by would traverse that road twice, which
    7.3.1 forbids; the only other use of a loop would be to pass through more Resource Locations
    (4.2). On the printed map no loop is possible at all: its only cycle of at most four roads,
    Osaka-Himeji-Ayabe-Kyoto, is not all highway, and off highways no group moves more than three
    locations. (``validate_stack_move`` still accepts a loop on a custom board if it keeps the
    road rules.)

    ``side`` is the moving side; the situation is already expressed from its point of view.
    """
    del side  # the situation is already from the mover's point of view; kept for the API
    _check_location(board, origin)
    index = board_index(board)
    limits = _Limits.of(group_size, leadership, force_march)
    reach = max(limits.road, limits.highway)
    found: dict[str, list[Route]] = {}
    for raw in index.paths_from[origin]:
        length = len(raw.locations)
        if length > reach:
            break
        if length > limits.road and not raw.all_highway:
            continue
        judged = _judge(index, origin, raw, group_size, limits, situation)
        if isinstance(judged, Route):
            found.setdefault(raw.locations[-1], []).append(judged)
    return found


def explain_move(
    board: Board,
    origin: str,
    destination: str,
    group_size: int,
    *,
    side: Side,
    leadership: bool,
    force_march_available: bool,
    situation: MoveSituation = EMPTY_SITUATION,
) -> MoveExplanation:
    """How a group of ``group_size`` blocks that went together from ``origin`` to ``destination``
    could have got there: every legal route (route matters for the Resource Locations passed,
    the highway bonus and the roads used, so the player picks one when there are several) and
    whether each needs a force march card; or, if none is legal, the rule that forbids it.

    When every route fails, the most informative rule is reported: if some route is within the
    group's allowance, the first obstacle (a road used this phase, enemy units that cannot be
    Overrun) on the shortest such route, and among routes of the same length the one that got
    furthest, so the player hears about the road they most likely took; if no route is within the
    allowance, the distance rule for the shortest route (7.3.5 when the size penalty is what stops
    the group, 7.3.3 otherwise), since no change on the board would make the move legal.
    """
    del side
    _check_location(board, origin)
    _check_location(board, destination)
    index = board_index(board)
    if destination == origin:
        return MoveExplanation(
            origin=origin,
            destination=destination,
            group_size=group_size,
            routes=(),
            violation=Ruling(rule="7.3.1", text=f"a move must leave {_n(index, origin)}"),
        )
    candidates = index.paths_between.get((origin, destination), ())
    if not candidates:
        return MoveExplanation(
            origin=origin,
            destination=destination,
            group_size=group_size,
            routes=(),
            violation=Ruling(
                rule="7.3.3",
                text=f"{_n(index, destination)} is more than {MAX_MOVEMENT} locations from "
                f"{_n(index, origin)}; no move goes further",
            ),
        )
    limits = _Limits.of(group_size, leadership, force_march_available)
    routes: list[Route] = []
    blocked: tuple[tuple[int, int, int], Ruling] | None = None
    too_far: tuple[tuple[int, int], RawPath] | None = None
    for raw in candidates:
        length = len(raw.locations)
        allowance = limits.highway if raw.all_highway else limits.road
        if length > allowance:
            if too_far is None or (length, -allowance) < too_far[0]:
                too_far = ((length, -allowance), raw)
            continue
        judged = _judge(index, origin, raw, group_size, limits, situation)
        if isinstance(judged, Route):
            routes.append(judged)
            continue
        rank = (length, -judged.step, -judged.kind)
        if blocked is None or rank < blocked[0]:
            blocked = (rank, judged.ruling)
    reason: Ruling | None = None
    if not routes:
        if blocked is not None:
            reason = blocked[1]
        elif too_far is not None:
            reason = say.too_far(
                group_size,
                len(too_far[1].locations),
                leadership=leadership,
                highway=too_far[1].all_highway,
                force_march=force_march_available,
            )
    return MoveExplanation(
        origin=origin,
        destination=destination,
        group_size=group_size,
        routes=tuple(routes),
        violation=None if routes else reason,
    )


def _n(index: BoardIndex, location: str) -> str:
    return index.name(location)
