"""A small synchronous MQTT client for the tests: connect as an account, subscribe, publish,
and wait for what arrives (waiting ends as soon as the broker delivers; the bound only stops a
broken test)."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tournament.broker import Broker

WAIT_S = 5.0


@dataclass(frozen=True)
class Received:
    topic: str
    payload: bytes
    retained: bool


class Client:
    """One account's connection to ``broker``."""

    def __init__(self, broker: Broker, account: str, password: str | None = None) -> None:
        self.messages: queue.Queue[Received] = queue.Queue()
        self._subscribed = threading.Event()
        self._connected = threading.Event()
        self.refused: str | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{account}",
                                  protocol=mqtt.MQTTv311)
        if account:
            self.client.username_pw_set(
                account, password if password is not None else broker.accounts.passwords[account])
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        if not self._connected.wait(WAIT_S):
            raise AssertionError(f"{account or 'anonymous'} never heard back from the broker")

    def _on_connect(self, _c: object, _u: object, _f: object, reason: mqtt.ReasonCode,
                    _p: object = None) -> None:
        if reason.is_failure:
            self.refused = str(reason)
        self._connected.set()

    def _on_message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        self.messages.put(Received(message.topic, message.payload, bool(message.retain)))

    def subscribe(self, topic: str) -> None:
        self._subscribed.clear()
        self.client.subscribe(topic, qos=1)
        assert self._subscribed.wait(WAIT_S), f"no SUBACK for {topic}"

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(WAIT_S)

    def next(self) -> Received:
        return self.messages.get(timeout=WAIT_S)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
