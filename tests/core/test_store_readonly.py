"""A game database on read-only media, and the modes of the files the companion makes (issue
18).

Read-only media for real: the tests run as root, whom file permissions do not stop, so a
directory is made read-only the way an SD card locked read-only or a read-only mount is: a
read-only bind mount, in a mount namespace of the test's own (``unshare --mount``; the mount
disappears with the namespace and nothing outside sees it). The companion's commands run in it
as subprocesses and meet EROFS from the kernel, exactly as on read-only media. Where no mount
namespace can be made (an unprivileged CI runner) those tests are skipped; the test opening a
database read-only and checking that nothing was written runs everywhere."""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.inuse import DatabaseLock
from companion.core.pin import RefereePin
from companion.core.store import Store, StoreError
from companion.games.sekigahara import records

ROOT = Path(__file__).resolve().parents[2]
MOUNT_RO = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'


def on_read_only_media(directory: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``argv`` run with ``directory`` mounted read-only (for it alone)."""
    return subprocess.run(["unshare", "--mount", "sh", "-c", MOUNT_RO, "sh", str(directory),
                           *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "XDG_DATA_HOME": "/nonexistent-for-tests"})


@functools.cache
def read_only_mounts() -> bool:
    """Whether this machine lets a test make a read-only mount of its own."""
    if shutil.which("unshare") is None or sys.platform != "linux":
        return False
    probe = Path(f"/tmp/store-ro-probe-{os.getpid()}")
    probe.mkdir(exist_ok=True)
    try:
        done = on_read_only_media(probe, "sh", "-c", 'touch "$0/x" 2>/dev/null; test $? -ne 0',
                                  str(probe))
        return done.returncode == 0 and not (probe / "x").exists()
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)


needs_mounts = pytest.mark.skipif("not read_only_mounts()",
                                  reason="no mount namespace for a read-only mount here")


def companion(*argv: str) -> list[str]:
    return [sys.executable, "-m", "companion", *argv]


def a_stored_game(db: Path) -> int:
    with Store.open(db) as store:
        game_id, _ = records.start(store)
        store.append_correction(game_id, "note", by="referee", note="kept on the SD card")
        return game_id


def test_opening_read_only_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    game_id = a_stored_game(db)
    before = db.read_bytes(), db.stat().st_mtime_ns
    with Store.open(db, readonly=True) as store:
        assert len(store.load(game_id).entries) == 1
        assert [g.id for g in store.list_games()] == [game_id]
        with pytest.raises(StoreError) as refused:
            store.append_correction(game_id, "note", by="referee", note="no")
        assert refused.value.reason == "readonly"
        with pytest.raises(StoreError) as refused:
            store.create_game(records.GAME)
        assert refused.value.reason == "readonly"
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(StoreError, match="there is no game in") as missing:
        Store.open(empty, readonly=True)  # not migrated: a read-only open creates no table
    assert missing.value.reason == "missing" and empty.stat().st_size == 0
    with pytest.raises(StoreError, match="there is no game database at"):
        Store.open(tmp_path / "absent.sqlite", readonly=True)
    assert not (tmp_path / "absent.sqlite").exists()


@needs_mounts
def test_a_database_on_read_only_media_is_listed_verified_and_exported(tmp_path: Path) -> None:
    media = tmp_path / "sd"
    media.mkdir()
    db = media / "games.sqlite"
    game_id = a_stored_game(db)
    assert sorted(p.name for p in media.iterdir()) == ["games.sqlite"]  # closed cleanly
    for argv in (["game", "list"], ["game", "export", str(game_id)],
                 ["referee", "verify", str(game_id)],
                 ["referee", "replay", str(game_id), "--at", "1"],
                 ["referee", "explain", str(game_id), "1"]):
        done = on_read_only_media(media, *companion(*argv, "--db", str(db)))
        assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
    listed = on_read_only_media(media, *companion("game", "list", "--db", str(db)))
    assert "1 entries" in listed.stdout and "unfinished" in listed.stdout
    exported = on_read_only_media(media, *companion("game", "export", str(game_id), "--db",
                                                    str(db)))
    assert exported.stdout.count("\n") == 2  # the header and the one entry
    # a writing command: one line, nothing written
    source = tmp_path / "game.jsonl"
    source.write_text(exported.stdout)
    imported = on_read_only_media(media, *companion("game", "import", str(source), "--db",
                                                    str(db)))
    assert imported.returncode == 2 and imported.stdout == ""
    assert imported.stderr.count("\n") == 1 and "read-only" in imported.stderr, imported.stderr
    assert sorted(p.name for p in media.iterdir()) == ["games.sqlite"]


@needs_mounts
def test_a_log_still_holding_entries_on_read_only_media_is_refused_in_one_line(
        tmp_path: Path) -> None:
    """A database whose write-ahead log was never folded back (the power went off) cannot be
    read exactly without making its -shm file; it is refused, never read without its last
    entries. With its -shm file there too it is read, log and all."""
    media = tmp_path / "sd"
    media.mkdir()
    db = media / "games.sqlite"
    writer = Store.open(tmp_path / "live.sqlite")
    game_id, _ = records.start(writer)
    writer._db.execute("PRAGMA wal_autocheckpoint = 0")
    writer.append_correction(game_id, "note", by="referee", note="only in the log")
    for suffix in ("", "-wal"):
        shutil.copy(tmp_path / f"live.sqlite{suffix}", media / f"games.sqlite{suffix}")
    done = on_read_only_media(media, *companion("referee", "verify", str(game_id), "--db",
                                                str(db)))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"companion: the game database {db} cannot be read here: its last "
                           "entries are still in games.sqlite-wal, and the disk is read-only; "
                           "copy both files to a writable disk\n")
    shutil.copy(tmp_path / "live.sqlite-shm", media / "games.sqlite-shm")
    writer.close()
    done = on_read_only_media(media, *companion("game", "list", "--db", str(db)))
    assert done.returncode == 0 and "1 entries" in done.stdout, done.stderr


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_data_directory_is_0700_and_the_database_and_pin_0600(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    old = os.umask(0o022)
    try:
        with Store.open() as store:
            store.create_game("toy")
            data = store.path.parent
            assert store.path == data / "games.sqlite"
            assert mode(data) == 0o700
            for name in ("games.sqlite", "games.sqlite-wal", "games.sqlite-shm"):
                assert mode(data / name) == 0o600, name
        with DatabaseLock(None):
            assert mode(data / "games.sqlite.lock") == 0o600
        pin = tmp_path / "fresh" / "referee-pin.json"
        RefereePin(pin).set("2468")
        assert mode(pin.parent) == 0o700 and mode(pin) == 0o600
        # a database made before, by SQLite's default 0644, is made private when opened
        older = tmp_path / "older.sqlite"
        sqlite3.connect(older).close()
        older.chmod(0o644)
        Store.open(older).close()
        assert mode(older) == 0o600
        # another program's file given as --db by mistake is refused and keeps its mode
        other = tmp_path / "other.sqlite"
        db = sqlite3.connect(other)
        db.execute("CREATE TABLE t (x)")
        db.close()
        other.chmod(0o644)
        with pytest.raises(StoreError, match="not a game database"):
            Store.open(other)
        assert mode(other) == 0o644
    finally:
        os.umask(old)

