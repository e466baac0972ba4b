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


RULES = {"4.1", "7.3.1", "7.3.2", "7.3.3", "7.3.5", "7.4.3"}


@st.composite
def stack_moves(draw: st.DrawFn) -> StackMove:
    origin = draw(st.sampled_from(LOCATIONS))
    paths: dict[str, tuple[str, ...]] = {}
    for i in range(draw(st.integers(1, 10))):
        # Random walks along roads; half the blocks copy a prefix of an earlier block's path so
        # that groups travel together and split.
        if paths and draw(st.booleans()):
            base = draw(st.sampled_from(sorted(paths.values())))
            path = list(base[: draw(st.integers(1, len(base)))])
        else:
            path = []
        at = path[-1] if path else origin
        came_from = path[-2] if len(path) > 1 else origin
        longest = draw(st.sampled_from((1, 1, 2, 2, 3, MAX_MOVEMENT)))
        for _ in range(draw(st.integers(0 if path else 1, max(1, longest - len(path))))):
            onward = [n for n in BOARD.neighbours(at) if n != came_from] or BOARD.neighbours(at)
            came_from, at = at, draw(st.sampled_from(onward))
            path.append(at)
        paths[f"b{i}"] = tuple(path)
    blocks = sorted(paths)
    if draw(st.integers(0, 9)) == 0:
        marches = draw(st.lists(st.frozensets(st.sampled_from(blocks), min_size=1), max_size=2))
    else:  # whole groups that travelled together: the usual, legal shape
        routes = draw(st.sets(st.sampled_from(sorted(set(paths.values()))), max_size=2))
        marches = [frozenset(b for b in blocks if paths[b] == route) for route in routes]
    return StackMove(
        side=Side.ISHIDA,
        origin=origin,
        paths=paths,
        force_marches=tuple(marches),
        leadership=draw(st.booleans()),
    )


@settings(max_examples=400, deadline=None)
@given(move=stack_moves(), situation=situations(), keep_roads_open=st.booleans())
def test_any_stack_move_is_either_rejected_with_a_rule_or_consistent(
    move: StackMove, situation: MoveSituation, keep_roads_open: bool
) -> None:
    if keep_roads_open:
        situation = situation.model_copy(update={"used_segments": frozenset()})
    try:
        analysis = validate_stack_move(BOARD, move, situation)
    except RuleViolation as exc:
        assert exc.rule in RULES
        assert not any(block in exc.message for block in move.paths if len(block) > 1)
        return
    assert set(analysis.blocks) == set(move.paths)
    assert len(set(analysis.segments)) == len(analysis.segments)
    assert not set(analysis.segments) & situation.used_segments
    visited = {loc for path in move.paths.values() for loc in path}
    assert set(analysis.resources) <= visited & {r.id for r in BOARD.resource_locations}
    assert len(set(analysis.resources)) == len(analysis.resources)
    for overrun in analysis.overruns:
        assert overrun.location not in situation.enemy_holds_castle
        assert overrun.blocks_present >= 4 * overrun.enemy_units > 0
    for block, moved in analysis.blocks.items():
        assert moved.path == move.paths[block]
        assert len(moved.path) <= moved.allowance
        together = sum(1 for p in move.paths.values() if p[:1] == moved.path[:1])
        assert moved.group_size == together
    assert analysis.force_march_cards == len(move.force_marches)
