"""The dashboard's view of the tables from their public messages: duplicates dropped by
``seq``, the highest-``seq`` status kept, alerts first, then the tables stuck longest, and the
standings from finished games (docs/tournament.md, "The dashboard")."""

from __future__ import annotations

import json
from typing import Any

from tournament import topics
from tournament.dashboard_state import Tables

EVENT = "test-cup"
T0 = 1_790_000_000.0


def topic(table: str, leaf: str) -> str:
    return topics.table_topic(EVENT, table, leaf)


def message(table: str, seq: int, **fields: Any) -> bytes:
    return json.dumps({"v": 1, "table": table, "seq": seq,
                       "sent": "2026-09-21T12:00:00.250000+00:00", **fields}).encode()


def status(table: str, seq: int, stage: str, **fields: Any) -> bytes:
    given: dict[str, Any] = {
        "game": "sekigahara", "title": "Sekigahara", "game_id": 1,
        "players": {"ishida": "Ana", "tokugawa": "Ben"}, "stage": stage, "score": "",
        "discrepancies": 0, "waiting_for": None, "last_ruling": None, "last_seal": None,
        "finished": False, "result": None, "alert": False}
    return message(table, seq, **(given | fields))


def test_a_resent_message_is_dropped_and_the_newest_status_kept_whatever_the_order() -> None:
    tables = Tables(EVENT)
    events = topic("table-01", "events")
    line = message("table-01", 5, game_id=1, entry=12, lines=[{"text": "Ishida bids",
                                                                "rule": "6.3"}])
    assert [u.kind for u in tables.receive(events, line, T0)] == ["feed", "table"]
    assert [u.kind for u in tables.receive(events, line, T0 + 1)] == ["table"]  # a resend
    assert len(tables.feed("table-01")) == 1 and tables.duplicates == 1
    tables.receive(topic("table-01", "status"), status("table-01", 9, "Week 2, combat"), T0 + 2)
    tables.receive(topic("table-01", "status"), status("table-01", 7, "Week 1, bid"), T0 + 3)
    [only] = tables.snapshot(T0 + 3)
    assert only["stage"] == "Week 2, combat" and only["heard_at"] == T0 + 3
    assert tables.seqs() == {"table-01": [5, 7, 9]}


def test_other_events_and_strange_payloads_are_ignored() -> None:
    tables = Tables(EVENT)
    assert tables.receive(topics.table_topic("other-cup", "table-01", "status"),
                          status("table-01", 1, "x"), T0) == []
    assert tables.receive(topic("table-01", "status"), b"not json", T0) == []
    assert tables.receive(topic("table-01", "status"), b'{"seq": "1"}', T0) == []
    assert tables.snapshot(T0) == []


def test_alerts_come_first_then_the_tables_stuck_longest_then_the_finished() -> None:
    tables = Tables(EVENT)
    for n, (table, at) in enumerate((("table-01", 30), ("table-02", 10), ("table-03", 20),
                                      ("table-04", 5))):
        tables.receive(topic(table, "status"), status(table, n + 1, f"stage {n}"), T0 + at)
    tables.receive(topic("table-04", "status"),
                   status("table-04", 50, "over", finished=True, result="Ishida won"), T0 + 40)
    assert [t["table"] for t in tables.snapshot(T0 + 60)] == [
        "table-02", "table-03", "table-01", "table-04"]
    tables.receive(topic("table-01", "alerts"),
                   message("table-01", 60, kind="call_referee",
                           text="Table 1 calls the referee: Week 2, combat at Kiyosu"), T0 + 61)
    first = tables.snapshot(T0 + 62)[0]
    assert first["table"] == "table-01" and first["alert"]
    assert first["alert_text"] == "Table 1 calls the referee: Week 2, combat at Kiyosu"
    tables.receive(topic("table-01", "alerts"),
                   message("table-01", 61, kind="cleared", text=""), T0 + 63)
    assert not any(t["alert"] for t in tables.snapshot(T0 + 64))


def test_standings_count_each_finished_game_once_by_its_players_names() -> None:
    tables = Tables(EVENT)
    over = {"finished": True}
    tables.receive(topic("table-01", "status"),
                   status("table-01", 3, "over", result="Ishida won (2.2)", **over), T0)
    tables.receive(topic("table-01", "status"),  # the same game's status again, newer
                   status("table-01", 4, "over", result="Ishida won (2.2)", **over), T0)
    tables.receive(topic("table-02", "status"), message(
        "table-02", 1, game="tenka-meidou", game_id=7, players={"red": "Ben", "blue": "Cy"},
        finished=True, result="Blue won with 21 castle points", winner="blue"), T0)
    assert tables.standings() == [
        {"player": "Ana", "played": 1, "won": 1}, {"player": "Cy", "played": 1, "won": 1},
        {"player": "Ben", "played": 2, "won": 0}]
    tables.receive(topic("table-03", "status"), message(  # a table that named no players
        "table-03", 1, game="tenka-meidou", game_id=2, players={}, finished=True,
        result="red wins (red 21, blue 15)"), T0)
    assert {"player": "Table 3, Red", "played": 1, "won": 1} in tables.standings()
