"""The referee calculator: `companion referee battle FILE` and `companion run`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.sekigahara.referee import adjudicate_text, example_text, judge_text

BRIEF_EXAMPLE: dict[str, Any] = {
    "type": "battle",
    "attacker": "ishida",
    "blocks": {
        "i1": {"side": "ishida", "clan": "mori", "mon": 1, "leader": True},
        "i2": {"side": "ishida", "clan": "ukita", "mon": 2},
        "t1": {"side": "tokugawa", "clan": "maeda", "mon": 1, "attack": "cavalry"},
    },
    "actions": [
        {"side": "ishida", "deploy": ["i1"]},
        {"side": "tokugawa", "card": {"clan": "maeda", "kind": "special"}, "deploy": ["t1"]},
        {"side": "ishida", "challenge": {"refuted": False}},
        {"side": "tokugawa", "finish": True},
        {"side": "ishida", "finish": True},
        {"side": "tokugawa", "lose": ["t1"]},
    ],
}

OSAKA_SIEGE: dict[str, Any] = {
    "type": "siege",
    "attacker": "tokugawa",
    "castle": "osaka",
    "blocks": {
        "i1": {"side": "ishida", "clan": "mori", "mon": 2},
        "t1": {"side": "tokugawa", "clan": "tokugawa", "mon": 3},
        "t2": {"side": "tokugawa", "clan": "tokugawa", "mon": 3},
        "t3": {"side": "tokugawa", "clan": "tokugawa", "mon": 3},
        "t4": {"side": "tokugawa", "clan": "tokugawa", "mon": 1, "attack": "gun"},
    },
    "disks": ["hideyori"],
    "actions": [
        {"side": "tokugawa", "card": {"clan": "tokugawa", "kind": "plain"}, "deploy": ["t1"]},
        {"side": "tokugawa", "card": {"clan": "tokugawa", "kind": "plain"}, "deploy": ["t2"]},
        {"side": "tokugawa", "card": {"clan": "tokugawa", "kind": "special"}, "deploy": ["t4"]},
        {"side": "tokugawa", "finish": True},
    ],
}


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def adjudicate(data: Any) -> tuple[int, dict[str, Any]]:
    return adjudicate_text(json.dumps(data))


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(base)), **changes}


def test_cli_adjudicates_the_brief_example_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(BRIEF_EXAMPLE))
    status, out, stderr = run_cli("referee", "battle", str(path))
    assert status == 0
    assert "Traceback" not in stderr
    assert {k: v for k, v in out.items() if k != "rulings"} == {
        "impact": {"ishida": 2, "tokugawa": 0},
        "winner": "ishida",
        "losses": {"ishida": 0, "tokugawa": 1},
        "cards_drawn": {"ishida": 1, "tokugawa": 1},
        "defected": ["t1"],
        "instant_victory": None,
        "castle_falls": None,
    }
    assert [r["rule"] for r in out["rulings"]] == [
        "8.2.1", "8.2.4", "8.5", "8.4.1", "8.5", "8.6.1", "8.6.2", "8.5", "8.5", "8.5", "8.5",
        "8.7.1", "8.7.2", "8.10",
    ]


def test_cli_reads_stdin_and_adjudicates_an_osaka_siege() -> None:
    status, out, _ = run_cli("referee", "battle", "-", stdin=json.dumps(OSAKA_SIEGE))
    assert status == 0
    # the gun block scores no special attack in a siege: 1 mon + 2 same clan
    assert out["impact"] == {"ishida": 0, "tokugawa": 3 + 4 + 3}
    assert out["losses"] == {"ishida": 1, "tokugawa": 0}
    assert out["castle_falls"] is False and out["winner"] == "ishida"
    assert out["instant_victory"] is None
    assert out["cards_drawn"] == {"ishida": 1, "tokugawa": 3}
    assert any(r["rule"] == "8.9.5" for r in out["rulings"])


def test_osaka_falls_and_hideyori_is_captured() -> None:
    data = with_(OSAKA_SIEGE)
    data["actions"].insert(
        3, {"side": "tokugawa", "card": {"clan": "tokugawa", "kind": "plain"}, "deploy": ["t3"]}
    )
    status, out = adjudicate(data)
    assert status == 0
    assert out["impact"]["tokugawa"] == 10 + 3 + 3
    assert out["losses"] == {"ishida": 2, "tokugawa": 0}
    assert out["castle_falls"] is True and out["winner"] == "tokugawa"
    assert out["instant_victory"] == "tokugawa"
    assert out["cards_drawn"] == {"ishida": 1, "tokugawa": 4}
    assert [r["rule"] for r in out["rulings"]][-4:] == ["8.9.4", "9.1", "8.7.2", "8.10"]
    assert out["rulings"][-2]["text"] == (
        "ishida has yet to select 2 losses; it must include i1, hideyori"
    )


def test_the_bundled_example_battle_is_adjudicated_from_its_file() -> None:
    example = Path(__file__).parents[3] / "companion/games/sekigahara/examples/battle.json"
    status, out, _ = run_cli("referee", "battle", str(example))
    assert status == 0
    assert out["impact"] == {"ishida": 10, "tokugawa": 13}
    assert out["winner"] == "tokugawa"
    assert out["losses"] == {"ishida": 2, "tokugawa": 1}
    assert out["cards_drawn"] == {"ishida": 6, "tokugawa": 4}
    assert out["defected"] == ["i2"]
    rules = {r["rule"] for r in out["rulings"]}
    assert {"8.4.1", "8.6.1", "C2", "8.5", "8.2.4"} <= rules
    assert adjudicate_text(example_text())[1] == out


def test_cli_illegal_sequence_exits_2_with_rule_and_index() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"][1] = {"side": "ishida", "finish": True}
    data["actions"][0] = {"side": "tokugawa", "card": {"clan": "maeda", "kind": "special"},
                          "deploy": ["t1"]}
    status, out, stderr = run_cli("referee", "battle", "-", stdin=json.dumps(data))
    assert status == 2
    assert out["error"]["rule"] == "8.5" and out["error"]["action_index"] == 0
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"type": "battle"', "not valid JSON"),
        ("[1, 2]", "valid dictionary"),
    ],
)
def test_cli_malformed_json_exits_2(text: str, needle: str) -> None:
    status, out, stderr = run_cli("referee", "battle", "-", stdin=text)
    assert status == 2
    assert out["error"]["rule"] is None and out["error"]["action_index"] is None
    assert needle in out["error"]["message"]
    assert "Traceback" not in stderr


def test_cli_missing_file_exits_2(tmp_path: Path) -> None:
    status, out, _ = run_cli("referee", "battle", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read" in out["error"]["message"]


def error_of(data: Any) -> dict[str, Any]:
    status, out = adjudicate(data)
    assert status == 2, out
    assert set(out) == {"error"}
    assert set(out["error"]) - {"see"} == {"rule", "action_index", "message"}
    assert out["error"]["message"]
    return dict(out["error"])


def test_unknown_keys_are_rejected() -> None:
    assert "unknown key" in error_of(with_(BRIEF_EXAMPLE, colour="red"))["message"]
    data = with_(BRIEF_EXAMPLE)
    data["blocks"]["i1"]["strength"] = 3
    assert "blocks.i1.strength" in error_of(data)["message"]
    data = with_(BRIEF_EXAMPLE)
    data["actions"][3]["hurry"] = True
    err = error_of(data)
    assert err["action_index"] == 3 and "hurry" in err["message"]


def test_unknown_clan_and_side_disagreeing_with_clan() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["blocks"]["i1"]["clan"] = "shimazu"
    assert "blocks.i1.clan" in error_of(data)["message"]
    data = with_(BRIEF_EXAMPLE)
    data["blocks"]["i2"]["side"] = "tokugawa"
    err = error_of(data)
    assert err["rule"] is None and "i2" in err["message"] and "ukita" in err["message"]


def test_unknown_block_id_in_an_action() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"][0]["deploy"] = ["i9"]
    assert error_of(data) == {
        "rule": "8.2.3", "action_index": 0, "message": "there is no block 'i9' in this combat"
    }
    data = with_(BRIEF_EXAMPLE)
    data["actions"][5]["lose"] = ["t9"]
    err = error_of(data)
    assert (err["rule"], err["action_index"]) == ("8.7.2", 5)


def test_card_of_the_other_deck() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"][1]["card"]["clan"] = "mori"
    err = error_of(data)
    assert (err["rule"], err["action_index"]) == ("8.2.2", 1)
    assert "ishida deck" in err["message"]


def test_disks_in_a_battle_or_at_the_wrong_castle() -> None:
    err = error_of(with_(BRIEF_EXAMPLE, disks=["hideyori"]))
    assert err["rule"] == "8.9.3" and err["action_index"] is None
    err = error_of(with_(OSAKA_SIEGE, castle="ueda"))
    assert err["rule"] == "9.1"
    assert error_of(with_(OSAKA_SIEGE, castle="atlantis"))["rule"] == "4.3"
    assert error_of(with_(BRIEF_EXAMPLE, castle="osaka"))["rule"] is None


def test_siege_with_more_than_two_defending_blocks() -> None:
    data = with_(OSAKA_SIEGE)
    for n in (2, 3):  # (mori 1-mon blocks without attack would be two more Mori leaders, 9.3)
        data["blocks"][f"i{n}"] = {"side": "ishida", "clan": "mori", "mon": 2}
    assert error_of(data)["rule"] == "8.9.1"


def test_unfinished_battle_and_siege() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"] = data["actions"][:4]
    err = error_of(data)
    assert err["rule"] == "8.5" and "battle not finished" in err["message"]
    data = with_(OSAKA_SIEGE)
    data["actions"] = data["actions"][:2]
    assert error_of(data)["rule"] == "8.9.4"


def test_malformed_actions() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"][3] = {"side": "tokugawa", "finish": True, "deploy": ["t1"]}
    assert error_of(data)["action_index"] == 3
    data["actions"][3] = {"side": "tokugawa", "finish": False}
    assert error_of(data)["action_index"] == 3
    data["actions"][3] = "finish"
    assert error_of(data)["action_index"] == 3
    data["actions"][3] = {"side": "tokugawa", "card": {"clan": "maeda", "kind": "plain"},
                          "finish": True}
    assert error_of(data)["action_index"] == 3


def test_rule_violations_in_the_referee_cite_the_rule() -> None:
    data = with_(BRIEF_EXAMPLE)
    data["actions"][2]["side"] = "tokugawa"  # challenging its own deployment
    assert error_of(data) == {
        "rule": "8.6.1",
        "action_index": 2,
        "message": "tokugawa cannot challenge its own deployment: only the opponent can",
    }
    data = with_(OSAKA_SIEGE)
    data["actions"].insert(1, {"side": "ishida", "challenge": {"refuted": False}})
    assert error_of(data)["rule"] == "8.9.5"


def test_the_worked_examples_in_the_docs_are_exact() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "referee-calculator.md").read_text("utf-8")
    doc = doc.split("## Moves and retreats")[0]
    blocks = re.findall(r"```json\n(.*?)\n```", doc, flags=re.S)
    statuses = [int(s) for s in re.findall(r"Output \(exit status (\d)\)", doc)]
    assert len(blocks) == 2 * len(statuses) >= 8
    for n, status in enumerate(statuses):
        given, expected = blocks[2 * n], blocks[2 * n + 1]
        assert adjudicate_text(given) == (status, json.loads(expected))
        assert json.dumps(json.loads(expected), indent=2, ensure_ascii=False) == expected


def test_the_move_and_retreat_examples_in_the_docs_are_exact() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "referee-calculator.md").read_text("utf-8")
    doc = doc.split("## Moves and retreats")[1]
    blocks = re.findall(r"```json\n(.*?)\n```", doc, flags=re.S)
    outputs = re.findall(r"(Move|Retreat) output \(exit status (\d)\)", doc)
    assert len(blocks) == 2 * len(outputs) >= 6
    for n, (what, status) in enumerate(outputs):
        given, expected = blocks[2 * n], blocks[2 * n + 1]
        assert judge_text(given, what.lower()) == (int(status), json.loads(expected))
