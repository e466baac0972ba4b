"""One table app per game database: a lock the operating system drops with its process.

Two apps writing one database both resume the same game and fork its log, after which the game
cannot be resumed (its record no longer re-adjudicates). So ``companion run`` holds an exclusive
``flock`` on a lock file beside the database (``games.sqlite.lock``) for as long as it runs, and
a second app on that database is refused at once, naming the holder. The kernel releases the
lock when the holding process ends, however it ends (a crash, ``kill -9``, a power cut), so a
lock is never left stale; the file itself may stay, and says who held it last.

Read-only commands (``companion game list``, ``companion referee verify``...) do not take the
lock: SQLite's write-ahead log lets them read while the app writes.

Within one process the lock is shared (counted): the ``companion run`` command and the app it
starts may both hold it, and tests may run apps one after another.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import threading
import time
from pathlib import Path

from companion.core.paths import default_db_path
from companion.core.store import StoreError

_held: dict[Path, tuple[int, int]] = {}
"""Lock files held by this process: path -> (file descriptor, holders)."""
_guard = threading.Lock()


def lock_path(db: Path | str | None) -> Path:
    """The lock file of the database ``db`` (default: the data directory's)."""
    where = Path(db) if db is not None else default_db_path()
    return where.with_name(where.name + ".lock")


class DatabaseInUse(StoreError):
    """Another process holds the database. ``holder`` says who, in one line."""

    def __init__(self, db: Path, holder: str) -> None:
        super().__init__(f"the game database {db} is in use by {holder}", "locked")
        self.holder = holder


class DatabaseLock:
    """Held from :meth:`acquire` until :meth:`release` (or the process ends)."""

    def __init__(self, db: Path | str | None) -> None:
        self.db = Path(db) if db is not None else default_db_path()
        self.path = lock_path(self.db).resolve()
        self.held = False

    def acquire(self) -> DatabaseLock:
        """Take the lock without waiting: DatabaseInUse naming the holder when another process
        has it; StoreError when the lock file cannot be made. Filesystems that cannot lock are
        let through (nothing better can be done there)."""
        with _guard:
            if self.held:
                return self
            known = _held.get(self.path)
            if known is not None:
                _held[self.path] = (known[0], known[1] + 1)
                self.held = True
                return self
            try:
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as exc:
                raise StoreError(f"cannot make the lock file {self.path}: {exc.strerror}",
                                 "io") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise DatabaseInUse(self.db, holder(self.path)) from None
                if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                    raise StoreError(f"cannot lock {self.path}: {exc.strerror}", "io") from None
                self.held = True  # no locking here: let the app run
                return self
            _write_holder(fd)
            _held[self.path] = (fd, 1)
            self.held = True
            return self

    def release(self) -> None:
        with _guard:
            if not self.held:
                return
            self.held = False
            known = _held.get(self.path)
            if known is None:
                return
            fd, count = known
            if count > 1:
                _held[self.path] = (fd, count - 1)
                return
            del _held[self.path]
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _write_holder(fd: int) -> None:
    """Who holds the lock, for the one line a refused app prints."""
    since = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    text = f"pid {os.getpid()} on {socket.gethostname()} since {since}\n"
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode("utf-8"), 0)
    except OSError:  # the lock holds even when the note cannot be written
        pass


def holder(path: Path) -> str:
    """"another companion (pid 123 on table-pi since 2026-11-26 03:10:00 UTC)", as the lock
    file says."""
    try:
        said = path.read_text("utf-8").strip().splitlines()
    except (OSError, UnicodeDecodeError):
        said = []
    return f"another companion ({said[0]})" if said and said[0] else "another companion"
