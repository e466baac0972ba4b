"""Properties of the Kensei arithmetic that hold for every input (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kensei import melee, shoot
from companion.games.kensei.calculator import adjudicate_text
from companion.games.kensei.dice import dice_to_roll, succeeds
from companion.games.kensei.duel import duel
from companion.games.kensei.inputs import DuelInput, MeleeSide, ShootInput
from companion.games.kensei.melee_resolution import WoundRoll, resolve

FLAGS = ["mounted", "armour", "skirmishers", "out_of_formation", "out_of_coherence",
         "retreat_marker", "parapeted", "in_cover", "shooting_unit", "banner_in_front",
         "several_enemies_in_contact", "rear_ranks_in_melee", "charge_outside_zoc"]
die = st.integers(1, 6)


@st.composite
def sides(draw: st.DrawFn) -> dict[str, Any]:
    models = draw(st.integers(1, 15))
    keys: dict[str, Any] = {
        "class": draw(st.sampled_from("HEGA")), "models": models,
        "weapon": draw(st.integers(0, 5)),
        "order": draw(st.sampled_from(["charge", "fight", "fight_reaction"])),
        "models_in_melee": draw(st.integers(0, models)),
        "trait": draw(st.sampled_from([None, "samurai", "ashigaru", "undead", "villager"])),
        **{f: draw(st.booleans()) for f in FLAGS}}
    if draw(st.booleans()):
        keys["leader"] = {"class": draw(st.sampled_from("HEG")),
                          "contact": draw(st.sampled_from(["direct", "support", "none"]))}
    return keys


def pool(me: dict[str, Any], foe: dict[str, Any]) -> int:
    a, b = MeleeSide.model_validate(me), MeleeSide.model_validate(foe)
    return sum(i.dice for i in melee.pool_items(a, b))


def hit_target(me: dict[str, Any], foe: dict[str, Any]) -> int:
    a, b = MeleeSide.model_validate(me), MeleeSide.model_validate(foe)
    return 4 - sum(i.mod for i in melee.hit_items(a, b))


@given(die, st.integers(-3, 10))
def test_natural_one_fails_and_six_succeeds(d: int, goal: int) -> None:
    """TIRADAS DE ÉXITOS: a 1 always fails, a 6 always succeeds; an easier target never turns
    a success into a failure."""
    assert not succeeds(1, goal) and succeeds(6, goal)
    if succeeds(d, goal):
        assert succeeds(d, goal - 1)


@given(sides(), sides(), st.sampled_from(["potenciar", "banner_in_front",
                                          "several_enemies_in_contact"]))
def test_a_favourable_flag_never_lowers_the_pool(me: dict[str, Any], foe: dict[str, Any],
                                                 flag: str) -> None:
    if flag == "potenciar":
        me["order"] = "fight"
    assert pool({**me, flag: True}, foe) >= pool({**me, flag: False}, foe)


@given(sides(), sides(), st.sampled_from(["used", "out_of_coherence", "retreat_marker"]))
def test_a_bad_marker_never_raises_the_pool(me: dict[str, Any], foe: dict[str, Any],
                                            flag: str) -> None:
    assert pool({**me, flag: True}, foe) <= pool({**me, flag: False}, foe)


@given(sides(), sides(), st.sampled_from(["flank", "rear"]))
def test_attacking_a_flank_or_rear_never_makes_hitting_harder(
        me: dict[str, Any], foe: dict[str, Any], side: str) -> None:
    assert hit_target({**me, "attacks": side}, foe) < hit_target({**me, "attacks": "front"}, foe)


@given(sides(), sides())
def test_enemy_cover_never_makes_hitting_easier(me: dict[str, Any], foe: dict[str, Any]) -> None:
    assert hit_target(me, {**foe, "in_cover": True}) >= hit_target(me, {**foe, "in_cover": False})


@given(sides(), st.lists(die, max_size=30), st.integers(0, 5))
def test_wounds_are_conserved_and_more_never_kill_fewer(
        t: dict[str, Any], dice: list[int], goal: int) -> None:
    """Resolution steps 3-6 with no leader: every wound is a casualty, a marker or overflow;
    one more successful wound die never removes fewer models."""
    t.pop("leader", None)
    side = MeleeSide.model_validate(t)
    roll = WoundRoll.of(dice, goal)
    taken = resolve("a", side, roll, 0)
    hr = side.hr_value
    assert taken.casualties * hr + taken.wound_markers_after + taken.overflow == (
        side.wound_markers + taken.unit_wounds)
    assert 0 <= taken.casualties <= side.models
    more = resolve("a", side, WoundRoll.of([*dice, 6], goal), 0)
    assert more.casualties >= taken.casualties


@given(st.integers(1, 15), st.data())
def test_shooting_never_kills_an_unseen_model(models: int, data: st.DataObject) -> None:
    """RETIRADA DE BAJAS (reading 19): casualties at most the visible models, and every wound
    is a casualty, a marker or lost."""
    visible = data.draw(st.integers(0, models))
    klass = data.draw(st.sampled_from("HEGA"))
    inp = ShootInput.model_validate({
        "shooter": {"class": "G", "weapon": "yumi", "distance_cm": 30},
        "target": {"class": klass, "models": models, "visible": visible}})
    wounds = data.draw(st.lists(die, max_size=40))
    taken = shoot.casualties(inp.target, WoundRoll.of(wounds, 4), 0)
    hr = inp.target.hr_value
    assert taken.casualties <= visible
    assert taken.casualties * hr + taken.wound_markers_after + taken.lost_wounds == (
        taken.unit_wounds)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3),
       st.lists(st.integers(0, 3), min_size=1, max_size=3), st.integers(0, 3))
def test_another_card_never_loses_the_duel(a: list[int], b: list[int], card: int) -> None:
    before = duel(DuelInput.model_validate(
        {"initiative": "a", "caller": "b", "bids": {"a": a, "b": b}}))
    after = duel(DuelInput.model_validate(
        {"initiative": "a", "caller": "b", "bids": {"a": [*a, card], "b": b}}))
    if before.initiative_after == "a":
        assert after.initiative_after == "a"


@st.composite
def rolled_melee(draw: st.DrawFn) -> dict[str, Any]:
    """A legal melee with every die drawn in the number the pools require."""
    a, b = draw(sides()), draw(sides())
    for me in (a, b):
        me["used"] = me["potenciar"] = False
        if me["order"] == "charge":
            me["out_of_coherence"] = False
        if me["mounted"] or me["skirmishers"]:  # PARAPETAR: not for them
            me["parapeted"] = False
    for me, foe in ((a, b), (b, a)):
        n = pool(me, foe)
        combat = draw(st.lists(die, min_size=dice_to_roll(n), max_size=dice_to_roll(n)))
        target = hit_target(me, foe)
        hits = sum(succeeds(d, target, n <= 0) for d in combat)
        me["dice"] = {"combat": combat, "wound": draw(st.lists(die, min_size=hits,
                                                               max_size=hits)),
                      "honour": [draw(die)]}
    return {"turn_initiative": draw(st.sampled_from("ab")), "a": a, "b": b}


@settings(max_examples=150)
@given(rolled_melee())
def test_a_legal_melee_is_ruled_consistently(data: dict[str, Any]) -> None:
    """Every legal melee is ruled, or refused only for its honour choices; a ruling names a
    winner exactly when it names a loser, and a loser that still stands rolls for honour."""
    for _ in range(3):  # the honour inputs depend on the outcome: answer what is asked
        status, out = adjudicate_text("melee", json.dumps(data))
        if status == 0:
            break
        assert out["error"]["rule"] == "TIRADA DE HONOR", out
        message = out["error"]["message"]
        side = data[message[0]]
        if "no honour roll is due" in message:
            side["dice"]["honour"] = []
        elif "samurai_choice" in message:
            side["samurai_choice"] = "stay"
        else:
            assert "ranks_after: give the ranks of the" in message, message
            side["ranks_after"] = [int(message.split()[6])]
    assert status == 0, out
    assert (out["loser"] is None) == (out["winner"] is None)
    assert out["combat_initiative"] in ("a", "b")
    for s in ("a", "b"):
        t = out[s]["taken"]
        assert t["loss_count"] == t["casualties"] + 2 * t["leader_killed"]
        assert t["casualties"] <= data[s]["models"]
        standing = not t["wiped_out"] and out[s]["villager_extra"] == 0
        if out["loser"] == s and standing:
            assert out[s]["honour"] is not None
        if out["loser"] != s:
            assert out[s]["honour"] is None


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)


@given(st.sampled_from(["melee", "shoot", "duel"]), JSON,
       st.sampled_from(["turn_initiative", "a", "b", "shooter", "target", "bids", "dice"]))
def test_any_json_is_ruled_or_refused_never_crashes(kind: str, value: Any, key: str) -> None:
    base: dict[str, Any] = {
        "melee": {"turn_initiative": "a", "a": {"class": "G", "models": 3, "weapon": 1,
                                                "order": "fight"},
                  "b": {"class": "G", "models": 3, "weapon": 1, "order": "fight"}},
        "shoot": {"shooter": {"class": "G", "weapon": "yumi", "distance_cm": 10},
                  "target": {"class": "G", "models": 3, "visible": 3}},
        "duel": {"initiative": "a", "caller": "b", "bids": {"a": [1], "b": [2]}}}[kind]
    status, out = adjudicate_text(kind, json.dumps({**base, key: value}))
    assert status in (0, 2)
    if status == 2:
        assert set(out["error"]) == {"rule", "message"}
