"""Properties of the movement queries on the real board, under random situations (7.3, 7.4)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.movement import (
    MAX_MOVEMENT,
    MoveSituation,
    StackMove,
    explain_move,
    legal_destinations,
    movement_allowance,
    validate_stack_move,
)

BOARD = default_board()
LOCATIONS = sorted(BOARD.locations)
SEGMENTS = [road.key for road in BOARD.roads]
CASTLES = sorted(loc.id for loc in BOARD.castles)


def simple_paths(origin: str) -> list[tuple[str, ...]]:
    """Every simple path of 1..4 roads from ``origin``, found independently of the module."""
    found: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...]) -> None:
        at = path[-1] if path else origin
        for nxt in BOARD.neighbours(at):
            if nxt != origin and nxt not in path:
                found.append((*path, nxt))
                if len(path) + 1 < MAX_MOVEMENT:
                    extend((*path, nxt))

    extend(())
    return found


@st.composite
def situations(draw: st.DrawFn) -> MoveSituation:
    enemy_locations = draw(st.lists(st.sampled_from(LOCATIONS), max_size=12, unique=True))
    enemy = {loc: draw(st.integers(0, 4)) for loc in enemy_locations}
    friendly_locations = draw(st.lists(st.sampled_from(LOCATIONS), max_size=12, unique=True))
    friendly = {loc: draw(st.integers(1, 12)) for loc in friendly_locations}
    castles = draw(st.sets(st.sampled_from(CASTLES), max_size=4))
    used = draw(st.sets(st.sampled_from(SEGMENTS), max_size=8))
    return MoveSituation(
        friendly_count=friendly,
        enemy_count=enemy,
        enemy_holds_castle=frozenset(castles),
        used_segments=frozenset(used),
    )


def whole_group(
    size: int, path: tuple[str, ...], *, forced: bool, origin: str, lead: bool
) -> StackMove:
    blocks = {f"b{i}": path for i in range(size)}
    return StackMove(
        side=Side.TOKUGAWA,
        origin=origin,
        paths=blocks,
        force_marches=(frozenset(blocks),) if forced else (),
        leadership=lead,
    )


queries = {
    "origin": st.sampled_from(LOCATIONS),
    "size": st.integers(1, 18),
    "leadership": st.booleans(),
    "force_march": st.booleans(),
    "situation": situations(),
}


@settings(max_examples=300, deadline=None)
@given(**queries)
def test_legal_destinations_agree_with_validation(
    origin: str, size: int, leadership: bool, force_march: bool, situation: MoveSituation
) -> None:
    """A group moving together may take a simple path exactly when legal_destinations lists it,
    and the route's overruns, resources and segments are what validation reports."""
    reach = legal_destinations(
        BOARD,
        origin,
        size,
        side=Side.TOKUGAWA,
        leadership=leadership,
        force_march=force_march,
        situation=situation,
    )
    routes = {route.path: route for routes in reach.values() for route in routes}
    for destination, listed in reach.items():
        assert listed and all(r.destination == destination for r in listed)
    for path in simple_paths(origin):
        move = whole_group(size, path, forced=force_march, origin=origin, lead=leadership)
        try:
            analysis = validate_stack_move(BOARD, move, situation)
        except RuleViolation:
            assert path not in routes
            continue
        assert path in routes, path
        route = routes[path]
        assert analysis.segments == route.segments
        assert analysis.resources == route.resources
        assert tuple(o.location for o in analysis.overruns) == route.overruns
        assert route.allowance_used == len(path) <= route.allowance
        assert route.allowance == analysis.blocks["b0"].allowance
        unforced = movement_allowance(
            size, leadership=leadership, highway=route.all_highway, force_march=False
        )
        assert route.needs_force_march == (len(path) > unforced)
        if route.needs_force_march:
            assert force_march
    assert len(routes) == sum(len(r) for r in reach.values())


@settings(max_examples=200, deadline=None)
@given(
    origin=st.sampled_from(LOCATIONS),
    destination=st.sampled_from(LOCATIONS),
    size=st.integers(1, 18),
    leadership=st.booleans(),
    force_march=st.booleans(),
    situation=situations(),
)
def test_explain_move_agrees_with_legal_destinations(
    origin: str,
    destination: str,
    size: int,
    leadership: bool,
    force_march: bool,
    situation: MoveSituation,
) -> None:
    reach = legal_destinations(
        BOARD,
        origin,
        size,
        side=Side.ISHIDA,
        leadership=leadership,
        force_march=force_march,
        situation=situation,
    )
    explained = explain_move(
        BOARD,
        origin,
        destination,
        size,
        side=Side.ISHIDA,
        leadership=leadership,
        force_march_available=force_march,
        situation=situation,
    )
    assert list(explained.routes) == reach.get(destination, [])
    if explained.legal:
        assert explained.violation is None
    else:
        assert explained.violation is not None
        assert explained.violation.rule in {"7.3.1", "7.3.2", "7.3.3", "7.3.5", "7.4.3"}


@given(
    size=st.integers(1, 30),
    leadership=st.booleans(),
    highway=st.booleans(),
    force_march=st.booleans(),
)
def test_allowance_is_monotone_and_bounded(
    size: int, leadership: bool, highway: bool, force_march: bool
) -> None:
    here = movement_allowance(size, leadership=leadership, highway=highway, force_march=force_march)
    bigger = movement_allowance(
        size + 1, leadership=leadership, highway=highway, force_march=force_march
    )
    assert 0 <= bigger <= here <= MAX_MOVEMENT
    assert movement_allowance(size, leadership=True, highway=True, force_march=True) >= here
    if size >= 17:
        assert here == 0


@settings(max_examples=100, deadline=None)
@given(
    origin=st.sampled_from(LOCATIONS),
    size=st.integers(1, 18),
    leadership=st.booleans(),
    force_march=st.booleans(),
    situation=situations(),
)
def test_routes_keep_within_the_allowance_and_never_loop(
    origin: str, size: int, leadership: bool, force_march: bool, situation: MoveSituation
) -> None:
    reach = legal_destinations(
        BOARD,
        origin,
        size,
        side=Side.TOKUGAWA,
        leadership=leadership,
        force_march=force_march,
        situation=situation,
    )
    for routes in reach.values():
        for route in routes:
            allowance = movement_allowance(
                size, leadership=leadership, highway=route.all_highway, force_march=force_march
            )
            assert 1 <= len(route.path) <= allowance
            assert len(set(route.path)) == len(route.path) and origin not in route.path
            assert not set(route.segments) & situation.used_segments
            for stop in route.path[:-1]:
                assert not situation.enemy_at(stop) or stop in route.overruns
