"""A referee asks a table for its full record: the answer goes to that referee only, is the
game as ``companion game export`` writes it, and a malformed request never stops the table."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from mqtt_helpers import Client
from table_helpers import WAIT_S

from companion.core.descriptor import descriptor
from companion.core.exports import read_export
from tournament import topics
from tournament.broker import Broker, free_port, prepare
from tournament.publisher import TablePublisher
from tournament.simtable import SimResult, play_and_publish

EVENT = "test-cup"


def _table(broker: Broker, db: Path, game: str, stop: threading.Event
           ) -> tuple[threading.Thread, list[SimResult]]:
    results: list[SimResult] = []
    thread = threading.Thread(target=lambda: results.append(play_and_publish(
        broker.url("table-01"), db, game, 3, 0, stop)), daemon=True)
    thread.start()
    return thread, results


def _request(**fields: object) -> bytes:
    return json.dumps({"v": 1, **fields}).encode()


def test_a_record_request_is_answered_to_the_asking_referee_only(tmp_path: Path) -> None:
    stop = threading.Event()
    with prepare(tmp_path / "broker", event=EVENT, tables=2, referees=["ana", "ben"],
                 port=free_port()) as broker:
        ana, ben = Client(broker, "referee-ana"), Client(broker, "referee-ben")
        ana.subscribe(f"{topics.event_root(EVENT)}/referees/referee-ana/records/+")
        ben.subscribe(f"{topics.event_root(EVENT)}/referees/#")  # the broker keeps ana's
        ben.subscribe(topics.table_topic(EVENT, "table-01", "status"))
        thread, results = _table(broker, tmp_path / "table.sqlite", "sekigahara", stop)
        try:
            status = json.loads(ben.next().payload)
            while not status["finished"]:
                status = json.loads(ben.next().payload)
            ana.publish(topics.table_topic(EVENT, "table-01", "record/request"),
                        _request(request_id="00aa11bb22cc33dd", referee="referee-ana",
                                 game_id=None))
            answer = ana.next()
        finally:
            stop.set()
            thread.join(WAIT_S)
        body = json.loads(answer.payload)
        assert answer.topic.endswith("/referees/referee-ana/records/00aa11bb22cc33dd")
        assert (body["request_id"], body["game_id"], body["table"]) == (
            "00aa11bb22cc33dd", status["game_id"], "table-01")
        export = read_export(body["export"])
        descriptor("sekigahara").load_records().check(export.log, count=export.count,
                                                      head=export.head)
        assert export.log.summary.result == results[0].result
        assert all(m.topic.endswith("/status") for m in list(ben.messages.queue))  # no record


def test_malformed_requests_get_an_error_or_nothing_and_the_table_plays_on(
        broker: Broker, tmp_path: Path) -> None:
    stop = threading.Event()
    ana = Client(broker, "referee-ana")
    ana.subscribe(f"{topics.event_root(EVENT)}/referees/referee-ana/records/+")
    ask = topics.table_topic(EVENT, "table-01", "record/request")
    thread, results = _table(broker, tmp_path / "table.sqlite", "tenka-meidou", stop)
    try:
        status = Client(broker, "players")
        status.subscribe(topics.table_topic(EVENT, "table-01", "status"))
        status.next()
        for bad in (b"\xff not json", b"[1, 2]", _request(request_id="nothex", referee="x"),
                    _request(request_id="00aa11bb22cc33dd", referee="referee-ana",
                             game_id="1; DROP TABLE games")):
            ana.publish(ask, bad)
        ana.publish(ask, _request(request_id="0000000000000002", referee="referee-ana",
                                  game_id=99))
        ana.publish(ask, _request(request_id="0000000000000003", referee="referee-ana",
                                  game_id=1))
        first, second, third = (json.loads(ana.next().payload) for _ in range(3))
    finally:
        stop.set()
        thread.join(WAIT_S)
    assert (first["request_id"], first["error"]) == ("00aa11bb22cc33dd",
                                                    "game_id is not a game number")
    assert second["request_id"] == "0000000000000002" and "no game 99" in second["error"]
    assert third["request_id"] == "0000000000000003" and "export" in third
    assert results and results[0].finished and not thread.is_alive()
    assert len(results[0].errors) == 3  # the three that named no one to answer


def test_a_table_cannot_publish_as_another(broker: Broker, tmp_path: Path) -> None:
    """Table 2's password does not open table 1's account, and table 2's own account writes
    nowhere but under table 2 (the access list)."""
    players = Client(broker, "players")
    players.subscribe(f"{topics.event_root(EVENT)}/tables/+/alerts")
    forged = broker.url("table-01").replace(broker.accounts.passwords["table-01"],
                                            broker.accounts.passwords["table-02"])
    with TablePublisher(forged, tmp_path / "forged.sqlite", retry_s=0.05) as impostor:
        impostor.call_referee("forged")
        assert impostor.wait_until(lambda c: c.reason is not None, WAIT_S)
        assert "refused" in str(impostor.connection.reason)
    with TablePublisher(broker.url("table-02"), tmp_path / "honest.sqlite") as honest:
        honest.call_referee()
        got = players.next()
    assert got.topic == topics.table_topic(EVENT, "table-02", "alerts")  # the forgery never came
