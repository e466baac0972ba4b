"""``companion tournament dashboard``: the referees' live web page (docs/tournament.md, "The
dashboard").

One process: an MQTT client on the players' account reads every table's public topics into
:class:`~tournament.dashboard_state.Tables`; a small threaded web server serves the page (package
data under ``tournament/static``), its JSON, and a server-sent event stream that pushes every
change to the open pages. Referees log in on the page (:mod:`tournament.dashboard_referee`).
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

import paho.mqtt.client as mqtt

from tournament import topics
from tournament.dashboard_mqtt import connect
from tournament.dashboard_referee import (
    RefereeError,
    Referees,
    explain,
    public_board,
    replay,
)
from tournament.dashboard_state import Tables, Update, table_number
from tournament.url import TournamentUrl

STATIC = {"/": ("dashboard.html", "text/html; charset=utf-8"),
          "/dashboard.js": ("dashboard.js", "text/javascript; charset=utf-8"),
          "/dashboard.css": ("dashboard.css", "text/css; charset=utf-8")}
KEEPALIVE_S = 10.0
"""A comment on an idle event stream, so a closed page is noticed and proxies keep it open."""
STREAM_QUEUE = 20_000
"""Updates held for one slow page before it is dropped (it reconnects and gets a snapshot)."""


@dataclass
class Hub:
    """The open pages' event streams."""

    streams: list[queue.Queue[bytes | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self) -> queue.Queue[bytes | None]:
        stream: queue.Queue[bytes | None] = queue.Queue(STREAM_QUEUE)
        with self.lock:
            self.streams.append(stream)
        return stream

    def close(self, stream: queue.Queue[bytes | None]) -> None:
        with self.lock:
            if stream in self.streams:
                self.streams.remove(stream)

    def send(self, kind: str, data: object) -> None:
        chunk = f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
        with self.lock:
            streams = list(self.streams)
        for stream in streams:
            try:
                stream.put_nowait(chunk)
            except queue.Full:  # a page that stopped reading: it reconnects to a snapshot
                self.close(stream)
                stream.put(None)

    def end(self) -> None:
        with self.lock:
            streams, self.streams = list(self.streams), []
        for stream in streams:
            stream.put(None)


def _summary(update: Update) -> dict[str, Any]:
    data = dict(update.data)
    data["has_board"] = data.pop("board", None) is not None
    return data


class Dashboard:
    """The dashboard's state, its broker connection and its web server."""

    def __init__(self, address: TournamentUrl, *, bind: str = "127.0.0.1", port: int = 8080,
                 referees: Referees | None = None) -> None:
        self.address = address
        self.tables = Tables(address.event)
        self.hub = Hub()
        self.referees = referees or Referees(address)
        self.broker_up = False
        self.broker_since = time.time()
        self.watcher: mqtt.Client | None = None
        self.subscribed = threading.Event()
        """Set once the broker has acknowledged a subscription to the public topics."""
        self.server = ThreadingHTTPServer((bind, port), _handler(self))
        self.server.daemon_threads = True
        self._serving: threading.Thread | None = None

    @property
    def client_id(self) -> str:
        """The same on every start of this dashboard (this host, this port), so the broker's
        session for it is found again, not a new one left behind each time."""
        return f"dashboard-{socket.gethostname()}-{self.port}"[:64]

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def receive(self, topic: str, payload: bytes) -> None:
        updates = self.tables.receive(topic, payload, time.time())
        for update in updates:
            if update.kind == "table":
                self.hub.send("table", _summary(update))
                if update.data.get("finished"):
                    self.hub.send("standings", self.tables.standings())
            else:
                self.hub.send("feed", update.data)

    def _broker(self, up: bool) -> None:
        if up != self.broker_up:
            self.broker_up, self.broker_since = up, time.time()
        self.hub.send("broker", self.broker_state())

    def broker_state(self) -> dict[str, Any]:
        return {"connected": self.broker_up, "since": self.broker_since,
                "host": f"{self.address.host}:{self.address.port}"}

    def start(self) -> None:
        """Connect to the broker (retrying until it is up) and serve the page."""
        root = topics.event_root(self.address.event)
        self.watcher = connect(
            self.address, self.address.account, self.address.password,
            on_message=self.receive, keep_trying=True, on_state=self._broker,
            persistent=True, client_id=self.client_id, on_subscribed=self.subscribed.set,
            subscriptions=tuple(f"{root}/tables/+/{leaf}" for leaf in topics.PUBLIC_LEAVES))
        self._serving = threading.Thread(target=self.server.serve_forever, name="dashboard",
                                         daemon=True)
        self._serving.start()

    def stop(self) -> None:
        self.hub.end()
        self.server.shutdown()
        self.server.server_close()
        self.referees.close()
        if self.watcher is not None:
            self.watcher.disconnect()
            self.watcher.loop_stop()

    def snapshot(self) -> dict[str, Any]:
        now = time.time()
        return {"now": now, "event": self.address.event, "broker": self.broker_state(),
                "tables": [_summary(Update("table", s)) for s in self.tables.snapshot(now)],
                "standings": self.tables.standings()}

    def table(self, name: str) -> dict[str, Any]:
        with self.tables.lock:
            state = self.tables.tables.get(name)
            summary = state.summary() if state is not None else None
        if summary is None:
            shown = f"Table {table_number(name)}" if topics.TABLE_NAME.match(name) else "That table"
            raise RefereeError(f"{shown} has not been heard from yet")
        last = next((f["entry"] for f in reversed(self.tables.feed(name))), None)
        board = public_board(summary["game"], summary.get("board"), last)
        return {"summary": _summary(Update("table", summary)), "feed": self.tables.feed(name),
                "board": board}

    def metrics(self) -> dict[str, Any]:
        with self.tables.lock:
            latencies = list(self.tables.latencies)
            duplicates = self.tables.duplicates
        return {"latencies": latencies, "duplicates": duplicates, "seqs": self.tables.seqs()}


def _handler(dashboard: Dashboard) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "companion-dashboard"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: a hall's worth of page loads is not worth a line each."""

        def _json(self, body: object, status: HTTPStatus = HTTPStatus.OK) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _error(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
            self._json({"error": message}, status)

        def _token(self) -> str | None:
            return self.headers.get("X-Referee-Session")

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            if url.path in STATIC:
                self._static(*STATIC[url.path])
            elif url.path == "/api/stream":
                self._stream()
            elif url.path == "/api/tables":
                self._json(dashboard.snapshot())
            elif url.path == "/api/metrics":
                self._json(dashboard.metrics())
            else:
                self._referee_get(url.path, query)

        def _referee_get(self, path: str, query: dict[str, str]) -> None:
            try:
                if path == "/api/table":
                    self._json(dashboard.table(query.get("table", "")))
                elif path == "/api/replay":
                    record = dashboard.referees.record(self._token(), query.get("table", ""))
                    self._json(replay(record, _number(query.get("at")),
                                      query.get("view", "referee")))
                elif path == "/api/explain":
                    record = dashboard.referees.record(self._token(), query.get("table", ""))
                    self._json(explain(record, _number(query.get("n"))))
                else:
                    self._error("no such page", HTTPStatus.NOT_FOUND)
            except RefereeError as exc:
                self._error(str(exc), _status_of(exc))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            if not isinstance(body, dict):
                body = {}
            path = urlsplit(self.path).path
            try:
                if path == "/api/login":
                    session = dashboard.referees.login(str(body.get("name", "")),
                                                       str(body.get("password", "")))
                    self._json({"token": session.token, "account": session.account,
                                "idle_s": dashboard.referees.idle_s})
                elif path == "/api/logout":
                    dashboard.referees.logout(self._token())
                    self._json({"ok": True})
                elif path == "/api/record":
                    table = str(body.get("table", ""))
                    record = dashboard.referees.fetch(
                        self._token(), table,
                        published=lambda game: dashboard.tables.published_seals(table, game))
                    log = record.export.log
                    self._json({"table": record.table, "verified": record.verified,
                                "holds": record.holds, "entries": len(log.entries),
                                "game": log.summary.game, "views": list(record.records.views),
                                "fetched_at": record.fetched_at})
                else:
                    self._error("no such page", HTTPStatus.NOT_FOUND)
            except RefereeError as exc:
                self._error(str(exc), _status_of(exc))

        def _static(self, name: str, kind: str) -> None:
            data = resources.files("tournament").joinpath("static", name).read_bytes()
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(data)

        def _stream(self) -> None:
            stream = dashboard.hub.open()
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            try:
                first = json.dumps(dashboard.snapshot(), separators=(",", ":"))
                self.wfile.write(f"event: snapshot\ndata: {first}\n\n".encode())
                self.wfile.flush()
                for chunk in _chunks(stream):
                    self.wfile.write(chunk)
                    self.wfile.flush()
            except OSError:  # the page went away
                pass
            finally:
                dashboard.hub.close(stream)
                self.close_connection = True

    return Handler


def _chunks(stream: queue.Queue[bytes | None]) -> Iterator[bytes]:
    """What to write to a page: every update queued, a keep-alive when idle, until the end."""
    while True:
        try:
            chunk = stream.get(timeout=KEEPALIVE_S)
        except queue.Empty:
            yield b": still here\n\n"
            continue
        if chunk is None:
            return
        # Everything already queued goes out in one write: 64 busy tables, one flush.
        batch = [chunk]
        while len(batch) < 500:
            try:
                more = stream.get_nowait()
            except queue.Empty:
                break
            if more is None:
                yield b"".join(batch)
                return
            batch.append(more)
        yield b"".join(batch)


def _number(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise RefereeError("an entry is a whole number") from None


def _status_of(exc: RefereeError) -> HTTPStatus:
    text = str(exc)
    if "session has ended" in text:
        return HTTPStatus.UNAUTHORIZED
    if "refused" in text and "broker" in text.lower():
        return HTTPStatus.FORBIDDEN
    return HTTPStatus.BAD_REQUEST


def serve(url: str, *, port: int, bind: str, idle_s: float) -> None:
    """Run the dashboard until Ctrl-C."""
    address = TournamentUrl.parse(url)
    dashboard = Dashboard(address, bind=bind, port=port,
                          referees=Referees(address, idle_s=idle_s))
    dashboard.start()
    shown = "localhost" if bind in ("127.0.0.1", "0.0.0.0") else bind
    print(f"The dashboard for {address.event!r} is on http://{shown}:{dashboard.port}/ "
          f"(broker {address.host}:{address.port}, account {address.account}).", flush=True)
    print("Stop it with Ctrl-C.", flush=True)
    try:
        while True:
            time.sleep(1.0)  # Ctrl-C or SIGTERM (companion's handler) ends the wait
            dashboard.referees.expire()
    finally:
        dashboard.stop()
