"""Game exports: a stored game as a portable file, for every game (docs/referee.md).

Export format (JSON lines, UTF-8, canonical JSON per line): line 1 is the header ``{"format":
"sekigahara-companion/game", "version": 2, "header": {game, uid, created, rules_version, ...},
"header_hash", "finished", "result", "entries", "head"}``; then one entry a line, ``{"seq",
"kind", "at", "data", "prev", "hash"}``. :func:`export_lines` and :func:`read_export` round-trip
it byte for byte. The header's ``game`` says whose rules check it (:func:`import_export` takes
that game's check).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.core.chain import canonical_json
from companion.core.datafiles import describe_validation_error
from companion.core.inputs import InputError, Limits, parse_json, read_text, short
from companion.core.store import Entry, GameLog, GameSummary, Store, StoreError

EXPORT_FORMAT = "sekigahara-companion/game"
"""The format's name (the distribution's, for every game it plays)."""
EXPORT_VERSION = 2
"""2: ``finished`` is the recorded time of the command that ended the game (it is checked
against the chain). A version 1 file's ``finished`` was the clock a moment later: it is read as
its last command's time (:func:`read_export`), as the store's schema 2 migrated it."""
Model = TypeVar("Model", bound=BaseModel)


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


EXPORT_LIMITS = Limits(size=8_000_000)
"""The largest export read: a whole game is under 200 kB (a seven-week Sekigahara game with
every command and its events)."""
MOST_ENTRIES = 100_000


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True)


class _Head(_Strict):
    """Line 1 (its format and version are checked first, so a newer export says so)."""

    header: dict[str, Any]
    header_hash: str
    finished: str | None
    result: str | None
    entries: Annotated[int, Field(ge=0, le=MOST_ENTRIES)]
    head: str


class _Identity(_Strict):
    uid: str
    game: str
    created: str


class _Line(_Strict):
    model_config = ConfigDict(extra="forbid")

    seq: Annotated[int, Field(ge=1, le=MOST_ENTRIES)]
    kind: Literal["command", "correction"]
    at: str
    data: dict[str, Any]
    prev: str
    hash: str


class _Command(_Strict):
    """A command entry's data, as the store writes it (``Store.append_command``)."""

    model_config = ConfigDict(extra="forbid")

    command: dict[str, Any]
    events: list[dict[str, Any]]


class _Correction(_Strict):
    """A correction entry's data (``Store.append_correction``)."""

    model_config = ConfigDict(extra="forbid")

    action: str
    by: str
    note: str
    detail: dict[str, Any] | None = None


def _json(line: str, where: str) -> Any:
    try:
        return parse_json(line, where, EXPORT_LIMITS)
    except InputError as exc:
        raise StoreError(exc.message, "invalid") from None


def _model(model: type[Model], data: Any, where: str, what: str) -> Model:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise StoreError(f"{where} is not {what}: {describe_validation_error(exc)}",
                         "invalid") from None


def read_export(text: str, name: str = "the file") -> Export:
    """Parse an export; StoreError (invalid/newer) naming the line if it cannot be read."""
    lines = text.splitlines()
    if not lines:
        raise StoreError(f"{name} is empty", "invalid")
    if len(lines) > MOST_ENTRIES + 1:
        raise StoreError(f"{name} has more than {MOST_ENTRIES} entries: not a game export",
                         "invalid")
    try:
        head = parse_json(lines[0], None, EXPORT_LIMITS)
    except InputError:
        raise StoreError(f"{name} line 1 is not JSON: not a game export", "invalid") from None
    if not isinstance(head, dict) or head.get("format") != EXPORT_FORMAT:
        raise StoreError(f"{name} is not a table companion game export", "invalid")
    version = head.get("version")
    if type(version) is not int or version < 1:
        raise StoreError(f"{name} line 1: version is not a format version", "invalid")
    if version > EXPORT_VERSION:
        raise StoreError(f"{name} was exported by a newer version of the companion (format "
                         f"{short(version)}, this one reads up to {EXPORT_VERSION}); "
                         "update the companion", "newer")
    top = _model(_Head, head, f"{name} line 1", "a game header")
    who = _model(_Identity, top.header, f"{name} line 1", "a game header")
    summary = GameSummary(0, who.uid, who.game, who.created, top.finished, top.result,
                          top.entries, None)
    entries = []
    for number, line in enumerate(lines[1:], start=2):
        where = f"{name} line {number}"
        raw = _model(_Line, _json(line, where), where, "a stored entry")
        body = _Command if raw.kind == "command" else _Correction
        _model(body, raw.data, where, f"a stored {raw.kind}")
        entries.append(Entry(raw.seq, raw.kind, raw.at, raw.data, raw.prev, raw.hash))
    if version < 2 and summary.finished is not None:
        ended = next((e.at for e in reversed(entries) if e.kind == "command"), None)
        summary = replace(summary, finished=ended or summary.finished)
    return Export(GameLog(summary, top.header, top.header_hash, tuple(entries)), top.entries,
                  top.head)


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


def read_export_text(source: str | Path) -> str:
    """The text of an export file, read no further than :data:`EXPORT_LIMITS` allows."""
    try:
        return read_text(source, EXPORT_LIMITS)
    except InputError as exc:
        raise StoreError(exc.message, "io") from None


def open_log(source: str, db: Path | None) -> tuple[GameLog, int | None, str | None]:
    """``FILE|ID``: an export file, or a game id in the database ``db`` (opened read-only).
    Returns the log and, for a file, the count and head its header promises."""
    if source.isdigit() and not Path(source).exists():
        with Store.open(db, readonly=True) as store:
            return store.load(int(source)), None, None
    export = read_export(read_export_text(source), source)
    return export.log, export.count, export.head
