"""The game store on real SQLite files: entries, the hash chain, migrations, bad conditions,
and Game.submit committing before it applies."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Literal

import pytest

from companion.core.chain import check_chain, entry_hash
from companion.core.events import Command, Event
from companion.core.game import Accepted, Game
from companion.core.paths import data_dir, default_db_path
from companion.core.rules import RuleViolation
from companion.core.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    CommandRecorder,
    Store,
    StoreError,
)


class Add(Command):
    type: Literal["add"] = "add"
    amount: int


class Added(Event):
    type: Literal["added"] = "added"
    amount: int


class CounterRules:
    def initial_state(self) -> int:
        return 0

    def handle(self, state: int, command: Add, by: str | None = None) -> list[Added]:
        if command.amount <= 0:
            raise RuleViolation("1", "add a positive amount")
        return [Added(amount=command.amount)]

    def apply(self, state: int, event: Added) -> int:
        return state + event.amount


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "games.sqlite")


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "sekigahara-companion" / "games.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert data_dir() == Path.home() / ".local" / "share" / "sekigahara-companion"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with Store.open() as opened:
        assert opened.path == tmp_path / "sekigahara-companion" / "games.sqlite"
        assert opened.path.exists()


def test_wal_full_sync_and_schema_version(store: Store) -> None:
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_entries_are_chained_and_several_games_share_the_file(store: Store) -> None:
    first = store.create_game("toy", {"rules_version": "1"})
    second = store.create_game("toy")
    a = store.append_command(first, {"type": "add", "amount": 2}, [{"type": "added", "amount": 2}])
    b = store.append_correction(first, "accept_table", by="referee", note="house rule",
                                detail={"key": "k"})
    c = store.append_command(second, {"type": "add", "amount": 5}, [])
    log = store.load(first)
    assert [e.seq for e in log.entries] == [1, 2] and c.seq == 1
    assert log.entries[0].prev == log.header_hash == entry_hash("", log.header)
    assert a.hash == entry_hash(log.header_hash, a.body())
    assert b.prev == a.hash and log.head == b.hash
    assert log.entries[1].data == {"action": "accept_table", "by": "referee",
                                   "note": "house rule", "detail": {"key": "k"}}
    assert check_chain(log.header_hash, log.entries) is None
    assert {g.id for g in store.unfinished()} == {first, second}
    store.finish(first, "ishida wins (2.2)")
    assert [g.id for g in store.unfinished()] == [second]
    [done] = [g for g in store.list_games() if g.id == first]
    assert done.result == "ishida wins (2.2)" and done.entries == 2
    with pytest.raises(StoreError, match="no game 99") as missing:
        store.load(99)
    assert missing.value.reason == "missing"


def test_a_committed_entry_is_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game("toy")
        store.append_command(game_id, {"type": "add", "amount": 1}, [{"type": "added"}])
    with Store.open(path) as again:
        assert again.load(game_id).entries[0].data["command"]["amount"] == 1


def test_submit_commits_before_it_applies(store: Store) -> None:
    game_id = store.create_game("toy")
    game = Game(CounterRules(), recorder=CommandRecorder(store, game_id))
    assert isinstance(game.submit(Add(amount=3)), Accepted)
    assert not isinstance(game.submit(Add(amount=-1)), Accepted)  # rejections are not stored
    [entry] = store.load(game_id).entries
    assert entry.data == {"command": {"type": "add", "amount": 3},
                          "events": [{"type": "added", "amount": 3}]}
    assert game.state == 3


def test_a_full_disk_applies_nothing_and_the_retry_succeeds(store: Store) -> None:
    game_id = store.create_game("toy")
    game = Game(CounterRules(), recorder=CommandRecorder(store, game_id))
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL
    with pytest.raises(StoreError) as full:
        for _ in range(500):  # until the last page is full
            game.submit(Add(amount=1))
    assert full.value.reason == "full" and "full" in full.value.message
    state, events, stored = game.state, game.events, len(store.load(game_id).entries)
    assert state == sum(e.amount for e in events)  # nothing half-applied
    assert stored == len(events)
    store._db.execute("PRAGMA max_page_count = 1000000")
    assert isinstance(game.submit(Add(amount=1)), Accepted)
    assert len(store.load(game_id).entries) == stored + 1


def test_a_database_locked_by_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    store = Store.open(path, timeout=0.1)
    game_id = store.create_game("toy")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    game = Game(CounterRules(), recorder=CommandRecorder(store, game_id))
    with pytest.raises(StoreError) as locked:
        game.submit(Add(amount=1))
    assert locked.value.reason == "locked" and "in use by another program" in str(locked.value)
    assert game.state == 0 and game.events == ()
    other.execute("ROLLBACK")
    assert isinstance(game.submit(Add(amount=1)), Accepted)


def test_a_read_only_database(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game("toy")
    read_only = Store(sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None,
                                      check_same_thread=False), path)
    with pytest.raises(StoreError) as refused:
        read_only.append_command(game_id, {"type": "add"}, [])
    assert refused.value.reason == "readonly"
    assert read_only.load(game_id).entries == ()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only files")
def test_a_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    Store.open(path).close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(StoreError):
            Store.open(path).create_game("toy")
    finally:
        tmp_path.chmod(0o755)


def test_a_corrupt_or_truncated_file_is_refused_clearly(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreError) as bad:
        Store.open(garbage)
    assert bad.value.reason == "corrupt"
    path = tmp_path / "g.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game("toy")
        for n in range(300):
            store.append_command(game_id, {"type": "add", "amount": n}, [{"x": "y" * 200}])
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(StoreError) as truncated:
        Store.open(path).load(game_id)
    assert truncated.value.reason == "corrupt"


def test_another_programs_database_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not a game database"):
        Store.open(path)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    Store.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer version") as newer:
        Store.open(path)
    assert newer.value.reason == "newer"


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
def test_migrations_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """A database left at each earlier schema version (built by the migrations up to it, as
    that release did) opens, migrates to the current version and keeps its games."""
    path = tmp_path / "g.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    for migrate in MIGRATIONS[:start]:
        migrate(db)
    db.execute(f"PRAGMA user_version = {start}")
    db.close()
    with Store.open(path) as store:
        game_id = store.create_game("toy")
        store.append_command(game_id, {"type": "add"}, [])
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_later_migration_runs_in_order_and_keeps_the_games(tmp_path: Path) -> None:
    """The mechanism a future schema will use: an extra step on a database holding a game."""
    path = tmp_path / "g.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game("toy")
        store.append_command(game_id, {"type": "add", "amount": 4}, [])

    def add_label(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN label TEXT")

    with Store.open(path, migrations=(*MIGRATIONS, add_label)) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert store.load(game_id).entries[0].data["command"]["amount"] == 4


def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    Store.open(path).close()

    def broken(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE games ADD COLUMN half_done TEXT")
        db.execute("SELECT no_such_column FROM games")

    with pytest.raises(StoreError):
        Store.open(path, migrations=(*MIGRATIONS, broken))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    assert "half_done" not in columns
