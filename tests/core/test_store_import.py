"""``game import`` is one transaction (issue 18): a refused import leaves the database row for
row as it was (no half game for the start screen to offer), and the good file then imports."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cli import main
from companion.core import exports
from companion.core.chain import canonical_json
from companion.core.store import CommandRecorder, Store, StoreError
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.simulator import play_game


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The export lines of one whole seeded Sekigahara game."""
    path = tmp_path_factory.mktemp("import") / "games.sqlite"
    with Store.open(path, durable=False) as store:
        game_id = store.create_game(records.GAME, records.new_header())
        report = play_game(3, check=False, recorder=CommandRecorder(store, game_id))
        assert report.completed and report.game is not None
        records.finish_if_over(store, game_id, report.game)
        return records.export_lines(store.load(game_id))


def rows(path: Path) -> list[str]:
    """The whole database as SQL, row for row."""
    db = sqlite3.connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def a_database_with_one_game(path: Path) -> None:
    with Store.open(path) as store:
        game_id, _game = records.start(store)
        store.append_correction(game_id, "note", by="referee", note="a game already here")


def test_a_refused_import_changes_nothing_and_the_good_file_then_imports(
        exported: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.sqlite"
    a_database_with_one_game(db)
    before = rows(db)
    head = json.loads(exported[0])
    assert head["finished"] is not None  # a finished game: its end is the last step of import
    head["result"] = {"winner": "ishida"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([canonical_json(head), *exported[1:]]) + "\n")
    assert main(["game", "import", str(bad), "--db", str(db)]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("companion: ") and err.count("\n") == 1 and "result" in err
    assert rows(db) == before
    with Store.open(db) as store:
        assert [g.id for g in store.unfinished(records.GAME)] == [1]  # no half game to resume
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(exported) + "\n")
    assert main(["game", "import", str(good), "--db", str(db)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"imported {good} as game 2 ({len(exported) - 1} entries, verified)")
    assert main(["game", "export", "2", "--db", str(db)]) == 0
    assert capsys.readouterr()[0] == good.read_text()


def test_an_import_failing_halfway_in_the_database_stores_nothing(
        exported: list[str], tmp_path: Path) -> None:
    """The store's own all-or-nothing, whatever the check let through: an entry the database
    refuses (a kind its schema does not allow) in the middle of the game."""
    db = tmp_path / "games.sqlite"
    a_database_with_one_game(db)
    before = rows(db)
    export = exports.read_export("\n".join(exported))  # the file reader refuses such a kind
    entries = list(export.log.entries)
    entries[49] = replace(entries[49], kind="forged")
    export = replace(export, log=replace(export.log, entries=tuple(entries)))
    with Store.open(db) as store, pytest.raises(StoreError):
        exports.import_export(store, export, lambda _export: None)
    assert rows(db) == before
    with Store.open(db) as store:
        good = exports.read_export("\n".join(exported))
        game_id = records.import_export(store, good)
        with pytest.raises(StoreError, match="already in"):
            records.import_export(store, good)
        assert len(store.load(game_id).entries) == len(exported) - 1
        assert store.list_games()[0].finished == json.loads(exported[0])["finished"]
