"""What the referees' dashboard knows of every table, from the public topics alone
(docs/tournament.md, "Topics" and "The dashboard").

A table's messages carry its own sequence number (``seq``): a message whose ``seq`` was seen
already from that table is a resend and is dropped; the status kept is the one with the highest
``seq``, whatever order they arrive in. Clocks are passed in (``now``: seconds since the epoch),
so the tests never sleep.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tournament import topics

FEED_KEPT = 300
"""Feed lines kept per table (the page shows the newest first)."""
LATENCIES_KEPT = 200_000


def sent_time(value: object) -> float | None:
    """``sent`` (ISO 8601 UTC) as seconds since the epoch, or None if it is not one."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def table_number(table: str) -> int:
    """``table-03`` -> 3."""
    return int(table.split("-", 1)[1])


@dataclass
class Table:
    """One table as its public messages tell it."""

    name: str
    seen: set[int] = field(default_factory=set)
    status: dict[str, Any] = field(default_factory=dict)
    status_seq: int = -1
    alert: dict[str, Any] | None = None
    alert_seq: int = -1
    seals: dict[str, Any] = field(default_factory=dict)
    seals_seq: int = -1
    feed: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=FEED_KEPT))
    heard_at: float = 0.0
    moved_at: float = 0.0
    """When the game last moved on (a new entry, or a new stage or waiting side)."""
    finished: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every finished game seen at this table, by its ``game_id``: its last status."""
    sealed: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    """Every seal published for each game (``game_id`` -> entry -> seal), the first one heard
    for an entry kept: a record rewritten later must still match what was published then."""

    def keep_seals(self, game_id: object, found: object) -> None:
        if game_id is None or not isinstance(found, list):
            return
        kept = self.sealed.setdefault(str(game_id), {})
        for seal in found:
            if (isinstance(seal, dict) and isinstance(seal.get("entry"), int)
                    and isinstance(seal.get("code"), str)):
                kept.setdefault(seal["entry"], {"entry": seal["entry"],
                                                "label": str(seal.get("label") or ""),
                                                "code": seal["code"]})

    @property
    def alerting(self) -> bool:
        if self.alert is not None and self.alert_seq > self.status_seq:
            return self.alert.get("kind") == "call_referee"
        return bool(self.status.get("alert"))

    def summary(self) -> dict[str, Any]:
        """The table at a glance, for the page (JSON)."""
        s = self.status
        alert_text = None
        if self.alerting:
            alert_text = (self.alert or {}).get("text") or (
                f"Table {table_number(self.name)} calls the referee")
        last = self.feed[-1] if self.feed else None
        return {
            "table": self.name, "number": table_number(self.name),
            "game": s.get("game"), "title": s.get("title") or s.get("game") or "",
            "game_id": s.get("game_id"), "players": s.get("players") or {},
            "stage": s.get("stage") or "", "score": s.get("score") or "",
            "discrepancies": int(s.get("discrepancies") or 0),
            "waiting_for": s.get("waiting_for"),
            "last_ruling": s.get("last_ruling"), "last_seal": s.get("last_seal"),
            "finished": bool(s.get("finished")), "result": s.get("result"),
            "alert": self.alerting, "alert_text": alert_text,
            "alert_at": sent_time((self.alert or {}).get("sent")) if self.alerting else None,
            "heard_at": self.heard_at, "moved_at": self.moved_at,
            "board": s.get("board"),
            "seals": self.seals.get("seals") or [],
            "last_line": (f"Entry {last['entry']}: " + " ".join(
                line["text"] for line in last["lines"])) if last and last["lines"] else None,
        }


def order_key(summary: dict[str, Any], now: float) -> tuple[int, float, int]:
    """Alerts first (the oldest call first), then the tables stuck longest, finished last."""
    if summary["alert"]:
        return (0, summary["alert_at"] or summary["heard_at"], summary["number"])
    if summary["finished"]:
        return (2, 0.0, summary["number"])
    return (1, -(now - summary["moved_at"]), summary["number"])


@dataclass(frozen=True)
class Update:
    """What changed, for the page: a table's summary, or one entry's feed lines."""

    kind: str  # "table" or "feed"
    data: dict[str, Any]


class Tables:
    """Every table heard of; :meth:`receive` takes one MQTT message. Thread-safe: the MQTT
    thread writes, the web server's threads read."""

    def __init__(self, event: str) -> None:
        self.event = event
        self.prefix = f"{topics.event_root(event)}/tables/"
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.latencies: deque[tuple[float, float]] = deque(maxlen=LATENCIES_KEPT)
        """Each message's ``sent`` and the seconds from it to this dashboard having it."""
        self.duplicates = 0

    def receive(self, topic: str, payload: bytes, now: float) -> list[Update]:
        """One message from the broker; the updates to send to the pages (none for a
        duplicate, a message that is not the contract's, or another event's)."""
        if not topic.startswith(self.prefix):
            return []
        table, _, leaf = topic[len(self.prefix):].partition("/")
        if not topics.TABLE_NAME.match(table) or leaf not in topics.PUBLIC_LEAVES:
            return []
        try:
            message = json.loads(payload)
        except ValueError:
            return []
        if not isinstance(message, dict) or not isinstance(message.get("seq"), int):
            return []
        seq: int = message["seq"]
        with self.lock:
            state = self.tables.get(table)
            if state is None:
                state = self.tables[table] = Table(table, moved_at=now)
            state.heard_at = max(state.heard_at, now)
            if seq in state.seen:
                self.duplicates += 1
                return [Update("table", state.summary())]  # "last heard" moves on
            state.seen.add(seq)
            sent = sent_time(message.get("sent"))
            if sent is not None:
                self.latencies.append((sent, now - sent))
            return self._apply(state, leaf, seq, message, now)

    def _apply(self, state: Table, leaf: str, seq: int, message: dict[str, Any],
               now: float) -> list[Update]:
        updates: list[Update] = []
        if leaf == "status" and seq > state.status_seq:
            before = (state.status.get("stage"), state.status.get("waiting_for"),
                      state.status.get("game_id"))
            state.status, state.status_seq = message, seq
            if before != (message.get("stage"), message.get("waiting_for"),
                          message.get("game_id")):
                state.moved_at = now
            if message.get("finished") and message.get("game_id") is not None:
                state.finished[str(message["game_id"])] = message
        if leaf == "status" and isinstance(message.get("last_seal"), dict):
            state.keep_seals(message.get("game_id"), [message["last_seal"]])
        elif leaf == "alerts" and seq > state.alert_seq:
            state.alert, state.alert_seq = message, seq
        elif leaf == "seals":
            state.keep_seals(message.get("game_id"), message.get("seals"))
            if seq > state.seals_seq:
                state.seals, state.seals_seq = message, seq
        elif leaf == "events":
            lines = [line for line in message.get("lines") or [] if isinstance(line, dict)]
            item = {"table": state.name, "seq": seq, "entry": message.get("entry"),
                    "game_id": message.get("game_id"), "sent": message.get("sent"),
                    "lines": [{"text": str(line.get("text", "")), "rule": line.get("rule")}
                              for line in lines]}
            state.feed.append(item)
            state.moved_at = now
            updates.append(Update("feed", item))
        updates.append(Update("table", state.summary()))
        return updates

    def snapshot(self, now: float) -> list[dict[str, Any]]:
        """Every table's summary, in the page's order."""
        with self.lock:
            found = [t.summary() for t in self.tables.values()]
        return sorted(found, key=lambda s: order_key(s, now))

    def feed(self, table: str) -> list[dict[str, Any]]:
        with self.lock:
            state = self.tables.get(table)
            return list(state.feed) if state is not None else []

    def published_seals(self, table: str, game_id: object) -> list[dict[str, Any]]:
        """Every seal ``table`` published for its game ``game_id``, in entry order."""
        with self.lock:
            state = self.tables.get(table)
            kept = state.sealed.get(str(game_id), {}) if state is not None else {}
            return [kept[n] for n in sorted(kept)]

    def seqs(self) -> dict[str, list[int]]:
        """Every distinct ``seq`` received, by table (the benchmark's count of what was lost)."""
        with self.lock:
            return {name: sorted(t.seen) for name, t in self.tables.items()}

    def standings(self) -> list[dict[str, Any]]:
        """Every player's finished games and wins, most wins first (from the statuses of
        finished games: a player is named by the name the table gave; a game whose table gave
        no names counts its winner as the table's side, "Table 3, Ishida")."""
        with self.lock:
            games = [(t.name, g) for t in self.tables.values() for g in t.finished.values()]
        rows: dict[str, dict[str, Any]] = {}
        for table, game in games:
            winner = winner_of(game)
            players = {str(side): str(name).strip() for side, name in
                       (game.get("players") or {}).items() if str(name).strip()}
            if not players and winner is not None:
                players = {winner: f"Table {table_number(table)}, {winner.capitalize()}"}
            for side, name in players.items():
                row = rows.setdefault(name, {"player": name, "played": 0, "won": 0})
                row["played"] += 1
                row["won"] += int(side == winner)
        return sorted(rows.values(), key=lambda r: (-r["won"], r["played"], r["player"]))


def winner_of(status: dict[str, Any]) -> str | None:
    """The winning side or colour of a finished game: ``winner`` if the table gives it, else
    the side that opens the result ("ishida wins (...)", "Red won ...")."""
    if isinstance(status.get("winner"), str):
        return str(status["winner"])
    said = WINS.match(str(status.get("result") or ""))
    return said.group(1).lower() if said else None


WINS = re.compile(r"^\s*([A-Za-z][\w-]*) (?:wins|won)\b")
