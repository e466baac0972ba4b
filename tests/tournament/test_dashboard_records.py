"""A referee's record through the dashboard's server, without a browser: a Tenka Meidou game
fetched over the broker is verified, replayed in its public view (the Daimyo cards stay face
down, 9) and explained; an edited record is refused naming its entry, and nothing is replayed
from it; logging out ends the session; a broker restart loses nothing for the dashboard
(docs/tournament.md, "The dashboard")."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dashboard_kit import RecordingTable, shaped

from companion.core.exports import export_text, read_export
from companion.core.seals import seals
from companion.core.store import Store
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.explain_words import Words
from companion.games.tenka_meidou.players import RandomPlayer, random_start
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase
from tournament import topics
from tournament.broker import Broker, free_port
from tournament.dashboard import Dashboard
from tournament.url import TournamentUrl

EVENT = "test-cup"


def tenka_export(tmp_path: Path, seed: int = 7) -> str:
    """A seeded random game of Tenka Meidou as ``companion game export`` writes it."""
    rules = TenkaRules()
    rng = random.Random(seed)
    tmp_path.mkdir(parents=True, exist_ok=True)
    with Store.open(tmp_path / "tenka.sqlite") as store:
        game_id, game = records.start(store, rules)
        game.submit(random_start(rng, rules.board, rules.components))
        player = RandomPlayer(rng, rules.board, rules.components)
        while game.state.phase is not Phase.OVER:
            game.submit(player.command(game.state))
        records.finish_if_over(store, game_id, game)
        return export_text(store.load(game_id))


@pytest.fixture
def dashboard(broker: Broker) -> Iterator[Dashboard]:
    running = Dashboard(TournamentUrl.parse(broker.url("players")), port=free_port())
    running.start()
    assert running.subscribed.wait(10), "the dashboard never subscribed"
    yield running
    running.stop()


class Page:
    """What the page's script asks of the server, with the session it holds."""

    def __init__(self, dashboard: Dashboard) -> None:
        self.base = f"http://127.0.0.1:{dashboard.port}"
        self.token = ""

    def ask(self, method: str, path: str, body: object = None) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            self.base + path, method=method, data=json.dumps(body).encode() if body else None,
            headers={"Content-Type": "application/json", "X-Referee-Session": self.token})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    def log_in(self, broker: Broker) -> None:
        code, out = self.ask("POST", "/api/login", {
            "name": "ana", "password": broker.accounts.passwords["referee-ana"]})
        assert code == 200, out
        self.token = out["token"]


def test_a_tenka_meidou_record_is_verified_replayed_and_explained(
        broker: Broker, dashboard: Dashboard, tmp_path: Path) -> None:
    export = tenka_export(tmp_path)
    table = RecordingTable(broker, EVENT, "table-01", export)
    page = Page(dashboard)
    assert page.ask("POST", "/api/record", {"table": "table-01"})[0] == 401
    page.log_in(broker)
    code, out = page.ask("POST", "/api/record", {"table": "table-01"})
    entries = len(export.splitlines()) - 1
    assert code == 200 and out["holds"] and out["game"] == "tenka-meidou", out
    said = out["verified"]
    assert said.startswith(f"verified: {entries} entries") and " won (" in said
    assert set(out["views"]) >= {"public", "referee"}

    lines = [json.loads(line) for line in export.splitlines()[1:]]
    chosen = next(e for e in lines if e["data"]["command"]["type"] == "choose_daimyo")
    card = Words(TenkaRules()).card(next(
        ev["card"] for ev in chosen["data"]["events"] if ev["type"] == "daimyo_chosen"))
    at = f"/api/replay?table=table-01&at={chosen['seq']}"
    code, public = page.ask("GET", at + "&view=public")
    assert code == 200 and f"after entry {chosen['seq']} (public view)" in public["text"]
    assert card not in public["text"]  # face down on the shared screen (9)
    assert card in page.ask("GET", at + "&view=referee")[1]["text"]
    deploy = next(e["seq"] for e in lines if e["data"]["command"]["type"] == "deploy")
    code, said = page.ask("GET", f"/api/explain?table=table-01&n={deploy}")
    assert code == 200 and "judged under rules 5.I.1: upheld" in said["text"]
    code, said = page.ask("GET", f"/api/explain?table=table-01&n={entries + 1}")
    assert (code, said["error"]) == (400, f"there is no entry {entries + 1}: the game's "
                                          f"entries are numbered 1 to {entries}")

    assert page.ask("POST", "/api/logout")[0] == 200
    code, said = page.ask("GET", f"/api/explain?table=table-01&n={deploy}")
    assert (code, said["error"]) == (401, "Your referee session has ended: log in again")
    table.close()


def test_an_edited_record_is_refused_naming_its_entry(
        broker: Broker, dashboard: Dashboard, tmp_path: Path) -> None:
    lines = tenka_export(tmp_path, seed=11).splitlines()
    entry = json.loads(lines[5])
    entry["at"] = "2020-01-01T00:00:00+0000"  # a time rewritten, its hash left as it was
    lines[5] = json.dumps(entry)
    table = RecordingTable(broker, EVENT, "table-02", "\n".join(lines) + "\n")
    page = Page(dashboard)
    page.log_in(broker)
    code, out = page.ask("POST", "/api/record", {"table": "table-02"})
    assert code == 200 and not out["holds"], out
    assert out["verified"].startswith("refused at entry 5: ")
    code, said = page.ask("GET", "/api/replay?table=table-02&at=1&view=public")
    assert code == 400 and said["error"].startswith("this record does not hold")
    table.close()


def test_nothing_is_lost_for_the_dashboard_across_a_broker_restart(
        broker: Broker, dashboard: Dashboard) -> None:
    """The table resends what the broker missed as soon as it is back, maybe before the
    dashboard has reconnected: the broker holds it for the dashboard's session."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    table = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="restart-table-01",
                        protocol=mqtt.MQTTv311, clean_session=False)
    table.username_pw_set("table-01", broker.accounts.passwords["table-01"])
    table.reconnect_delay_set(min_delay=1, max_delay=1)
    table.connect(broker.host, broker.port)
    table.loop_start()
    events = topics.table_topic(EVENT, "table-01", "events")

    def send(seq: int) -> None:
        table.publish(events, shaped("table-01", seq, game_id=1, entry=seq, lines=[]), qos=1)

    send(1)
    assert until(lambda: dashboard.tables.seqs().get("table-01") == [1])
    broker.stop()
    for seq in (2, 3):  # played on while the broker was away
        send(seq)
    broker.start()
    assert until(lambda: table.is_connected())
    send(4)
    assert until(lambda: dashboard.tables.seqs().get("table-01") == [1, 2, 3, 4]), (
        dashboard.tables.seqs())
    table.disconnect()
    table.loop_stop()


def until(check: Callable[[], bool], bound_s: float = 20.0) -> bool:
    """Poll ``check`` until it holds: reconnections are real I/O (the bound only stops a broken
    test)."""
    deadline = time.monotonic() + bound_s
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_the_command_refuses_a_url_that_is_not_a_tournaments_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["tournament", "dashboard", "--broker", "http://players:pw@host/cup"]) == 1
    said = capsys.readouterr().err
    assert said == ("companion tournament: a tournament URL starts with mqtt:// or "
                    "mqtts://\n")


def test_a_record_is_checked_against_the_seals_the_table_published(
        broker: Broker, dashboard: Dashboard, tmp_path: Path) -> None:
    """A table answers with another game, legal from end to end (its chain and rules hold):
    the seals it published while its real game was played catch it."""
    honest = read_export(tenka_export(tmp_path / "honest", seed=7)).log
    table = RecordingTable(broker, EVENT, "table-03", tenka_export(tmp_path / "other", seed=9))
    published = [{"entry": s.entry, "label": s.label, "code": s.code} for s in seals(honest)]
    assert published, "a finished game is sealed"
    table.client.publish(topics.table_topic(EVENT, "table-03", "seals"),
                         shaped("table-03", 1, game_id=1, seals=published), retain=True)
    assert until(lambda: dashboard.tables.published_seals("table-03", 1) == published)
    page = Page(dashboard)
    page.log_in(broker)
    code, out = page.ask("POST", "/api/record", {"table": "table-03"})
    assert code == 200 and not out["holds"], out
    assert "the record does not match the seals: Seal of " in out["verified"], out

    table.export = export_text(honest)  # the real game matches every seal published
    code, out = page.ask("POST", "/api/record", {"table": "table-03"})
    n = len(published)
    assert out["holds"] and f"{n} seal{'s' if n != 1 else ''} matched" in out["verified"], out
    table.close()
