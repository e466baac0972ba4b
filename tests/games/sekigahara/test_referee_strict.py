"""The referee calculator is strict: faces that exist (3.2, 2.1, 9.3-9.5), leaders settled from
the manifest or asked for, and hostile input refused with the one-line JSON error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.games.sekigahara.referee import LIMITS, adjudicate_text

DATA = Path(__file__).parents[3] / "companion" / "games" / "sekigahara" / "data" / "blocks.yaml"


def battle(blocks: dict[str, Any], actions: list[dict[str, Any]]) -> str:
    return json.dumps({"type": "battle", "attacker": "ishida", "blocks": blocks,
                       "actions": actions})


PLAIN = {"i1": {"side": "ishida", "clan": "ukita", "mon": 2},
         "t1": {"side": "tokugawa", "clan": "date", "mon": 2}}


def error(text: str) -> dict[str, Any]:
    status, out = adjudicate_text(text)
    assert status == 2, out
    return dict(out["error"])


@pytest.mark.parametrize(
    ("block", "rule", "words"),
    [
        ({"side": "tokugawa", "clan": "ii", "mon": 4}, "9.4", "the game has 1 ii 4-mon"),
        ({"side": "tokugawa", "clan": "maeda", "mon": 3, "attack": "cavalry"}, "3.2", "1-mon"),
        ({"side": "tokugawa", "clan": "tokugawa", "mon": 1, "leader": True}, "2.1", "Ieyasu"),
        ({"side": "ishida", "clan": "ishida", "mon": 2}, "9.5", "Ishida Mitsunari"),
        ({"side": "tokugawa", "clan": "date", "mon": 3, "leader": True}, "3.2", "not a leader"),
    ],
)
def test_faces_must_exist_in_the_manifest(block: dict[str, Any], rule: str, words: str) -> None:
    blocks = {**PLAIN, "t2": block}
    if block["clan"] in ("ii", "tokugawa"):
        blocks["t3"] = dict(block)  # a second one of a single block
    err = error(battle(blocks, []))
    assert err["rule"] == rule and words in err["message"], err
    assert err["action_index"] is None


def test_the_ishida_block_is_ishida_mitsunari_without_saying_so() -> None:
    """2.1, 9.5: entered without "leader", the Ishida block is still the protagonist: it may
    deploy without a card, and its forced loss ends the game."""
    text = battle(
        {"i1": {"side": "ishida", "clan": "ishida", "mon": 1},
         "t1": {"side": "tokugawa", "clan": "date", "mon": 3}},
        [{"side": "ishida", "deploy": ["i1"]},
         {"side": "tokugawa", "card": {"clan": "date", "kind": "plain"}, "deploy": ["t1"]},
         {"side": "ishida", "finish": True}, {"side": "tokugawa", "finish": True}],
    )
    status, out = adjudicate_text(text)
    assert status == 0, out
    assert out["instant_victory"] == "tokugawa" and out["losses"]["ishida"] == 1
    assert any(r["rule"] == "2.1" for r in out["rulings"])


def test_an_ambiguous_leader_is_asked_for(tmp_path: Path) -> None:
    """With a copy whose manifest has a plain Tokugawa 1-mon block as well as Ieyasu, a
    Tokugawa 1-mon block without "leader" could be either: the calculator says what to add."""
    text = DATA.read_text("utf-8").replace(
        "  - {clan: tokugawa, mon: 3, count: 3}",
        "  - {clan: tokugawa, mon: 3, count: 2}\n  - {clan: tokugawa, mon: 1, count: 1}")
    manifest = tmp_path / "blocks.yaml"
    manifest.write_text(text, "utf-8")
    combat = tmp_path / "battle.json"
    combat.write_text(battle({**PLAIN, "t2": {"side": "tokugawa", "clan": "tokugawa",
                                              "mon": 1}}, []))
    status, out, stderr = run_cli("referee", "battle", "--blocks", str(manifest), str(combat))
    assert status == 2 and "Traceback" not in stderr
    assert out["error"]["rule"] == "2.1" and '"leader": true' in out["error"]["message"]
    status, out, _ = run_cli("referee", "battle", "--blocks", str(tmp_path / "nope.yaml"),
                             str(combat))
    assert status == 2 and "blocks file" in out["error"]["message"]


def run_cli(*args: str, stdin: bytes | None = None) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, timeout=120)
    lines = proc.stdout.decode().strip()
    return proc.returncode, json.loads(lines), proc.stderr.decode()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper"),
        ('{"type": "battle", "attacker": "ishida", "blocks": {"i1": {"side": "ishida", '
         '"clan": "ukita", "mon": ' + "9" * 5000 + "}}}", "digits"),
        ('{"type": "battle", "attacker": "ishida", "blocks": {"i1": {"side": "ishida", '
         '"clan": "ukita", "mon": ' + "9" * 4000 + "}}}", "less than or equal to 4"),
        (battle({**PLAIN, "i1": {"side": "ishida", "clan": "ukita", "mon": True}}, []),
         "valid integer"),
        (battle(PLAIN, [{"side": "ishida", "finish": 1}]), "valid boolean"),
        (battle({**PLAIN, "i1": {**PLAIN["i1"], "leader": 1}}, []), "valid boolean"),
        (" " * (LIMITS.size + 1), "larger than"),
    ],
)
def test_hostile_input_gets_the_one_line_error(text: str, words: str) -> None:
    err = error(text)
    assert err["rule"] is None and words in err["message"], err


def test_dev_zero_and_oversized_stdin_are_refused_without_reading_them_whole() -> None:
    status, out, stderr = run_cli("referee", "battle", "/dev/zero")
    assert status == 2 and "larger than" in out["error"]["message"]
    assert "Traceback" not in stderr
    status, out, stderr = run_cli("referee", "battle", "-", stdin=b"[" * 5_000_000)
    assert status == 2 and "larger than" in out["error"]["message"]
    status, out, stderr = run_cli("referee", "battle", "-", stdin=b"\xff\xfe")
    assert status == 2 and "UTF-8" in out["error"]["message"]
