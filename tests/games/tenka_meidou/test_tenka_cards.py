"""The 12 tactic cards (section 7) and the 6 Daimyo cards (section 10): every legality
condition, each card's full effect accepted and each way to fall short rejected."""

from __future__ import annotations

import pytest
from _tenka_kit import B, R, Y, mv, start

from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Daimyo, Tactic
from companion.games.tenka_meidou.events import PlayDaimyo, PlayTactic
from companion.games.tenka_meidou.rules import FACE_DOWN_REFUSAL, TenkaRules
from companion.games.tenka_meidou.state import PawnMove, State
from companion.games.tenka_meidou.war import fight_war

RULES = TenkaRules()
BASE = RULES.apply(RULES.initial_state(), RULES.start(RULES.initial_state(), start(
    (R, B, Y), offer=tuple(Tactic)[:4])))

# Red: 3 in kyoto, 1 in oko, 1 in shuri (an island: no land border), Daimyo in kiyosu with 2.
# Blue: 2 in kyoto, 1 in oko, 1 in kiyosu. Yellow: 1 in kyoto, 2 in kiyosu.
TABLE = BASE.model_copy(update={
    "soldiers": {**BASE.soldiers, "kyoto": {R: 3, B: 2, Y: 1}, "oko": {R: 1, B: 1},
                 "shuri": {R: 1}, "kiyosu": {R: 2, B: 1, Y: 2}},
    "reserve": {R: 9, B: 14, Y: 15}, "advanced": True, "daimyo_at": {R: "kiyosu"},
    "tactic_offer": tuple(Tactic)})


def tactic(card: Tactic, *moves: PawnMove, state: State = TABLE) -> State:
    events = RULES.handle(state, PlayTactic(colour=R, card=card, moves=moves))
    return RULES.apply(state, events[0])


def refused(card: Tactic | Daimyo, *moves: PawnMove, state: State = TABLE) -> str:
    if isinstance(card, Tactic):
        command: PlayTactic | PlayDaimyo = PlayTactic(colour=R, card=card, moves=moves)
    else:
        command = PlayDaimyo(colour=R, moves=moves)
        state = state.model_copy(update={"daimyo": {R: card}})
    with pytest.raises(RuleViolation) as exc:
        RULES.handle(state, command)
    assert exc.value.rule in {"7", "10", "9"}
    if isinstance(exc.value, HiddenViolation):  # the card's own text: its owner's eyes only
        assert isinstance(card, Daimyo) and exc.value.message == FACE_DOWN_REFUSAL
        assert exc.value.private is not None
        return exc.value.private
    return exc.value.message


def daimyo(card: Daimyo, *moves: PawnMove, state: State = TABLE) -> State:
    state = state.model_copy(update={"daimyo": {R: card}})
    return RULES.apply(state, RULES.handle(state, PlayDaimyo(colour=R, moves=moves))[0])


def test_7_explorar_one_soldier_to_an_adjacent_zone() -> None:
    assert tactic(Tactic.EXPLORAR, mv(R, "kyoto", "oko")).soldiers["oko"] == {R: 2, B: 1}
    assert "not adjacent" in refused(Tactic.EXPLORAR, mv(R, "kyoto", "shuri"))
    assert "exactly 1" in refused(Tactic.EXPLORAR, mv(R, "kyoto", "oko", 2))
    assert "own soldiers" in refused(Tactic.EXPLORAR, mv(B, "kyoto", "oko"))
    assert "in full" in refused(Tactic.EXPLORAR, mv(R, "usuki", "oko"))


def test_7_cruzar_la_montana_two_soldiers_across_land_only() -> None:
    assert tactic(Tactic.CRUZAR_MONTANA, mv(R, "kyoto", "kiyosu", 2)).soldiers["kiyosu"][R] == 4
    assert "joined by land" in refused(Tactic.CRUZAR_MONTANA, mv(R, "kyoto", "oko", 2))
    assert "exactly 2" in refused(Tactic.CRUZAR_MONTANA, mv(R, "kyoto", "kiyosu", 1))
    # the rulebook's example: soldiers only on a zone surrounded by sea cannot cross mountains
    assert "joined by land" in refused(Tactic.CRUZAR_MONTANA, mv(R, "shuri", "usuki", 2))
    assert "in full" in refused(Tactic.CRUZAR_MONTANA, mv(R, "odawara", "kiyosu", 2))


def test_7_cruzar_el_mar_two_soldiers_across_the_sea_only() -> None:
    assert tactic(Tactic.CRUZAR_MAR, mv(R, "kyoto", "oko", 2)).soldiers["oko"][R] == 3
    assert "joined by sea" in refused(Tactic.CRUZAR_MAR, mv(R, "kyoto", "kiyosu", 2))


def test_7_dividir_el_ejercito_half_rounded_down_from_two_or_more() -> None:
    assert tactic(Tactic.DIVIDIR_EJERCITO, mv(R, "kyoto", "kiyosu", 1)).soldiers["kyoto"][R] == 2
    assert "exactly 1" in refused(Tactic.DIVIDIR_EJERCITO, mv(R, "kyoto", "kiyosu", 2))
    assert "2 or more" in refused(Tactic.DIVIDIR_EJERCITO, mv(R, "oko", "kyoto", 0 + 1))


def test_7_ninja_one_soldier_to_any_zone_holding_your_soldiers() -> None:
    assert tactic(Tactic.NINJA, mv(R, "shuri", "kiyosu")).soldiers["kiyosu"][R] == 3
    assert "no soldier pawns in usuki" in refused(Tactic.NINJA, mv(R, "kyoto", "usuki"))
    # a zone holding only red's Daimyo is not a zone with red soldier pawns (section 9)
    alone = TABLE.model_copy(update={"daimyo_at": {R: "tokuyama"}})
    assert "no soldier pawns" in refused(Tactic.NINJA, mv(R, "kyoto", "tokuyama"), state=alone)


def test_7_ocupar_kioto_any_number_from_adjacent_zones_into_kyoto() -> None:
    after = tactic(Tactic.OCUPAR_KIOTO, mv(R, "oko", "kyoto"), mv(R, "kiyosu", "kyoto", 2))
    assert after.soldiers["kyoto"][R] == 6
    assert "TM3" in refused(Tactic.OCUPAR_KIOTO)
    assert "not adjacent" in refused(Tactic.OCUPAR_KIOTO, mv(R, "shuri", "kyoto"))
    assert "into kyoto only" in refused(Tactic.OCUPAR_KIOTO, mv(R, "kyoto", "oko"))


def test_7_apoyo_one_soldier_from_the_reserve_where_you_have_soldiers() -> None:
    assert tactic(Tactic.APOYO, mv(R, "reserve", "shuri")).reserve[R] == 8
    assert "no soldier pawns" in refused(Tactic.APOYO, mv(R, "reserve", "usuki"))
    empty = TABLE.model_copy(update={"reserve": {R: 0, B: 14, Y: 15}})
    assert "in full" in refused(Tactic.APOYO, mv(R, "reserve", "shuri"), state=empty)


def test_7_rebelion_a_rival_soldier_home_and_one_of_yours_in_its_place() -> None:
    after = tactic(Tactic.REBELION, mv(B, "oko", "reserve"), mv(R, "reserve", "oko"))
    assert after.soldiers["oko"] == {R: 2} and after.reserve[B] == 15
    assert "comes from your reserve to oko" in refused(
        Tactic.REBELION, mv(B, "oko", "reserve"), mv(R, "reserve", "kyoto"))


def test_7_exilio_a_rival_soldier_out_of_a_zone_where_you_have_soldiers() -> None:
    assert tactic(Tactic.EXILIO, mv(Y, "kyoto", "oko")).soldiers["oko"][Y] == 1
    bare = TABLE.model_copy(update={"soldiers": {**TABLE.soldiers, "kyoto": {B: 2}}})
    assert "no soldier pawns in kyoto" in refused(Tactic.EXILIO, mv(B, "kyoto", "oko"),
                                                  state=bare)
    assert "rival" in refused(Tactic.EXILIO, mv(R, "kyoto", "oko"))


def test_7_prisionero_a_rival_soldier_into_an_adjacent_zone_where_you_have_soldiers() -> None:
    assert tactic(Tactic.PRISIONERO, mv(B, "kiyosu", "kyoto")).soldiers["kyoto"][B] == 3
    assert "no soldier pawns in tsutsujigasaki" in refused(
        Tactic.PRISIONERO, mv(B, "kiyosu", "tsutsujigasaki"))


def test_7_senuelo_one_of_yours_and_two_of_one_rival_together_to_one_zone() -> None:
    after = tactic(Tactic.SENUELO, mv(R, "kyoto", "oko"), mv(B, "kyoto", "oko", 2))
    assert after.soldiers["oko"] == {R: 2, B: 3}
    assert "together" in refused(Tactic.SENUELO, mv(R, "kyoto", "oko"),
                                 mv(B, "kyoto", "kiyosu", 2))
    assert "TM4" in refused(Tactic.SENUELO, mv(R, "kyoto", "oko"), mv(B, "kyoto", "oko"),
                            mv(Y, "kyoto", "oko"))


def test_7_retirada_two_of_yours_back_to_the_reserve_from_one_zone_or_two() -> None:
    assert tactic(Tactic.RETIRADA, mv(R, "oko", "reserve"), mv(R, "shuri", "reserve")
                  ).reserve[R] == 11
    assert tactic(Tactic.RETIRADA, mv(R, "kyoto", "reserve", 2)).soldiers["kyoto"][R] == 1
    assert "exactly 2" in refused(Tactic.RETIRADA, mv(R, "oko", "reserve"))


def test_tm10_a_zone_holding_only_your_daimyo_is_not_one_where_you_have_soldier_pawns() -> None:
    """Clarification TM10. Apoyo: "en cualquier zona donde tengas peones de Soldado"; Ninja: "a
    cualquier zona donde tengas peones de Soldado"; section 9: "siempre que una carta [...] haga
    referencia específicamente a «peón de Soldado», nunca se aplica a los peones de Daimio".

    Red's Daimyo stands alone on Yoshida-Kōriyama (castle 4), beside 1 blue soldier; red has
    soldiers in Kyoto 3, Okō 1, Shuri 1, Kiyosu 2 and 9 in reserve."""
    alone = TABLE.model_copy(update={
        "daimyo_at": {R: "yoshida_koriyama"},
        "soldiers": {**TABLE.soldiers, "yoshida_koriyama": {B: 1}}})
    for card, move in ((Tactic.APOYO, mv(R, "reserve", "yoshida_koriyama")),
                       (Tactic.NINJA, mv(R, "kyoto", "yoshida_koriyama")),
                       (Tactic.EXILIO, mv(B, "yoshida_koriyama", "kyoto")),
                       (Tactic.PRISIONERO, mv(B, "oko", "yoshida_koriyama"))):
        why = refused(card, move, state=alone)
        assert why == (f"{card.value}: red has no soldier pawns in yoshida_koriyama: a Daimyo "
                       "pawn is not a soldier pawn (clarification TM10)"), card
    # The same cards into zones holding red soldiers: Kyoto 3 + 1 = 4, reserve 9 - 1 = 8;
    # Ninja from Shuri leaves Shuri empty and makes Kyoto 4.
    support = tactic(Tactic.APOYO, mv(R, "reserve", "kyoto"), state=alone)
    assert (support.soldiers["kyoto"][R], support.reserve[R]) == (4, 8)
    ninja = tactic(Tactic.NINJA, mv(R, "shuri", "kyoto"), state=alone)
    assert (ninja.soldiers["kyoto"][R], ninja.soldiers["shuri"]) == (4, {})
    # Beside its soldiers the Daimyo changes nothing: Kiyosu (Daimyo and 2 red) takes Apoyo.
    assert tactic(Tactic.APOYO, mv(R, "reserve", "kiyosu")).soldiers["kiyosu"][R] == 3
    # The War is not a card (TM1): red wins Okō (1-1, sword 3 beats 2) and reinforces
    # Yoshida-Kōriyama, where only its Daimyo stands: power 2 + 2 = 4 against blue's 1.
    war = fight_war(players=(R, B, Y), swords={R: 3, B: 2, Y: 1}, castles=alone.castles,
                    soldiers=alone.soldiers, daimyo_at=alone.daimyo_at, board=RULES.board,
                    components=RULES.components)
    oko, yoshida = (next(z for z in war.zones if z.zone == n) for n in ("oko",
                                                                          "yoshida_koriyama"))
    assert oko.winner == R and oko.reinforcements == {"kyoto": 2, "yoshida_koriyama": 2}
    assert (yoshida.winner, yoshida.power) == (R, {R: 4, B: 1})


def test_9_tactic_cards_never_move_a_daimyo() -> None:
    assert "never a Daimyo" in refused(Tactic.EXPLORAR, mv(R, "kiyosu", "kyoto", pawn="daimyo"))


def test_10_uesugi_kenshin_up_to_three_of_yours_across_land() -> None:
    after = daimyo(Daimyo.UESUGI_KENSHIN, mv(R, "kiyosu", "kyoto"), mv(R, "kiyosu", "odawara"))
    assert after.soldiers["kiyosu"] == {B: 1, Y: 2} and after.daimyo_at[R] == "kiyosu"
    assert "1 to 3" in refused(Daimyo.UESUGI_KENSHIN)
    assert "in full" in refused(Daimyo.UESUGI_KENSHIN, mv(R, "kiyosu", "kyoto", 3))


def test_10_oda_nobunaga_the_daimyo_moves_with_at_most_one_soldier() -> None:
    after = daimyo(Daimyo.ODA_NOBUNAGA, mv(R, "kiyosu", "kyoto", pawn="daimyo"),
                   mv(R, "kiyosu", "kyoto"))
    assert after.daimyo_at[R] == "kyoto" and after.soldiers["kyoto"][R] == 4
    assert "same zone" in refused(Daimyo.ODA_NOBUNAGA, mv(R, "kiyosu", "kyoto", pawn="daimyo"),
                                  mv(R, "kiyosu", "odawara"))
    assert "at most 1" in refused(Daimyo.ODA_NOBUNAGA, mv(R, "kiyosu", "kyoto", pawn="daimyo"),
                                  mv(R, "kiyosu", "kyoto", 2))


def test_10_takeda_shingen_up_to_three_of_one_rival_to_adjacent_zones() -> None:
    after = daimyo(Daimyo.TAKEDA_SHINGEN, mv(Y, "kiyosu", "kyoto"), mv(Y, "kiyosu", "odawara"))
    assert Y not in after.soldiers["kiyosu"]
    assert "one rival only" in refused(Daimyo.TAKEDA_SHINGEN, mv(Y, "kiyosu", "kyoto"),
                                       mv(B, "kiyosu", "kyoto"))


def test_10_mori_motonari_one_soldier_in_each_of_up_to_three_adjacent_zones() -> None:
    after = daimyo(Daimyo.MORI_MOTONARI, mv(R, "reserve", "kyoto"), mv(R, "reserve", "odawara"),
                   mv(R, "reserve", "kasugayama"))
    assert after.reserve[R] == 6
    assert "1 soldier per zone" in refused(Daimyo.MORI_MOTONARI, mv(R, "reserve", "kyoto", 2))
    assert "not adjacent" in refused(Daimyo.MORI_MOTONARI, mv(R, "reserve", "oko"))


def test_10_chosokabe_motochika_up_to_three_of_your_pawns_across_the_sea() -> None:
    at_kyoto = TABLE.model_copy(update={"daimyo_at": {R: "kyoto"}})
    after = daimyo(Daimyo.CHOSOKABE_MOTOCHIKA, mv(R, "kyoto", "oko", pawn="daimyo"),
                   mv(R, "kyoto", "oko", 2), state=at_kyoto)
    assert after.daimyo_at[R] == "oko" and after.soldiers["oko"][R] == 3
    assert "joined by sea" in refused(Daimyo.CHOSOKABE_MOTOCHIKA, mv(R, "kyoto", "kiyosu"),
                                      state=at_kyoto)


def test_10_otomo_sorin_replace_one_rival_soldier_in_up_to_two_adjacent_zones() -> None:
    after = daimyo(Daimyo.OTOMO_SORIN, mv(B, "kyoto", "reserve"), mv(R, "reserve", "kyoto"))
    assert after.soldiers["kyoto"] == {R: 4, B: 1, Y: 1} and after.reserve[B] == 15
    assert "1 soldier in each zone" in refused(
        Daimyo.OTOMO_SORIN, mv(B, "kyoto", "reserve"), mv(Y, "kyoto", "reserve"),
        mv(R, "reserve", "kyoto", 2))


def test_10_tm5_a_daimyo_card_needs_the_daimyo_on_the_board() -> None:
    off = TABLE.model_copy(update={"daimyo_at": {}})
    assert "TM5" in refused(Daimyo.MORI_MOTONARI, mv(R, "reserve", "kyoto"), state=off)


def test_9_each_daimyo_card_once_per_game() -> None:
    used = daimyo(Daimyo.MORI_MOTONARI, mv(R, "reserve", "kyoto"))
    used = used.model_copy(update={"last_actor": Y})
    with pytest.raises(RuleViolation) as exc:
        RULES.handle(used, PlayDaimyo(colour=R, moves=(mv(R, "reserve", "kyoto"),)))
    assert exc.value.rule == "9"




@pytest.mark.parametrize("card", list(Daimyo))
def test_9_a_refused_daimyo_card_reads_the_same_whatever_the_card(card: Daimyo) -> None:
    """The card is face down until accepted (9): a refusal by its own text says only that it
    cannot be played now; the reason, which would name it, is private to its owner."""
    state = TABLE.model_copy(update={"daimyo": {R: card}})
    move = (mv(B, "oko", "usuki"),)  # no card's effect: a rival's soldier from afar
    with pytest.raises(HiddenViolation) as exc:
        RULES.handle(state, PlayDaimyo(colour=R, moves=move))
    assert (exc.value.rule, exc.value.message) == ("10", FACE_DOWN_REFUSAL)
    assert exc.value.private and card.value in exc.value.private
    # what every card shares is said in full, and the same for every card
    with pytest.raises(RuleViolation) as shared:
        RULES.handle(state, PlayDaimyo(colour=R, moves=(mv(R, "usuki", "oko"),)))
    assert not isinstance(shared.value, HiddenViolation) and "in full" in shared.value.message
    off = state.model_copy(update={"daimyo_at": {}})
    with pytest.raises(RuleViolation) as reserve:
        RULES.handle(off, PlayDaimyo(colour=R, moves=move))
    assert reserve.value.message.startswith(FACE_DOWN_REFUSAL) and "TM5" in reserve.value.message
    assert card.value not in reserve.value.message
