"""``companion tournament broker --tls``: a table reaches the broker over TLS with the event's
CA, and a broker whose certificate another CA signed is refused."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_helpers import WAIT_S, Receiver

from tournament import certs, topics
from tournament.broker import Broker, BrokerError, free_port, mosquitto_binary, prepare
from tournament.publisher import TablePublisher
from tournament.url import TournamentUrl

EVENT = "tls-cup"


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    try:
        mosquitto_binary()
    except BrokerError as exc:
        pytest.skip(str(exc))
    with prepare(tmp_path / "broker", event=EVENT, tables=2, referees=["ana"],
                 port=free_port(), tls=True) as running:
        yield running


def test_a_table_publishes_over_tls_with_the_event_ca(tls_broker: Broker,
                                                       tmp_path: Path) -> None:
    url = tls_broker.url("table-01")
    assert url.startswith("mqtts://") and TournamentUrl.parse(url).ca == (
        tls_broker.directory / "ca.crt")
    for name in ("ca.crt", "ca.key", "server.crt", "server.key"):
        assert stat.S_IMODE((tls_broker.directory / name).stat().st_mode) == 0o600
    receiver = Receiver(tls_broker, "referee-ana",
                        topics.table_topic(EVENT, "table-01", "alerts"), tls=True)
    with TablePublisher(url, tmp_path / "table.sqlite", retry_s=0.05) as table:
        table.call_referee("Week 2, combat at Kiyosu")
        _, alert = receiver.messages.get(timeout=WAIT_S)
        assert table.connection.connected
    receiver.close()
    assert (alert["kind"], alert["text"]) == ("call_referee",
                                              "Table 1 calls the referee: Week 2, combat at Kiyosu")


def test_a_table_refuses_a_broker_another_ca_signed(tls_broker: Broker, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    wrong_ca, _, _ = certs.make(other, "someone-else", ["127.0.0.1"])
    url = tls_broker.url("table-01").split("?")[0] + f"?ca={wrong_ca}"
    with TablePublisher(url, tmp_path / "table.sqlite", retry_s=0.05) as table:
        table.call_referee()
        assert table.kept()
        assert table.wait_until(lambda c: c.reason is not None, WAIT_S)  # it tried
        reason = table.connection.reason
        assert not table.connection.connected
    assert reason == "the broker's certificate is not signed by the tournament's authority"


def test_plain_mqtt_is_refused_at_a_tls_broker(tls_broker: Broker, tmp_path: Path) -> None:
    plain = tls_broker.url("table-02").replace("mqtts://", "mqtt://").split("?")[0]
    with TablePublisher(plain, tmp_path / "table.sqlite", retry_s=0.05) as table:
        assert table.wait_until(lambda c: c.reason is not None, WAIT_S)
        assert not table.connection.connected
