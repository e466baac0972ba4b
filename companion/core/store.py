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

Nothing read back is trusted: every stored row is type-checked and every stored JSON text is
decoded with bounds (:data:`MAX_TEXT`, :data:`MAX_DEPTH`, :data:`MAX_GAME_TEXT`), so a damaged
or hostile database is refused in one line naming the game and the entry ("stored game 3, entry
17: body is not a JSON object"), never with a traceback. ``Store.open(path, readonly=True)``
opens a database for reading only (``game list``, ``referee verify``...), so one on read-only
media can still be listed and checked. A new database is created ``0600`` in a ``0700``
directory: the record holds every concealed block.

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

import errno
import json
import os
import sqlite3
import stat
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
from companion.core.inputs import deeper_than
from companion.core.paths import default_db_path

SCHEMA_VERSION = 2
GENESIS = ""
"""The 'previous hash' fed to the header hash."""

Migration = Callable[[sqlite3.Connection], None]

MAX_TEXT = 1_000_000
"""The longest stored header or entry body read back, in characters (a real one: about 1,000)."""
MAX_GAME_TEXT = 32_000_000
"""The most characters of entries one stored game may hold (a whole real game: about 200,000)."""
MAX_ENTRIES = 100_000
"""The most entries one stored game may hold (a whole real game: about 200)."""
MAX_DEPTH = 64
"""The deepest nesting of a stored header or body read back (a real entry nests 5 deep)."""
MAX_FIELD = 1_000
"""The longest stored name, time, result or hash read back, in characters."""


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


def _to_v2(db: sqlite3.Connection) -> None:
    """A finished game's ``finished`` becomes the recorded time of its last command (the one
    that ended it), as :meth:`Store.finish` now sets it: the end is then read from the hash
    chain, not from a column anyone could edit (``referee verify`` requires it). Before, it was
    the clock a moment later, outside the chain."""
    db.execute(
        """UPDATE games SET finished = (
               SELECT e.at FROM entries e WHERE e.game_id = games.id AND e.kind = 'command'
               AND typeof(e.at) = 'text' ORDER BY e.seq DESC LIMIT 1)
           WHERE typeof(finished) = 'text' AND EXISTS (
               SELECT 1 FROM entries e WHERE e.game_id = games.id AND e.kind = 'command'
               AND typeof(e.at) = 'text')"""
    )


MIGRATIONS: tuple[Migration, ...] = (_to_v1, _to_v2)

READS_FROM = 1
"""The oldest schema a read-only open reads without migrating it (schema 2 changed no table:
a schema 1 game's end is read as :func:`_to_v2` sets it, :data:`_ENDED_SQL`)."""
_ENDED_SQL = ("CASE WHEN typeof(g.finished) = 'text' THEN COALESCE((SELECT e2.at FROM entries "
              "e2 WHERE e2.game_id = g.id AND e2.kind = 'command' AND typeof(e2.at) = 'text' "
              "ORDER BY e2.seq DESC LIMIT 1), g.finished) ELSE g.finished END")
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
    problem: str | None = None
    """Why this stored game cannot be read ("stored game 3: finished is a blob, not text"); its
    unreadable fields are then empty. None for a sound row."""


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
        if _read_only_place(path):
            return StoreError(f"the game database {path} is on a read-only disk: it can be "
                              "listed and checked, not written", "readonly")
        return StoreError(f"cannot open the game database {path}", "io")
    return StoreError(f"the game database {path} failed: {exc}", "io")


def _read_only_place(path: Path) -> bool:
    """Whether ``path``'s directory is on read-only media (or not writable by this user)."""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY) or not os.access(
            path.parent, os.W_OK)
    except OSError:
        return False


class Store:
    """One SQLite game database. Thread-safe (one connection behind a lock)."""

    def __init__(self, db: sqlite3.Connection, path: Path, *, ends_by_clock: bool = False
                 ) -> None:
        self._db = db
        self.path = path
        self._lock = threading.Lock()
        self._finished = _ENDED_SQL if ends_by_clock else "g.finished"
        """How a game's end is read: a schema 1 database opened read-only (not migrated)
        reads it as :func:`_to_v2` would have set it."""

    @classmethod
    def open(
        cls,
        path: Path | str | None = None,
        *,
        timeout: float = 2.0,
        durable: bool = True,
        migrations: Sequence[Migration] = MIGRATIONS,
        readonly: bool = False,
    ) -> Store:
        """Open (creating if needed) and migrate the database at ``path`` (default: the data
        directory's ``games.sqlite``). ``timeout``: how long to wait for another writer.
        ``durable=False`` skips the flush to disk on commit (``synchronous=OFF``): only for
        scratch databases (self-play exports, benchmarks' baseline), never for a real game.
        ``readonly=True`` neither creates, migrates nor writes anything (:func:`_open_readonly`):
        for the commands that only read."""
        where = Path(path) if path is not None else default_db_path()
        if readonly:
            reader, version = _open_readonly(where, timeout, len(migrations))
            return cls(reader, where, ends_by_clock=version < 2 <= len(migrations))
        try:
            where.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {where.parent}: {exc.strerror}", "io") from None
        _create_private(where)
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
        _tighten(where)
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
                with immediate(self._db) as db:
                    yield db
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
        full = _header(game, header, uid, created)
        with self._write() as db:
            return _insert_game(db, full)

    def import_game(self, game: str, header: Mapping[str, Any], *, uid: str, created: str,
                    entries: Sequence[Entry], finished: str | None = None,
                    result: str | None = None) -> int:
        """An exported game stored whole, in ONE transaction: its header (with ``game``,
        ``uid``, ``created``), every entry exactly as given (their chain is the caller's to
        verify) and, when ``finished``, its end. All or nothing: if any part fails nothing is
        stored, so a refused import leaves no half game to resume and the file may be
        imported again. StoreError (invalid) if the game is already in the store."""
        full = _header(game, header, uid, created)
        try:
            lines = [(e.seq, e.kind, e.at, canonical_json(e.data), e.prev, e.hash)
                     for e in entries]
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot store this game: {exc}", "invalid") from None
        with self._write() as db:
            if db.execute("SELECT 1 FROM games WHERE uid = ?", (uid,)).fetchone():
                raise StoreError(f"game {uid} is already in {self.path}", "invalid")
            game_id = _insert_game(db, full)
            db.executemany(
                "INSERT INTO entries (game_id, seq, kind, at, body, prev, hash) "
                "VALUES (?,?,?,?,?,?,?)", [(game_id, *line) for line in lines])
            if finished is not None:
                db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                           (finished, result or "", game_id))
            return game_id

    def finish(self, game_id: int, result: str, *, at: str | None = None) -> None:
        """Mark a game finished (it is no longer offered for resume). ``result`` is the one
        the game's rules give, and ``at`` (by default) the recorded time of the last command,
        the one that ended the game: both are then read from the hash chain, and ``referee
        verify`` refuses a game whose columns say otherwise
        (:func:`companion.core.records.check_end`)."""
        with self._write() as db:
            if at is None:
                last = db.execute(
                    "SELECT at FROM entries WHERE game_id = ? AND kind = 'command' "
                    "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
                at = last[0] if last is not None and isinstance(last[0], str) else _now()
            db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                       (at, result, game_id))

    def list_games(self) -> list[GameSummary]:
        """Every game, newest first."""
        return self._summaries("")

    def unfinished(self, game: str | None = None) -> list[GameSummary]:
        """Games not marked finished (of ``game`` only, when given), newest first: what the
        start screen offers to resume. A game whose end is damaged (not text) is among them,
        with its ``problem``, so the start screen says it cannot be read."""
        unfinished = "(g.finished IS NULL OR typeof(g.finished) != 'text')"
        if game is None:
            return self._summaries(f"WHERE {unfinished}")
        return self._summaries(f"WHERE {unfinished} AND g.game = ?", (game,))

    def _summaries(self, where: str, args: tuple[object, ...] = ()) -> list[GameSummary]:
        with self._read() as db:
            rows = db.execute(
                f"SELECT g.id, {_field_sql('g.uid')}, {_field_sql('g.game')}, "
                f"{_field_sql('g.created')}, {_field_sql(self._finished)}, "
                f"{_field_sql('g.result')}, COUNT(e.seq), {_field_sql('MAX(e.at)')} "
                "FROM games g LEFT JOIN entries e ON e.game_id = g.id "
                f"{where} GROUP BY g.id ORDER BY g.id DESC", args
            ).fetchall()
        return [_summary(row) for row in rows]

    def load(self, game_id: int) -> GameLog:
        """The whole game, every row type-checked; StoreError (missing) if there is no such
        game, (corrupt) naming the game and the entry if a row is damaged."""
        with self._read() as db:
            row = db.execute(f"SELECT {_field_sql('header', MAX_TEXT)}, "
                             f"{_field_sql('header_hash')} FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in {self.path}", "missing")
            count, size = db.execute("SELECT count(*), total(length(body)) FROM entries "
                                     "WHERE game_id = ?", (game_id,)).fetchone()
            if count > MAX_ENTRIES or size > MAX_GAME_TEXT:
                raise StoreError(f"stored game {game_id} holds more than {MAX_ENTRIES:,} "
                                 f"entries or {MAX_GAME_TEXT:,} characters of them: not a "
                                 "game the companion wrote", "corrupt")
            rows = _entry_rows(db, game_id, after=0)
        found = self._summaries("WHERE g.id = ?", (game_id,))
        if not found:
            raise StoreError(f"there is no game {game_id} in {self.path}", "missing")
        summary = found[0]
        if summary.problem is not None:
            raise StoreError(summary.problem, "corrupt")
        try:
            header = _json_object(_text(row[0], row[1], "header", MAX_TEXT), "header")
            header_hash = _text(row[2], row[3], "header_hash")
        except ValueError as exc:
            raise StoreError(f"stored game {game_id}: {exc}", "corrupt") from None
        return GameLog(summary, header, header_hash,
                       tuple(_entry(game_id, entry) for entry in rows))

    def entries_after(self, game_id: int, after: int) -> tuple[Entry, ...]:
        """The game's entries after entry ``after``, type-checked as :meth:`load` reads them
        (a publisher following a game reads only what is new); StoreError (corrupt) naming
        the game and entry for a damaged row."""
        with self._read() as db:
            rows = _entry_rows(db, game_id, after=after)
        return tuple(_entry(game_id, entry) for entry in rows)

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
                if not isinstance(row[0], str):
                    raise StoreError(f"stored game {game_id}: header_hash is "
                                     f"{_what(row[0])}, not text", "corrupt")
                seq, previous = 1, row[0]
            else:
                if not isinstance(last[0], int) or not isinstance(last[1], str):
                    raise StoreError(f"stored game {game_id}: its last entry is damaged",
                                     "corrupt")
                seq, previous = last[0] + 1, last[1]
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
    _check_version(db, path, version, target)
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


def _header(game: str, header: Mapping[str, Any] | None, uid: str | None,
            created: str | None) -> dict[str, Any]:
    full = {**dict(header or {}), "game": game, "uid": uid or uuid.uuid4().hex,
            "created": created or _now()}
    try:
        canonical_json(full)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot store this game's header: {exc}", "invalid") from None
    return full


def _insert_game(db: sqlite3.Connection, full: dict[str, Any]) -> int:
    cursor = db.execute(
        "INSERT INTO games (uid, game, header, header_hash, created) VALUES (?, ?, ?, ?, ?)",
        (full["uid"], full["game"], canonical_json(full), entry_hash(GENESIS, full),
         full["created"]),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _what(value: object) -> str:
    """What a stored value is, for a refusal ("a blob", "a number")."""
    if value is None:
        return "missing"
    if isinstance(value, bytes):
        return "a blob"
    if isinstance(value, int | float):
        return "a number"
    return "text"


def _field_sql(column: str, cap: int = MAX_FIELD) -> str:
    """Two result columns for a stored text: its length, and the value itself only when it is
    no longer than ``cap`` (a huge value is never loaded: :func:`_text` refuses it)."""
    return f"length({column}), CASE WHEN length({column}) <= {cap} THEN {column} END"


def _text(length: object, value: object, what: str, cap: int = MAX_FIELD) -> str:
    """A stored text read by :func:`_field_sql`; ValueError saying what is wrong with it."""
    if value is None and length is not None:
        raise ValueError(f"{what} is longer than {cap:,} characters")
    if not isinstance(value, str):
        raise ValueError(f"{what} is {_what(value)}, not text")
    return value


def _optional(length: object, value: object, what: str) -> str | None:
    return None if length is None and value is None else _text(length, value, what)


def _summary(row: Sequence[Any]) -> GameSummary:
    """A games row as a summary; a damaged one says why in ``problem``, its fields emptied."""
    game_id, entries = row[0], row[11]
    if not isinstance(game_id, int):
        raise StoreError(f"a stored game's number is {_what(game_id)}, not a whole number",
                         "corrupt")
    try:
        return GameSummary(game_id, _text(row[1], row[2], "uid"),
                           _text(row[3], row[4], "game"), _text(row[5], row[6], "created"),
                           _optional(row[7], row[8], "finished"),
                           _optional(row[9], row[10], "result"), int(entries),
                           _optional(row[12], row[13], "the time of its last entry"))
    except ValueError as exc:
        return GameSummary(game_id, "", "", "", None, None, int(entries), None,
                           problem=f"stored game {game_id}: {exc}")


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction on ``db`` (opened with ``isolation_level=None``): BEGIN IMMEDIATE
    ... COMMIT, rolled back on any failure. The caller holds the connection's lock."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _entry_rows(db: sqlite3.Connection, game_id: int, *, after: int) -> list[Any]:
    """The game's entries rows after entry ``after``, each column with its SQL type beside it
    (:func:`_field_sql`), for :func:`_entry` to check."""
    return db.execute(
        f"SELECT seq, {_field_sql('kind')}, {_field_sql('at')}, "
        f"{_field_sql('body', MAX_TEXT)}, {_field_sql('prev')}, {_field_sql('hash')} "
        "FROM entries WHERE game_id = ? AND seq > ? ORDER BY seq",
        (game_id, after),
    ).fetchall()


def _entry(game_id: int, row: Sequence[Any]) -> Entry:
    """An entries row, every column type-checked; StoreError naming the game and entry."""
    seq = row[0]
    if not isinstance(seq, int):
        raise StoreError(f"stored game {game_id}: an entry's number is {_what(seq)}, not a "
                         "whole number", "corrupt")
    try:
        kind = _text(row[1], row[2], "kind")
        if kind not in ("command", "correction"):
            raise ValueError(f"kind {kind[:20]!r} is neither command nor correction")
        at = _text(row[3], row[4], "at")
        data = _json_object(_text(row[5], row[6], "body", MAX_TEXT), "body")
        entry = Entry(seq, kind, at, data, _text(row[7], row[8], "prev"),
                      _text(row[9], row[10], "hash"))
    except ValueError as exc:
        raise StoreError(f"stored game {game_id}, entry {seq}: {exc}", "corrupt") from None
    return entry


class _NotJson(ValueError):
    """NaN or Infinity in a stored JSON text."""


def _refuse_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON number")


def bounded_json(text: str, *, depth: int = MAX_DEPTH) -> Any:
    """``text`` decoded as JSON with its nesting bounded (the decoder's recursion is caught:
    5,000 nested brackets are refused, not a crash) and without NaN or Infinity, which the
    hash chain's canonical JSON cannot hold; ValueError saying why not."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError(f"nested more than {depth} deep") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg}, character {exc.pos})") from None
    except _NotJson as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    except ValueError:  # Python's own limit on the digits of a number
        raise ValueError("not valid JSON (a number too long to read)") from None
    if text.count("[") + text.count("{") > depth and deeper_than(value, depth):
        raise ValueError(f"nested more than {depth} deep")
    return value


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = bounded_json(text)
    except ValueError as exc:
        raise ValueError(f"{what} is {exc}") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def _create_private(where: Path) -> None:
    """A new database file created readable by its owner alone (``0600``; SQLite gives its
    ``-wal`` and ``-shm`` files the database's mode)."""
    try:
        os.close(os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        reason = "readonly" if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) else "io"
        raise StoreError(f"cannot create the game database {where}: {exc.strerror}",
                         reason) from None


def _tighten(where: Path) -> None:
    """An older database (SQLite's default ``0644``) made ``0600`` with its ``-wal`` and
    ``-shm`` files, once it proved to be a game database: only regular files this user owns,
    best effort (a read-only disk keeps its modes)."""
    for name in (where.name, where.name + "-wal", where.name + "-shm"):
        try:
            found = os.stat(where.with_name(name))
            if (stat.S_ISREG(found.st_mode) and found.st_uid == os.geteuid()
                    and found.st_mode & 0o077):
                os.chmod(where.with_name(name), stat.S_IMODE(found.st_mode) & 0o700)
        except OSError:
            pass


def _open_readonly(where: Path, timeout: float, target: int
                   ) -> tuple[sqlite3.Connection, int]:
    """``where`` opened for reading only (SQLite's ``mode=ro``): nothing is created, migrated
    or written. On read-only media SQLite cannot make the ``-shm`` file a write-ahead log
    needs; a database whose log is empty (it was closed cleanly) is then read as
    ``immutable``, exactly. One whose log still holds entries is refused in one line: reading
    the file alone would silently leave them out."""
    if not where.is_file():
        raise StoreError(f"there is no game database at {where}", "missing")
    uri = where.absolute().as_uri()
    db: sqlite3.Connection | None = None
    try:
        try:
            db = _connect_ro(f"{uri}?mode=ro", timeout)
        except sqlite3.OperationalError as exc:
            if "CANTOPEN" not in (getattr(exc, "sqlite_errorname", "") or ""):
                raise
            log = where.with_name(where.name + "-wal")
            if log.exists() and log.stat().st_size > 0:
                raise StoreError(
                    f"the game database {where} cannot be read here: its last entries are "
                    f"still in {log.name}, and the disk is read-only; copy both files to a "
                    "writable disk", "readonly") from None
            db = _connect_ro(f"{uri}?mode=ro&immutable=1", timeout)
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreError(f"the game database {where} is damaged ({check})", "corrupt")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        _check_version(db, where, version, target)
        if version == 0 and target > 0:
            raise StoreError(f"there is no game in {where}", "missing")
        if version < min(target, READS_FROM):
            raise StoreError(f"the game database {where} was written by an older version of "
                             "the companion: open it once on a writable disk to update it",
                             "readonly")
    except sqlite3.Error as exc:
        if db is not None:
            db.close()
        raise _classify(exc, where) from None
    except (StoreError, OSError) as exc:
        if db is not None:
            db.close()
        if isinstance(exc, OSError):
            raise StoreError(f"cannot read {where}: {exc.strerror}", "io") from None
        raise
    return db, version


def _connect_ro(uri: str, timeout: float) -> sqlite3.Connection:
    db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                         check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the log, if any
    except sqlite3.Error:
        db.close()
        raise
    return db


def _check_version(db: sqlite3.Connection, path: Path, version: int, target: int) -> None:
    if version > target:
        raise StoreError(
            f"the game database {path} was written by a newer version of the companion "
            f"(schema {version}, this one reads up to {target}); update the companion",
            "newer",
        )
    if version == 0 and db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise StoreError(f"{path} is not a game database of the companion", "corrupt")


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
