"""A table's tournament publisher: its public game, status, seals and alerts to the event's
broker, and the full record to a referee who asks (docs/tournament.md).

The table never waits for the network. The game thread only says what happened
(:meth:`TablePublisher.recorded`, :meth:`call_referee`): a queue and an event, nothing more.
Two threads of the publisher do the rest:

- the **producer** reads the new entries from the game's store, follows the game
  (:mod:`tournament.status`) and keeps every message in the outbox (:mod:`tournament.outbox`),
  each with the table's next ``seq``, in one transaction with how far the game was followed. A
  table killed between storing an entry and keeping its message catches up when it starts
  again: the store is the source, the outbox follows it;
- the **sender** owns the MQTT connection: it connects (retrying while the broker is away),
  sends every pending message in ``seq`` order with QoS 1, marks each acknowledged one on its
  PUBACK and, on every reconnect, starts again from the first one not acknowledged. It also
  hands the record requests it receives to the producer, which answers them.
"""

from __future__ import annotations

import json
import queue
import re
import ssl
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from companion.core.exports import export_text
from companion.core.store import Entry, GameLog, GameSummary, Store, StoreError
from tournament import topics
from tournament.outbox import Clock, Outbox, Outgoing, utc_now
from tournament.status import Follower, feed_of, seals_of, status_body, title_of
from tournament.url import TournamentUrl

WINDOW = 100
"""Messages sent and not yet acknowledged, at most (Mosquitto's max_inflight_messages)."""
KEEPALIVE_S = 15
POLL_S = 0.05
"""How long the sender's network loop waits for the socket before looking at the outbox."""
REQUEST_ID = re.compile(r"^[0-9a-f]{16}$")


@dataclass(frozen=True)
class Connection:
    """What the start screen says of the tournament."""

    connected: bool
    reason: str | None = None
    """Why not connected, in plain words (None: not tried yet, or connected)."""

    def words(self) -> str:
        return "connected" if self.connected else "not connected, playing on"


class TablePublisher:
    """The tournament publisher of the table ``url`` names, whose games are in ``db``.

    ``store``: the table's open Store (one is opened on ``db`` when not given). ``now``: the
    clock the messages' ``sent`` is read from. ``retry_s``: the wait before connecting again.
    ``watch_s``: also look this often whether another connection wrote to the database (the
    table app's store, which does not tell the publisher), and publish the game written to
    last; None: only what :meth:`recorded` names.
    """

    def __init__(self, url: TournamentUrl | str, db: Path, *, store: Store | None = None,
                 now: Clock = utc_now, retry_s: float = 1.0,
                 watch_s: float | None = None) -> None:
        self.url = url if isinstance(url, TournamentUrl) else TournamentUrl.parse(url)
        self.table = self.url.table
        self._own_store = store is None
        self.store = store if store is not None else Store.open(db)  # the schema first
        self.outbox = Outbox(db, self.table, now=now)
        self.retry_s = retry_s
        self.watch_s = watch_s
        self._version = self.outbox.data_version()
        self.players: dict[str, str] = {}
        self.discrepancies = 0
        self.alert = False
        self._alert_text: str | None = None
        self._game_id: int | None = None
        self._followers: dict[int, Follower] = {}
        self._asked: set[int] = set()
        self._seals: dict[int, int] = {}
        self._jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._stop = threading.Event()
        self._new = threading.Event()
        self._connection = Connection(False)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._threads: list[threading.Thread] = []
        self.errors: deque[str] = deque(maxlen=100)
        """What went wrong off the game thread (never raised into the game), newest last."""

    # ------------------------------------------------------------------ the game thread's side

    def recorded(self, game_id: int) -> None:
        """An entry of ``game_id`` was stored (or the game was finished): publish it. Returns
        at once; entries stored faster than they are published are taken together."""
        with self._lock:
            if game_id in self._asked:
                return
            self._asked.add(game_id)
        self._jobs.put(("game", game_id))

    def call_referee(self, where: str | None = None) -> None:
        """The table calls the referee ("call the referee" button)."""
        self._jobs.put(("alert", where))

    def clear_referee(self) -> None:
        self._jobs.put(("clear", None))

    def set_discrepancies(self, count: int) -> None:
        """The table session's open discrepancies changed: a new status says so."""
        self._jobs.put(("discrepancies", count))

    def set_players(self, players: dict[str, str]) -> None:
        self._jobs.put(("players", dict(players)))

    @property
    def connection(self) -> Connection:
        with self._lock:
            return self._connection

    def shown(self) -> str:
        """For the screens: "Tournament: table-03 at host, not connected, playing on"."""
        return f"{self.url.shown()}, {self.connection.words()}"

    # ------------------------------------------------------------------ running

    def start(self) -> TablePublisher:
        """Start publishing (once: a second call, as from ``with``, changes nothing; two
        producers would follow one game twice)."""
        if self._threads:
            return self
        self._jobs.put(("catch up", None))
        for name, target in (("producer", self._produce), ("sender", self._send)):
            thread = threading.Thread(target=target, name=f"{self.table}-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop both threads (what is not acknowledged stays in the outbox for next time)."""
        self._stop.set()
        self._jobs.put(("stop", None))
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()
        self.outbox.close()
        if self._own_store:
            self.store.close()

    def __enter__(self) -> TablePublisher:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def kept(self, timeout: float = 10.0) -> bool:
        """Wait until every message asked for until now is in the outbox (True), at most
        ``timeout`` seconds (False). Never for the network: the producer only reads and writes
        the table's own database."""
        done = threading.Event()
        self._jobs.put(("mark", done))
        return done.wait(timeout)

    def idle(self) -> bool:
        """Nothing left to do: every job done and every message acknowledged (tests)."""
        return self._jobs.unfinished_tasks == 0 and self.outbox.counts()["pending"] == 0

    def wait_sent(self, timeout: float) -> bool:
        """Wait until every message asked for until now is kept and acknowledged by the broker
        (True), at most ``timeout`` seconds (False). Woken by each acknowledgement."""
        if not self.kept(timeout):
            return False
        with self._changed:
            return self._changed.wait_for(lambda: self.outbox.counts()["pending"] == 0,
                                          timeout)

    def _acked(self, seqs: list[int]) -> None:
        if seqs:
            self.outbox.acked(seqs)
            with self._changed:
                self._changed.notify_all()

    # ------------------------------------------------------------------ the producer

    def _produce(self) -> None:
        while not self._stop.is_set():
            try:
                kind, value = self._jobs.get(timeout=self.watch_s)
            except queue.Empty:
                self._watch()
                continue
            try:
                if kind != "stop":
                    self._job(kind, value)
            except Exception as exc:  # never into the game; the next entry tries again
                self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            finally:
                self._jobs.task_done()

    def _job(self, kind: str, value: Any) -> None:
        if kind == "game":
            with self._lock:
                self._asked.discard(value)
            self._follow(int(value))
        elif kind == "catch up":
            self._catch_up()
        elif kind == "mark":
            value.set()
        elif kind == "alert":
            self._alert(True, value)
        elif kind == "clear":
            self._alert(False, None)
        elif kind == "players":
            self.players = value
            self._put_status([])
        elif kind == "discrepancies":
            if value != self.discrepancies:
                self.discrepancies = value
                self._put_status([])
        elif kind == "request":
            self._answer(value)

    def _catch_up(self) -> None:
        """At start: the newest unfinished game, and any entry stored but not yet published
        (a table killed in between)."""
        try:
            games = self.store.list_games()
        except StoreError as exc:
            self.errors.append(str(exc))
            return
        for summary in games[:1]:
            if summary.problem is None:
                try:
                    self._follow(summary.id)
                except Exception as exc:
                    self.errors.append(f"catching up: {type(exc).__name__}: {exc}")

    def _watch(self) -> None:
        """The database changed under another connection: follow the game written to last."""
        try:
            version = self.outbox.data_version()
            if version == self._version:
                return
            self._version = version
            self._follow_latest()
        except Exception as exc:  # never into the game: said in errors, tried again
            self.errors.append(f"watching the store: {type(exc).__name__}: {exc}")

    def _follow_latest(self) -> None:
        games = [g for g in self.store.list_games() if g.problem is None]
        if games:
            self._follow(max(games, key=lambda g: (g.updated or g.created, g.id)).id)

    def _catch(self, game_id: int) -> tuple[GameSummary, Follower, int, tuple[Entry, ...]]:
        """The game's summary, its follower, how many of its entries were published before,
        and the entries the follower has not seen: the whole game the first time (the store
        checks every row), then only the new ones (a game of 200 entries is not read again at
        every entry)."""
        summary = next((g for g in self.store.list_games() if g.id == game_id), None)
        if summary is None or summary.problem is not None:
            raise StoreError((summary.problem if summary else None)
                             or f"there is no game {game_id}", "missing")
        done, _ = self.outbox.followed(summary.uid)
        follower = self._followers.get(game_id)
        if follower is None:
            follower = Follower(feed_of(summary.game))
            self._followers = {game_id: follower}  # one game at a time
            return summary, follower, done, self.store.load(game_id).entries
        return summary, follower, done, self.store.entries_after(game_id, follower.count)

    def _follow(self, game_id: int, extra: Sequence[Outgoing] = ()) -> None:
        summary, follower, done, new = self._catch(game_id)
        self._game_id = game_id
        messages: list[Outgoing] = list(extra)
        for entry in new:
            lines = follower.advance(entry)
            if entry.seq > done:
                messages.append(Outgoing(self._topic("events"), {
                    "game_id": game_id, "entry": entry.seq, "lines": lines}))
        log = GameLog(summary, {}, "", tuple(follower.entries))
        seals = seals_of(log)
        if len(seals) != self._seals.get(game_id, -1):
            self._seals[game_id] = len(seals)
            messages.append(Outgoing(self._topic("seals"), {"game_id": game_id, "seals": seals},
                                     retain=True, supersedes=True))
        body = status_body(log, follower, title=title_of(summary.game), players=self.players,
                           discrepancies=self.discrepancies, alert=self.alert,
                           last_seal=seals[-1] if seals else None)
        messages.append(Outgoing(self._topic("status"), body, retain=True, supersedes=True))
        self.outbox.put(messages, followed=(summary.uid, follower.count,
                                            summary.finished is not None))
        self._new.set()

    def _put_status(self, messages: list[Outgoing]) -> None:
        """``messages`` with the status as it is now (none before the first game)."""
        if self._game_id is not None:
            self._follow(self._game_id, messages)
        elif messages:
            self.outbox.put(messages)
            self._new.set()

    def _alert(self, on: bool, where: str | None) -> None:
        if on == self.alert and where == self._alert_text:
            return
        self.alert, self._alert_text = on, where
        if on and where is None and self.watch_s is not None:
            self._follow_latest()  # the game as it stands now, even between two looks
        if on and where is None and self._game_id in self._followers:
            where = str(self._followers[self._game_id].glance()["stage"])
        number = self.url.number
        if on:
            text = f"Table {number} calls the referee" + (f": {where}" if where else "")
        else:
            text = f"Table {number} no longer needs the referee"
        self._put_status([Outgoing(self._topic("alerts"),
                                   {"kind": "call_referee" if on else "cleared", "text": text},
                                   retain=True)])

    def _answer(self, payload: bytes) -> None:
        """A referee's record request (docs/tournament.md): the export to that referee only,
        or an error line; a request that names no referee or id cannot be answered."""
        try:
            request = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            self.errors.append("a record request that is not JSON was ignored")
            return
        if not isinstance(request, dict):
            self.errors.append("a record request that is not an object was ignored")
            return
        referee, request_id = request.get("referee"), request.get("request_id")
        if not (isinstance(referee, str) and topics.REFEREE_NAME.match(referee)
                and isinstance(request_id, str) and REQUEST_ID.match(request_id)):
            self.errors.append("a record request naming no referee or request id was ignored")
            return
        reply = topics.record_reply_topic(self.url.event, referee, request_id)
        body: dict[str, Any] = {"request_id": request_id}
        game_id = request.get("game_id", None)
        if game_id is None:
            game_id = self._game_id
        if game_id is None or isinstance(game_id, bool) or not isinstance(game_id, int):
            body.update(game_id=None, error="no such game at this table" if game_id is None
                        else "game_id is not a game number")
        else:
            try:
                body.update(game_id=game_id, export=export_text(self.store.load(game_id)))
            except StoreError as exc:
                body.update(game_id=game_id, error=exc.message)
        self.outbox.put([Outgoing(reply, body)])
        self._new.set()

    def _topic(self, leaf: str) -> str:
        return topics.table_topic(self.url.event, self.table, leaf)

    # ------------------------------------------------------------------ the sender

    def _set(self, connection: Connection) -> None:
        with self._changed:
            self._connection = connection
            self._changed.notify_all()

    def wait_connected(self, connected: bool, timeout: float) -> bool:
        """Wait until the connection is (or is not) up, at most ``timeout`` seconds: whether
        it is as asked (tests; a screen only reads :attr:`connection`)."""
        return self.wait_until(lambda c: c.connected == connected, timeout)

    def wait_until(self, test: Callable[[Connection], bool], timeout: float) -> bool:
        """Wait until ``test`` holds of the connection (a connection attempt's outcome), at
        most ``timeout`` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: test(self._connection), timeout)

    def _send(self) -> None:
        while not self._stop.is_set():
            try:
                self._session()
            except Exception as exc:  # a broken connection of any kind: try again
                self._set(Connection(False, f"{type(exc).__name__}: {exc}"))
            if not self._stop.is_set():
                self._stop.wait(self.retry_s)

    def _client(self, state: _Session) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.table,
                             protocol=mqtt.MQTTv311, clean_session=True,
                             reconnect_on_failure=False)
        client.username_pw_set(self.url.account, self.url.password)
        if self.url.tls:
            client.tls_set(ca_certs=str(self.url.ca) if self.url.ca else None,
                           cert_reqs=ssl.CERT_REQUIRED)
        client.connect_timeout = 5.0
        client.max_inflight_messages_set(WINDOW)
        client.on_connect = state.on_connect
        client.on_disconnect = state.on_disconnect
        client.on_publish = state.on_publish
        client.on_message = state.on_message
        return client

    def _session(self) -> None:
        """One connection, from connecting to losing it."""
        state = _Session(self)
        client = self._client(state)
        try:
            client.connect(self.url.host, self.url.port, keepalive=KEEPALIVE_S)
        except (OSError, ssl.SSLError) as exc:
            self._set(Connection(False, _reason(exc)))
            return
        try:
            while not self._stop.is_set() and state.open:
                if client.loop(timeout=POLL_S) != mqtt.MQTT_ERR_SUCCESS:
                    break
                if state.refused is not None:
                    self._set(Connection(False, state.refused))
                    return
                if not state.ready:
                    continue
                self._acked(state.take_acks())
                if self._new.is_set() or state.more:
                    self._new.clear()
                    state.more = False
                    self._publish_pending(client, state)
        finally:
            self._acked(state.take_acks())
            if client.is_connected():
                client.disconnect()
            self._set(Connection(False, state.refused or state.lost
                                 or "the broker closed the connection"))

    def _publish_pending(self, client: mqtt.Client, state: _Session) -> None:
        room = WINDOW - state.inflight()
        if room <= 0:
            state.more = True
            return
        batch = self.outbox.pending(after=state.sent_upto, limit=room)
        for message in batch:
            info = client.publish(message.topic, message.payload, qos=1, retain=message.retain)
            state.sent(info.mid, message.seq)
            state.sent_upto = message.seq
        state.more = len(batch) == room


class _Session:
    """One connection's bookkeeping: message id -> seq of what awaits its PUBACK."""

    def __init__(self, publisher: TablePublisher) -> None:
        self.publisher = publisher
        self.ready = False
        self.open = True
        self.refused: str | None = None
        self.lost: str | None = None
        self.sent_upto = 0
        self.more = True
        self._mids: dict[int, int] = {}
        self._acks: list[int] = []

    def on_connect(self, client: mqtt.Client, _u: object, _f: object,
                   reason: ReasonCode, _p: object = None) -> None:
        if reason.is_failure:
            self.refused = f"the broker refused the table's account ({reason})"
            return
        self.ready = True
        client.subscribe(self.publisher._topic("record/request"), qos=1)
        self.publisher._set(Connection(True))

    def on_disconnect(self, _c: object, _u: object, _f: object, reason: ReasonCode,
                      _p: object = None) -> None:
        self.open = False
        self.lost = f"the connection was lost ({reason})"

    def on_publish(self, _c: object, _u: object, mid: int, reason: ReasonCode,
                   _p: object = None) -> None:
        seq = self._mids.pop(mid, None)
        if seq is not None and not reason.is_failure:
            self._acks.append(seq)
            self.more = True

    def on_message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        self.publisher._jobs.put(("request", bytes(message.payload)))

    def sent(self, mid: int, seq: int) -> None:
        self._mids[mid] = seq

    def inflight(self) -> int:
        return len(self._mids)

    def take_acks(self) -> list[int]:
        acks, self._acks = self._acks, []
        return acks


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return "the broker's certificate is not signed by the tournament's authority"
    if isinstance(exc, ConnectionRefusedError):
        return "nothing answers at the broker's address"
    if isinstance(exc, TimeoutError | OSError) and "timed out" in str(exc):
        return "the broker does not answer"
    return str(getattr(exc, "strerror", None) or exc)

