"""Strict and hostile input: every fault exits 2 with ``{"error": {"rule", "message"}}`` (rule
null for format faults) and never a traceback; the order of the checks (docs/kensei.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import call, melee, run, run_stdin, side

from companion.games.kensei.calculator import MAX_DEPTH, MAX_INPUT_BYTES

Cap = pytest.CaptureFixture[str]
GOOD = melee(side(dice={"combat": [1, 1]}), side(dice={"combat": [1, 1]}))


def fault(tmp_path: Path, capsys: Cap, data: Any, kind: str = "melee") -> str:
    """The message of a format fault (rule null)."""
    status, out = run(kind, data, tmp_path, capsys)
    assert status == 2, out
    assert set(out) == {"error"} and set(out["error"]) == {"rule", "message"}
    assert out["error"]["rule"] is None, out
    message: str = out["error"]["message"]
    return message


def with_a(**keys: Any) -> dict[str, Any]:
    return {**GOOD, "a": {**GOOD["a"], **keys}}


def test_the_good_input_passes(tmp_path: Path, capsys: Cap) -> None:
    status, out = run("melee", GOOD, tmp_path, capsys)
    assert status == 0 and out["loser"] is None


@pytest.mark.parametrize(("data", "words"), [
    ("{", "not valid JSON"),
    ("[1, 2]", "one JSON object"),
    ('"melee"', "one JSON object"),
    (with_a(colour="red"), "a.colour: unknown key"),
    ({**GOOD, "c": {}}, "c: unknown key"),
    ({"turn_initiative": "a", "a": GOOD["a"]}, "b: missing key"),
    (with_a(models="5"), "a.models"),
    (with_a(models=5.0), "a.models"),
    (with_a(used=1), "a.used"),
    (with_a(mounted="yes"), "a.mounted"),
    (with_a(order="attack"), "a.order"),
    (with_a(**{"class": "X"}), "a.class"),
    (with_a(weapon=8), "a.weapon"),
    (with_a(models=0), "a.models"),
    (with_a(models=16), "a.models"),
    (with_a(models=10**30), "a.models"),
    (with_a(stunned=-1), "a.stunned"),
    (with_a(dice={"combat": [1, 1], "extra": []}), "a.dice.extra: unknown key"),
    (with_a(dice={"combat": "11"}), "a.dice.combat"),
    (with_a(dice={"combat": [1.0, 1.0]}), "a.dice.combat.0"),
    (with_a(dice={"combat": [True, True]}), "a.dice.combat.0"),
    (with_a(dice={"combat": [1] * 101}), "a.dice.combat"),
    (with_a(single=True), "single"),
    (with_a(wound_markers=1), "wound_markers"),
    (with_a(stunned=2), "stunned"),
    (with_a(leader={"class": "G", "contact": "direct", "wounds": 1}), "dead"),
    (with_a(leader={"class": "G"}), "a.leader.contact: missing key"),
    (with_a(trait="x" * 41), "a.trait"),
    ('{"turn_initiative": "a", "turn_initiative": "b", "a": {}, "b": {}}', "twice"),
    ('{"turn_initiative": NaN}', "NaN"),
    ("1" * 5000, "not valid input"),
])
def test_format_faults(tmp_path: Path, capsys: Cap, data: Any, words: str) -> None:
    assert words in fault(tmp_path, capsys, data)


def test_a_huge_key_is_not_echoed(tmp_path: Path, capsys: Cap) -> None:
    message = fault(tmp_path, capsys, with_a(**{"k" * 50_000: 1}))
    assert message.endswith(": unknown key") and len(message) < 100


def test_non_finite_distance(tmp_path: Path, capsys: Cap) -> None:
    text = ('{"shooter": {"class": "G", "weapon": "yumi", "distance_cm": Infinity}, '
            '"target": {"class": "G", "models": 1, "visible": 1}}')
    assert "Infinity" in fault(tmp_path, capsys, text, "shoot")
    data = {"shooter": {"class": "G", "weapon": "yumi", "distance_cm": 1e308 * 10},
            "target": {"class": "G", "models": 1, "visible": 1}}
    assert "Infinity" in fault(tmp_path, capsys, json.dumps(data), "shoot")


def test_deep_json(tmp_path: Path, capsys: Cap) -> None:
    """Nesting past MAX_DEPTH is refused, however deep (the parser's own limit too)."""
    assert "nested deeper" in fault(tmp_path, capsys, {"a": [[[[[[[[[1]]]]]]]]]})
    depth = MAX_INPUT_BYTES // 2 - 10
    assert "nested deeper" in fault(tmp_path, capsys, "[" * depth + "]" * depth)
    assert "nested deeper" in fault(tmp_path, capsys, '{"a":' * 5000 + "1" + "}" * 5000)
    assert MAX_DEPTH >= 4  # the formats' own depth


def test_huge_input_from_a_file(tmp_path: Path, capsys: Cap) -> None:
    message = fault(tmp_path, capsys, " " * (MAX_INPUT_BYTES + 1))
    assert f"larger than {MAX_INPUT_BYTES} bytes" in message


def test_endless_input_is_read_only_to_the_limit(
        tmp_path: Path, capsys: Cap, monkeypatch: pytest.MonkeyPatch) -> None:
    """An endless stream (/dev/zero) is cut at the limit, not read to the end."""
    assert call(["kensei", "melee", "/dev/zero"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert "larger than" in out["error"]["message"] and out["error"]["rule"] is None
    status, out = run_stdin("melee", b"\0" * (20 * MAX_INPUT_BYTES), monkeypatch, capsys)
    assert status == 2 and "larger than" in out["error"]["message"]


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: Cap) -> None:
    status, out = run_stdin("melee", json.dumps(GOOD).encode(), monkeypatch, capsys)
    assert status == 0 and out["combat_initiative"] == "a"
    status, out = run_stdin("melee", b"\xff\xfe{}", monkeypatch, capsys)
    assert status == 2 and "UTF-8" in out["error"]["message"]


def test_unreadable_file(tmp_path: Path, capsys: Cap) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        assert call(["kensei", "duel", str(path)]) == 2
        out = json.loads(capsys.readouterr().out)
        assert out["error"]["rule"] is None and "cannot read" in out["error"]["message"]


def test_checks_come_in_the_documented_order(tmp_path: Path, capsys: Cap) -> None:
    """A format fault before a bad die, a bad die before an illegal order, an illegal order
    before a wrong dice count: the first fault is the one reported."""
    many = with_a(used=True, order="fight", dice={"combat": [7]})
    assert fault(tmp_path, capsys, {**many, "x": 1}) == "x: unknown key"
    status, out = run("melee", many, tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "DADOS Y TIRADAS"
    status, out = run("melee", with_a(used=True, order="fight", dice={"combat": [1] * 9}),
                      tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "USO DE LAS ÓRDENES"


@pytest.mark.parametrize(("keys", "rule"), [
    ({"used": True, "order": "charge"}, "USO DE LAS ÓRDENES"),
    ({"potenciar": True, "order": "fight_reaction"}, "POTENCIAR"),
    ({"order": "charge", "out_of_coherence": True}, "CARGAR"),
    ({"weapon": 6}, "ARMAS DE COMBATE CUERPO A CUERPO"),
    ({"weapon": 7}, "ARMAS DE COMBATE CUERPO A CUERPO"),
    ({"ranks": [3, 3]}, "FORMACIÓN CERRADA"),
    ({"models_in_melee": 6}, "FORMACIÓN CERRADA"),
    ({"dice": {"combat": [1]}}, "Tirada de combate"),
    ({"dice": {"combat": [1, 0]}}, "DADOS Y TIRADAS"),
    ({"dice": {"combat": [1, 1], "protect": [4]}}, "PROTEGED AL LÍDER"),
    ({"crits_to_leader": 1}, "Tirada de heridas"),
])
def test_illegal_sides(tmp_path: Path, capsys: Cap, keys: dict[str, Any], rule: str) -> None:
    status, out = run("melee", with_a(**keys), tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == rule, out


@pytest.mark.parametrize(("attacks", "enemy"), [
    ("flank", {"skirmishers": True}), ("rear", {"skirmishers": True}),
    ("flank", {"models": 1}), ("flank", {"models": 1, "single": True}),
])
def test_no_flank_on_single_models_and_skirmishers(
        tmp_path: Path, capsys: Cap, attacks: str, enemy: dict[str, Any]) -> None:
    """FRENTE, FLANCO Y RETAGUARDIA, reading 11."""
    data = {**with_a(attacks=attacks), "b": {**GOOD["b"], **enemy}}
    status, out = run("melee", data, tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "FRENTE, FLANCO Y RETAGUARDIA"


def test_rear_against_a_single_model_is_allowed(tmp_path: Path, capsys: Cap) -> None:
    """Reading 11: +2 "a una tropa enemiga", single models included."""
    data = {**with_a(attacks="rear"), "b": {**GOOD["b"], "models": 1, "single": True}}
    status, out = run("melee", data, tmp_path, capsys)
    assert status == 0 and out["a"]["hit_target"] == 2
