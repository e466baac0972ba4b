"""One table app per game database (issue 15): a second app on a database in use is refused at
once, naming the holder; the lock dies with its process (never stale); read-only commands still
work while the app runs, and the first game still verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.core.inuse import DatabaseInUse, DatabaseLock, lock_path
from companion.core.store import Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine import commands as cm

ROOT = Path(__file__).resolve().parents[2]
HOLD = ("import sys; from companion.core.inuse import DatabaseLock; "
        "DatabaseLock(sys.argv[1]).acquire(); print('held', flush=True); sys.stdin.read()")

TRY = ("import sys; from companion.core.inuse import DatabaseLock, DatabaseInUse\n"
       "try:\n    DatabaseLock(sys.argv[1]).acquire(); print('taken')\n"
       "except DatabaseInUse:\n    print('in use')")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
            "XDG_DATA_HOME": "/nonexistent-for-tests"}


@contextmanager
def holder(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the database's lock until it ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=_env())
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_second_holder_is_refused_naming_the_first_and_the_lock_dies_with_it(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with holder(db) as proc:
        with pytest.raises(DatabaseInUse) as refused:
            DatabaseLock(db).acquire()
        assert f"pid {proc.pid} on " in refused.value.message
        assert refused.value.message.startswith(f"the game database {db} is in use by another "
                                                "companion (pid")
        assert " since " in refused.value.message
    # killed, not released: the kernel dropped the lock with the process
    assert lock_path(db).exists()
    with DatabaseLock(db) as lock:
        assert lock.held
        assert f"pid {os.getpid()} " in lock_path(db).read_text()


def test_one_process_may_hold_its_own_lock_twice(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    outer = DatabaseLock(db).acquire()
    inner = DatabaseLock(db).acquire()  # the command and the app it starts
    inner.release()
    probe = subprocess.run([sys.executable, "-c", TRY, str(db)], capture_output=True,
                           text=True, env=_env(), timeout=60)
    assert probe.stdout.strip() == "in use"  # still held by the outer holder
    outer.release()
    with holder(db):  # released for good: another process may take it
        pass


def _stored_game(db: Path) -> int:
    with Store.open(db) as store:
        game_id, game = records.start(store)
        game.submit(cm.StartGame())
    return game_id


def test_a_second_companion_run_on_a_database_in_use_exits_at_once_with_one_line(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    game_id = _stored_game(db)
    run = [sys.executable, "-m", "companion", "run", "--headless", "--hubs", "sim",
           "--game", "sekigahara", "--db", str(db)]
    first = subprocess.Popen([*run], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**_env(), "TMPDIR": str(tmp_path)}, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while f"pid {first.pid} " not in (lock_path(db).read_text()
                                          if lock_path(db).exists() else ""):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first app never took the database"
            time.sleep(0.05)
        started = time.monotonic()
        second = subprocess.run(run, capture_output=True, text=True, env=_env(), timeout=60,
                                cwd=tmp_path)
        took = time.monotonic() - started
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, second.stderr
        assert lines[0].startswith("companion run: error: the game database ")
        assert f"is in use by another companion (pid {first.pid} on " in lines[0]
        assert took < 15  # interpreter start-up on a busy machine; no window, no readers
        # read-only commands work while the app runs, and the first game still verifies
        verify = subprocess.run([sys.executable, "-m", "companion", "referee", "verify",
                                 str(game_id), "--db", str(db)], capture_output=True,
                                text=True, env=_env(), timeout=60)
        assert verify.returncode == 0, verify.stderr
        assert verify.stdout.startswith("verified: ")
        listing = subprocess.run([sys.executable, "-m", "companion", "game", "list", "--db",
                                  str(db)], capture_output=True, text=True, env=_env(),
                                 timeout=60)
        assert listing.returncode == 0 and "unfinished" in listing.stdout
        assert first.poll() is None  # the first app runs on
    finally:
        first.send_signal(signal.SIGINT)
        try:
            first.wait(timeout=20)
        except subprocess.TimeoutExpired:
            first.kill()
            first.wait(timeout=10)
