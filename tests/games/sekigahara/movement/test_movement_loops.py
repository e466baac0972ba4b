"""Routes never loop (a documented choice); on the printed map the rules forbid loops anyway."""

from __future__ import annotations

import pytest

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Board, Side, default_board
from companion.games.sekigahara.movement import (
    MAX_MOVEMENT,
    StackMove,
    explain_move,
    legal_destinations,
    validate_stack_move,
)


def trails_revisiting(board: Board, origin: str) -> list[tuple[str, ...]]:
    """Every walk of at most four roads from ``origin``, no road twice, that revisits a location."""
    found: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...], used: frozenset[frozenset[str]]) -> None:
        at = path[-1] if path else origin
        for nxt in board.neighbours(at):
            road = frozenset({at, nxt})
            if road in used:
                continue
            longer = (*path, nxt)
            if len(set(longer) | {origin}) < len(longer) + 1:
                found.append(longer)
            if len(longer) < MAX_MOVEMENT:
                extend(longer, used | {road})

    extend((), frozenset())
    return found


def test_no_legal_move_on_the_printed_map_revisits_a_location() -> None:
    board = default_board()
    loops = [(origin, t) for origin in board.locations for t in trails_revisiting(board, origin)]
    assert loops  # the Osaka-Himeji-Ayabe-Kyoto circuit exists...
    for origin, trail in loops:
        move = StackMove(
            side=Side.ISHIDA,
            origin=origin,
            paths={"b": trail},
            force_marches=(frozenset({"b"}),),
            leadership=True,
        )
        with pytest.raises(RuleViolation) as caught:  # ...but is never within reach
            validate_stack_move(board, move)
        assert caught.value.rule == "7.3.3"


def triangle_board() -> Board:
    def loc(name: str) -> dict[str, object]:
        return {"name": name, "xy": [0, 0]}

    return Board.model_validate(
        {
            "map_size": [10, 10],
            "locations": {"a": loc("A"), "b": loc("B"), "c": loc("C"), "d": loc("D")},
            "roads": [
                ["a", "b", "highway"],
                ["b", "c", "highway"],
                ["c", "a", "highway"],
                ["c", "d", "highway"],
            ],
            "boxes": {},
            "turn_track": {"weeks": 1, "recruitment": [0]},
            "impact_track": {"min": 0, "max": 48},
        }
    )


def test_on_a_custom_board_a_loop_validates_but_is_never_offered_as_a_route() -> None:
    board = triangle_board()
    loop = StackMove(side=Side.TOKUGAWA, origin="a", paths={"b": ("b", "c", "a")}, leadership=True)
    analysis = validate_stack_move(board, loop)  # 3 highway roads, none twice: the rules allow it
    assert analysis.blocks["b"].destination == "a"
    reach = legal_destinations(board, "a", 1, side=Side.TOKUGAWA, leadership=True, force_march=True)
    assert "a" not in reach
    assert sorted(r.path for r in reach["d"]) == [("b", "c", "d"), ("c", "d")]
    assert sorted(r.path for r in reach["c"]) == [("b", "c"), ("c",)]
    explained = explain_move(
        board, "a", "a", 1, side=Side.TOKUGAWA, leadership=True, force_march_available=True
    )
    assert not explained.legal
