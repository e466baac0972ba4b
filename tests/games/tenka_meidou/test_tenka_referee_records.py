"""The referee tools on stored Tenka Meidou games (issue 16): ``companion referee
verify|replay|explain`` and ``companion game export|import`` read the stored game's name and
check it through Tenka Meidou's own rules, as they do Sekigahara's; a game that is not
installed is one line and status 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _tenka_kit import play_stored

from companion.cli import main
from companion.core.exports import export_lines
from companion.core.store import Store
from companion.games.tenka_meidou.explain_words import Words
from companion.games.tenka_meidou.rules import TenkaRules

SEED = 7
"""An advanced game of three players: Daimyo cards lie face down (section 9)."""


def play(store: Store, commands: int | None = None) -> int:
    return play_stored(store, SEED, commands, advanced=True)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_replay_and_explain_a_stored_tenka_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.sqlite")
    with Store.open(Path(db)) as store:
        game_id = play(store)
        log = store.load(game_id)
    code, out, err = run(capsys, "referee", "verify", str(game_id), "--db", db)
    assert code == 0 and out.startswith("verified:") and " won (" in out, err
    assert f"{len(log.entries)} entries" in out

    chosen = next(e.seq for e in log.entries if e.data["command"]["type"] == "choose_daimyo")
    card = next(ev["card"] for ev in log.entries[chosen - 1].data["events"]
                if ev["type"] == "daimyo_chosen")
    code, out, _ = run(capsys, "referee", "replay", str(game_id), "--at", str(chosen),
                       "--view", "public", "--json", "--db", db)
    shown = json.loads(out)
    assert code == 0 and shown["entry"] == chosen and card not in out  # face down (9)
    code, out, _ = run(capsys, "referee", "replay", str(game_id), "--at", str(chosen),
                       "--db", db)
    named = Words(TenkaRules()).card(card)
    assert code == 0 and f"after entry {chosen} (referee view)" in out and named in out

    deploy = next(e.seq for e in log.entries if e.data["command"]["type"] == "deploy")
    code, out, _ = run(capsys, "referee", "explain", str(game_id), str(deploy), "--db", db)
    assert code == 0 and "judged under rules 5.I.1: upheld" in out
    assert re.search(r"\[5\.I\.1\] \w+ rolls .* the pair \d \+ \d = \d+ names", out)
    war = len(log.entries)
    code, out, _ = run(capsys, "referee", "explain", str(game_id), str(war), "--db", db,
                       "--json")
    rulings = json.loads(out)["rulings"]
    assert code == 0 and any(r["rule"].startswith("5.II") for r in rulings if r["rule"])


def test_a_view_the_game_does_not_have_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.sqlite")
    with Store.open(Path(db)) as store:
        game_id = play(store, commands=4)
    code, _, err = run(capsys, "referee", "replay", str(game_id), "--at", "1", "--view",
                       "ishida", "--db", db)
    assert code == 2 and err.count("\n") == 1 and "public, red, blue" in err


def test_export_import_and_a_tampered_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.sqlite")
    with Store.open(Path(db)) as store:
        game_id = play(store, commands=10)
    exported = tmp_path / "tenka.jsonl"
    assert run(capsys, "game", "export", str(game_id), "-o", str(exported), "--db", db)[0] == 0
    other = str(tmp_path / "other.sqlite")
    code, out, err = run(capsys, "game", "import", str(exported), "--db", other)
    assert code == 0 and "as game 1" in out, err
    again = tmp_path / "again.jsonl"
    assert run(capsys, "game", "export", "1", "-o", str(again), "--db", other)[0] == 0
    assert again.read_bytes() == exported.read_bytes()
    code, out, _ = run(capsys, "referee", "verify", str(exported))
    assert code == 0 and "deployment" in out

    lines = exported.read_text().splitlines()
    entry = json.loads(lines[3])
    entry["data"]["events"] = []  # a turn's outcome dropped
    lines[3] = json.dumps(entry)
    exported.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "referee", "verify", str(exported))
    assert code == 1 and "entry 3" in err and "Traceback" not in err
    code, _, err = run(capsys, "game", "import", str(exported), "--db", str(tmp_path / "3.db"))
    assert code == 1 and "entry 3" in err


def test_a_game_that_is_not_installed_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.sqlite")
    with Store.open(Path(db)) as store:
        game_id = store.create_game("kriegspiel", {})
        lines = export_lines(store.load(game_id))
    code, _, err = run(capsys, "referee", "verify", str(game_id), "--db", db)
    assert code == 2 and err.count("\n") == 1
    assert "a game of 'kriegspiel', which is not installed (games: " in err
    (tmp_path / "k.jsonl").write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "game", "import", str(tmp_path / "k.jsonl"), "--db", db)
    assert code == 2 and "not installed" in err
