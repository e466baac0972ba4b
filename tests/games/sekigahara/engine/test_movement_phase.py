"""The Movement Phase (7.1-7.3, 8.9.6, 9.3) and its rejections, each asserting its rule."""

from __future__ import annotations

from _engine_kit import ISH, TOK, of_type, ok, pick, position, rejected

from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import MORI_LEADER
from companion.games.sekigahara.engine.queries import (
    explain_stack_move,
    legal_destinations,
    movable_stacks,
)
from companion.games.sekigahara.engine.state import DEAD, MORI_BOX, RECRUITMENT, Level, Phase

T4 = pick(TOK, 4)


def move(side: object, origin: str, blocks: list[str], *path: str,
         march: bool = False) -> cm.MoveStack:
    return cm.MoveStack(side=side, origin=origin, paths={b: tuple(path) for b in blocks},
                        force_marches=(tuple(blocks),) if march else ())


def test_movement_is_bought_first_and_costs_cards() -> None:
    game = position({"sunpu": T4}, hands=1)
    rejected(game, move(TOK, "sunpu", T4[:1], "hamamatsu"), "7.1")
    rejected(game, cm.BuyMovement(side=TOK, level=Level.TOTAL), "7.1")
    rejected(game, cm.BuyMovement(side=ISH, level=Level.MINIMAL), "6.4")
    ok(game, cm.BuyMovement(side=TOK, level=Level.LIMITED))
    assert game.state.hand[TOK] == 0 and game.state.discard[TOK] == 4 + 1
    rejected(game, cm.BuyMovement(side=TOK, level=Level.LIMITED), "7.1")


def test_no_movement_replaces_cards_and_moves_nothing() -> None:
    game = position({"sunpu": T4})
    ok(game, cm.BuyMovement(side=TOK, level=Level.NONE, replace=3))
    assert game.state.hand[TOK] == 5 and game.state.discard[TOK] == 3
    rejected(game, move(TOK, "sunpu", T4[:1], "hamamatsu"), "7.1")
    rejected(game, cm.BuyMovement(side=TOK, level=Level.MINIMAL, replace=1), "7.1")


def test_minimal_movement_one_stack_and_limited_three() -> None:
    game = position({"sunpu": T4}, level=Level.MINIMAL)
    ok(game, move(TOK, "sunpu", T4[:1], "hamamatsu"))
    rejected(game, move(TOK, "sunpu", T4[1:2], "numazu"), "7.1")
    game = position({"sunpu": T4[:2], "numazu": T4[2:]}, level=Level.LIMITED)
    ok(game, move(TOK, "sunpu", T4[:1], "hamamatsu"))
    ok(game, move(TOK, "numazu", T4[2:3], "hakone"))
    ok(game, cm.EndPhase(side=TOK))
    assert game.state.phase is Phase.COMBAT


def test_one_move_per_block_and_each_road_once() -> None:
    game = position({"sunpu": T4[:2], "okazaki": T4[2:3]}, level=Level.TOTAL)
    ok(game, move(TOK, "sunpu", T4[:1], "hamamatsu"))
    rejected(game, move(TOK, "hamamatsu", T4[:1], "okazaki"), "7.3.1")
    rejected(game, move(TOK, "okazaki", T4[2:3], "hamamatsu", "sunpu"), "7.3.1")  # road used


def test_a_location_is_the_source_of_one_move_per_phase() -> None:
    """C13 (7.3.1): blocks left behind by a move stay; they do not make a second move later,
    even under Total Movement. Splitting within the one move is the way to send them apart."""
    other = pick(TOK, 1, exclude=T4)
    game = position({"sunpu": T4, "okazaki": other}, level=Level.TOTAL)
    ok(game, move(TOK, "sunpu", T4[:1], "hamamatsu"))
    ok(game, move(TOK, "okazaki", other, "kiyosu"))
    refused = rejected(game, move(TOK, "sunpu", T4[1:], "numazu"), "C13")
    assert "sunpu" in refused.message
    assert "sunpu" not in movable_stacks(game.state, TOK)
    game = position({"sunpu": T4}, level=Level.TOTAL)
    ok(game, cm.MoveStack(side=TOK, origin="sunpu",
                          paths={T4[0]: ("hamamatsu",), **{b: ("numazu",) for b in T4[1:]}}))
    assert sorted(game.state.pos[b] for b in T4) == ["hamamatsu", "numazu", "numazu", "numazu"]


def test_distance_highway_leadership_force_march_and_size() -> None:
    game = position({"sunpu": T4}, level=Level.TOTAL)
    # 1 + highway: two locations on highways, a third needs a force march card
    east = {b: ("numazu", "hakone", "edo") for b in T4[2:]}
    west = {b: ("hamamatsu", "okazaki") for b in T4[:2]}
    rejected(game, cm.MoveStack(side=TOK, origin="sunpu", paths={**west, **east}), "7.3.3")
    hand = game.state.hand[TOK]
    ok(game, cm.MoveStack(side=TOK, origin="sunpu", paths={**west, **east},
                          force_marches=(tuple(T4[2:]),)))
    assert game.state.hand[TOK] == hand - 1
    big = pick(TOK, 5)
    game = position({"sunpu": big}, level=Level.TOTAL)
    rejected(game, move(TOK, "sunpu", big, "numazu", "hakone"), "7.3.5")


def test_leadership_from_a_leader_gives_plus_one() -> None:
    leader = pick(TOK, 1, clan=Clan.DATE, leader=True)
    game = position({"sunpu": leader + T4[:1]}, level=Level.TOTAL)
    ok(game, move(TOK, "sunpu", leader + T4[:1], "hamamatsu", "okazaki", "kiyosu"))


def test_moving_blocks_stop_on_enemy_units() -> None:
    game = position({"sunpu": T4[:1], "hamamatsu": pick(ISH, 1)}, level=Level.TOTAL)
    rejected(game, move(TOK, "sunpu", T4[:1], "hamamatsu", "okazaki"), "7.3.2")
    ok(game, move(TOK, "sunpu", T4[:1], "hamamatsu"))
    assert "hamamatsu" in game.state.pos.values()


def test_resource_control_goes_to_the_last_mover_through_it() -> None:
    game = position({"iwamura": T4[:1]}, level=Level.TOTAL)
    assert game.state.resource_control["kiso"] is None
    ok(game, move(TOK, "iwamura", T4[:1], "kiso", "suwa"))
    assert game.state.resource_control["kiso"] is TOK


def test_besieged_blocks_cannot_leave() -> None:
    inside = pick(ISH, 1)
    game = position(
        {"gifu": inside + T4}, active=ISH, level=Level.TOTAL,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    rejected(game, move(ISH, "gifu", inside, "sawayama"), "8.9.6")
    # the besiegers may leave freely (8.9.6)
    game = position(
        {"gifu": inside + T4}, active=TOK, level=Level.TOTAL,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    ok(game, move(TOK, "gifu", T4[:1], "kiyosu"))


def test_muster_options_limits_and_no_move_after() -> None:
    date = pick(TOK, 2, clan=Clan.DATE, leader=False)
    maeda = pick(TOK, 1, clan=Clan.MAEDA, leader=False)
    game = position({RECRUITMENT: date + maeda, "sunpu": T4[:1]}, level=Level.MINIMAL)
    rejected(game, cm.Muster(side=TOK, location="edo", blocks=tuple(date), option="A"), "7.2")
    rejected(game, cm.Muster(side=TOK, location="sendai", blocks=(*date, *maeda), option="A"),
             "7.2")
    rejected(game, cm.Muster(side=TOK, location="edo", blocks=tuple(date), option="B"), "7.2")
    rejected(game, cm.Muster(side=TOK, location="osaka", blocks=tuple(maeda), option="B"), "7.2")
    events = ok(game, cm.Muster(side=TOK, location="sendai", blocks=tuple(date), option="A"))
    assert of_type(events, ev.Mustered)
    rejected(game, move(TOK, "sendai", date, "soma"), "7.1")  # minimal: muster took the move
    game = position({RECRUITMENT: date + maeda}, level=Level.TOTAL)
    ok(game, cm.Muster(side=TOK, location="edo", blocks=tuple(maeda), option="B"))
    rejected(game, move(TOK, "edo", maeda, "hakone"), "7.2")
    rejected(game, cm.Muster(side=TOK, location="sendai", blocks=tuple(date), option="A"),
             "7.2")  # once per turn


def test_mustering_into_combat_only_in_support() -> None:
    box = pick(TOK, 1, clan=Clan.TOKUGAWA, leader=False, exclude=T4)
    enemy = pick(ISH, 1)
    game = position({RECRUITMENT: box, "edo": enemy}, level=Level.TOTAL)
    rejected(game, cm.Muster(side=TOK, location="edo", blocks=tuple(box), option="A"), "7.2")
    game = position({RECRUITMENT: box, "edo": enemy + T4[:1]}, level=Level.TOTAL)
    ok(game, cm.Muster(side=TOK, location="edo", blocks=tuple(box), option="A"))


def test_mori_blocks_arrive_one_per_card_leader_last_and_stay() -> None:
    game = position({"kyoto": pick(ISH, 1)}, active=ISH, level=Level.TOTAL)
    box = sorted(b for b, z in game.state.pos.items() if z == MORI_BOX)
    others = [b for b in box if b != MORI_LEADER]
    rejected(game, cm.BringMori(blocks=(MORI_LEADER,)), "9.3")
    rejected(game, cm.BringMori(blocks=(MORI_LEADER, *others)), "9.3")
    hand = game.state.hand[ISH]
    ok(game, cm.BringMori(blocks=tuple(others[:2])))
    assert game.state.hand[ISH] == hand - 2
    assert [game.state.pos[b] for b in others[:2]] == ["osaka", "osaka"]
    rejected(game, move(ISH, "osaka", others[:1], "kyoto"), "9.3")
    tok = position({"kyoto": pick(ISH, 1)}, active=TOK, level=Level.TOTAL)
    rejected(tok, cm.BringMori(side=TOK, blocks=tuple(others[:1])), "9.3")


def test_queries_give_destinations_with_routes_and_explain_moves() -> None:
    game = position({"kyoto": T4[:1]}, level=Level.TOTAL)
    dests = legal_destinations(game.state, TOK, "kyoto", tuple(T4[:1]), force_march=False)
    assert "gifu" in dests and "osaka" in dests
    assert all(r.path[-1] == loc for loc, routes in dests.items() for r in routes)
    explained = explain_stack_move(game.state, TOK, "kyoto", "kuwana", tuple(T4[:1]))
    assert explained.legal and all(r.path[-1] == "kuwana" for r in explained.routes)
    far = explain_stack_move(game.state, TOK, "kyoto", "edo", tuple(T4[:1]))
    assert not far.legal and far.violation is not None


def test_overrun_during_a_move_and_the_stack_continues() -> None:
    friends = pick(TOK, 6, exclude=T4[:2])
    enemy = pick(ISH, 2)
    game = position({"sunpu": T4[:2], "hamamatsu": friends + enemy}, level=Level.TOTAL)
    hand = game.state.hand[ISH]
    events = ok(game, move(TOK, "sunpu", T4[:2], "hamamatsu", "okazaki"))
    overrun = of_type(events, ev.Overrun)
    assert overrun and all(game.state.pos[b] == DEAD for b in enemy)
    assert game.state.hand[ISH] == hand + 1  # C1: one card per two blocks lost
    assert all(game.state.pos[b] == "okazaki" for b in T4[:2])


def test_a_stack_may_drop_off_blocks_and_split_but_not_pick_up() -> None:
    game = position({"okazaki": T4, "hamamatsu": pick(TOK, 1, clan=Clan.DATE)},
                    level=Level.TOTAL)
    paths = {T4[0]: ("kiyosu",), T4[1]: ("kiyosu", "kuwana"), T4[2]: ("hamamatsu",),
             T4[3]: ("hamamatsu", "sunpu")}
    events = ok(game, cm.MoveStack(side=TOK, origin="okazaki", paths=paths))
    moved = of_type(events, ev.StackMoved)[0]
    assert isinstance(moved, ev.StackMoved) and len(moved.segments) == 4
    assert [game.state.pos[b] for b in T4] == ["kiyosu", "kuwana", "hamamatsu", "sunpu"]
    assert game.state.resource_control["kuwana"] is TOK


def test_mori_blocks_arriving_in_a_tokugawa_attack_stay_put_for_the_rest_of_the_turn() -> None:
    box = tuple(sorted(b for b, z in position({}).state.pos.items() if z == MORI_BOX))
    toks = pick(TOK, 1)
    game = position({"osaka": toks}, phase=Phase.COMBAT, active=TOK, first=TOK)
    ok(game, cm.DeclareCombat(side=TOK, location="osaka"))  # 9.3: the box comes in
    assert all(game.state.pos[b] == "osaka" for b in box)  # and overruns the lone attacker
    ok(game, cm.EndPhase(side=TOK))
    ok(game, cm.BuyMovement(side=ISH, level=Level.TOTAL))
    rejected(game, move(ISH, "osaka", list(box[:1]), "kyoto"), "9.3")  # same turn A
    ok(game, cm.EndPhase(side=ISH))
    ok(game, cm.EndPhase(side=ISH))
    ok(game, cm.BuyMovement(side=TOK, level=Level.NONE))
    ok(game, cm.EndPhase(side=TOK))
    ok(game, cm.EndPhase(side=TOK))
    ok(game, cm.BuyMovement(side=ISH, level=Level.TOTAL))  # turn B: free to move
    ok(game, move(ISH, "osaka", list(box[:1]), "kyoto"))
