"""A referee logged in on the dashboard's page: their own connection to the broker, a table's
full record fetched over it, verified, replayed and explained by the very code of ``companion
referee verify|replay|explain`` (the game's :class:`~companion.core.records.GameRecords`).

The page never holds a referee's rights by itself: a referee types their account's password on
the page, the broker judges it, and the session this opens ends after
:data:`SESSION_IDLE_S` without use (or on "Log out"). A record request carries a fresh random
``request_id`` sent only to the asked table (only it reads its requests), and the answer is
taken only on the referee's own reply topic with that id, so no other table can slip a record
in (docs/tournament.md, "The dashboard").
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import paho.mqtt.client as mqtt

from companion.core.descriptor import descriptor
from companion.core.explain import NoEntry, explain_text
from companion.core.exports import Export, read_export
from companion.core.records import GameRecords, LogRefused
from companion.core.referee_cli import CannotCheck, records_of, verify_seals
from companion.core.seals import Seal, last_seal
from companion.core.store import StoreError
from tournament import topics
from tournament.dashboard_mqtt import ConnectRefused, connect
from tournament.url import TournamentUrl

SESSION_IDLE_S = 15 * 60
"""A referee's session ends after this long without use: a page left open in the hall is
back to the players' view."""
RECORD_WAIT_S = 20.0
"""How long a table may take to answer a record request (a 200-entry game: well under 1 s)."""


class RefereeError(Exception):
    """What the page says in one line: a refused login, an expired session, a table that did not
    answer."""


def referee_account(name: str) -> str:
    """What a referee types ("ana" or "referee-ana") -> the account ("referee-ana")."""
    name = name.strip().lower()
    account = name if name.startswith("referee-") else f"referee-{name}"
    if not topics.REFEREE_NAME.match(account):
        raise RefereeError(f"{name!r} is not a referee's name: lower-case letters, digits and "
                           "dashes")
    return account


@dataclass
class Record:
    """A table's record as the referee fetched and verified it."""

    table: str
    export: Export
    records: GameRecords
    verified: str
    """``referee verify``'s line, or "refused at entry N: ..." for a record that does not
    hold."""
    holds: bool
    fetched_at: str


@dataclass
class Session:
    """One referee logged in: their connection and the records they fetched."""

    token: str
    account: str
    client: mqtt.Client
    used_at: float
    replies: dict[str, queue.Queue[dict[str, Any]]] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Referees:
    """The sessions of the referees logged in on this dashboard."""

    def __init__(self, address: TournamentUrl, *, idle_s: float = SESSION_IDLE_S,
                 clock: Callable[[], float] = time.monotonic,
                 record_wait_s: float = RECORD_WAIT_S) -> None:
        self.address = address
        self.idle_s = idle_s
        self.clock = clock
        self.record_wait_s = record_wait_s
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def login(self, name: str, password: str) -> Session:
        account = referee_account(name)
        if not password:
            raise RefereeError("Type the referee's password")
        replies: dict[str, queue.Queue[dict[str, Any]]] = {}
        prefix = f"{topics.event_root(self.address.event)}/referees/{account}/records/"

        def on_message(topic: str, payload: bytes) -> None:
            if topic.startswith(prefix) and (box := replies.get(topic[len(prefix):])):
                try:
                    message = json.loads(payload)
                except ValueError:
                    message = {"error": "the table's answer is not JSON"}
                box.put(message if isinstance(message, dict) else {"error": "not an object"})

        try:
            client = connect(self.address, account, password, on_message=on_message,
                             subscriptions=(f"{prefix}+",))
        except ConnectRefused as exc:
            raise RefereeError(str(exc).replace("the broker", "The broker", 1)) from None
        session = Session(secrets.token_urlsafe(24), account, client, self.clock(), replies)
        with self.lock:
            self.sessions[session.token] = session
        return session

    def session(self, token: str | None) -> Session:
        """The live session ``token`` names (its idle time starts again), or RefereeError."""
        self.expire()
        with self.lock:
            found = self.sessions.get(token or "")
        if found is None:
            raise RefereeError("Your referee session has ended: log in again")
        found.used_at = self.clock()
        return found

    def logout(self, token: str | None) -> None:
        with self.lock:
            found = self.sessions.pop(token or "", None)
        if found is not None:
            _close(found)

    def expire(self) -> None:
        now = self.clock()
        with self.lock:
            ended = [s for s in self.sessions.values() if now - s.used_at > self.idle_s]
            for s in ended:
                del self.sessions[s.token]
        for s in ended:
            _close(s)

    def close(self) -> None:
        with self.lock:
            ended, self.sessions = list(self.sessions.values()), {}
        for s in ended:
            _close(s)

    def fetch(self, token: str | None, table: str, game_id: object = None,
              published: Callable[[object], list[dict[str, Any]]] = lambda _: []) -> Record:
        """Ask ``table`` for its full record over the broker, then verify it, against the
        seals it ``published`` for that game too."""
        session = self.session(token)
        if not topics.TABLE_NAME.match(table):
            raise RefereeError("There is no such table")
        request_id = secrets.token_hex(8)
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        session.replies[request_id] = box
        request = {"v": 1, "request_id": request_id, "referee": session.account,
                   "game_id": game_id}
        topic = topics.table_topic(self.address.event, table, "record/request")
        try:
            session.client.publish(topic, json.dumps(request), qos=1)
            try:
                answer = box.get(timeout=self.record_wait_s)
            except queue.Empty:
                raise RefereeError(f"Table {int(table.split('-')[1])} did not answer "
                                   f"within {self.record_wait_s:.0f} s: is it on?") from None
        finally:
            session.replies.pop(request_id, None)
        if answer.get("request_id") != request_id:
            raise RefereeError("the answer was for another request")
        if answer.get("error"):
            raise RefereeError(f"The table says: {str(answer['error']).splitlines()[0]}")
        record = verify(table, answer.get("export"), published(answer.get("game_id")))
        with session.lock:
            session.records[table] = record
        return record

    def record(self, token: str | None, table: str) -> Record:
        session = self.session(token)
        found = session.records.get(table)
        if found is None:
            raise RefereeError("Fetch the table's record first")
        return found


def _close(session: Session) -> None:
    session.client.disconnect()
    session.client.loop_stop()


def verify(table: str, export_text: object,
           published: Sequence[dict[str, Any]] = ()) -> Record:
    """A record as ``companion referee verify`` checks it: the hash chain, every command
    re-adjudicated through the game's own rules, and the seals the table ``published`` for
    this game (as ``verify --seal`` checks the ones noted on a score sheet)."""
    if not isinstance(export_text, str):
        raise RefereeError("the table's answer holds no record")
    try:
        export = read_export(export_text, "the table's record")
        records = records_of(export.log)
    except (StoreError, CannotCheck) as exc:
        raise RefereeError(str(getattr(exc, "message", exc))) from None
    log = export.log
    now = datetime.now(UTC).strftime("%H:%M:%S")
    given = [Seal(int(s["entry"]), str(s.get("label") or ""), str(s["code"]))
             for s in published]
    try:
        rebuilt = records.check(log, count=export.count, head=export.head)
        matched = verify_seals(log, given)
    except LogRefused as exc:
        return Record(table, export, records, f"refused at {exc}", False, now)
    corrections = sum(1 for e in log.entries if e.kind == "correction")
    undone = (f", entries {', '.join(map(str, rebuilt.undone))} undone" if rebuilt.undone
              else "")
    last = last_seal(log, records.seal_points)
    sealed = f", {str(last)[0].lower()}{str(last)[1:]}" if last is not None else ""
    line = (f"verified: {len(log.entries)} entries ({rebuilt.commands} commands "
            f"re-adjudicated, {corrections} corrections{undone}), hash chain intact{matched}, "
            f"head {log.head[:16]}{sealed}; {records.standing(log, rebuilt)}")
    return Record(table, export, records, line, True, now)


def replay(record: Record, at: int, view: str) -> dict[str, Any]:
    """``companion referee replay --at N --view V``: the game after entry ``at``."""
    if view not in record.records.views:
        raise RefereeError(f"the view is one of {', '.join(record.records.views)}")
    if not record.holds:
        raise RefereeError(f"this record does not hold ({record.verified})")
    try:
        shown = record.records.view_at(record.export.log, at, view)
    except NoEntry as exc:
        raise RefereeError(exc.reason) from None
    except LogRefused as exc:
        raise RefereeError(f"refused at {exc}") from None
    return {"entry": at, "entries": len(record.export.log.entries), "view": view,
            "text": record.records.view_text(shown)}


def explain(record: Record, n: int) -> dict[str, Any]:
    """``companion referee explain N``: why entry ``n`` was ruled as it was."""
    try:
        out = record.records.explain_entry(record.export.log, n)
    except NoEntry as exc:
        raise RefereeError(exc.reason) from None
    except LogRefused as exc:
        raise RefereeError(f"refused at {exc}") from None
    return {"entry": n, "verdict": out.get("verdict"), "text": explain_text(out)}


def public_board(game: object, board: object, entry: object) -> str | None:
    """A table's public board, as its status carries it (the game's public view), in the words
    of ``referee replay --view public``; None when the status carries none."""
    if not isinstance(board, dict) or not isinstance(game, str):
        return None
    try:
        records = descriptor(game).load_records()
        n = entry if isinstance(entry, int) else 0
        text = records.view_text({"entry": n, "what": "", "entries": n, "view": "public",
                                  "state": board})
        return text.split("\n", 1)[1] if "\n" in text else text  # not "after entry N"
    except Exception:  # a board this version cannot read: the page shows none
        return None
