"""Game exports: a stored game as a portable file, for every game (docs/referee.md).

Export format (JSON lines, UTF-8, canonical JSON per line): line 1 is the header ``{"format":
"sekigahara-companion/game", "version": 2, "header": {game, uid, created, rules_version, ...},
"header_hash", "finished", "result", "entries", "head"}``; then one entry a line, ``{"seq",
"kind", "at", "data", "prev", "hash"}``. :func:`export_lines` and :func:`read_export` round-trip
it byte for byte. The header's ``game`` says whose rules check it (:func:`import_export` takes
that game's check).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from companion.core.chain import canonical_json
from companion.core.store import Entry, GameLog, GameSummary, Store, StoreError

EXPORT_FORMAT = "sekigahara-companion/game"
"""The format's name (the distribution's, for every game it plays)."""
EXPORT_VERSION = 2
"""2: ``finished`` is the recorded time of the command that ended the game (it is checked
against the chain). A version 1 file's ``finished`` was the clock a moment later: it is read as
its last command's time (:func:`read_export`), as the store's schema 2 migrated it."""


def export_lines(log: GameLog) -> list[str]:
    """The export file's lines (each canonical JSON, without the newline)."""
    head = {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "header": log.header,
        "header_hash": log.header_hash, "finished": log.summary.finished,
        "result": log.summary.result, "entries": len(log.entries), "head": log.head,
    }
    return [canonical_json(head)] + [canonical_json(e.line()) for e in log.entries]


def export_text(log: GameLog) -> str:
    return "\n".join(export_lines(log)) + "\n"


def write_export(log: GameLog, path: Path) -> None:
    path.write_text(export_text(log), encoding="utf-8")


@dataclass(frozen=True)
class Export:
    """A parsed export file: the game as a :class:`GameLog` (not stored: id 0) and what its
    header promises (``count``, ``head``) for a game's ``check``."""

    log: GameLog
    count: int
    head: str


def read_export(text: str, name: str = "the file") -> Export:
    """Parse an export; StoreError (invalid/newer) naming the line if it cannot be read."""
    lines = text.splitlines()
    if not lines:
        raise StoreError(f"{name} is empty", "invalid")
    try:
        head = json.loads(lines[0])
    except ValueError:
        raise StoreError(f"{name} line 1 is not JSON: not a game export", "invalid") from None
    if not isinstance(head, dict) or head.get("format") != EXPORT_FORMAT:
        raise StoreError(f"{name} is not a table companion game export", "invalid")
    if not isinstance(head.get("version"), int) or head["version"] > EXPORT_VERSION:
        raise StoreError(f"{name} was exported by a newer version of the companion (format "
                         f"{head.get('version')}, this one reads up to {EXPORT_VERSION}); "
                         "update the companion", "newer")
    try:
        header = dict(head["header"])
        summary = GameSummary(0, str(header["uid"]), str(header["game"]), str(header["created"]),
                              head["finished"], head["result"], int(head["entries"]), None)
        count, last = int(head["entries"]), str(head["head"])
        header_hash = str(head["header_hash"])
    except (KeyError, TypeError, ValueError):
        raise StoreError(f"{name} line 1 lacks part of the game header", "invalid") from None
    entries = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            raw = json.loads(line)
            entries.append(Entry(int(raw["seq"]), str(raw["kind"]), str(raw["at"]),
                                 dict(raw["data"]), str(raw["prev"]), str(raw["hash"])))
        except (ValueError, KeyError, TypeError):
            raise StoreError(f"{name} line {number} is not a stored entry", "invalid") from None
    if head["version"] < 2 and summary.finished is not None:
        ended = next((e.at for e in reversed(entries) if e.kind == "command"), None)
        summary = replace(summary, finished=ended or summary.finished)
    return Export(GameLog(summary, header, header_hash, tuple(entries)), count, last)


Check = Callable[[Export], object]
"""A game's check of an export (its hash chain and rules); raises LogRefused."""


def import_export(store: Store, export: Export, check: Check) -> int:
    """Store an export that ``check`` verifies, with its identity, times and hashes kept (so
    exporting it again gives the same bytes); returns the new game id. Refuses an export that
    does not verify (LogRefused), whose end is not text, or a game already in the store
    (StoreError). One transaction (:meth:`Store.import_game`): a refused import stores
    nothing."""
    log = export.log
    for what, value in (("finished", log.summary.finished), ("result", log.summary.result)):
        if value is not None and not isinstance(value, str):
            raise StoreError(f"the file's {what} is not text: not a game export", "invalid")
    check(export)
    extra = {k: v for k, v in log.header.items() if k not in ("game", "uid", "created")}
    return store.import_game(log.summary.game, extra, uid=log.summary.uid,
                             created=log.summary.created, entries=log.entries,
                             finished=log.summary.finished, result=log.summary.result)


def open_log(source: str, db: Path | None) -> tuple[GameLog, int | None, str | None]:
    """``FILE|ID``: an export file, or a game id in the database ``db`` (opened read-only).
    Returns the log and, for a file, the count and head its header promises."""
    if source.isdigit() and not Path(source).exists():
        with Store.open(db, readonly=True) as store:
            return store.load(int(source)), None, None
    try:
        text = Path(source).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise StoreError(f"cannot read {source}: {reason}", "io") from None
    export = read_export(text, source)
    return export.log, export.count, export.head
