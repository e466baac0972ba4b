"""The dashboard's connections to the broker: the players' account for the public topics, and
one per referee logged in on the page (docs/tournament.md, "URLs")."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from tournament.url import TournamentUrl

CONNECT_WAIT_S = 10.0
"""How long the broker may take to answer a connection (a few ms on a loopback)."""


class ConnectRefused(Exception):
    """The broker did not take the connection; the message says why in one line."""


OnMessage = Callable[[str, bytes], None]
OnState = Callable[[bool], None]
"""Told True on every connection the broker takes, False on every one lost."""


def connect(address: TournamentUrl, account: str, password: str, *, on_message: OnMessage,
            subscriptions: tuple[str, ...] = (), client_id: str | None = None,
            keep_trying: bool = False, on_state: OnState | None = None,
            persistent: bool = False,
            on_subscribed: Callable[[], None] | None = None) -> mqtt.Client:
    """A connected client, its network loop running in its own thread, subscribed (QoS 1) to
    ``subscriptions`` on every (re)connection. ConnectRefused when the broker refuses the
    account or cannot be reached (unless ``keep_trying``: the public watcher waits for a
    broker that is not up yet). ``persistent`` (with a fixed ``client_id``): the broker keeps
    the subscriptions, across its own restart too, and holds what arrives while this client is
    away: a table that reconnects first and resends loses nothing for it."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or "",
                         protocol=mqtt.MQTTv311, clean_session=not persistent)
    client.username_pw_set(account, password)
    if address.tls:
        client.tls_set(ca_certs=str(address.ca) if address.ca else None,
                       cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    answered = threading.Event()
    said: list[str] = []

    def on_connect(c: mqtt.Client, _u: object, _f: object, reason: ReasonCode,
                   _p: object = None) -> None:
        if reason.is_failure:
            said.append(str(reason))
        else:
            for topic in subscriptions:
                c.subscribe(topic, qos=1)
        if on_state is not None:
            on_state(not reason.is_failure)
        answered.set()

    client.on_connect = on_connect
    client.on_message = lambda _c, _u, m: on_message(m.topic, bytes(m.payload))
    if on_state is not None:
        client.on_disconnect = lambda *_: on_state(False)
    if on_subscribed is not None:
        client.on_subscribe = lambda *_: on_subscribed()
    try:
        client.connect(address.host, address.port, keepalive=15)
    except OSError as exc:
        if not keep_trying:
            raise ConnectRefused(f"the broker at {address.host}:{address.port} cannot be "
                                 f"reached ({exc.strerror or exc})") from None
        client.connect_async(address.host, address.port, keepalive=15)
    client.loop_start()
    if keep_trying:
        return client
    if not answered.wait(CONNECT_WAIT_S) or said:
        client.loop_stop()
        client.disconnect()
        why = said[0] if said else "no answer"
        if said and ("not authorized" in why.lower() or "bad user" in why.lower()):
            raise ConnectRefused(f"the broker refused {account}: wrong name or password")
        raise ConnectRefused(f"the broker did not take {account}: {why}")
    return client
