"""What the table-side tests share: a receiver that keeps its session across a broker restart
(as the dashboard does) and drops resent messages by ``seq``, and games played into a store."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from pydantic import BaseModel

from companion.core.store import CommandRecorder, Store
from tournament.broker import Broker
from tournament.status import feed_of

WAIT_S = 10.0
"""The bound on any wait for a message (a broker restart and a reconnect fit well within)."""


class Receiver:
    """A referee's persistent session: QoS 1 messages queued for it while it is away (or the
    broker restarts) arrive when it is back. ``received`` holds every payload as parsed JSON."""

    def __init__(self, broker: Broker, account: str, topic: str, tls: bool = False) -> None:
        self.messages: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self._ready = threading.Event()
        self.topic = topic
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"rx-{account}",
                                  protocol=mqtt.MQTTv311, clean_session=False)
        self.client.username_pw_set(account, broker.accounts.passwords[account])
        self.client.reconnect_delay_set(min_delay=1, max_delay=1)
        if tls:
            self.client.tls_set(ca_certs=str(broker.directory / "ca.crt"))
        self.client.on_connect = lambda c, *_: c.subscribe(self.topic, qos=1)
        self.client.on_subscribe = lambda *_: self._ready.set()
        self.client.on_message = lambda _c, _u, m: self.messages.put(
            (m.topic, json.loads(m.payload)))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert self._ready.wait(WAIT_S), "the receiver was never subscribed"

    def until(self, done: Callable[[list[tuple[str, dict[str, Any]]]], bool]
              ) -> list[tuple[str, dict[str, Any]]]:
        """Every message until ``done`` holds of them (each wait bounded)."""
        got: list[tuple[str, dict[str, Any]]] = []
        while not done(got):
            got.append(self.messages.get(timeout=WAIT_S))
        return got

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def unique(messages: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """What a receiver keeps: each table's message once, by ``seq``."""
    seen: set[tuple[str, int]] = set()
    kept = []
    for _, body in messages:
        key = (body["table"], body["seq"])
        if key not in seen:
            seen.add(key)
            kept.append(body)
    return kept


def entries_of(messages: Sequence[tuple[str, dict[str, Any]]]) -> list[int]:
    return [m["entry"] for m in unique(messages) if "entry" in m]


class Hook:
    """A recorder that stores each command, then calls ``after(n)`` (n: entries so far)."""

    def __init__(self, inner: CommandRecorder, after: Callable[[int], None]) -> None:
        self.inner, self.after, self.n = inner, after, 0

    def record(self, command: BaseModel, events: Sequence[BaseModel]) -> None:
        self.inner.record(command, events)
        self.n += 1
        self.after(self.n)


def play(db: Path, game: str, seed: int, after: Callable[[int, int], None]) -> int:
    """Play the seeded self-play ``game`` into ``db``; ``after(game_id, n)`` after each entry.
    Returns the game id."""
    feed = feed_of(game)
    with Store.open(db) as store:
        game_id = store.create_game(feed.game, feed.header())
        feed.selfplay(seed, Hook(CommandRecorder(store, game_id),
                                 lambda n: after(game_id, n)))
    return game_id
