"""The event's Mosquitto: accounts and the access list do what docs/tournament.md says."""

from __future__ import annotations

from mqtt_helpers import Client

from tournament import topics
from tournament.broker import Broker

EVENT = "test-cup"


def test_anonymous_clients_and_wrong_passwords_are_refused(broker: Broker) -> None:
    assert Client(broker, "").refused is not None
    assert Client(broker, "table-01", "not the password").refused is not None
    assert Client(broker, "table-01").refused is None


def test_a_table_publishes_only_under_its_own_topics(broker: Broker) -> None:
    referee = Client(broker, "referee-ana")
    referee.subscribe(f"{topics.event_root(EVENT)}/tables/+/status")
    table = Client(broker, "table-01")
    table.publish(topics.table_topic(EVENT, "table-02", "status"), b"forged")
    table.publish(topics.table_topic(EVENT, "table-01", "status"), b"honest")
    got = referee.next()  # one publisher's messages arrive in order: the forgery was dropped
    assert (got.topic, got.payload) == (topics.table_topic(EVENT, "table-01", "status"),
                                        b"honest")


def test_players_read_public_topics_and_no_record(broker: Broker) -> None:
    players = Client(broker, "players")
    players.subscribe(f"{topics.event_root(EVENT)}/#")
    table = Client(broker, "table-03")
    reply = topics.record_reply_topic(EVENT, "referee-ana", "r1")
    table.publish(reply, b"the whole record")
    table.publish(topics.table_topic(EVENT, "table-03", "events"), b"public")
    assert players.next().payload == b"public"
    players.publish(topics.table_topic(EVENT, "table-03", "record/request"), b"give")
    players.publish(topics.table_topic(EVENT, "table-03", "status"), b"forged")
    table.publish(topics.table_topic(EVENT, "table-03", "alerts"), b"call")
    assert players.next().payload == b"call"


def test_only_the_asking_referee_reads_its_record_and_only_the_table_its_requests(
        broker: Broker) -> None:
    ana = Client(broker, "referee-ana")
    ana.subscribe(f"{topics.event_root(EVENT)}/referees/referee-ana/records/+")
    table = Client(broker, "table-02")
    table.subscribe(topics.table_topic(EVENT, "table-02", "record/request"))
    other = Client(broker, "table-01")
    other.subscribe(f"{topics.event_root(EVENT)}/tables/+/record/request")
    ana.publish(topics.table_topic(EVENT, "table-02", "record/request"), b"req")
    assert table.next().payload == b"req"
    table.publish(topics.record_reply_topic(EVENT, "referee-ana", "req"), b"record")
    assert ana.next().payload == b"record"
    ana.publish(topics.table_topic(EVENT, "table-01", "record/request"), b"for table 1")
    assert other.next().payload == b"for table 1"  # in order: table-02's request never came


def test_retained_status_survives_a_broker_restart(broker: Broker) -> None:
    table = Client(broker, "table-04")
    table.publish(topics.table_topic(EVENT, "table-04", "status"), b"week 2", retain=True)
    table.close()
    broker.restart()
    referee = Client(broker, "referee-ana")
    referee.subscribe(topics.table_topic(EVENT, "table-04", "status"))
    got = referee.next()
    assert (got.payload, got.retained) == (b"week 2", True)
