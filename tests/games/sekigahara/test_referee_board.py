"""`companion referee move` and `referee retreat`: a position and a proposal, judged by the
engine's own handlers (7.3, 7.4, 8.8, C12, C13, C15)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from companion.games.sekigahara.referee import judge_text

SUNPU = {
    "active": "tokugawa",
    "blocks": {
        "t1": {"side": "tokugawa", "at": "sunpu", "clan": "date", "mon": 1, "leader": True},
        "t2": {"side": "tokugawa", "at": "sunpu", "clan": "date", "mon": 2},
        "i1": {"side": "ishida", "at": "kuwana"},
    },
}


def move(**paths: list[str]) -> dict[str, Any]:
    return {**SUNPU, "move": {"origin": "sunpu", "paths": paths}}


def judge(data: dict[str, Any], what: str = "move") -> tuple[int, dict[str, Any]]:
    return judge_text(json.dumps(data), what)


def test_a_legal_move_lists_its_routes_and_uses_no_leadership_it_does_not_need() -> None:
    status, out = judge(move(t2=["hamamatsu", "okazaki"]))
    assert status == 0 and out["legal"] and out["leadership"] is False
    [group] = out["routes"]
    assert group["destination"] == "okazaki" and group["blocks"] == ["t2"]
    assert [r["path"] for r in group["routes"]] == [["hamamatsu", "okazaki"]]


def test_a_move_that_needs_the_leader_uses_it_c12() -> None:
    status, out = judge({**move(t2=["hamamatsu", "okazaki", "kiyosu"]), "hand": {"tokugawa": 0}})
    assert status == 0 and out["leadership"] is True
    assert any("with leadership" in line for line in out["log"])
    assert out["rule"] == "7.3.4"


def test_an_illegal_move_says_why_and_what_the_leader_would_allow() -> None:
    data = {**move(t2=["hamamatsu", "okazaki", "kiyosu", "kuwana"]), "hand": {"tokugawa": 0}}
    status, out = judge(data)
    assert status == 1 and not out["legal"] and out["rule"] == "7.3.3"
    assert "leadership" not in out["message"] and "leadership +1" in out["detail"]
    status, out = judge({**data, "moved": ["t2"]})
    assert status == 1 and out["rule"] == "7.3.1"


def test_a_retreat_is_judged_with_its_options() -> None:
    data = {
        "active": "tokugawa",
        "blocks": {
            "t1": {"side": "tokugawa", "at": "sawayama"},
            "i1": {"side": "ishida", "at": "sawayama"},
            "i2": {"side": "ishida", "at": "gifu"},
            "t2": {"side": "tokugawa", "at": "gifu"},
        },
        "battle": {"location": "sawayama", "attacker": "tokugawa", "loser": "tokugawa",
                   "entered_from": {"tokugawa": ["gifu"]}},
        "retreat": {"destination": "kyoto"},
    }
    status, out = judge(data, "retreat")
    assert status == 1 and out["rule"] == "8.8.2" and out["destinations"] == ["gifu"]
    status, out = judge({**data, "retreat": {"destination": "gifu"}}, "retreat")
    assert status == 0 and out["legal"] and out["combat_opens"] is None  # joins Gifu's combat


def test_malformed_positions_get_the_json_error() -> None:
    for data, needle in (
        ({**move(t2=["hamamatsu"]), "colour": "red"}, "unknown key"),
        (move(t9=["hamamatsu"]), "no block 't9'"),
        ({**move(t2=["hamamatsu"]), "blocks": {"t2": {"side": "tokugawa", "at": "atlantis"}}},
         "not a location"),
        ({**move(t2=["hamamatsu"]), "blocks": {"t2": {"side": "tokugawa", "at": "sunpu",
                                                       "clan": "ii", "mon": 2}}}, "no block"),
    ):
        status, out = judge(data)
        assert status == 2 and needle in out["error"]["message"], out


def test_the_cli_judges_a_move_from_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "referee", "move", "-"],
        input=json.dumps(move(t2=["hamamatsu"])), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["legal"] is True
    assert "Traceback" not in proc.stderr
