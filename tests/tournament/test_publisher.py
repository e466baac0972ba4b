"""A table publishes its public game through the outbox: nothing lost when the broker goes
away, nothing waited for, every message once after receivers drop resends by seq."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest.mock import ANY

from table_helpers import WAIT_S, Receiver, entries_of, play, unique

from companion.core.store import Store
from tournament import topics
from tournament.broker import Broker
from tournament.publisher import TablePublisher
from tournament.simtable import play_and_publish

EVENT = "test-cup"
TENKA_ENTRIES = 20
"""Tenka Meidou self-play seed 3 is 20 entries long."""


def _clock() -> datetime:
    return datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def _events(table: str = "table-01") -> str:
    return topics.table_topic(EVENT, table, "events")


def test_a_table_plays_on_while_the_broker_is_down_and_every_entry_arrives_once(
        broker: Broker, tmp_path: Path) -> None:
    receiver = Receiver(broker, "referee-ana", _events())
    db = tmp_path / "table.sqlite"
    table = TablePublisher(broker.url("table-01"), db, now=_clock, retry_s=0.05).start()
    live: list[tuple[str, dict[str, Any]]] = []
    try:
        def during(game_id: int, n: int) -> None:
            table.recorded(game_id)
            if n == 5:
                live.extend(receiver.until(lambda got: 5 in entries_of(got)))  # went out live
                broker.stop()
            if n == 15:
                assert table.wait_connected(False, WAIT_S)  # 10 entries played with no broker
                assert table.outbox.counts()["pending"] > 0
                broker.start()

        play(db, "tenka-meidou", 3, during)
        got = live + receiver.until(
            lambda more: len(set(entries_of(live + more))) == TENKA_ENTRIES)
    finally:
        table.stop()
        receiver.close()
    kept = unique(got)
    assert entries_of(got) == list(range(1, TENKA_ENTRIES + 1))  # once each, in order
    assert [m["seq"] for m in kept] == sorted(m["seq"] for m in kept)
    assert {m["sent"] for m in kept} == {"2026-05-01T10:00:00.000+00:00"}
    assert all(m["table"] == "table-01" and m["v"] == 1 for m in kept)


def test_a_killed_table_sends_on_restart_what_the_broker_never_acknowledged(
        broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    broker.stop()  # the room's Wi-Fi is down the whole game
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED, broker.url("table-02"), str(db)],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == b"kept", "the table never kept its messages"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    broker.start()
    receiver = Receiver(broker, "referee-ana", topics.table_topic(EVENT, "table-02", "#"))
    with TablePublisher(broker.url("table-02"), db, retry_s=0.05) as table:
        assert table.kept()
        kept = table.outbox.last_seq()
        got = receiver.until(lambda got: len(set(entries_of(got))) == TENKA_ENTRIES)
        got += receiver.until(lambda more: any(m["seq"] == kept for _, m in got + more))
        assert not table.errors
    receiver.close()
    assert entries_of(got) == list(range(1, TENKA_ENTRIES + 1))
    with sqlite3.connect(db) as sql:  # every message but the statuses a newer one replaced
        sent = [s for (s,) in sql.execute("SELECT seq FROM tournament_outbox WHERE state != 2 "
                                             "ORDER BY seq")]
    received = [m["seq"] for m in unique(got)]
    assert set(sent) <= set(received) and received == sorted(received)
    assert sent[-1] == kept


_KILLED = """
import sys, time
from pathlib import Path
from tournament.publisher import TablePublisher
from tournament.status import feed_of
from companion.core.store import CommandRecorder, Store
url, db = sys.argv[1], Path(sys.argv[2])
feed = feed_of("tenka-meidou")
with Store.open(db) as store:
    table = TablePublisher(url, db, store=store, retry_s=0.05).start()
    game_id = store.create_game(feed.game, feed.header())
    class Rec:
        def record(self, command, events):
            CommandRecorder(store, game_id).record(command, events)
            table.recorded(game_id)
    feed.selfplay(3, Rec())
    assert table.kept()
    print("kept", flush=True)
    time.sleep(60)
"""


def test_entries_stored_while_no_publisher_ran_are_published_when_it_starts(
        broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    play(db, "sekigahara", 3, lambda game_id, n: None)  # killed before anything was kept
    receiver = Receiver(broker, "referee-ana", _events("table-03"))
    with TablePublisher(broker.url("table-03"), db, retry_s=0.05):
        with Store.open(db) as store:
            entries = store.list_games()[0].entries
        got = receiver.until(lambda got: len(set(entries_of(got))) == entries)
    receiver.close()
    assert entries_of(got) == list(range(1, entries + 1))


def test_seq_never_goes_back_across_restarts_and_games(broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    first = play_and_publish(broker.url("table-04"), db, "tenka-meidou", 3, 0)
    second = play_and_publish(broker.url("table-04"), db, "sekigahara", 3, 0)
    assert first.finished and second.finished
    assert first.pending == second.pending == 0
    assert second.last_seq > first.last_seq + second.entries


def test_a_daimyo_card_chosen_face_down_is_never_named(broker: Broker, tmp_path: Path
                                                      ) -> None:
    """Tenka Meidou's Daimyo cards are chosen face down (9): what the table publishes says a
    card was chosen, never which (seeds 1 and 2 are advanced games)."""
    from companion.games.tenka_meidou.components import Daimyo
    from companion.games.tenka_meidou.explain_words import Words
    from companion.games.tenka_meidou.rules import TenkaRules

    receiver = Receiver(broker, "players", topics.table_topic(EVENT, "table-01", "events"))
    db = tmp_path / "advanced.sqlite"
    entries = 0
    for seed in (1, 2):
        result = play_and_publish(broker.url("table-01"), db, "tenka-meidou", seed, 0)
        assert result.pending == 0
        entries += result.entries
    got = unique(receiver.until(lambda got: len(got) >= entries))
    receiver.close()
    chosen = [line["text"] for m in got for line in m["lines"]
              if "Daimyo card, face down" in line["text"]]
    assert len(chosen) >= 4
    words = Words(TenkaRules())
    names = [words.card(d) for d in Daimyo] + [d.value for d in Daimyo]
    assert not any(name in text for text in chosen for name in names)


def test_a_publisher_watching_the_database_follows_the_game_the_app_writes(
        broker: Broker, tmp_path: Path) -> None:
    """``companion run --tournament``: the app's store says nothing to the publisher; every
    entry it writes is published all the same, from the game written to last."""
    db = tmp_path / "table.sqlite"
    Store.open(db).close()
    receiver = Receiver(broker, "referee-ana", _events("table-02"))
    with TablePublisher(broker.url("table-02"), db, retry_s=0.05, watch_s=0.02):
        game_id = play(db, "tenka-meidou", 3, lambda game_id, n: None)
        got = receiver.until(lambda got: len(set(entries_of(got))) == TENKA_ENTRIES)
    receiver.close()
    assert entries_of(got) == list(range(1, TENKA_ENTRIES + 1))
    assert {m["game_id"] for m in unique(got)} == {game_id}


def test_status_and_seals_carry_what_the_contract_says(broker: Broker, tmp_path: Path) -> None:
    """docs/tournament.md, Topics: the status's fields, a finished game's result and its seal
    of the game, retained for a referee who comes later."""
    result = play_and_publish(broker.url("table-03"), tmp_path / "t.sqlite", "tenka-meidou", 3, 0)
    late = Receiver(broker, "players", topics.table_topic(EVENT, "table-03", "+"))
    got = {topic.rsplit("/", 1)[1]: body
           for topic, body in late.until(lambda got: len(got) == 2)}  # status and seals
    late.close()
    status, seals = got["status"], got["seals"]
    assert set(status) == {"v", "table", "seq", "sent", "game", "title", "game_id", "players",
                           "stage", "score", "discrepancies", "waiting_for", "last_ruling",
                           "last_seal", "finished", "result", "alert", "board", "winner"}
    assert (status["game"], status["title"], status["finished"], status["result"]) == (
        "tenka-meidou", "Tenka Meidou", True, result.result)
    assert status["stage"] == "The War is fought" and status["waiting_for"] is None
    assert status["last_ruling"]["entry"] == result.entries
    assert seals["seals"][-1] == status["last_seal"]
    assert status["last_seal"]["label"] == "game" and status["last_seal"]["entry"] == 20
    assert status["winner"] == result.result.split()[0]  # "red wins (...)"
    assert set(status["board"]["reserve"]) <= {"red", "blue", "yellow", "black"}
    assert status["board"]["daimyo"] == {}  # the public view: no face-down Daimyo card


def test_open_discrepancies_reach_the_status(broker: Broker, tmp_path: Path) -> None:
    """The table session's open discrepancies (what the screens blink) are in the status as
    soon as their number changes, and a Sekigahara board says only what the shared screen
    does: how many blocks of each side stand where."""
    db = tmp_path / "t.sqlite"
    play_and_publish(broker.url("table-02"), db, "sekigahara", 1, 0)
    watcher = Receiver(broker, "referee-ana", topics.table_topic(EVENT, "table-02", "status"))
    with TablePublisher(broker.url("table-02"), db, retry_s=0.2) as table:
        assert table.start() is table  # already started by ``with``: still one producer
        table.set_discrepancies(2)
        got = watcher.until(lambda got: any(b["discrepancies"] == 2 for _, b in got))
    watcher.close()
    status = got[-1][1]
    assert status["discrepancies"] == 2 and status["stage"] == "Game over"
    board = json.dumps(status["board"])
    assert status["board"]["hand"] == {"ishida": ANY, "tokugawa": ANY}
    assert not re.search(r"\"[IT]\d\d\"", board)  # no block named
