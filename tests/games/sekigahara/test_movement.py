"""Movement geometry (4.1, 4.2, 7.3, 7.4) on the real board, with hand-computed cases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.movement import (
    MoveSituation,
    StackMove,
    can_overrun,
    explain_move,
    leadership_at,
    legal_destinations,
    movement_allowance,
    size_penalty,
    validate_stack_move,
)

BOARD = default_board()
TOKU, ISHI = Side.TOKUGAWA, Side.ISHIDA
TOKAIDO_FROM_EDO = ("hakone", "numazu", "sunpu", "hamamatsu")


def stack(
    origin: str,
    paths: Mapping[str, Iterable[str]],
    *,
    side: Side = TOKU,
    force_marches: Iterable[Iterable[str]] = (),
    leadership: bool = False,
) -> StackMove:
    return StackMove(
        side=side,
        origin=origin,
        paths={block: tuple(path) for block, path in paths.items()},
        force_marches=tuple(frozenset(group) for group in force_marches),
        leadership=leadership,
    )


def group(n: int, path: Iterable[str], prefix: str = "b") -> dict[str, tuple[str, ...]]:
    route = tuple(path)
    return {f"{prefix}{i}": route for i in range(n)}


def rejects(rule: str, move: StackMove, situation: MoveSituation | None = None) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        validate_stack_move(BOARD, move, situation or MoveSituation())
    assert caught.value.rule == rule, caught.value
    return caught.value


# --------------------------------------------------------------------------- 7.3.3-7.3.5


@pytest.mark.parametrize(
    ("size", "penalty"), [(1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (12, 2), (13, 3), (17, 4)]
)
def test_size_penalty_at_the_5th_9th_13th_17th_block(size: int, penalty: int) -> None:
    assert size_penalty(size) == penalty


def test_allowance_adds_the_three_bonuses_and_the_size_penalty() -> None:
    assert movement_allowance(1, leadership=False, highway=False, force_march=False) == 1
    assert movement_allowance(4, leadership=True, highway=True, force_march=True) == 4
    assert movement_allowance(5, leadership=True, highway=True, force_march=True) == 3
    assert movement_allowance(9, leadership=True, highway=False, force_march=False) == 0
    assert movement_allowance(16, leadership=True, highway=True, force_march=True) == 1
    assert movement_allowance(17, leadership=True, highway=True, force_march=True) == 0
    assert movement_allowance(40, leadership=True, highway=True, force_march=True) == 0
    with pytest.raises(ValueError):
        movement_allowance(0, leadership=False, highway=False, force_march=False)


def test_leadership_from_leader_castle_or_own_capital() -> None:
    plain = {"leader_present": False, "castle_controller": None}
    assert leadership_at(BOARD, "edo", TOKU, **plain)
    assert not leadership_at(BOARD, "edo", ISHI, **plain)
    assert leadership_at(BOARD, "kyoto", ISHI, **plain)
    assert not leadership_at(BOARD, "kyoto", TOKU, **plain)
    assert leadership_at(BOARD, "numazu", TOKU, leader_present=True, castle_controller=None)
    assert not leadership_at(BOARD, "numazu", TOKU, **plain)
    # Hakone's castle is Tokugawa's: it gives leadership only while Tokugawa controls it.
    assert leadership_at(BOARD, "hakone", TOKU, leader_present=False, castle_controller=TOKU)
    assert not leadership_at(BOARD, "hakone", TOKU, leader_present=False, castle_controller=ISHI)
    # A captured castle of the other colour gives nothing.
    assert not leadership_at(BOARD, "hakone", ISHI, leader_present=False, castle_controller=ISHI)
    assert leadership_at(BOARD, "osaka", ISHI, leader_present=False, castle_controller=ISHI)


def test_four_blocks_with_leadership_and_force_march_go_four_along_the_tokaido() -> None:
    move = stack("edo", group(4, TOKAIDO_FROM_EDO), force_marches=[group(4, ())], leadership=True)
    analysis = validate_stack_move(BOARD, move)
    assert analysis.destinations == dict.fromkeys(group(4, ()), "hamamatsu")
    block = analysis.blocks["b0"]
    assert (block.allowance, block.highway, block.leadership, block.force_march) == (
        4,
        True,
        True,
        True,
    )
    assert block.group_size == 4
    assert analysis.force_march_cards == 1
    assert analysis.segments == (
        frozenset({"edo", "hakone"}),
        frozenset({"hakone", "numazu"}),
        frozenset({"numazu", "sunpu"}),
        frozenset({"sunpu", "hamamatsu"}),
    )
    reach = legal_destinations(
        BOARD, "edo", 4, side=TOKU, leadership=True, force_march=True, situation=MoveSituation()
    )
    assert [r.path for r in reach["hamamatsu"]] == [TOKAIDO_FROM_EDO]
    assert reach["hamamatsu"][0].needs_force_march


def test_without_the_force_march_card_hamamatsu_is_out_of_reach() -> None:
    move = stack("edo", group(4, TOKAIDO_FROM_EDO), leadership=True)
    err = rejects("7.3.3", move)
    assert "at most 3 locations" in err.message
    assert "force march would add 1" in err.message


def test_five_blocks_reach_three_locations_only() -> None:
    five = group(5, TOKAIDO_FROM_EDO)
    err = rejects("7.3.5", stack("edo", five, force_marches=[five], leadership=True))
    assert "a group of 5 blocks moves at most 3 locations" in err.message
    ok = stack("edo", group(5, TOKAIDO_FROM_EDO[:3]), force_marches=[five], leadership=True)
    assert validate_stack_move(BOARD, ok).blocks["b0"].allowance == 3
    reach = legal_destinations(BOARD, "edo", 5, side=TOKU, leadership=True, force_march=True)
    assert "sunpu" in reach and "hamamatsu" not in reach


def test_a_non_highway_step_loses_the_highway_bonus_even_when_force_marching() -> None:
    # Edo-Hakone-Numazu on the Tokaido, then the road to Kofu: 3 locations, no highway bonus.
    to_kofu = group(4, ("hakone", "numazu", "kofu"))
    analysis = validate_stack_move(
        BOARD, stack("edo", to_kofu, force_marches=[to_kofu], leadership=True)
    )
    assert analysis.blocks["b0"].allowance == 3
    assert not analysis.blocks["b0"].highway
    # One more road step (Kofu-Suwa) would need the highway bonus the road step lost (C9).
    to_suwa = group(4, ("hakone", "numazu", "kofu", "suwa"))
    err = rejects("7.3.3", stack("edo", to_suwa, force_marches=[to_suwa], leadership=True))
    assert "at most 3 locations" in err.message
    reach = legal_destinations(BOARD, "edo", 1, side=TOKU, leadership=True, force_march=True)
    assert all(not r.all_highway for r in reach["kofu"])
    assert "suwa" in reach  # along the Nakasendo, all highway: Oshi-Takasaki-Saku-Suwa
    assert [r.path for r in reach["suwa"]] == [("oshi", "takasaki", "saku", "suwa")]


def test_seventeen_blocks_cannot_move() -> None:
    err = rejects("7.3.5", stack("edo", group(17, ("hakone",)), leadership=True))
    assert "a group of 17 blocks cannot move" in err.message
    assert legal_destinations(BOARD, "edo", 17, side=TOKU, leadership=True, force_march=True) == {}
    sixteen = legal_destinations(BOARD, "edo", 16, side=TOKU, leadership=True, force_march=True)
    assert set(sixteen) == {"hakone", "oshi"}  # 1 location, on a highway only


def test_size_penalty_follows_the_largest_group_even_after_a_drop_off() -> None:
    # 8 blocks leave Edo together (-1); 4 stay at Hakone, 4 go on: still -1 for them (7.3.5).
    paths = group(4, ("hakone",), "a") | group(4, ("hakone", "numazu"), "c")
    analysis = validate_stack_move(BOARD, stack("edo", paths, leadership=True))
    assert {m.group_size for m in analysis.blocks.values()} == {8}
    assert analysis.blocks["c0"].allowance == 2
    further = group(4, ("hakone",), "a") | group(4, ("hakone", "numazu", "sunpu"), "c")
    err = rejects("7.3.5", stack("edo", further, leadership=True))
    assert err.message.startswith("4 blocks moving 3 locations from Edo to Sunpu")
    assert "a group of 8 blocks" in err.message


def test_blocks_that_split_at_the_origin_are_separate_groups() -> None:
    paths = group(4, ("hakone", "numazu", "sunpu"), "a") | group(4, ("oshi", "takasaki"), "c")
    analysis = validate_stack_move(BOARD, stack("edo", paths, leadership=True))
    assert {m.group_size for m in analysis.blocks.values()} == {4}
    assert analysis.resources == ("takasaki",)


# --------------------------------------------------------------------------- 7.3.2, 7.4


def test_blocks_must_stop_on_enemy_units() -> None:
    enemy = MoveSituation(enemy_count={"hakone": 1})
    err = rejects("7.3.2", stack("edo", group(2, ("hakone", "numazu")), leadership=True), enemy)
    assert err.message.startswith("2 blocks moved on from Hakone: must stop at Hakone")
    stopped = validate_stack_move(
        BOARD, stack("edo", group(2, ("hakone",)), leadership=True), enemy
    )
    assert stopped.engagements == ("hakone",)
    assert stopped.overruns == ()
    reach = legal_destinations(
        BOARD, "edo", 2, side=TOKU, leadership=True, force_march=True, situation=enemy
    )
    assert "hakone" in reach and "numazu" not in reach


def test_four_blocks_overrun_one_and_go_on() -> None:
    enemy = MoveSituation(enemy_count={"hakone": 1})
    analysis = validate_stack_move(
        BOARD, stack("edo", group(4, ("hakone", "numazu")), leadership=True), enemy
    )
    (overrun,) = analysis.overruns
    assert (overrun.location, overrun.moving_blocks, overrun.enemy_units) == ("hakone", 4, 1)
    assert overrun.group == frozenset(group(4, ()))
    assert analysis.engagements == ()
    reach = legal_destinations(
        BOARD, "edo", 4, side=TOKU, leadership=True, force_march=False, situation=enemy
    )
    assert reach["numazu"][0].overruns == ("hakone",)


def test_friendly_blocks_already_there_count_for_the_overrun() -> None:
    situation = MoveSituation(enemy_count={"hakone": 1}, friendly_count={"hakone": 2})
    analysis = validate_stack_move(
        BOARD, stack("edo", group(2, ("hakone", "numazu")), leadership=True), situation
    )
    assert analysis.overruns[0].blocks_present == 4
    assert not can_overrun(7, 2, enemy_holds_castle=False)
    assert can_overrun(8, 2, enemy_holds_castle=False)


def test_no_overrun_against_enemy_units_holding_the_castle() -> None:
    situation = MoveSituation(enemy_count={"hakone": 1}, enemy_holds_castle=frozenset({"hakone"}))
    err = rejects("7.4.3", stack("edo", group(8, ("hakone", "numazu")), leadership=True), situation)
    assert "holding the castle cannot be overrun" in err.message
    ends = validate_stack_move(
        BOARD, stack("edo", group(8, ("hakone",)), leadership=True), situation
    )
    assert ends.overruns == () and ends.engagements == ("hakone",)


def test_a_later_group_of_the_same_stack_can_complete_an_overrun() -> None:
    # Ishida at Osaka (castle controlled: leadership); one Tokugawa block at Ayabe. Two blocks
    # come by Himeji and stop (2 < 4); two more come by Kyoto: 4 present, Overrun, and go on.
    first = group(2, ("himeji", "ayabe"), "a")
    second = group(2, ("kyoto", "ayabe", "miyazu"), "c")
    situation = MoveSituation(enemy_count={"ayabe": 1})
    move = stack("osaka", first | second, side=ISHI, force_marches=[second], leadership=True)
    analysis = validate_stack_move(BOARD, move, situation)
    (overrun,) = analysis.overruns
    assert (overrun.location, overrun.moving_blocks, overrun.blocks_present) == ("ayabe", 2, 4)
    assert analysis.engagements == ()
    # Listed the other way round, the Kyoto group arrives first and must stop.
    reverse = stack("osaka", second | first, side=ISHI, force_marches=[second], leadership=True)
    rejects("7.3.2", reverse, situation)


# --------------------------------------------------------------------------- 7.3.1, 4.1


def test_a_road_used_this_phase_is_closed() -> None:
    used = MoveSituation(used_segments=frozenset({frozenset({"hakone", "numazu"})}))
    err = rejects("7.3.1", stack("edo", group(1, ("hakone", "numazu")), leadership=True), used)
    assert "Hakone-Numazu" in err.message
    reach = legal_destinations(
        BOARD, "edo", 1, side=TOKU, leadership=True, force_march=True, situation=used
    )
    assert "hakone" in reach and "numazu" not in reach and "sunpu" not in reach


def test_groups_may_split_but_never_merge() -> None:
    merge = group(1, ("kyoto", "ayabe", "miyazu"), "a") | group(1, ("himeji", "ayabe", "miyazu"))
    err = rejects(
        "7.3.1", stack("osaka", merge, side=ISHI, force_marches=[["a0"], ["b0"]], leadership=True)
    )
    assert "Ayabe-Miyazu" in err.message
    # Arriving at the same location by different roads is no merge.
    meet = group(1, ("kyoto", "ayabe"), "a") | group(1, ("himeji", "ayabe"))
    validate_stack_move(BOARD, stack("osaka", meet, side=ISHI, leadership=True))


def test_a_road_is_traversed_once_per_move() -> None:
    err = rejects("7.3.1", stack("edo", group(1, ("hakone", "edo")), leadership=True))
    assert "only once" in err.message
    back = group(1, ("kyoto", "ayabe"), "a") | group(1, ("himeji", "ayabe", "kyoto"))
    rejects("7.3.1", stack("osaka", back, side=ISHI, force_marches=[["b0"]], leadership=True))


def test_paths_follow_roads_and_are_not_empty() -> None:
    assert "no road joins Edo and Numazu" in rejects("4.1", stack("edo", {"b": ["numazu"]})).message
    rejects("4.1", stack("edo", {"b": ["atlantis"]}))
    rejects("4.1", stack("atlantis", {"b": ["edo"]}))
    rejects("7.3.1", stack("edo", {"b": []}))
    rejects("7.3.1", stack("edo", {}))


# --------------------------------------------------------------------------- force march


def test_a_force_march_group_moves_together() -> None:
    paths = group(1, ("hakone", "numazu", "sunpu"), "a") | group(1, ("oshi", "takasaki"))
    err = rejects("7.3.3", stack("edo", paths, force_marches=[paths]))
    assert "begin, move and finish together" in err.message
    assert "2 blocks" in err.message and "a0" not in err.message


def test_one_force_march_per_block_and_only_for_moving_blocks() -> None:
    paths = group(2, ("hakone", "numazu", "sunpu"))
    rejects("7.3.3", stack("edo", paths, force_marches=[["b0"], ["b0", "b1"]]))
    rejects("7.3.3", stack("edo", paths, force_marches=[["b0", "b1", "ghost"]]))
    rejects("7.3.3", stack("edo", paths, force_marches=[[]]))


def test_only_the_force_marching_blocks_get_the_bonus() -> None:
    paths = group(1, ("hakone", "numazu", "sunpu"), "a") | group(1, ("hakone", "numazu"))
    analysis = validate_stack_move(BOARD, stack("edo", paths, force_marches=[["a0"]]))
    assert analysis.blocks["a0"].allowance == 3
    assert analysis.blocks["b0"].allowance == 2
    assert analysis.force_march_cards == 1


# --------------------------------------------------------------------------- 4.2


def test_resource_locations_moved_onto_or_through_in_path_order() -> None:
    nakasendo = group(1, ("takasaki", "saku", "suwa", "kiso"))
    analysis = validate_stack_move(
        BOARD, stack("oshi", nakasendo, force_marches=[nakasendo], leadership=True)
    )
    assert analysis.resources == ("takasaki", "kiso")
    reach = legal_destinations(BOARD, "oshi", 1, side=TOKU, leadership=True, force_march=True)
    assert reach["kiso"][0].resources == ("takasaki", "kiso")
    split = group(1, ("tsuruga",), "a") | group(1, ("kyoto",))
    assert validate_stack_move(BOARD, stack("sawayama", split)).resources == ("tsuruga", "kyoto")


# --------------------------------------------------------------------------- explain_move


def test_explain_lists_every_route_and_whether_it_needs_a_card() -> None:
    result = explain_move(
        BOARD, "osaka", "ayabe", 2, side=ISHI, leadership=True, force_march_available=True
    )
    assert result.legal and result.violation is None
    assert {r.path: r.resources for r in result.routes} == {
        ("himeji", "ayabe"): (),
        ("kyoto", "ayabe"): ("kyoto",),
    }
    assert not result.needs_force_march
    far = explain_move(
        BOARD, "edo", "hamamatsu", 4, side=TOKU, leadership=True, force_march_available=True
    )
    assert far.needs_force_march


def test_explain_names_the_size_rule() -> None:
    result = explain_move(
        BOARD, "edo", "sunpu", 9, side=TOKU, leadership=True, force_march_available=True
    )
    assert not result.legal
    assert result.reason is not None
    assert result.reason.startswith("7.3.5: a group of 9 blocks moves at most 2 locations here")
    with pytest.raises(RuleViolation) as caught:
        result.raise_if_illegal()
    assert caught.value.rule == "7.3.5"


def test_explain_without_a_card_says_a_force_march_would_do() -> None:
    result = explain_move(
        BOARD, "edo", "hamamatsu", 4, side=TOKU, leadership=True, force_march_available=False
    )
    assert result.violation is not None and result.violation.rule == "7.3.3"
    assert "force march would add 1" in result.violation.text


def test_explain_names_the_stop_and_the_used_road() -> None:
    stop = explain_move(
        BOARD,
        "sawayama",
        "iwamura",
        2,
        side=ISHI,
        leadership=True,
        force_march_available=True,
        situation=MoveSituation(enemy_count={"gifu": 1}),
    )
    assert stop.reason is not None and stop.reason.startswith("7.3.2: must stop at Gifu")
    used = explain_move(
        BOARD,
        "iwamura",
        "suwa",
        1,
        side=ISHI,
        leadership=False,
        force_march_available=True,
        situation=MoveSituation(used_segments=frozenset({frozenset({"kiso", "iwamura"})})),
    )
    assert used.reason == "7.3.1: road Iwamura-Kiso has already been used this Movement Phase"


def test_explain_out_of_range_and_standing_still() -> None:
    far = explain_move(
        BOARD, "edo", "osaka", 1, side=TOKU, leadership=True, force_march_available=True
    )
    assert far.violation is not None and far.violation.rule == "7.3.3"
    assert "more than 4 locations from Edo" in far.violation.text
    still = explain_move(
        BOARD, "edo", "edo", 1, side=TOKU, leadership=True, force_march_available=True
    )
    assert still.violation is not None and still.violation.rule == "7.3.1"
    with pytest.raises(ValueError):
        explain_move(
            BOARD, "edo", "atlantis", 1, side=TOKU, leadership=True, force_march_available=True
        )


# --------------------------------------------------------------------------- plumbing


def test_a_picked_route_becomes_a_stack_move() -> None:
    (route,) = explain_move(
        BOARD, "edo", "hamamatsu", 4, side=TOKU, leadership=True, force_march_available=True
    ).routes
    move = StackMove.together(
        TOKU, route, ["w", "x", "y", "z"], leadership=True, force_march=route.needs_force_march
    )
    analysis = validate_stack_move(BOARD, move)
    assert analysis.segments == route.segments and analysis.force_march_cards == 1


SECRET = "T07-ii-4mon-leader"


@pytest.mark.parametrize(
    ("move", "situation"),
    [
        (stack("edo", {SECRET: TOKAIDO_FROM_EDO}), MoveSituation()),
        (stack("edo", {SECRET: ("hakone", "numazu")}), MoveSituation(enemy_count={"hakone": 1})),
        (stack("edo", {SECRET: ("numazu",)}), MoveSituation()),
        (stack("edo", {SECRET: ()}), MoveSituation()),
        (
            stack("edo", {SECRET: ("hakone",), "x": ("oshi",)}, force_marches=[[SECRET, "x"]]),
            MoveSituation(),
        ),
        (stack("edo", {SECRET: ("hakone", "edo")}, leadership=True), MoveSituation()),
    ],
)
def test_rejections_never_name_a_block(move: StackMove, situation: MoveSituation) -> None:
    with pytest.raises(RuleViolation) as caught:
        validate_stack_move(BOARD, move, situation)
    assert SECRET not in str(caught.value)


def test_the_worked_example_in_docs_movement() -> None:
    situation = MoveSituation(
        enemy_count={"hakone": 1, "saku": 2},
        used_segments=frozenset({frozenset({"edo", "mito"})}),
    )
    tokaido = group(4, TOKAIDO_FROM_EDO, "t")
    move = stack(
        "edo",
        tokaido | group(2, ("oshi", "takasaki"), "n"),
        force_marches=[tokaido],
        leadership=True,
    )
    analysis = validate_stack_move(BOARD, move, situation)
    (overrun,) = analysis.overruns
    assert (overrun.location, overrun.moving_blocks, overrun.blocks_present) == ("hakone", 4, 4)
    assert overrun.enemy_units == 1
    assert analysis.resources == ("takasaki",)
    assert analysis.force_march_cards == 1 and analysis.engagements == ()
    assert analysis.blocks["t0"].allowance == 4 and analysis.blocks["n0"].allowance == 3
    assert len(analysis.segments) == 6
    explained = explain_move(
        BOARD,
        "edo",
        "numazu",
        2,
        side=TOKU,
        leadership=True,
        force_march_available=True,
        situation=situation,
    )
    assert explained.reason == (
        "7.3.2: must stop at Hakone: 2 blocks cannot overrun 1 enemy unit (that needs 4)"
    )
    reach = legal_destinations(
        BOARD, "edo", 2, side=TOKU, leadership=True, force_march=False, situation=situation
    )
    assert list(reach) == ["oshi", "hakone", "oyama", "takasaki", "utsunomiya", "saku"]


def test_explain_prefers_the_distance_rule_when_no_route_is_within_reach() -> None:
    used = MoveSituation(used_segments=frozenset({frozenset({"edo", "hakone"})}))
    big = explain_move(
        BOARD,
        "edo",
        "numazu",
        9,
        side=TOKU,
        leadership=True,
        force_march_available=False,
        situation=used,
    )
    assert big.reason is not None
    assert big.reason.startswith("7.3.5: a group of 9 blocks moves at most 1 location here")
    small = explain_move(
        BOARD,
        "edo",
        "numazu",
        1,
        side=TOKU,
        leadership=True,
        force_march_available=False,
        situation=used,
    )
    assert small.reason == "7.3.1: road Edo-Hakone has already been used this Movement Phase"
