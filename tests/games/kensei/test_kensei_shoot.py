"""``companion kensei shoot``: range bands, the shooting pool, gunpowder, casualties limited to
the visible models and the honour trigger (B6, B7, B8). Numbers computed by hand from the
tables; "reading N" is the row of readings.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import ids, run, shot

Cap = pytest.CaptureFixture[str]


def fire(tmp_path: Path, capsys: Cap, data: dict[str, Any]) -> dict[str, Any]:
    status, out = run("shoot", data, tmp_path, capsys)
    assert status == 0, out
    return out


def refused(tmp_path: Path, capsys: Cap, data: dict[str, Any]) -> dict[str, Any]:
    status, out = run("shoot", data, tmp_path, capsys)
    assert status == 2, out
    error: dict[str, Any] = out["error"]
    return error


def test_archer_unit_with_leader(tmp_path: Path, capsys: Cap) -> None:
    """Tirada de Disparo: 2 (warrior ranged AT) + 3 outer models with LOS + 3 (an elite
    leader's ranged AT, he sees the target) = 8 dice; a yumi at 30 cm (medium) has no
    penalty. Hits on 4+: 4 of 8; wounds on 4+: 2; two of five warriors fall: under half."""
    data = shot({"models_with_los": 3, "leader": {"class": "E", "los": True}}, {},
                dice={"shoot": [1, 2, 3, 3, 4, 5, 6, 6], "wound": [3, 4, 1, 6]})
    out = fire(tmp_path, capsys, data)
    assert (out["band"], out["out_of_range"], out["pool"]) == ("medium", False, 8)
    assert ids(out["pool_items"]) == {"base_at": 2, "models": 3, "leader": 3}
    assert {i["rule"] for i in out["pool_items"]} == {"Tirada de Disparo"}
    assert (out["hits"], out["fumbles"], out["criticals"]) == (4, 1, 2)
    assert (out["wounds"], out["wound_criticals"]) == (2, 1)
    assert out["taken"] == {"to_leader": 0, "unit_wounds": 2, "casualties": 2, "lost_wounds": 0,
                            "wound_markers_after": 0, "leader_wounds_after": None,
                            "leader_killed": False}
    assert out["honour_trigger"] is None and out["honour"] is None
    assert out["unloaded_after"] is False  # a bow is not gunpowder


def test_gunpowder_wounds_on_three_through_samurai_armour(tmp_path: Path, capsys: Cap) -> None:
    """ARMADURAS / ARMAS DE DISPARO: gunpowder "suma un +1 ... e ignora la Armadura Samurái
    (sin contar otros modificadores, hieren a 3+)". A teppo at 50 cm (long): -1D6 (long
    weapon at long distance, reading 2) and -1 to hit (gunpowder at long distance): 1 die
    at 5+. It leaves the weapon unloaded."""
    data = shot({"weapon": "teppo", "distance_cm": 50}, {"armour": True, "trait": "samurai"},
                dice={"shoot": [5], "wound": [3]})
    out = fire(tmp_path, capsys, data)
    assert ids(out["pool_items"]) == {"base_at": 2, "models": 0, "long_at_short_or_long": -1}
    assert out["hit_target"] == 5 and ids(out["hit_items"]) == {"gunpowder_long": -1}
    assert out["wound_target"] == 3 and ids(out["wound_items"]) == {"gunpowder": 1}
    assert out["wounds"] == 1 and out["unloaded_after"] is True


def test_bow_against_mounted_samurai(tmp_path: Path, capsys: Cap) -> None:
    """Modificadores a la Tirada de Heridas: armour -1 and mounted -1 against a bow: 6+."""
    out = fire(tmp_path, capsys, shot({}, {"armour": True, "mounted": True},
                                      dice={"shoot": [1, 1]}))
    assert out["wound_target"] == 6 and ids(out["wound_items"]) == {"armour": -1, "mounted": -1}


@pytest.mark.parametrize(("weapon", "cm", "band", "penalty"), [
    ("yumi", 20, "short", {"long_at_short_or_long": -1}),  # literal reading 2
    ("yumi", 20.5, "medium", {}),
    ("yumi", 60, "long", {"long_at_short_or_long": -1}),
    ("arcabuz", 40, "medium", {"medium_at_medium": -1}),
    ("arcabuz", 10, "short", {}),
    ("shuriken", 0, "short", {"short_weapon": 1}),
])
def test_range_bands(tmp_path: Path, capsys: Cap, weapon: str, cm: float, band: str,
                     penalty: dict[str, int]) -> None:
    """DISTANCIA DE DISPARO: short 0-20 cm, medium to 40, long to 60; each weapon's band
    penalty (Tirada de Disparo). A single shooter: its AT 2 and the band's dice."""
    pool = 2 + sum(penalty.values())
    out = fire(tmp_path, capsys, shot({"weapon": weapon, "distance_cm": cm, "single": True},
                                      {}, dice={"shoot": [1] * pool}))
    assert out["band"] == band
    assert ids(out["pool_items"]) == {"base_at": 2, **penalty}


def test_out_of_range_spends_the_shot(tmp_path: Path, capsys: Cap) -> None:
    """"Si el objetivo está fuera de la distancia ... no se hace ninguna tirada": a yumi at
    61 cm, a shuriken at 21. Dice for it are refused."""
    out = fire(tmp_path, capsys, shot({"distance_cm": 61}, {}))
    assert out == {"band": "long", "out_of_range": True}
    out = fire(tmp_path, capsys, shot({"weapon": "shuriken", "distance_cm": 21}, {}))
    assert out == {"band": "medium", "out_of_range": True}
    error = refused(tmp_path, capsys, shot({"distance_cm": 61}, {}, dice={"shoot": [6]}))
    assert error["rule"] == "DISTANCIA DE DISPARO"


def test_only_visible_models_fall(tmp_path: Path, capsys: Cap) -> None:
    """RETIRADA DE BAJAS, reading 19: 2 of 5 warriors visible; 4 wounds kill 2, 2 are lost.
    2 of 5 is under half: no honour roll."""
    out = fire(tmp_path, capsys, shot({"models_with_los": 2}, {"visible": 2},
                                      dice={"shoot": [6, 6, 6, 6], "wound": [6, 6, 6, 6]}))
    t = out["taken"]
    assert (t["unit_wounds"], t["casualties"], t["lost_wounds"]) == (4, 2, 2)
    assert out["honour_trigger"] is None


def test_half_the_unit_falls(tmp_path: Path, capsys: Cap) -> None:
    """TIRADA DE HONOR: 50% or more of the models at the time of the shot: 2 of 4 (the
    leader not counted, reading 18). Elite target, 2 wounds each: 5 wounds = 2 dead + 1
    marker."""
    target = {"class": "E", "models": 4, "visible": 4, "ranks_after": [3],
              "leader": {"class": "E"}}
    out = fire(tmp_path, capsys, shot({"models_with_los": 3}, target, dice={
        "shoot": [6, 6, 6, 6, 6], "wound": [4, 4, 4, 4, 4], "honour": [5]}))
    t = out["taken"]
    assert (t["casualties"], t["wound_markers_after"], t["leader_wounds_after"]) == (2, 1, 0)
    assert out["honour_trigger"] == "half_models"
    h = out["honour"]
    assert (h["target"], h["passed"], h["outcome"], h["move"]) == (4, False, "retreat", "2D6")


def test_a_wounded_single_model_tests(tmp_path: Path, capsys: Cap) -> None:
    """TIRADA DE HONOR: a single troop that takes a wound and lives rolls; shooting at a
    single model is -1 to hit (Modificadores a la Tirada de Disparo)."""
    hero = {"class": "H", "models": 1, "visible": 1, "single": True}
    out = fire(tmp_path, capsys, shot({"models_with_los": 2}, hero, dice={
        "shoot": [5, 5, 4, 1], "wound": [4, 6], "honour": [5]}))
    assert out["hit_target"] == 5 and ids(out["hit_items"]) == {"single_target": -1}
    assert out["taken"]["wound_markers_after"] == 2 and out["taken"]["casualties"] == 0
    assert out["honour_trigger"] == "single_wounded" and out["honour"]["passed"]


def test_criticals_to_an_affected_leader(tmp_path: Path, capsys: Cap) -> None:
    """Tirada de Heridas, natural 6: the shooter may give the wound to the unit leader when
    he is among the models affected; otherwise it is refused."""
    target = {"leader": {"class": "G", "affected": True, "in_front": True}}
    data = shot({"models_with_los": 1}, target, crits_to_leader=1,
                dice={"shoot": [6, 1, 1], "wound": [6]})
    out = fire(tmp_path, capsys, data)
    assert out["taken"]["to_leader"] == 1 and out["taken"]["leader_killed"]
    data["target"]["leader"]["affected"] = False
    error = refused(tmp_path, capsys, data)
    assert error["rule"] == "Tirada de heridas" and "leader" in error["message"]


def test_cover_ran_parapet(tmp_path: Path, capsys: Cap) -> None:
    """Cover and parapet give one -1 (reading 15), running another; a parapeted shooter has
    -2D6 and Potenciar +1D6: 2 + 1 - 2 + 1 = 2 dice at 6+."""
    data = shot({"parapeted": True, "potenciar": True, "models_with_los": 1},
                {"in_cover": True, "parapeted": True, "ran": True}, dice={"shoot": [1, 1]})
    out = fire(tmp_path, capsys, data)
    assert ids(out["pool_items"]) == {"base_at": 2, "models": 1, "potenciar": 1, "parapeted": -2}
    assert ids(out["hit_items"]) == {"target_cover": -1, "target_ran": -1}
    assert out["hit_target"] == 6


@pytest.mark.parametrize("flag", ["in_melee", "charged", "unloaded"])
def test_shooter_that_may_not_shoot(tmp_path: Path, capsys: Cap, flag: str) -> None:
    """DISPARAR: not in melee, not when charged, not with an unloaded weapon."""
    error = refused(tmp_path, capsys, shot({flag: True}, {}))
    assert error["rule"] == "DISPARAR"


def test_target_in_melee_with_a_friend(tmp_path: Path, capsys: Cap) -> None:
    assert refused(tmp_path, capsys, shot({}, {"in_melee_with_friend": True}))["rule"] == (
        "DISPARAR")


def test_dice_counts(tmp_path: Path, capsys: Cap) -> None:
    """The shooting dice must be the pool (Tirada de Disparo), the wound dice the hits."""
    assert refused(tmp_path, capsys, shot({}, {}, dice={"shoot": [6, 6, 6]}))["rule"] == (
        "Tirada de Disparo")
    assert refused(tmp_path, capsys, shot({"single": True}, {}, dice={"shoot": [6, 6]}))[
        "rule"] == "Tirada de heridas"
