"""Games stored before the end was read from the chain (schema 1, export format 1) still
verify: their end time becomes the recorded time of the command that ended them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.cli import main
from companion.core.chain import canonical_json
from companion.core.store import MIGRATIONS, CommandRecorder, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.simulator import play_game

LATE = "2099-01-01T00:00:00+0000"
"""An end time as an older companion wrote it: its clock after the last command."""


def sekigahara_game(store: Store) -> int:
    game_id = store.create_game(records.GAME, records.new_header())
    report = play_game(3, check=False, recorder=CommandRecorder(store, game_id))
    assert report.game is not None and records.finish_if_over(store, game_id, report.game)
    return game_id


def test_a_finished_game_of_schema_1_is_migrated_and_verifies(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with Store.open(db, durable=False, migrations=MIGRATIONS[:1]) as store:
        game_id = sekigahara_game(store)
        last_command = [e for e in store.load(game_id).entries if e.kind == "command"][-1]
        store.finish(game_id, store.load(game_id).summary.result or "", at=LATE)
    with Store.open(db) as store:
        summary = store.load(game_id).summary
    assert summary.finished == last_command.at
    assert main(["referee", "verify", str(game_id), "--db", str(db)]) == 0


def test_an_export_of_format_1_imports_with_its_end_read_from_the_chain(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with Store.open(db, durable=False) as store:
        game_id = sekigahara_game(store)
    exported = tmp_path / "game.jsonl"
    assert main(["game", "export", str(game_id), "--db", str(db), "-o", str(exported)]) == 0
    lines = exported.read_text("utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["version"] == 2
    ended = head["finished"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([canonical_json({**head, "version": 1, "finished": LATE}),
                              *lines[1:]]) + "\n", "utf-8")
    assert main(["referee", "verify", str(old)]) == 0
    other = tmp_path / "other.sqlite"
    assert main(["game", "import", str(old), "--db", str(other)]) == 0
    with sqlite3.connect(other) as con:
        assert con.execute("SELECT finished FROM games").fetchone()[0] == ended
    late = tmp_path / "late.jsonl"
    late.write_text("\n".join([canonical_json({**head, "finished": LATE}), *lines[1:]]) + "\n",
                    "utf-8")
    assert main(["game", "import", str(late), "--db", str(other)]) == 1
