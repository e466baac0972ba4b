"""``companion kensei melee``: the rulebook's worked examples, computed by hand, and the
resolution (casualties, loser, honour). Section numbers are the digest's (B5, B7, ...);
"reading N" is the row of reference/kensei/readings.md the calculators adopt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import ids, melee, run, side

from companion.games.kensei.dice import hits_and_dice

Cap = pytest.CaptureFixture[str]


def whiff(n: int) -> dict[str, list[int]]:
    """``n`` combat dice that all miss (natural 1s)."""
    return {"combat": [1] * n}


def test_rulebook_combat_example(tmp_path: Path, capsys: Cap) -> None:
    """B5.1, "Ejemplo Tirada de Combate": two ranks of 5 warriors, a hero leading from the
    front, charge a flank: 2 (AT) + 4 (4 warriors in contact) + 4 (the hero's AT) + 1 (charge)
    + 1 (two complete ranks) = 12 dice, hitting on 3+ (4 - 1 for the flank)."""
    a = side(models=9, ranks=[5, 5], models_in_melee=4, order="charge", charge_outside_zoc=True,
             attacks="flank", leader={"class": "H", "contact": "direct", "in_front": True},
             dice={"combat": [2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 1],
                   "wound": [1, 2, 3, 4, 4, 4, 5, 6, 6]})
    # b: 2 + 3 in melee + 1 (ranks of 3 and 3 are complete) - 1 (Combatir reaction) = 5 dice
    b = side(models=6, ranks=[3, 3], models_in_melee=3, order="fight_reaction", dice=whiff(5))
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0
    assert out["a"]["pool"] == 12
    assert ids(out["a"]["pool_items"]) == {"base_at": 2, "models": 4, "leader": 4, "charge": 1,
                                           "ranks": 1}
    assert out["a"]["hit_target"] == 3 and out["a"]["hit_items"] == [
        {"id": "flank", "mod": 1, "rule": "Modificadores a la Tirada de Combate"}]
    # the 3s, 4s, 5s and the 6 hit; the 2s and the 1 miss: 9 hits, one fumble, one critical
    assert (out["a"]["hits"], out["a"]["fumbles"], out["a"]["criticals"]) == (9, 1, 1)
    # wound dice at 4+: 4,4,4,5,6,6 wound (6); 2 and 3 stun (2 -> 1 wound); the 1 is ignored
    assert (out["a"]["wounds"], out["a"]["stunned_caused"], out["a"]["ignored"]) == (6, 2, 1)
    taken = out["b"]["taken"]
    # 7 wounds on 6 warriors of 1 wound each: all fall, 1 wound over and no leader to take it
    assert (taken["unit_wounds"], taken["casualties"], taken["overflow"]) == (7, 6, 1)
    assert taken["wiped_out"] and out["loser"] == "b" and out["winner"] == "a"
    assert out["combat_initiative"] == "a" and out["b"]["honour"] is None


def ashigaru_vs_samurai(crits_to_leader: int, honour: list[int]) -> dict[str, Any]:
    """B5.2, "Ejemplo tirada de heridas": 5 ashigaru hits on armoured samurai wound on 5+.
    a: 2 (AT) + 3 in melee = 5 dice, all hit; b: 3 (elite AT) + 3 in melee + 4 (hero leader
    in direct contact) + 1 (katana against a yari, not charging) = 11 dice, all miss."""
    a = side(trait="ashigaru", weapon=1, models_in_melee=3, crits_to_leader=crits_to_leader,
             dice={"combat": [4, 4, 5, 5, 6], "wound": [1, 2, 4, 4, 6]})
    b = side(**{"class": "E"}, trait="samurai", armour=True, weapon=3, models=4,
             models_in_melee=3, dice={**whiff(11), "honour": honour},
             leader={"class": "H", "contact": "direct", "in_front": True})
    return melee(a, b)


def test_rulebook_wound_example_on_the_unit(tmp_path: Path, capsys: Cap) -> None:
    """The 1 is ignored, 2-4-4 are three Stunned (two make a wound, one stays), the 6 is a
    critical: on the unit, 2 wounds: one elite samurai (2 wounds) falls."""
    status, out = run("melee", ashigaru_vs_samurai(0, [5]), tmp_path, capsys)
    assert status == 0
    a, b = out["a"], out["b"]
    assert a["wound_target"] == 5 and ids(a["wound_items"]) == {"armour": -1}
    assert (a["wounds"], a["wound_criticals"], a["stunned_caused"], a["ignored"]) == (1, 1, 3, 1)
    t = b["taken"]
    assert (t["stunned_converted"], t["stunned_after"], t["unit_wounds"]) == (1, 1, 2)
    assert (t["casualties"], t["wound_markers_after"]) == (1, 0)
    assert ids(b["pool_items"]) == {"base_at": 3, "models": 3, "leader": 4, "w34_vs_w1": 1}
    # b lost 1 model to none: it rolls honour on its hero leader's HO 5, and a 5 passes
    assert out["loser"] == "b"
    assert b["honour"]["target"] == 5 and b["honour"]["passed"]
    assert b["honour"]["outcome"] == "passed" and b["honour"]["markers"] == []


def test_rulebook_wound_example_on_the_leader(tmp_path: Path, capsys: Cap) -> None:
    """The same roll, the critical put on the leader: the unit takes 1 wound (a marker on an
    elite), the leader 1; no casualty either side, so no loser and no honour roll."""
    status, out = run("melee", ashigaru_vs_samurai(1, []), tmp_path, capsys)
    assert status == 0
    t = out["b"]["taken"]
    assert (t["to_leader"], t["unit_wounds"], t["casualties"]) == (1, 1, 0)
    assert (t["wound_markers_after"], t["leader_wounds_after"], t["leader_killed"]) == (1, 1, False)
    assert out["loser"] is None and out["winner"] is None
    assert out["combat_initiative"] == "a"  # no charge: the turn initiative


def test_rulebook_protect_the_leader_example(tmp_path: Path, capsys: Cap) -> None:
    """PROTEGED AL LÍDER (B7): a leader with 2 wounds left (a hero, 1 of 3 taken) takes 3;
    3D6 give two 4+: the leader lives on 1 wound and the unit takes 2 wounds."""
    a = side(models=3, models_in_melee=3, crits_to_leader=3,
             dice={"combat": [6, 6, 6, 1, 1], "wound": [6, 6, 6]})
    b = side(models=6, models_in_melee=3, dice={**whiff(9), "protect": [4, 5, 2], "honour": [3]},
             leader={"class": "H", "contact": "direct", "wounds": 1, "adjacent": 4})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0
    t = out["b"]["taken"]
    assert (t["protected"], t["to_leader"], t["unit_wounds"], t["casualties"]) == (2, 1, 2, 2)
    assert (t["leader_wounds_after"], t["leader_killed"], t["loss_count"]) == (2, False, 2)
    # the leader is not in front: the unit's own HO 3; a 3 passes
    assert out["b"]["honour"]["target"] == 3 and out["b"]["honour"]["passed"]


def test_leader_killed_counts_two_and_takes_the_overflow(tmp_path: Path, capsys: Cap) -> None:
    """UNIDAD DERROTADA: losing the leader counts as two casualties; RETIRADA DE BAJAS and
    resolution step 6: wounds beyond the unit go to the leader. b: 2 warriors and an elite
    leader (2 wounds) take 4 wounds: 2 models, then 2 overflow kill the leader."""
    a = side(models_in_melee=3, dice={"combat": [6, 6, 6, 6, 1], "wound": [5, 5, 5, 5]})
    b = side(models=2, models_in_melee=2, dice=whiff(2 + 2 + 3),
             leader={"class": "E", "contact": "direct"})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    t = out["b"]["taken"]
    assert status == 0
    assert (t["casualties"], t["overflow"], t["leader_wounds_after"]) == (2, 2, 2)
    assert t["leader_killed"] and t["loss_count"] == 4 and t["wiped_out"]
    assert out["loser"] == "b" and out["b"]["honour"] is None


def test_used_reaction_and_rear_charge(tmp_path: Path, capsys: Cap) -> None:
    """B5.1, the other examples: a Used unit reacting with Combatir fights at -2D6; a charger
    on the rear gets +1D6 and +2 (hits on 2+). a: 2 + 2 + 1 = 5 dice; b: 2 + 2 - 1 - 1 = 2."""
    a = side(models_in_melee=2, order="charge", charge_outside_zoc=True, attacks="rear",
             dice={"combat": [1, 2, 2, 3, 1], "wound": [1, 1, 1]})
    b = side(models_in_melee=2, order="fight_reaction", used=True, dice=whiff(2))
    status, out = run("melee", melee(a, b, turn="b"), tmp_path, capsys)
    assert status == 0
    assert ids(out["b"]["pool_items"]) == {"base_at": 2, "models": 2, "used": -1,
                                           "fight_reaction": -1}
    assert out["a"]["hit_target"] == 2 and out["a"]["hits"] == 3
    # wound dice all 1: ignored; nobody lost anything: the charger takes the initiative
    assert out["loser"] is None and out["combat_initiative"] == "a"


def test_zero_pool_rolls_one_die_that_needs_a_six(tmp_path: Path, capsys: Cap) -> None:
    """TIRADAS DE ÉXITOS, reading 7: the last villager of a unit (AT 0, -1 TROPAS AISLADAS)
    has -1 dice: it rolls one, a 5 misses although the target is 4, a 6 hits."""
    for die, hits in ((5, 0), (6, 1)):
        a = side(**{"class": "A"}, models=1, weapon=0, dice={"combat": [die], "wound": [4] * hits})
        b = side(models_in_melee=1, dice={"combat": [1, 1, 1]})
        status, out = run("melee", melee(a, b), tmp_path, capsys)
        assert status == 0
        assert out["a"]["pool"] == -1 and out["a"]["zero_pool"]
        assert ids(out["a"]["pool_items"]) == {"base_at": 0, "last_model": -1}
        assert out["a"]["hits"] == hits
        assert out["a"]["wound_target"] == 5  # basic weapon: -1 to wound


def test_single_models_lose_by_wounds(tmp_path: Path, capsys: Cap) -> None:
    """UNIDAD DERROTADA: "entre tropas individuales, el perdedor es el que recibe más
    heridas". Two single heroes (4 dice, 3 wounds each): a takes 2, b takes 1; nobody
    falls, so a loses and rolls honour as a single model (no last-model -1)."""
    hero = {"class": "H", "models": 1, "single": True, "weapon": 3, "order": "fight"}
    a = {**hero, "dice": {"combat": [6, 1, 1, 1], "wound": [5], "honour": [6]}}
    b = {**hero, "dice": {"combat": [6, 6, 1, 1], "wound": [4, 3]}}
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0
    # katana: +1 to wound, so b's 3 wounds too
    assert out["b"]["wound_target"] == 3 and out["a"]["taken"]["unit_wounds"] == 2
    assert out["a"]["taken"]["wound_markers_after"] == 2 and out["loser"] == "a"
    honour = out["a"]["honour"]
    assert honour["target"] == 5 and not honour["passed"]
    assert honour["outcome"] == "retreat" and honour["move"] == "2D6"
    assert honour["markers"] == ["used", "retreat"]


def test_blunt_weapon_against_the_undead(tmp_path: Path, capsys: Cap) -> None:
    """ARMAS DE COMBATE CUERPO A CUERPO, type 5: -1 to hit (5+: the 4 misses), +1 to wound;
    TRATOS (reading 8): +1 more against the undead, so wounds on 2+. Three wounds kill three
    undead warriors; they lose, fail honour (6 against HO 3) and take an extra wound instead
    of moving: one more falls."""
    a = side(weapon=5, models_in_melee=3,
             dice={"combat": [6, 6, 6, 6, 4], "wound": [2, 2, 1, 3]})
    b = side(trait="undead", stunned=2, models_in_melee=3, dice={**whiff(5), "honour": [6]})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0
    assert out["a"]["hit_target"] == 5 and out["a"]["hits"] == 4
    assert ids(out["a"]["hit_items"]) == {"w5_blunt": -1}
    assert out["a"]["wound_target"] == 2
    assert ids(out["a"]["wound_items"]) == {"w5_blunt": 1, "w5_vs_undead": 1}
    t = out["b"]["taken"]
    # the carried 2 Stunned stay 2: three are needed for an undead wound
    assert (t["unit_wounds"], t["stunned_converted"], t["stunned_after"]) == (3, 0, 2)
    honour = out["b"]["honour"]
    assert (honour["outcome"], honour["move"], honour["markers"]) == ("extra_wound", None, [])
    assert honour["extra_casualties"] == 1


def test_stunned_rows(tmp_path: Path, capsys: Cap) -> None:
    """Tirada de heridas: a die below the target stuns; reading 3: the 2 Stunned carried from
    an earlier combat this turn add to the 4 new ones: 6 undead Stunned make 2 wounds."""
    a = side(models_in_melee=3, dice={"combat": [6, 6, 6, 6, 1], "wound": [2, 3, 3, 2]})
    b = side(trait="undead", stunned=2, models_in_melee=3, dice={**whiff(5), "honour": [1]})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    t = out["b"]["taken"]
    assert status == 0
    assert (t["stunned_converted"], t["stunned_after"], t["casualties"]) == (2, 0, 2)


def test_villagers_lose_extra_models_for_the_margin(tmp_path: Path, capsys: Cap) -> None:
    """Villager trait (TRATOS), reading 10: the losers remove as many extra villagers as the
    margin: 3 casualties to 1 -> 2 more; 6 - 3 - 2 = 1 left, which rolls at HO 2 - 1."""
    a = side(models_in_melee=3, dice={"combat": [6, 6, 6, 6, 1], "wound": [6, 6, 6, 1]})
    b = side(**{"class": "A"}, trait="villager", models=6, models_in_melee=3, weapon=0,
             dice={"combat": [6, 1, 1], "wound": [6], "honour": [1]})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0
    assert out["b"]["taken"]["casualties"] == 3 and out["a"]["taken"]["casualties"] == 1
    assert out["b"]["villager_extra"] == 2 and out["a"]["villager_extra"] == 0
    assert ids(out["b"]["honour"]["ho_items"]) == {"base_ho": 2, "last_model": -1}
    assert out["b"]["honour"]["passed"]


def test_a_wound_roll_refusal_counts_in_words() -> None:
    """One hit is "1 hit", one die "1 die" (Tirada de heridas)."""
    assert hits_and_dice(1, 1) == "1 hit, 1 die given"
    assert hits_and_dice(2, 0) == "2 hits, 0 dice given"
