"""The table's outbox: every message it publishes, kept in its own game database until the
broker acknowledges it (docs/tournament.md, "Nothing lost").

The tables are the tournament package's own (``tournament_*``), created here; the store's
schema and version are untouched. ``seq`` is the table's one counter for every topic: it is
taken in the transaction that keeps the message, so it never goes back, across restarts and
games. A message stays ``pending`` until its PUBACK marks it ``acked``; on every (re)connect the
publisher sends the pending ones again in ``seq`` order. A newer ``status`` or ``seals``
(retained: only the last one counts) marks the older pending ones of its topic ``superseded``,
so a table back from an hour offline sends one status, not hundreds.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.core.store import immediate

PENDING, ACKED, SUPERSEDED = 0, 1, 2
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Message:
    seq: int
    topic: str
    payload: str
    retain: bool


@dataclass(frozen=True)
class Outgoing:
    """A message to keep: its topic, its body (``table``, ``seq``, ``sent`` and ``v`` are added),
    whether the broker retains it, and whether it replaces the pending ones of its topic."""

    topic: str
    body: Mapping[str, Any]
    retain: bool = False
    supersedes: bool = False


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tournament_outbox (
           seq INTEGER PRIMARY KEY,
           topic TEXT NOT NULL,
           payload TEXT NOT NULL,
           retain INTEGER NOT NULL,
           state INTEGER NOT NULL DEFAULT 0
       )""",
    "CREATE INDEX IF NOT EXISTS tournament_outbox_state ON tournament_outbox(state, seq)",
    """CREATE TABLE IF NOT EXISTS tournament_counter (
           name TEXT PRIMARY KEY, value INTEGER NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS tournament_followed (
           game_uid TEXT PRIMARY KEY, entry INTEGER NOT NULL, finished INTEGER NOT NULL)""",
)


class Outbox:
    """The outbox of ``table`` in the SQLite database at ``path`` (the table's game database).
    Thread-safe: one connection behind a lock."""

    def __init__(self, path: Path, table: str, *, now: Clock = utc_now) -> None:
        self.table = table
        self._now = now
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=10.0, isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        with self._write() as db:
            for statement in _SCHEMA:
                db.execute(statement)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock, immediate(self._db) as db:
            yield db

    def put(self, messages: Sequence[Outgoing], *,
            followed: tuple[str, int, bool] | None = None) -> list[int]:
        """Keep ``messages`` in one transaction, each with the next ``seq``; ``followed``
        (game uid, last entry, finished) records how far that game has been put in the outbox,
        in the same transaction. Returns the seqs given."""
        given: list[int] = []
        with self._write() as db:
            row = db.execute("SELECT value FROM tournament_counter WHERE name = 'seq'").fetchone()
            last = int(row[0]) if row else 0
            top = db.execute("SELECT max(seq) FROM tournament_outbox").fetchone()[0]
            last = max(last, int(top or 0))
            for message in messages:
                last += 1
                if message.supersedes:
                    db.execute("UPDATE tournament_outbox SET state = ? WHERE topic = ? AND "
                               "state = ?", (SUPERSEDED, message.topic, PENDING))
                body = {"v": 1, **message.body, "table": self.table, "seq": last,
                        "sent": self._now().isoformat(timespec="milliseconds")}
                db.execute("INSERT INTO tournament_outbox (seq, topic, payload, retain, state) "
                           "VALUES (?,?,?,?,?)",
                           (last, message.topic, json.dumps(body, ensure_ascii=False),
                            int(message.retain), PENDING))
                given.append(last)
            db.execute("INSERT INTO tournament_counter (name, value) VALUES ('seq', ?) "
                       "ON CONFLICT(name) DO UPDATE SET value = excluded.value", (last,))
            if followed is not None:
                db.execute("INSERT INTO tournament_followed (game_uid, entry, finished) "
                           "VALUES (?,?,?) ON CONFLICT(game_uid) DO UPDATE SET "
                           "entry = excluded.entry, finished = excluded.finished",
                           (followed[0], followed[1], int(followed[2])))
        return given

    def followed(self, game_uid: str) -> tuple[int, bool]:
        """How far ``game_uid`` was put in the outbox: (last entry, finished)."""
        with self._lock:
            row = self._db.execute("SELECT entry, finished FROM tournament_followed "
                                   "WHERE game_uid = ?", (game_uid,)).fetchone()
        return (int(row[0]), bool(row[1])) if row else (0, False)

    def pending(self, after: int = 0, limit: int = 200) -> list[Message]:
        """Messages not yet acknowledged, ``seq`` above ``after``, in ``seq`` order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, topic, payload, retain FROM tournament_outbox "
                "WHERE state = ? AND seq > ? ORDER BY seq LIMIT ?",
                (PENDING, after, limit)).fetchall()
        return [Message(int(s), str(t), str(p), bool(r)) for s, t, p, r in rows]

    def acked(self, seqs: Sequence[int]) -> None:
        """The broker acknowledged these: never sent again."""
        if not seqs:
            return
        with self._write() as db:
            db.executemany("UPDATE tournament_outbox SET state = ? WHERE seq = ? AND state = ?",
                           [(ACKED, s, PENDING) for s in seqs])

    def counts(self) -> dict[str, int]:
        """How many messages are pending, acked and superseded (tests, the status line)."""
        with self._lock:
            rows = self._db.execute("SELECT state, count(*) FROM tournament_outbox "
                                    "GROUP BY state").fetchall()
        names = {PENDING: "pending", ACKED: "acked", SUPERSEDED: "superseded"}
        found = {name: 0 for name in names.values()}
        found.update({names[int(s)]: int(n) for s, n in rows})
        return found

    def data_version(self) -> int:
        """SQLite's count of commits by other connections to the database (the app's store
        writing an entry): it changes when there may be something new to publish."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def last_seq(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT value FROM tournament_counter "
                                   "WHERE name = 'seq'").fetchone()
        return int(row[0]) if row else 0
