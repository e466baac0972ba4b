"""The rulebook's own examples, worked by hand and run through ``companion kensei``.

Every "Ejemplo", "ej:" and numeric example of the Spanish rulebook
(``shared/seeds/004_07384c3b89218d97.txt``, line numbers below) that the calculators can
compute is pinned here or in the test named beside it. The others are listed with the reason
they are not a calculator's (docs/rules-coverage-kensei.md has the whole table).

Pinned elsewhere:

- l.1234 "La armadura ... deberá obtener un 5+": ``test_kensei_melee.py::
  test_rulebook_wound_example_on_the_unit`` (``wound_target`` 5).
- l.1272 "Una unidad de guerreros tiene honor 3, tira 1D6 y saca un 4, por lo tanto falla":
  ``test_kensei_honour.py::test_rulebook_example_warriors_fail_on_a_four``.
- l.3878 "Ejemplo Tirada de Combate" (12 dice at 3+):
  ``test_kensei_melee.py::test_rulebook_combat_example``.
- l.3967 "Ejemplo tirada de heridas" (1, 2, 4, 4, 6 against armour):
  ``test_kensei_melee.py::test_rulebook_wound_example_on_the_unit`` and ``..._on_the_leader``.
- l.4399 "Ej. Un líder de unidad al que le quedaban 2 heridas recibe 3 heridas":
  ``test_kensei_melee.py::test_rulebook_protect_the_leader_example``.
- l.4818 gunpowder "hieren a 3+": ``test_kensei_shoot.py::
  test_gunpowder_wounds_on_three_through_samurai_armour``.

Not the calculators' (see the coverage table): the training turn's order rolls (l.903) and
the turn examples' order rolls, charge and flight distances (l.2742, l.2776-2795: the battle
engine and the players); the Sohei Daimyo's INI 3 "en las tiradas de estrategia" (l.1943: an
error of the book, B19.8: it is the order roll); the Kuge hero's *Líder* and *Apuntar* (l.5019,
l.5050: skills, B19.1, B19.23); the Onmyouji (l.5756: occult powers); the Taiho (l.6297: war
machines); the climbing wall (l.3127), the flight turn (l.3630), volumes (l.1436), leaders per
100 pe (l.7480: ``armylist.py``), multiplayer (l.6666).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import ids, melee, run, shot, side

Cap = pytest.CaptureFixture[str]


def ruled(kind: str, data: dict[str, Any], tmp_path: Path, capsys: Cap) -> dict[str, Any]:
    status, out = run(kind, data, tmp_path, capsys)
    assert status == 0, out
    return out


def whiff(n: int, **more: list[int]) -> dict[str, list[int]]:
    """``n`` combat dice that all miss (natural 1s), and any other rolls."""
    return {"combat": [1] * n, **more}


def test_l1197_a_minus_one_to_the_combat_roll_hits_on_five(tmp_path: Path, capsys: Cap) -> None:
    """l.1197: "(ej: un -1 a la Tirada de Combate significa que debes restar 1 al resultado de
    cada uno de los dados o que la dificultad mínima para impactar en esa tirada es de 5+)".
    The enemy in cover gives the -1 (Modificadores a la Tirada de Combate): of a's 2 + 3 = 5
    dice 4, 5, 6, 1, 4, only the 5 and the 6 hit; the 1 fumbles, the 4s miss."""
    a = side(models_in_melee=3, dice={"combat": [4, 5, 6, 1, 4], "wound": [1, 1]})
    b = side(models_in_melee=3, in_cover=True, dice=whiff(5))
    out = ruled("melee", melee(a, b), tmp_path, capsys)["a"]
    assert out["hit_target"] == 5 and ids(out["hit_items"]) == {"enemy_cover": -1}
    assert (out["hits"], out["fumbles"], out["criticals"]) == (2, 1, 1)


def test_l1033_training_turn_yellow_wins_three_to_two(tmp_path: Path, capsys: Cap) -> None:
    """l.1033-1040, the training turn: "la unidad de ashigarus amarilla es la vencedora, causó
    3 bajas al enemigo y sólo recibió 2. La unidad de ashigarus azules debe realizar una tirada
    de honor, lanza 1D6 y saca 1, es menor que su honor (3) por lo que se mantienen en
    combate." The yellow spearmen (a) charged the blue spearmen (b), who reacted with
    Combatir (l.997). Both: 10 warriors in two ranks of 5 with yari (type 1: no charge bonus against
    type 1), 5 in contact.
    a: 2 (AT) + 5 + 1 (two complete ranks) + 1 (charge) = 9 dice: 6, 5, 4 hit and wound on
    4, 5, 6: 3 casualties. b: 2 + 5 + 1 - 1 (Combatir reaction) = 7 dice: 6 and 4 hit, 5 and 4
    wound: 2 casualties. b loses 3 to 2, rolls 1 against HO 3 and holds."""
    ashigaru = {"trait": "ashigaru", "weapon": 1, "models": 10, "ranks": [5, 5],
                "models_in_melee": 5}
    a = side(**ashigaru, order="charge", charge_outside_zoc=True,
             dice={"combat": [6, 5, 4, 1, 2, 3, 3, 2, 1], "wound": [4, 5, 6]})
    b = side(**ashigaru, order="fight_reaction",
             dice={"combat": [6, 4, 1, 1, 2, 3, 3], "wound": [5, 4], "honour": [1]})
    out = ruled("melee", melee(a, b, turn="a"), tmp_path, capsys)
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 5, "ranks": 1, "charge": 1}
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 5, "ranks": 1,
                                           "fight_reaction": -1}
    assert out["b"]["taken"]["casualties"] == 3 and out["a"]["taken"]["casualties"] == 2
    assert (out["loser"], out["winner"], out["combat_initiative"]) == ("b", "a", "a")
    honour = out["b"]["honour"]
    assert (honour["target"], honour["passed"], honour["outcome"]) == (3, True, "passed")
    assert out["a"]["honour"] is None


def test_l1943_sohei_daimyo_leads_mounted_monks(tmp_path: Path, capsys: Cap) -> None:
    """l.1943: "Un Daimyo (héroe) Sohei a caballo lidera una unidad de caballería de guerreros
    monjes ... durante un combate cuerpo a cuerpo en el que participe el héroe, el número base
    de dados de ataque de la unidad será 6: 2 por el atributo de ataque de los guerreros más 4
    del atributo de ataque del héroe." With 3 monks in contact: 6 + 3 = 9 dice. The same
    sentence's INI 3 "en las tiradas de estrategia" is the book's error (B19.8: the order roll;
    not a calculator's). The hero in front also lends his HO 5 (LÍDER DE UNIDAD), and the
    cavalry armour makes b wound on 5+ (ARMADURAS): of b's wound dice 5, 4, 1 the 5 wounds, the
    4 stuns and the 1 is ignored; one monk falls, the unit loses 1 to 0 and a 5 passes."""
    a = side(mounted=True, trait="monk", models_in_melee=3,
             leader={"class": "H", "contact": "direct", "in_front": True},
             dice=whiff(9, honour=[5]))
    b = side(models_in_melee=3, dice={"combat": [6, 6, 6, 1, 1], "wound": [5, 4, 1]})
    out = ruled("melee", melee(a, b), tmp_path, capsys)
    items = ids(out["a"]["pool_items"])
    assert items["base_at"] + items["leader"] == 6
    assert items == {"base_at": 2, "leader": 4, "models": 3} and out["a"]["pool"] == 9
    assert out["b"]["wound_target"] == 5 and ids(out["b"]["wound_items"]) == {"mounted": -1}
    assert out["a"]["taken"]["casualties"] == 1 and out["loser"] == "a"
    assert out["a"]["honour"]["target"] == 5 and out["a"]["honour"]["passed"]


def test_l2685_a_charged_reactive_unit_fights_at_minus_one_die(
        tmp_path: Path, capsys: Cap) -> None:
    """l.2685, "Ejemplo 1" of the activation phase: the charged reactive unit "decide
    combatir, aunque tendrá penalizadores ya que ... combatir utilizando una orden de reacción
    implica perder 1D6 a la tirada de combate". l.2734, "Ejemplo 2": the first player's active
    unit, charged with no order left, "decide aguantar y combatir de nuevo, aunque también
    tendrá penalizadores": the same -1D6 (it is not yet Used: that marker comes at the end of
    the activation). b: 2 + 3 - 1 = 4 dice; the charger a: 2 + 3 + 1 = 6."""
    a = side(models_in_melee=3, order="charge", charge_outside_zoc=True, dice=whiff(6))
    b = side(models_in_melee=3, order="fight_reaction", dice=whiff(4))
    out = ruled("melee", melee(a, b), tmp_path, capsys)
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 3, "fight_reaction": -1}
    assert out["b"]["pool"] == 4 and out["a"]["pool"] == 6


def test_l2846_turn_example_two_sc_charges_the_used_ba_in_the_flank(
        tmp_path: Path, capsys: Cap) -> None:
    """l.2846-2852, "EJEMPLO 2" of a turn: "La unidad BA combatirá con un penalizador de -2D6
    a la tirada de combate: 1D6 por estar usada más 1D6 por combatir en reacción. La unidad SC
    combatirá con +1D6 ... por haber cargado y aplica un +1 a su Tirada de Combate al luchar
    contra la unidad BA (al atacarla por su flanco). Como aún no tiene el marcador de Unidad
    Usada, no sufre el penalizador de -1D6." SC (a) charged 13 cm on 1D6 = 3: on foot. BA (b)
    is the Buke cavalry (15 cm of movement, l.2781): its mount makes SC wound on 5+.
    SC: 2 + 2 in contact + 1 = 5 dice at 3+; BA: 2 + 2 - 1 - 1 = 2 dice."""
    sc = side(models_in_melee=2, order="charge", charge_outside_zoc=True, attacks="flank",
              dice=whiff(5))
    ba = side(models_in_melee=2, mounted=True, used=True, order="fight_reaction",
              dice=whiff(2))
    out = ruled("melee", melee(sc, ba, turn="a"), tmp_path, capsys)
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 2, "charge": 1}
    assert out["a"]["hit_target"] == 3 and ids(out["a"]["hit_items"]) == {"flank": 1}
    assert out["a"]["wound_target"] == 5
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 2, "used": -1,
                                           "fight_reaction": -1}
    assert out["b"]["pool"] == 2


def test_l2854_turn_example_two_bb_charges_sc_in_the_rear(tmp_path: Path, capsys: Cap) -> None:
    """l.2849, l.2854: SC fights "con +1D6 (contra ambas unidades) por haber cargado", and "La
    unidad BB combatirá con +1D6 por haber cargado y un +2 a su tirada de combate para impactar
    al atacar por la espalda." BB's kind is not given; on foot it is +1D6 (mounted it would be
    +2D6, reading 1). BB (a): 2 + 2 + 1 = 5 dice at 2+; SC (b): 2 + 2 + 1 = 5 dice at 4+.
    Nobody falls: both charged, so the combat initiative goes to the turn's (the Sohei, b):
    UNIDAD DERROTADA gives it to "la unidad que cargó", which does not single one out here.
    The multiple combat itself (one resolution for both pairs) is not the calculator's."""
    bb = side(models_in_melee=2, order="charge", charge_outside_zoc=True, attacks="rear",
              dice=whiff(5))
    sc = side(models_in_melee=2, order="charge", charge_outside_zoc=True, dice=whiff(5))
    out = ruled("melee", melee(bb, sc, turn="b"), tmp_path, capsys)
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 2, "charge": 1}
    assert out["a"]["hit_target"] == 2 and ids(out["a"]["hit_items"]) == {"rear": 2}
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 2, "charge": 1}
    assert out["b"]["hit_target"] == 4
    assert out["loser"] is None and out["combat_initiative"] == "b"


def test_l4132_multiple_combat_a_fights_with_potenciar_c_reacts(
        tmp_path: Path, capsys: Cap) -> None:
    """l.4125-4149, "Ejemplo" of COMBATE MÚLTIPLE: unit A "decide usar combatir + potenciar";
    C "sólo puede declarar la orden de reacción combatir" and "combatiría con sus tres
    miniaturas del frente contra la unidad A". A: 2 + 3 + 1 (Potenciar) = 6 dice; C: 2 + 3 - 1
    = 4. C could not Potenciar its reaction (reading 9: POTENCIAR). The opportunity attacks on
    B's Destrabar and the joint resolution of the multiple combat are not the calculator's."""
    a = side(models_in_melee=3, potenciar=True, dice=whiff(6))
    c = side(models_in_melee=3, order="fight_reaction", dice=whiff(4))
    out = ruled("melee", melee(a, c), tmp_path, capsys)
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 3, "potenciar": 1}
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 3, "fight_reaction": -1}
    status, err = run("melee", melee(a, {**c, "potenciar": True}), tmp_path, capsys)
    assert status == 2 and err["error"]["rule"] == "POTENCIAR"


def test_l4479_the_monks_win_two_to_one(tmp_path: Path, capsys: Cap) -> None:
    """l.4479: "Como los monjes han ganado el combate 2 a 1, señalan las bajas de su enemigo
    primero que son retiradas inmediatamente. Luego lo harán los samuráis." The winner takes
    the combat initiative (UNIDAD DERROTADA E INICIATIVA DEL COMBATE), whoever holds the
    turn's. Monks (a): 2 + 3 = 5 dice, four 6s hit; against Samurai armour they wound on 5+:
    5, 5, 6, 6 are 4 wounds, 2 elite samurai (2 wounds each). Samurai (b): 3 + 3 = 6 dice, one
    6 hits; the katana wounds on 3+: one monk. The samurai lose and pass on a 2 (HO 4)."""
    monks = side(trait="monk", models=6, models_in_melee=3,
                 dice={"combat": [6, 6, 6, 6, 1], "wound": [5, 5, 6, 6]})
    samurai = side(**{"class": "E"}, trait="samurai", armour=True, weapon=3, models=4,
                   models_in_melee=3,
                   dice={"combat": [6, 1, 1, 1, 1, 1], "wound": [3], "honour": [2]})
    out = ruled("melee", melee(monks, samurai, turn="b"), tmp_path, capsys)
    assert out["b"]["taken"]["casualties"] == 2 and out["a"]["taken"]["casualties"] == 1
    assert out["b"]["wound_target"] == 3 and out["a"]["wound_target"] == 5
    assert (out["loser"], out["winner"], out["combat_initiative"]) == ("b", "a", "a")
    assert out["b"]["honour"]["target"] == 4 and out["b"]["honour"]["passed"]


def test_l4657_a_tie_gives_the_initiative_to_the_charger(tmp_path: Path, capsys: Cap) -> None:
    """l.4657: "Ha habido un empate entre los ashigaru con yari de amarillo (1) y los ashigaru
    con yari de azul (2). Cada uno ha sufrido una baja por lo que no se hace la tirada de honor.
    Sin embargo este combate es el resultado de una carga de la unidad amarilla, por lo que esa
    tropa es la que ha ganado la iniciativa del combate." Yellow (b) charged blue (a), who
    holds the turn's initiative. b: 2 + 3 + 1 = 6 dice (no yari bonus against a yari); a: 2 + 3
    - 1 = 4. One wound each. An honour die given for it is refused: no roll is due."""
    yari = {"trait": "ashigaru", "weapon": 1, "models_in_melee": 3}
    blue = side(**yari, order="fight_reaction", dice={"combat": [5, 1, 1, 1], "wound": [6]})
    yellow = side(**yari, order="charge", charge_outside_zoc=True,
                  dice={"combat": [6, 1, 1, 1, 1, 1], "wound": [4]})
    out = ruled("melee", melee(blue, yellow, turn="a"), tmp_path, capsys)
    assert out["a"]["taken"]["casualties"] == out["b"]["taken"]["casualties"] == 1
    assert (out["loser"], out["winner"], out["combat_initiative"]) == (None, None, "b")
    assert out["a"]["honour"] is None and out["b"]["honour"] is None
    blue["dice"] = {**blue["dice"], "honour": [3]}
    status, err = run("melee", melee(blue, yellow, turn="a"), tmp_path, capsys)
    assert status == 2 and err["error"]["rule"] == "TIRADA DE HONOR"


def test_l4566_archers_only_kill_the_spearmen_they_see(tmp_path: Path, capsys: Cap) -> None:
    """l.4566: "Los arqueros ashigaru solo podrán eliminar a los lanceros que vean"; l.4488:
    "Si hay más heridas que miniaturas visibles, esas heridas extras se pierden." Five archers
    with yumi at 30 cm (medium: no band penalty), 4 outer models seeing: 2 + 4 = 6 dice; 5 hit,
    5 wound. 3 of the 10 spearmen are seen: 3 fall, 2 wounds are lost. 3 of 10 is under half:
    no honour roll."""
    data = shot({"models_with_los": 4}, {"models": 10, "visible": 3, "trait": "ashigaru"},
                dice={"shoot": [6, 6, 6, 6, 5, 1], "wound": [4, 4, 4, 4, 4]})
    out = ruled("shoot", data, tmp_path, capsys)
    assert out["pool"] == 6 and out["hits"] == 5 and out["wounds"] == 5
    t = out["taken"]
    assert (t["casualties"], t["lost_wounds"], t["wound_markers_after"]) == (3, 2, 0)
    assert out["honour_trigger"] is None


def test_l4813_a_mounted_samurai_is_wounded_on_six(tmp_path: Path, capsys: Cap) -> None:
    """l.4813: "Ej: Un Samurái con katana a caballo tendrá Armadura Samurái y Armadura de
    Caballería. Aplica un -2 a la tirada de herir del enemigo." A swordsman (type 4, no wound
    modifier) needs 6+: of 6 and 5 only the 6 wounds, the 5 stuns. A bow: the same (test_
    kensei_shoot.py::test_bow_against_mounted_samurai)."""
    a = side(models_in_melee=3, dice={"combat": [6, 6, 1, 1, 1], "wound": [6, 5]})
    b = side(**{"class": "E"}, trait="samurai", weapon=3, armour=True, mounted=True,
             models_in_melee=3, dice=whiff(6))
    out = ruled("melee", melee(a, b), tmp_path, capsys)["a"]
    assert out["wound_target"] == 6
    assert ids(out["wound_items"]) == {"armour": -1, "mounted": -1}
    assert (out["wounds"], out["stunned_caused"]) == (1, 1)


def test_b16_yari_ashigaru_charge_rolls_ten_dice(tmp_path: Path, capsys: Cap) -> None:
    """The digest's B16 worked case (built from the tables, not printed in the book): 10 Yari
    Ashigaru in two ranks of 5 charge in formation from outside the zone of control, 5 in
    contact: 2 base + 5 + 1 (ranks) + 1 (charge) + 1 (yari charging a sword) = 10 dice at 4+,
    3+ on the flank."""
    yari = side(trait="ashigaru", weapon=1, models=10, ranks=[5, 5], models_in_melee=5,
                order="charge", charge_outside_zoc=True, dice=whiff(10))
    # the swordsmen reacting: 2 + 3 - 1 (reaction) + 1 (sword against a yari, not charging)
    swords = side(models=10, models_in_melee=3, order="fight_reaction", dice=whiff(5))
    for attacks, target in (("front", 4), ("flank", 3)):
        data = melee({**yari, "attacks": attacks}, swords)
        out = ruled("melee", data, tmp_path, capsys)
        assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 5, "ranks": 1,
                                               "charge": 1, "w1_charge": 1}
        assert out["a"]["pool"] == 10 and out["a"]["hit_target"] == target
        assert ids(out["b"]["pool_items"])["w34_vs_w1"] == 1


def test_l1667_skirmishers_flank_example_contradicts_the_rule(
        tmp_path: Path, capsys: Cap) -> None:
    """l.1667: "ej: una unidad de hostigadores en la que dos de sus miniaturas son atacadas por
    el flanco y una por la retaguardia recibe un ataque por el flanco", while l.1699 says "Las
    miniaturas individuales y las unidades de hostigadores no tienen flanco". The book
    contradicts itself; the calculator keeps the rule (reading 11) and refuses the flank with
    the heading; the attacker of skirmishers gets no flank +1."""
    data = melee(side(attacks="flank", dice=whiff(2)),
                 side(skirmishers=True, dice=whiff(2)))
    status, out = run("melee", data, tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "FRENTE, FLANCO Y RETAGUARDIA"
    assert "skirmishers" in out["error"]["message"]


def test_l4434_casualties_by_wounds_warrior_elite_hero(tmp_path: Path, capsys: Cap) -> None:
    """RETIRADA DE BAJAS, l.4434: "Un guerrero es baja si recibe 1 sola herida, una tropa de
    élite aguanta 2 heridas antes de ser baja y un héroe puede recibir 3." The same three
    wounds (a: 2 + 3 = 5 dice, three 6s hit and wound) kill 3 warriors; 1 elite, leaving a
    wound marker; a single hero, who falls at his third (wiped out: no honour roll). The
    warriors and the elites lose and pass their honour roll on a 1."""
    a = side(models_in_melee=3, dice={"combat": [6, 6, 6, 1, 1], "wound": [6, 6, 6]})
    warriors = side(models_in_melee=3, dice=whiff(5, honour=[1]))
    elites = side(**{"class": "E"}, models_in_melee=3, dice=whiff(6, honour=[1]))
    hero = side(**{"class": "H"}, models=1, single=True, weapon=3, dice=whiff(4))
    for b, casualties, markers in ((warriors, 3, 0), (elites, 1, 1), (hero, 1, 0)):
        out = ruled("melee", melee(a, b), tmp_path, capsys)["b"]
        assert (out["taken"]["casualties"], out["taken"]["wound_markers_after"]) == (
            casualties, markers)
    assert out["taken"]["wiped_out"] and out["honour"] is None


# Every refusal of docs/kensei.md "Errors, in the order checked" (2 to 5), each naming the
# heading of the rule broken and the key at fault. The duel's are in test_kensei_duel.py.
GOOD = melee(side(dice=whiff(2)), side(dice=whiff(2)))
HIT = {"combat": [6, 1], "wound": [6]}
"""Two dice, one 6: one hit and one critical wound."""


def with_sides(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None) -> Any:
    return {**GOOD, "a": {**GOOD["a"], **(a or {})}, "b": {**GOOD["b"], **(b or {})}}


H_LEADER = {"class": "H", "contact": "direct"}
MELEE_REFUSALS: list[tuple[str, Any, str, str]] = [
    ("die of 7", with_sides({"dice": {"combat": [1, 7]}}), "DADOS Y TIRADAS", "a.dice.combat.1"),
    ("die of 0", with_sides(b={"dice": {"combat": [1, 1], "honour": [0]}}), "DADOS Y TIRADAS",
     "b.dice.honour.0"),
    ("protect die of 9", with_sides({"dice": {"combat": [1, 1], "protect": [9]}}),
     "DADOS Y TIRADAS", "a.dice.protect.0"),
    ("used charges", with_sides({"used": True, "order": "charge"}), "USO DE LAS ÓRDENES",
     "a.order"),
    ("used fights", with_sides(b={"used": True}), "USO DE LAS ÓRDENES", "b.order"),
    ("potenciar a reaction", with_sides({"potenciar": True, "order": "fight_reaction"}),
     "POTENCIAR", "a.potenciar"),
    ("charge out of coherence", with_sides({"order": "charge", "out_of_coherence": True}),
     "CARGAR", "a.order"),
    ("parapeted cavalry", with_sides({"parapeted": True, "mounted": True}), "PARAPETAR",
     "a.parapeted"),
    ("parapeted skirmishers", with_sides(b={"parapeted": True, "skirmishers": True}),
     "PARAPETAR", "b.parapeted"),
    ("weapon 6", with_sides({"weapon": 6}), "ARMAS DE COMBATE CUERPO A CUERPO", "a.weapon"),
    ("weapon 7", with_sides(b={"weapon": 7}), "ARMAS DE COMBATE CUERPO A CUERPO", "b.weapon"),
    ("flank of skirmishers", with_sides({"attacks": "flank"}, {"skirmishers": True}),
     "FRENTE, FLANCO Y RETAGUARDIA", "a.attacks"),
    ("rear of skirmishers", with_sides({"attacks": "rear"}, {"skirmishers": True}),
     "FRENTE, FLANCO Y RETAGUARDIA", "a.attacks"),
    ("flank of a single model", with_sides(
        {"attacks": "flank"}, {"models": 1, "single": True}), "FRENTE, FLANCO Y RETAGUARDIA",
     "a.attacks"),
    ("flank of a last model", with_sides(b={"attacks": "flank"}, a={"models": 1}),
     "FRENTE, FLANCO Y RETAGUARDIA", "b.attacks"),
    ("ranks miss a model", with_sides({"ranks": [3, 1]}), "FORMACIÓN CERRADA", "a.ranks"),
    ("ranks miss the leader", with_sides(
        {"ranks": [3, 2], "leader": {**H_LEADER, "contact": "none"}}), "FORMACIÓN CERRADA",
     "a.ranks"),
    ("more in melee than in the unit", with_sides(b={"models_in_melee": 6}),
     "FORMACIÓN CERRADA", "b.models_in_melee"),
    ("combat dice short", with_sides({"dice": {"combat": [1]}}), "Tirada de combate",
     "a.dice.combat"),
    ("no die for a pool of 0", with_sides(
        b={"class": "A", "models": 1, "dice": {"combat": []}}), "Tirada de combate",
     "b.dice.combat"),
    ("wound dice short", with_sides({"dice": {"combat": [6, 1]}}), "Tirada de heridas",
     "a.dice.wound"),
    ("more crits to the leader than 6s", with_sides(
        {"dice": HIT, "crits_to_leader": 2}, {"leader": H_LEADER, "dice": whiff(6)}),
     "Tirada de heridas", "a.crits_to_leader"),
    ("a crit to a leader in support", with_sides(
        {"dice": HIT, "crits_to_leader": 1},
        {"leader": {**H_LEADER, "contact": "support"}, "dice": whiff(3)}),
     "Tirada de heridas", "a.crits_to_leader"),
    ("a crit to no leader", with_sides({"dice": HIT, "crits_to_leader": 1}),
     "Tirada de heridas", "a.crits_to_leader"),
    ("protect no leader", with_sides({"dice": {"combat": [1, 1], "protect": [4]}}),
     "PROTEGED AL LÍDER", "a.dice.protect"),
    ("protect a leader not about to die", with_sides(
        {"dice": HIT, "crits_to_leader": 1},
        {"leader": {**H_LEADER, "adjacent": 3}, "dice": whiff(6, protect=[4])}),
     "PROTEGED AL LÍDER", "b.dice.protect"),
    ("protect with more dice than models beside him", with_sides(
        {"dice": HIT, "crits_to_leader": 1},
        {"leader": {**H_LEADER, "wounds": 2, "adjacent": 1},
         "dice": whiff(6, protect=[4, 4], honour=[1])}),
     "PROTEGED AL LÍDER", "b.dice.protect"),
    ("honour die of the winner", with_sides(
        {"dice": {**HIT, "honour": [1]}}, {"dice": whiff(2, honour=[1])}),
     "TIRADA DE HONOR", "a.dice.honour"),
    ("no honour die for the loser", with_sides({"dice": HIT}), "TIRADA DE HONOR",
     "b.dice.honour"),
    ("a re-roll without the general", with_sides(
        {"dice": HIT}, {"ranks_after": [4], "dice": whiff(2, honour=[4, 1])}),
     "TIRADA DE HONOR", "b.dice.honour"),
    ("hold without a leader", with_sides(
        {"dice": HIT}, {"hold": True, "dice": whiff(2, honour=[4])}),
     "TIRADA DE HONOR", "b.hold"),
    ("samurai without a choice", with_sides(
        {"dice": HIT}, {"trait": "samurai", "dice": whiff(2, honour=[4])}),
     "TIRADA DE HONOR", "b.samurai_choice"),
    ("no ranks after a failure", with_sides({"dice": HIT}, {"dice": whiff(2, honour=[4])}),
     "TIRADA DE HONOR", "b.ranks_after"),
]


@pytest.mark.parametrize(("data", "rule", "key"), [c[1:] for c in MELEE_REFUSALS],
                         ids=[c[0] for c in MELEE_REFUSALS])
def test_melee_refusal_names_the_heading(data: Any, rule: str, key: str, tmp_path: Path,
                                         capsys: Cap) -> None:
    status, out = run("melee", data, tmp_path, capsys)
    assert status == 2, out
    assert out["error"]["rule"] == rule, out
    assert out["error"]["message"].startswith(f"{key}:"), out


def target_hit(**keys: Any) -> dict[str, Any]:
    return shot({}, keys, dice={"shoot": [6, 1], "wound": [6]})


SHOT_REFUSALS: list[tuple[str, Any, str, str]] = [
    ("die of 0", shot({}, {}, dice={"shoot": [0, 1]}), "DADOS Y TIRADAS", "dice.shoot.0"),
    ("in melee", shot({"in_melee": True}, {}), "DISPARAR", "shooter"),
    ("charged", shot({"charged": True}, {}), "DISPARAR", "shooter"),
    ("unloaded", shot({"unloaded": True, "weapon": "teppo"}, {}), "DISPARAR", "shooter"),
    ("target in melee with a friend", shot({}, {"in_melee_with_friend": True}), "DISPARAR",
     "target"),
    ("parapeted cavalry target", shot({}, {"parapeted": True, "mounted": True}), "PARAPETAR",
     "target.parapeted"),
    ("wound dice out of range", shot({"distance_cm": 61}, {}, dice={"wound": [4]}),
     "DISTANCIA DE DISPARO", "dice"),
    ("shooting dice short", shot({}, {}, dice={"shoot": [6]}), "Tirada de Disparo",
     "dice.shoot"),
    ("wound dice short", shot({}, {}, dice={"shoot": [6, 1]}), "Tirada de heridas",
     "dice.wound"),
    ("more crits to the leader than 6s", {
        **target_hit(leader={"class": "H", "affected": True}), "crits_to_leader": 2},
     "Tirada de heridas", "crits_to_leader"),
    ("a crit to a leader not affected", {
        **target_hit(leader={"class": "H"}), "crits_to_leader": 1},
     "Tirada de heridas", "crits_to_leader"),
    ("honour die with no roll due", shot({}, {}, dice={"shoot": [1, 1], "honour": [3]}),
     "TIRADA DE HONOR", "dice.honour"),
    ("no honour die for a wounded single hero", shot(
        {}, {"class": "H", "models": 1, "visible": 1, "single": True},
        dice={"shoot": [6, 1], "wound": [6]}), "TIRADA DE HONOR", "dice.honour"),
    ("samurai without a choice", shot({}, {"models": 2, "visible": 2, "trait": "samurai"},
                                      dice={"shoot": [6, 1], "wound": [6], "honour": [6]}),
     "TIRADA DE HONOR", "target.samurai_choice"),
]


@pytest.mark.parametrize(("data", "rule", "key"), [c[1:] for c in SHOT_REFUSALS],
                         ids=[c[0] for c in SHOT_REFUSALS])
def test_shot_refusal_names_the_heading(data: Any, rule: str, key: str, tmp_path: Path,
                                        capsys: Cap) -> None:
    status, out = run("shoot", data, tmp_path, capsys)
    assert status == 2, out
    assert out["error"]["rule"] == rule, out
    assert out["error"]["message"].startswith(f"{key}:"), out


def test_every_heading_of_the_error_list_is_refused_here() -> None:
    """docs/kensei.md's errors 2-5 each have a case above (the duel's, error 6, are in
    test_kensei_duel.py)."""
    headings = {c[2] for c in MELEE_REFUSALS + SHOT_REFUSALS}
    assert headings == {
        "DADOS Y TIRADAS", "USO DE LAS ÓRDENES", "POTENCIAR", "CARGAR", "PARAPETAR",
        "ARMAS DE COMBATE CUERPO A CUERPO", "FRENTE, FLANCO Y RETAGUARDIA",
        "FORMACIÓN CERRADA", "DISPARAR", "DISTANCIA DE DISPARO", "Tirada de combate",
        "Tirada de Disparo", "Tirada de heridas", "PROTEGED AL LÍDER", "TIRADA DE HONOR"}


# Found while working the examples: a unit leader left alone.
LONE = side(models=2, models_in_melee=2, leader={"class": "H", "contact": "support"})
KILL_TWO = side(models_in_melee=3, dice={"combat": [6, 6, 1, 1, 1], "wound": [6, 6]})


def test_a_leader_left_alone_rolls_on_his_own_honour(tmp_path: Path, capsys: Cap) -> None:
    """LÍDER DE UNIDAD: "Si toda la unidad es retirada y queda solo, el líder debe hacer uso
    de sus armas, habilidades y equipo inmediatamente": alone, he is a single model, and his
    own HO is the troop's (a hero's 5, though he stood behind his warriors, HO 3). Both
    warriors fall (a: 2 + 3 dice, two 6s); b loses 2 to 0 and the hero's 4 passes. Had it
    failed, a single model retreats: no ranks to give (TIRADA DE HONOR, "una miniatura
    individual la tropa huye")."""
    out = ruled("melee", melee(KILL_TWO, {**LONE, "dice": whiff(5, honour=[4])}),
                tmp_path, capsys)["b"]
    assert out["taken"]["casualties"] == 2 and not out["taken"]["wiped_out"]
    assert (out["honour"]["target"], out["honour"]["passed"]) == (5, True)
    out = ruled("melee", melee(KILL_TWO, {**LONE, "dice": whiff(5, honour=[6])}),
                tmp_path, capsys)["b"]
    assert (out["honour"]["outcome"], out["honour"]["markers"]) == (
        "retreat", ["used", "retreat"])
    assert ids(out["honour"]["ho_items"]) == {"base_ho": 5}  # no last-model -1 for him


def test_a_leader_left_alone_cannot_hold(tmp_path: Path, capsys: Cap) -> None:
    """"La unidad se mantiene ... recibe una herida extra. Si esa herida produce una baja en la
    unidad, el jugador ... debe retirar la miniatura que más le interese de la misma y no sea el
    líder": with no model left to take it, holding is refused."""
    data = melee(KILL_TWO, {**LONE, "hold": True, "dice": whiff(5, honour=[6])})
    status, out = run("melee", data, tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "TIRADA DE HONOR"
    assert out["error"]["message"].startswith("b.hold:")


def test_a_leader_left_alone_by_a_shot_rolls_on_his_own_honour(
        tmp_path: Path, capsys: Cap) -> None:
    """The same after a shot: both warriors seen and shot down (2 of 2: half or more), the
    elite leader left rolls on his HO 4; a 4 passes."""
    target = {"models": 2, "visible": 2, "leader": {"class": "E"}}
    out = ruled("shoot", shot({"models_with_los": 1}, target, dice={
        "shoot": [6, 6, 1], "wound": [5, 5], "honour": [4]}), tmp_path, capsys)
    assert out["taken"]["casualties"] == 2 and out["honour_trigger"] == "half_models"
    assert (out["honour"]["target"], out["honour"]["passed"]) == (4, True)


def test_the_last_model_drops_the_banner(tmp_path: Path, capsys: Cap) -> None:
    """HATA-JURUSHI: "Si es la última miniatura de la unidad abandona el estandarte ... El
    estandarte deja de tener efecto." A unit charging with its banner in front: 2 + 3 + 1
    (charge) + 1 (banner) = 7 dice; its last model, charging alone: 2 - 1 (TROPAS AISLADAS) + 1
    (charge) = 2, no banner die."""
    banner = {"order": "charge", "charge_outside_zoc": True, "banner_in_front": True}
    out = ruled("melee", melee(side(models_in_melee=3, **banner, dice=whiff(7)),
                               side(dice=whiff(2))), tmp_path, capsys)
    assert ids(out["a"]["pool_items"])["banner"] == 1 and out["a"]["pool"] == 7
    out = ruled("melee", melee(side(models=1, models_in_melee=1, **banner, dice=whiff(2)),
                               side(dice=whiff(2))), tmp_path, capsys)
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "last_model": -1, "charge": 1}


def test_l2633_an_active_unit_charged_fights_back_without_penalty(
        tmp_path: Path, capsys: Cap) -> None:
    """TABLA DE REACCIONES, l.2633: the active unit that has not used a combat order may answer
    with an action "(por ejemplo, si es cargada, puede responder combatiendo sin
    penalizadores o huyendo)": Combatir as an action costs no die (2 + 3 = 5), as a reaction
    one (4)."""
    charger = side(models_in_melee=3, order="charge", charge_outside_zoc=True, dice=whiff(6))
    for order, pool in (("fight", 5), ("fight_reaction", 4)):
        out = ruled("melee", melee(charger, side(models_in_melee=3, order=order,
                                                 dice=whiff(pool))), tmp_path, capsys)
        assert out["b"]["pool"] == pool


def test_a_unit_led_by_its_general_rerolls_without_saying_so(
        tmp_path: Path, capsys: Cap) -> None:
    """*Repetir la tirada de honor*: "cualquier tropa que se encuentre a 15 cm o menos de él,
    siempre y cuando la tropa vea al general o éste sea el líder de la unidad". A unit whose
    leader is the living general re-rolls whatever ``general_in_range`` says: b loses one
    warrior (a: one 6), fails a 4 against its HO 3 and re-rolls a 2."""
    a = side(models_in_melee=3, dice={"combat": [6, 1, 1, 1, 1], "wound": [6]})
    b = side(models_in_melee=3, leader={"class": "H", "contact": "support", "general": True},
             dice=whiff(6, honour=[4, 2]))
    honour = ruled("melee", melee(a, b), tmp_path, capsys)["b"]["honour"]
    assert (honour["target"], honour["rerolled"], honour["passed"]) == (3, True, True)
