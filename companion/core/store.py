"""The game store: every game a durable, tamper-evident record in one SQLite file.

Game-neutral: a game is a header (a JSON object the game package fills: its name, rules
version, block-manifest hash...) and an append-only list of **entries**, numbered from 1:

* ``command``: an accepted command and the events it produced, ``{"command": {...},
  "events": [...]}``, stored in one transaction, so a command is never kept without its
  events nor events without their command (re-adjudication needs both);
* ``correction``: an override, an accepted discrepancy, a declared block... ``{"action": ...,
  "by": ..., "note": ..., "detail": {...}}``: who did it and why.

Each entry carries ``hash = sha256(previous hash + canonical JSON of the entry)`` (the first
entry's previous hash is the hash of the game's header): see :mod:`companion.core.chain`.
Editing, removing or reordering an entry breaks the chain at that entry.

Durability: WAL journal, ``synchronous=FULL`` (a committed entry survives a power cut), the
schema versioned with ``PRAGMA user_version`` and migrated on open (:data:`MIGRATIONS`). Every
SQLite failure becomes a :class:`StoreError` whose ``message`` can be shown on the screen as
it is ("not saved: the disk is full"); nothing is half-written.

Usage::

    store = Store.open()                       # default path, or Store.open(path)
    game_id = store.create_game("sekigahara", {"rules_version": "..."})
    store.append_command(game_id, command_json, events_json)
    store.append_correction(game_id, "accept_table", by="referee", note="...", detail={})
    store.unfinished()                         # [GameSummary, ...] newest first
    log = store.load(game_id)                  # GameLog(summary, header, entries)
    store.finish(game_id, "ishida wins (2.2)")

:class:`CommandRecorder` plugs a store into :class:`companion.core.game.Game` so that
``Game.submit`` commits before it applies (durability before display).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from companion.core.chain import canonical_json, entry_hash
from companion.core.paths import default_db_path

SCHEMA_VERSION = 1
GENESIS = ""
"""The 'previous hash' fed to the header hash."""

Migration = Callable[[sqlite3.Connection], None]


def _to_v1(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE games (
               id INTEGER PRIMARY KEY,
               uid TEXT NOT NULL UNIQUE,
               game TEXT NOT NULL,
               header TEXT NOT NULL,
               header_hash TEXT NOT NULL,
               created TEXT NOT NULL,
               finished TEXT,
               result TEXT
           )"""
    )
    db.execute(
        """CREATE TABLE entries (
               game_id INTEGER NOT NULL REFERENCES games(id),
               seq INTEGER NOT NULL,
               kind TEXT NOT NULL CHECK (kind IN ('command', 'correction')),
               at TEXT NOT NULL,
               body TEXT NOT NULL,
               prev TEXT NOT NULL,
               hash TEXT NOT NULL,
               PRIMARY KEY (game_id, seq)
           ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX games_unfinished ON games(finished, id)")


MIGRATIONS: tuple[Migration, ...] = (_to_v1,)
"""``MIGRATIONS[v]`` takes a database from schema version ``v`` to ``v + 1``."""


class StoreError(Exception):
    """The store could not do what was asked. ``message`` is fit for the players' screen;
    ``reason`` is one of locked, full, readonly, corrupt, newer, missing, invalid, io."""

    def __init__(self, message: str, reason: str = "io") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


@dataclass(frozen=True)
class Entry:
    """One stored entry. ``data`` is the command with its events, or the correction."""

    seq: int
    kind: str
    at: str
    data: dict[str, Any]
    prev: str
    hash: str

    def body(self) -> dict[str, Any]:
        """What the hash covers."""
        return {"seq": self.seq, "kind": self.kind, "at": self.at, "data": self.data}

    def line(self) -> dict[str, Any]:
        """The entry as an export line."""
        return {**self.body(), "prev": self.prev, "hash": self.hash}


@dataclass(frozen=True)
class GameSummary:
    id: int
    uid: str
    game: str
    created: str
    finished: str | None
    result: str | None
    entries: int
    updated: str | None


@dataclass(frozen=True)
class GameLog:
    """A game as stored: its summary, its header and every entry in order."""

    summary: GameSummary
    header: dict[str, Any]
    header_hash: str
    entries: tuple[Entry, ...]

    @property
    def head(self) -> str:
        """The hash of the last entry (the header's hash for an empty game)."""
        return self.entries[-1].hash if self.entries else self.header_hash


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def _classify(exc: sqlite3.Error, path: Path) -> StoreError:
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if "BUSY" in name or "LOCKED" in name or "locked" in text:
        return StoreError(f"the game database {path} is in use by another program", "locked")
    if "FULL" in name or "full" in text:
        return StoreError(f"the disk holding {path} is full", "full")
    if "READONLY" in name or "readonly" in text or "read-only" in text:
        return StoreError(f"the game database {path} is read-only", "readonly")
    if "CORRUPT" in name or "NOTADB" in name or "malformed" in text or "not a database" in text:
        return StoreError(f"the game database {path} is damaged", "corrupt")
    if "CANTOPEN" in name or "unable to open" in text:
        return StoreError(f"cannot open the game database {path}", "io")
    return StoreError(f"the game database {path} failed: {exc}", "io")


class Store:
    """One SQLite game database. Thread-safe (one connection behind a lock)."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls,
        path: Path | str | None = None,
        *,
        timeout: float = 2.0,
        durable: bool = True,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path`` (default: the data
        directory's ``games.sqlite``). ``timeout``: how long to wait for another writer.
        ``durable=False`` skips the flush to disk on commit (``synchronous=OFF``): only for
        scratch databases (self-play exports, benchmarks' baseline), never for a real game."""
        where = Path(path) if path is not None else default_db_path()
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {where.parent}: {exc.strerror}", "io") from None
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(where, timeout=timeout, isolation_level=None,
                                 check_same_thread=False)
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"the game database {where} cannot use a write-ahead log",
                                 "readonly")
            db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"the game database {where} is damaged ({check})", "corrupt")
            _migrate(db, where, migrations)
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            raise _classify(exc, where) from None
        except StoreError:
            if db is not None:
                db.close()
            raise
        return cls(db, where)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any failure."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise _classify(exc, self.path) from None

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise _classify(exc, self.path) from None

    # ------------------------------------------------------------------ games

    def create_game(self, game: str, header: Mapping[str, Any] | None = None,
                    *, uid: str | None = None, created: str | None = None) -> int:
        """A new game; returns its id. ``header`` is stored as given, plus ``game``, ``uid``
        and ``created`` (which import passes to keep an exported game's identity)."""
        full = {**dict(header or {}), "game": game, "uid": uid or uuid.uuid4().hex,
                "created": created or _now()}
        text = canonical_json(full)
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO games (uid, game, header, header_hash, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (full["uid"], game, text, entry_hash(GENESIS, full), full["created"]),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def finish(self, game_id: int, result: str, *, at: str | None = None) -> None:
        """Mark a game finished (it is no longer offered for resume)."""
        with self._write() as db:
            db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                       (at or _now(), result, game_id))

    def list_games(self) -> list[GameSummary]:
        """Every game, newest first."""
        return self._summaries("")

    def unfinished(self, game: str | None = None) -> list[GameSummary]:
        """Games not marked finished (of ``game`` only, when given), newest first: what the
        start screen offers to resume."""
        if game is None:
            return self._summaries("WHERE g.finished IS NULL")
        return self._summaries("WHERE g.finished IS NULL AND g.game = ?", (game,))

    def _summaries(self, where: str, args: tuple[object, ...] = ()) -> list[GameSummary]:
        with self._read() as db:
            rows = db.execute(
                "SELECT g.id, g.uid, g.game, g.created, g.finished, g.result, "
                "COUNT(e.seq), MAX(e.at) FROM games g LEFT JOIN entries e ON e.game_id = g.id "
                f"{where} GROUP BY g.id ORDER BY g.id DESC", args
            ).fetchall()
        return [GameSummary(*row) for row in rows]

    def load(self, game_id: int) -> GameLog:
        """The whole game; StoreError (missing) if there is no such game."""
        with self._read() as db:
            row = db.execute("SELECT header, header_hash FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in {self.path}", "missing")
            rows = db.execute(
                "SELECT seq, kind, at, body, prev, hash FROM entries WHERE game_id = ? "
                "ORDER BY seq",
                (game_id,),
            ).fetchall()
        summary = next(s for s in self._summaries(f"WHERE g.id = {int(game_id)}"))
        try:
            header = json.loads(row[0])
            entries = tuple(Entry(seq, kind, at, json.loads(body), prev, digest)
                            for seq, kind, at, body, prev, digest in rows)
        except ValueError:
            raise StoreError(f"game {game_id} in {self.path} is damaged", "corrupt") from None
        return GameLog(summary, header, row[1], entries)

    # ------------------------------------------------------------------ entries

    def append_command(self, game_id: int, command: Mapping[str, Any],
                       events: Sequence[Mapping[str, Any]]) -> Entry:
        """Store an accepted command with its events, atomically; returns the entry."""
        return self._append(game_id, "command",
                            {"command": dict(command), "events": [dict(e) for e in events]})

    def append_correction(self, game_id: int, action: str, *, by: str, note: str,
                          detail: Mapping[str, Any] | None = None) -> Entry:
        """Store a correction, an override or an accepted discrepancy: who and why."""
        return self._append(game_id, "correction",
                            {"action": action, "by": by, "note": note,
                             "detail": dict(detail or {})})

    def import_entries(self, game_id: int, entries: Sequence[Entry]) -> None:
        """Store entries exactly as given (an import), in one transaction; their chain is the
        caller's to verify."""
        with self._write() as db:
            db.executemany(
                "INSERT INTO entries (game_id, seq, kind, at, body, prev, hash) "
                "VALUES (?,?,?,?,?,?,?)",
                [(game_id, e.seq, e.kind, e.at, canonical_json(e.data), e.prev, e.hash)
                 for e in entries],
            )

    def _append(self, game_id: int, kind: str, data: dict[str, Any]) -> Entry:
        try:
            canonical_json(data)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot store this {kind}: {exc}", "invalid") from None
        with self._write() as db:
            last = db.execute(
                "SELECT seq, hash FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if last is None:
                row = db.execute("SELECT header_hash FROM games WHERE id = ?",
                                 (game_id,)).fetchone()
                if row is None:
                    raise StoreError(f"there is no game {game_id} in {self.path}", "missing")
                seq, previous = 1, str(row[0])
            else:
                seq, previous = int(last[0]) + 1, str(last[1])
            at = _now()
            digest = entry_hash(previous, {"seq": seq, "kind": kind, "at": at, "data": data})
            db.execute(
                "INSERT INTO entries (game_id, seq, kind, at, body, prev, hash) "
                "VALUES (?,?,?,?,?,?,?)",
                (game_id, seq, kind, at, canonical_json(data), previous, digest),
            )
            return Entry(seq, kind, at, data, previous, digest)


def _migrate(db: sqlite3.Connection, path: Path, migrations: Sequence[Migration]) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    target = len(migrations)
    if version > target:
        raise StoreError(
            f"the game database {path} was written by a newer version of the companion "
            f"(schema {version}, this one reads up to {target}); update the companion",
            "newer",
        )
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise StoreError(f"{path} is not a game database of the companion", "corrupt")
    while version < target:
        db.execute("BEGIN IMMEDIATE")
        try:
            migrations[version](db)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        version += 1


class CorrectionRecorder(Protocol):
    """Where a table session stores a correction (who, why) before it takes effect."""

    def correction(self, action: str, *, by: str, note: str,
                   detail: Mapping[str, Any] | None = None) -> None: ...


class CommandRecorder:
    """Records a game's accepted commands in a :class:`Store` (``Game(recorder=...)``).

    ``record`` commits the command and its events before ``Game.submit`` applies them; it raises
    :class:`StoreError` when they could not be saved, and then nothing is applied.
    """

    def __init__(self, store: Store, game_id: int, *, last: Entry | None = None) -> None:
        self.store = store
        self.game_id = game_id
        self.last = last
        """The last command standing (what an undo may take back; None: nothing to undo)."""

    def record(self, command: BaseModel, events: Sequence[BaseModel]) -> None:
        self.last = self.store.append_command(
            self.game_id,
            command.model_dump(mode="json"),
            [event.model_dump(mode="json") for event in events],
        )

    def correction(self, action: str, *, by: str, note: str,
                   detail: Mapping[str, Any] | None = None) -> None:
        """Record a correction for this game (the table session's hook)."""
        self.store.append_correction(self.game_id, action, by=by, note=note, detail=detail)
