"""Set-up (3, 9), deployment turns (5.I.1), swords and the card lock (5.I.2, 8, 9), views."""

from __future__ import annotations

import pytest
from _tenka_kit import CASTLES, B, K, R, Y, mv, start

from companion.core.game import Accepted, Game, Rejection, replay
from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Daimyo, Tactic
from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    Deploy,
    PlayDaimyo,
    PlayTactic,
    SwordTaken,
    TenkaCommand,
    TenkaEvent,
    WarFought,
)
from companion.games.tenka_meidou.rulebook import cited, default_rules
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.views import player_view, public_event, public_view

RULES = TenkaRules()


def game(*commands: TenkaCommand) -> Game[State, TenkaCommand, TenkaEvent]:
    g: Game[State, TenkaCommand, TenkaEvent] = Game(RULES)
    for c in commands:
        result = g.submit(c)
        assert isinstance(result, Accepted), result
    return g


def rejected(g: Game[State, TenkaCommand, TenkaEvent], command: TenkaCommand) -> Rejection:
    before = g.state
    result = g.submit(command)
    assert isinstance(result, Rejection), result
    assert g.state == before  # a rejection loses nothing and changes nothing
    return result


@pytest.mark.parametrize(("n", "offer", "swords"), [(2, 3, (2, 1)), (3, 4, (3, 2, 1)),
                                                     (4, 5, (4, 3, 2, 1))])
def test_3_setup_for_2_3_and_4_players(n: int, offer: int, swords: tuple[int, ...]) -> None:
    players = (R, B, Y, K)[:n]
    g = game(start(players))
    assert g.state.phase is Phase.DEPLOYMENT and g.state.reserve == {c: 18 for c in players}
    assert len(g.state.tactic_offer) == offer
    assert RULES.components.table(n).swords == swords
    bad = start(players).model_copy(update={"tactic_offer": tuple(list(Tactic)[:offer + 1])})
    assert rejected(game(), bad).rule == "3.3"


def test_3_2_every_zone_takes_one_large_castle_token() -> None:
    assert rejected(game(), start().model_copy(
        update={"castles": {**CASTLES, "oko": 2}})).rule == "3.2"
    assert rejected(game(), start().model_copy(update={"players": (R,)})).rule == "1"
    assert rejected(game(), start().model_copy(update={"players": (R, R)})).rule == "1"


def test_9_advanced_setup_daimyo_chosen_counter_clockwise_from_the_first_players_right() -> None:
    g = game(start((R, B, Y), advanced=True))
    assert g.state.phase is Phase.DAIMYO and g.state.reserve[R] == 16
    assert rejected(g, ChooseDaimyo(colour=R, card=Daimyo.UESUGI_KENSHIN)).rule == "9"
    not_offered = rejected(g, ChooseDaimyo(colour=Y, card=Daimyo.OTOMO_SORIN))
    assert not_offered.rule == "9" and "otomo" not in not_offered.message  # said face down
    assert not_offered.private is not None and "otomo_sorin" in not_offered.private
    for colour, card in ((Y, Daimyo.UESUGI_KENSHIN), (B, Daimyo.ODA_NOBUNAGA),
                         (R, Daimyo.TAKEDA_SHINGEN)):
        assert isinstance(g.submit(ChooseDaimyo(colour=colour, card=card)), Accepted)
    assert g.state.phase is Phase.DEPLOYMENT and g.state.current == R
    assert g.state.daimyo_offer == ()  # the card left over goes back to the box


def test_5_I_1_the_pair_names_the_zone_and_the_single_die_the_soldiers() -> None:
    # The rulebook's example: 3, 4, 5 split 3+5 and 4 places 2 soldiers on the castle 8.
    g = game(start(), Deploy(colour=R, rolls=((3, 4, 5),), single=4))
    assert g.state.soldiers["kasugayama"] == {R: 2} and g.state.reserve[R] == 16
    assert g.state.current == B
    for die, n in ((1, 1), (2, 1), (3, 2), (5, 3), (6, 3)):
        assert RULES.components.die_to_soldiers[die] == n


def test_5_I_1_one_full_reroll_and_the_dice_as_rolled() -> None:
    g = game(start())
    g2 = game(start(), Deploy(colour=R, rolls=((1, 1, 1), (6, 6, 2)), single=2))
    assert g2.state.soldiers["kiyosu"] == {R: 1}  # the second roll counts
    assert rejected(g, Deploy(colour=R, rolls=((1, 1, 1),) * 3, single=1)).rule == "5.I.1"
    assert rejected(g, Deploy(colour=R, rolls=((1, 2, 7),), single=1)).rule == "5.I.1"
    assert rejected(g, Deploy(colour=R, rolls=((1, 2, 3),), single=4)).rule == "5.I.1"
    assert rejected(g, Deploy(colour=B, rolls=((1, 2, 3),), single=1)).rule == "5.I"


def test_5_I_short_reserve_swords_by_finishing_order_and_the_card_lock() -> None:
    # a table deep into the deployment phase: red has 2 soldiers left, blue 5
    state = game(start((R, B))).state.model_copy(update={"reserve": {R: 2, B: 5}})
    events = RULES.handle(state, Deploy(colour=R, rolls=((6, 6, 6),), single=6))
    assert events[0].soldiers == 2  # type: ignore[union-attr]  # 3 wanted, 2 left (5.I.1)
    assert events[1] == SwordTaken(colour=R, sword=2)  # the highest sword in play (5.I)
    after = state
    for e in events:
        after = RULES.apply(after, e)
    assert after.locked and after.current == B  # red is skipped from now on
    with pytest.raises(RuleViolation) as exc:
        RULES.handle(after, PlayTactic(colour=B, card=Tactic.APOYO,
                                       moves=(mv(B, "reserve", "kiyosu"),)))
    assert exc.value.rule == "5.I.2"
    last = RULES.handle(after.model_copy(update={"reserve": {R: 0, B: 3}}),
                        Deploy(colour=B, rolls=((6, 6, 5),), single=5))
    assert last[1] == SwordTaken(colour=B, sword=1)
    assert isinstance(last[2], WarFought)


def test_9_the_daimyo_deploys_in_place_of_a_soldier_and_must_when_soldiers_run_short() -> None:
    g = game(start((R, B), advanced=True), ChooseDaimyo(colour=B, card=Daimyo.ODA_NOBUNAGA),
             ChooseDaimyo(colour=R, card=Daimyo.MORI_MOTONARI),
             Deploy(colour=R, rolls=((1, 1, 5),), single=5, daimyo=True))
    assert g.state.daimyo_at == {R: "tsutsujigasaki"} and g.state.soldiers["tsutsujigasaki"] == {
        R: 2}
    state = g.state.model_copy(update={"reserve": {R: 0, B: 1}, "last_actor": R})
    with pytest.raises(RuleViolation) as exc:
        RULES.handle(state, Deploy(colour=B, rolls=((1, 1, 5),), single=5))
    assert exc.value.rule == "5.I.1" and "TM2" in exc.value.message
    events = RULES.handle(state, Deploy(colour=B, rolls=((1, 1, 5),), single=5, daimyo=True))
    assert events[0].soldiers == 1 and events[1] == SwordTaken(  # type: ignore[union-attr]
        colour=B, sword=2)


def test_5_I_2_one_tactic_per_player_per_game_from_the_offer() -> None:
    offer = (Tactic.APOYO, Tactic.NINJA, Tactic.EXPLORAR, Tactic.RETIRADA)
    g = game(start(offer=offer), Deploy(colour=R, rolls=((1, 1, 6),), single=6),
             Deploy(colour=B, rolls=((1, 1, 6),), single=6),
             Deploy(colour=Y, rolls=((1, 1, 6),), single=6),
             PlayTactic(colour=R, card=Tactic.APOYO, moves=(mv(R, "reserve",
                                                               "tsutsujigasaki"),)))
    assert g.state.soldiers["tsutsujigasaki"][R] == 4 and Tactic.APOYO not in g.state.tactic_offer
    assert rejected(g, PlayTactic(colour=B, card=Tactic.APOYO, moves=(
        mv(B, "reserve", "tsutsujigasaki"),))).rule == "5.I.2"  # taken by red
    assert rejected(g, PlayTactic(colour=B, card=Tactic.SENUELO, moves=())).rule == "5.I.2"
    game_on = [Deploy(colour=B, rolls=((1, 1, 1),), single=1),
               Deploy(colour=Y, rolls=((1, 1, 1),), single=1)]
    for c in game_on:
        g.submit(c)
    assert rejected(g, PlayTactic(colour=R, card=Tactic.NINJA, moves=(
        mv(R, "tsutsujigasaki", "tsutsujigasaki"),))).rule == "5.I.2"  # already used one


def test_9_views_hide_the_face_down_daimyo_until_it_is_used() -> None:
    g = game(start((R, B), advanced=True), ChooseDaimyo(colour=B, card=Daimyo.ODA_NOBUNAGA),
             ChooseDaimyo(colour=R, card=Daimyo.MORI_MOTONARI),
             Deploy(colour=R, rolls=((1, 1, 5),), single=5, daimyo=True))
    public = public_view(g.state).payload
    assert public.daimyo == {R: None, B: None}
    assert "mori_motonari" not in public.model_dump_json()
    assert player_view(g.state, R).payload.daimyo[R] is Daimyo.MORI_MOTONARI
    assert player_view(g.state, R).payload.daimyo[B] is None
    assert all("card" not in public_event(e) for e in g.events if e.type == "daimyo_chosen")
    g.submit(Deploy(colour=B, rolls=((1, 1, 5),), single=5))
    assert isinstance(g.submit(PlayDaimyo(colour=R, moves=(mv(R, "reserve", "kyoto"),))),
                      Accepted)
    assert public_view(g.state).payload.daimyo[R] is Daimyo.MORI_MOTONARI
    assert rejected(g, PlayDaimyo(colour=B, moves=())).rule in {"10", "9"}


def test_9_the_public_view_of_the_daimyo_choice_says_who_chose_never_what() -> None:
    """Section 9: each player takes a card from the face-up offer and lays it "delante
    bocabajo" (face down in front of them). Two choices that differ only in who took which card
    must look the same in the public view at every step: neither the cards chosen nor what is
    left of the offer (which would tell them apart) is shown. The offer as dealt is face up, so
    the set-up event keeps it; the chooser alone sees what is left to choose from."""
    picks = {"a": (Daimyo.UESUGI_KENSHIN, Daimyo.ODA_NOBUNAGA, Daimyo.TAKEDA_SHINGEN),
             "b": (Daimyo.ODA_NOBUNAGA, Daimyo.TAKEDA_SHINGEN, Daimyo.UESUGI_KENSHIN)}
    seen: dict[str, list[str]] = {"a": [], "b": []}
    for world, cards in picks.items():
        g = game(start((R, B, Y), advanced=True))
        for colour, card in zip((Y, B, R), cards, strict=True):
            assert player_view(g.state, colour).payload.daimyo_offer == g.state.daimyo_offer
            others = [c for c in (R, B, Y) if c != colour]
            assert all(player_view(g.state, c).payload.daimyo_offer == () for c in others)
            g.submit(ChooseDaimyo(colour=colour, card=card))
            public = public_view(g.state).payload
            assert public.daimyo_offer == () and set(public.daimyo.values()) == {None}
            seen[world].append(public.model_dump_json())
        g.submit(Deploy(colour=R, rolls=((1, 1, 5),), single=5))
        seen[world].append(public_view(g.state).payload.model_dump_json())
        dealt = public_event(g.events[0])["daimyo_offer"]
        assert dealt == [c.value for c in start((R, B, Y), advanced=True).daimyo_offer]
    assert len(seen["a"]) == 4 and seen["a"] == seen["b"]


def test_events_are_the_source_of_truth_replay_rebuilds_the_game() -> None:
    g = game(start(), Deploy(colour=R, rolls=((3, 4, 5),), single=4))
    assert replay(RULES, g.events) == g.state


def test_5_a_command_in_another_players_name_is_refused_whatever_the_position() -> None:
    g = game(start())
    refused = g.submit(Deploy(colour=R, rolls=((3, 4, 5),), single=4), by=str(B))
    assert isinstance(refused, Rejection) and refused.rule == "5"
    assert refused.message == f"{B} cannot act for {R}"
    assert isinstance(g.submit(Deploy(colour=R, rolls=((3, 4, 5),), single=4), by=str(R)),
                      Accepted)


def test_tm9_and_tm10_have_summaries_and_a_two_digit_clarification_is_cited() -> None:
    assert "36" in default_rules().cite("TM9")
    assert default_rules().cite("TM10").startswith("TM10 A Daimyo alone and the cards:")
    assert cited("no soldier pawns there (TM10)") == "TM10"
    assert cited("the Daimyo must go too (TM2)") == "TM2"
