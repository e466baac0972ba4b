"""Every modifier of data/rules.yaml, triggered once and itemised with its heading, through the
pure functions (``pool_items``, ``hit_items``, ``wound_items``); and the data file itself."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from companion.core.datafiles import DataFileError, validate
from companion.games.kensei import melee, shoot
from companion.games.kensei.inputs import MeleeSide, ShootInput
from companion.games.kensei.rules import KenseiRules, rules

BASE: dict[str, Any] = {"class": "G", "models": 5, "weapon": 4, "order": "fight"}
TOP = "Tirada de combate"
MOD = "Modificadores a la Tirada de Combate"
WEAPON = "ARMAS DE COMBATE CUERPO A CUERPO"
HERIDAS = "Modificadores a la Tirada de Heridas"

# (table, id, amount, heading, my keys, the enemy's keys)
MELEE: list[tuple[str, str, int, str, dict[str, Any], dict[str, Any]]] = [
    ("pool", "base_at", 2, TOP, {}, {}),
    ("pool", "last_model", -1, "TROPAS AISLADAS", {"models": 1}, {}),
    ("pool", "models", 3, TOP, {"models_in_melee": 3}, {}),
    ("pool", "leader", 3, TOP, {"leader": {"class": "E", "contact": "direct"}}, {}),
    ("pool", "leader", 1, TOP, {"leader": {"class": "E", "contact": "support"}}, {}),
    ("pool", "ranks", 1, TOP, {"models": 6, "ranks": [3, 3]}, {}),
    ("pool", "potenciar", 1, TOP, {"potenciar": True}, {}),
    ("pool", "charge", 1, TOP, {"order": "charge", "charge_outside_zoc": True}, {}),
    ("pool", "charge", 2, TOP, {"order": "charge", "charge_outside_zoc": True,
                                "mounted": True}, {}),
    ("pool", "banner", 1, "HATA-JURUSHI", {"order": "charge", "banner_in_front": True}, {}),
    ("pool", "used", -1, TOP, {"used": True, "order": "fight_reaction"}, {}),
    ("pool", "fight_reaction", -1, TOP, {"order": "fight_reaction"}, {}),
    ("pool", "out_of_coherence", -1, TOP, {"out_of_coherence": True}, {}),
    ("pool", "retreat_or_parapet", -2, TOP, {"retreat_marker": True, "parapeted": True}, {}),
    ("pool", "w1_vs_cavalry", 1, WEAPON, {"weapon": 1}, {"mounted": True}),
    ("pool", "w1_charge", 1, WEAPON, {"weapon": 1, "order": "charge"}, {}),
    ("pool", "w2_several", 1, WEAPON, {"weapon": 2, "several_enemies_in_contact": True}, {}),
    ("pool", "w2_charged", 1, WEAPON, {"weapon": 2}, {"order": "charge"}),
    ("pool", "w34_vs_w1", 1, WEAPON, {"weapon": 3}, {"weapon": 1}),
    ("hit", "enemy_cover", -1, MOD, {}, {"in_cover": True, "parapeted": True}),
    ("hit", "shooting_unit_charged", -1, MOD, {"shooting_unit": True}, {"order": "charge"}),
    ("hit", "flank", 1, MOD, {"attacks": "flank"}, {}),
    ("hit", "rear", 2, MOD, {"attacks": "rear"}, {}),
    ("hit", "w5_blunt", -1, WEAPON, {"weapon": 5}, {}),
    ("wound", "armour", -1, HERIDAS, {}, {"armour": True}),
    ("wound", "mounted", -1, HERIDAS, {}, {"mounted": True}),
    ("wound", "w0_basic", -1, WEAPON, {"weapon": 0}, {}),
    ("wound", "w3_katana", 1, WEAPON, {"weapon": 3}, {}),
    ("wound", "w5_blunt", 1, WEAPON, {"weapon": 5}, {}),
    ("wound", "w5_vs_undead", 1, "TRATOS", {"weapon": 5}, {"trait": "undead"}),
]


def items(table: str, me: dict[str, Any], foe: dict[str, Any]) -> list[dict[str, Any]]:
    mine, theirs = (MeleeSide.model_validate({**BASE, **k}) for k in (me, foe))
    fn = {"pool": melee.pool_items, "hit": melee.hit_items, "wound": melee.wound_items}[table]
    return [i.model_dump() for i in fn(mine, theirs)]


@pytest.mark.parametrize(("table", "key", "amount", "rule", "me", "foe"), MELEE)
def test_melee_modifier(table: str, key: str, amount: int, rule: str, me: dict[str, Any],
                        foe: dict[str, Any]) -> None:
    found = [i for i in items(table, me, foe) if i["id"] == key]
    assert len(found) == 1, "each modifier is itemised once"
    assert found[0]["rule"] == rule
    assert found[0]["dice" if table == "pool" else "mod"] == amount
    # and it is absent when its condition is absent
    assert key in ("base_at", "models") or all(i["id"] != key for i in items(table, {}, {}))


@pytest.mark.parametrize(("me", "foe", "absent"), [
    ({"weapon": 1, "order": "charge"}, {"weapon": 2}, "w1_charge"),
    ({"weapon": 2}, {"order": "charge", "weapon": 1}, "w2_charged"),
    ({"weapon": 3, "order": "charge"}, {"weapon": 1}, "w34_vs_w1"),
    ({"order": "charge", "charge_outside_zoc": True, "skirmishers": True}, {}, "charge"),
    ({"order": "charge", "charge_outside_zoc": True, "out_of_formation": True}, {}, "charge"),
    ({"order": "charge"}, {}, "charge"),
    ({"ranks": [3, 3], "rear_ranks_in_melee": True}, {}, "ranks"),
    ({"ranks": [4, 2]}, {}, "ranks"),
    ({"ranks": [3, 3], "skirmishers": True}, {}, "ranks"),
    ({"models_in_melee": 1, "models": 1, "single": True}, {}, "models"),
    ({"leader": {"class": "E", "contact": "none"}}, {}, "leader"),
])
def test_melee_modifier_exceptions(me: dict[str, Any], foe: dict[str, Any],
                                   absent: str) -> None:
    """The "except" clauses: type 1 charging types 1 and 2, type 2 charged by 1 and 2, type 3
    or 4 when charging; no charge bonus for skirmishers, a unit out of formation, or from
    inside the zone of control; ranks (FORMACIÓN CERRADA: a later rank needs front - 1 and
    3); no model dice for a single troop; no leader dice out of contact."""
    assert all(i["id"] != absent for i in items("pool", me, foe))


def test_a_single_troop_charges_with_its_bonus_out_of_formation() -> None:
    me = {"models": 1, "single": True, "order": "charge", "charge_outside_zoc": True,
          "out_of_formation": True}
    assert {"id": "charge", "dice": 1, "rule": TOP} in items("pool", me, {})


SHOT: list[tuple[str, str, int, str, dict[str, Any], dict[str, Any]]] = [
    ("pool", "base_at", 2, "Tirada de Disparo", {}, {}),
    ("pool", "models", 2, "Tirada de Disparo", {"models_with_los": 2}, {}),
    ("pool", "leader", 3, "Tirada de Disparo", {"leader": {"class": "H", "los": True}}, {}),
    ("pool", "short_weapon", 1, "Tirada de Disparo", {"weapon": "granada", "distance_cm": 5},
     {}),
    ("pool", "potenciar", 1, "Tirada de Disparo", {"potenciar": True}, {}),
    ("pool", "out_of_formation", -1, "Tirada de Disparo", {"out_of_formation": True}, {}),
    ("pool", "medium_at_medium", -1, "Tirada de Disparo", {"weapon": "bo-hiya"}, {}),
    ("pool", "long_at_short_or_long", -1, "Tirada de Disparo", {"distance_cm": 45}, {}),
    ("pool", "parapeted", -2, "Tirada de Disparo", {"parapeted": True}, {}),
    ("hit", "target_cover", -1, "Modificadores a la Tirada de Disparo", {}, {"in_cover": True}),
    ("hit", "single_target", -1, "Modificadores a la Tirada de Disparo", {},
     {"models": 1, "visible": 1}),
    ("hit", "target_ran", -1, "Modificadores a la Tirada de Disparo", {}, {"ran": True}),
    ("hit", "gunpowder_long", -1, "Modificadores a la Tirada de Disparo",
     {"weapon": "mosquete", "distance_cm": 41}, {}),
    ("wound", "armour", -1, HERIDAS, {}, {"armour": True}),
    ("wound", "mounted", -1, HERIDAS, {}, {"mounted": True}),
    ("wound", "gunpowder", 1, HERIDAS, {"weapon": "ozutsu"}, {}),
]


def shot_items(table: str, sh: dict[str, Any], tg: dict[str, Any]) -> list[dict[str, Any]]:
    inp = ShootInput.model_validate({
        "shooter": {"class": "G", "weapon": "yumi", "distance_cm": 30, **sh},
        "target": {"class": "G", "models": 5, "visible": 5, **tg}})
    fn = {"pool": shoot.pool_items, "hit": shoot.hit_items, "wound": shoot.wound_items}[table]
    return [i.model_dump() for i in fn(inp)]


@pytest.mark.parametrize(("table", "key", "amount", "rule", "sh", "tg"), SHOT)
def test_shooting_modifier(table: str, key: str, amount: int, rule: str, sh: dict[str, Any],
                           tg: dict[str, Any]) -> None:
    found = [i for i in shot_items(table, sh, tg) if i["id"] == key]
    assert len(found) == 1 and found[0]["rule"] == rule
    assert found[0]["dice" if table == "pool" else "mod"] == amount
    assert key in ("base_at", "models") or all(
        i["id"] != key for i in shot_items(table, {}, {}))


def test_every_modifier_of_the_data_is_tested() -> None:
    """A row added to data/rules.yaml needs a case above."""
    r = rules()
    tables = {("melee", "pool"): r.melee_pool, ("melee", "hit"): r.melee_hit,
              ("melee", "wound"): r.melee_wound, ("shot", "pool"): r.shoot_pool,
              ("shot", "hit"): r.shoot_hit, ("shot", "wound"): r.shoot_wound}
    for (kind, table), rows in tables.items():
        cases = MELEE if kind == "melee" else SHOT
        tested = {key for t, key, *_ in cases if t == table}
        assert tested == set(rows.rows), (kind, table)
        for key, row in rows.rows.items():
            assert any(rule == row.rule for t, k, _, rule, *_ in cases if (t, k) == (table, key))


def test_class_table() -> None:
    """B2.4: H 4/3, 5, 3; E 3/3, 4, 2; G 2/2, 3, 1; A 0/0, 2, 1 (AT melee/ranged, HO, HR)."""
    got = {k: (c.at_melee, c.at_ranged, c.ho, c.hr) for k, c in rules().classes.items()}
    assert got == {"H": (4, 3, 5, 3), "E": (3, 3, 4, 2), "G": (2, 2, 3, 1), "A": (0, 0, 2, 1)}


def test_deck_and_hands() -> None:
    """PREPARA TU BARAJA DE MANDO: 24 cards, 7 x 0, 8 x 1, 6 x 2, 3 x 3."""
    assert rules().command_deck == {0: 7, 1: 8, 2: 6, 3: 3}
    assert sum(rules().command_deck.values()) == 24


def test_a_broken_data_file_names_the_field() -> None:
    from importlib import resources
    text = resources.files("companion.games.kensei").joinpath("data", "rules.yaml").read_text(
        "utf-8")
    data = yaml.safe_load(text)
    del data["melee_pool"]["banner"]
    with pytest.raises(DataFileError, match=r"melee_pool.*banner"):
        validate(KenseiRules, data, "rules.yaml")
    data = yaml.safe_load(text)
    data["classes"]["H"]["hr"] = 0
    with pytest.raises(DataFileError, match=r"classes\.H\.hr"):
        validate(KenseiRules, data, "rules.yaml")
