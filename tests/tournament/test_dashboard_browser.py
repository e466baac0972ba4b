"""The referees' dashboard in a real headless Chromium: tables publish to a real Mosquitto, the
dashboard reads them as the players' account, and the page shows a table's status and alert
live; a referee logs in on the page, fetches a table's record over the broker, and the page
verifies, replays and explains it. The last test runs the whole path with a simulated table
(the real publisher, its own database). One browser for the module (docs/tournament.md, "The
dashboard")."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from dashboard_kit import RecordingTable, Seq, chromium, need_browser, shaped
from mqtt_helpers import Client

from companion.core.store import Store
from companion.games.sekigahara import selfplay
from tournament import topics
from tournament.broker import Broker, BrokerError, free_port, mosquitto_binary, prepare
from tournament.dashboard import Dashboard
from tournament.dashboard_referee import Referees
from tournament.simtable import SimResult, play_and_publish
from tournament.url import TournamentUrl

EVENT = "test-cup"
WAIT_S = 20.0
"""The bound on every wait for the page (a wait ends as soon as the page shows it)."""


class Clock:
    """The referees' sessions' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Hall:
    broker: Broker
    dashboard: Dashboard
    clock: Clock
    url: str
    export: str
    where: Path


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    need_browser()
    try:
        mosquitto_binary()
    except BrokerError as exc:
        pytest.skip(str(exc))
    where = tmp_path_factory.mktemp("hall")
    with Store.open(where / "games.sqlite") as store:
        selfplay.play_and_export(3, False, store, where)
    export = (where / "selfplay-seed-3.jsonl").read_text("utf-8")
    with prepare(where / "broker", event=EVENT, tables=4, referees=["ana"],
                 port=free_port()) as broker:
        clock = Clock()
        address = TournamentUrl.parse(broker.url("players"))
        dashboard = Dashboard(address, port=free_port(),
                              referees=Referees(address, clock=clock, idle_s=600))
        dashboard.start()
        assert dashboard.subscribed.wait(WAIT_S), "the dashboard never subscribed"
        try:
            yield Hall(broker, dashboard, clock, f"http://127.0.0.1:{dashboard.port}/", export,
                       where)
        finally:
            dashboard.stop()


@pytest.fixture(scope="module")
def page(hall: Hall) -> Iterator[Any]:
    driver = chromium()
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.05).until(condition, repr(condition))


def text_of(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, css)
    return str(found[0].text) if found else ""


class shows:
    """The element ``css`` shows ``words``; on a timeout, what it showed instead."""

    def __init__(self, css: str, words: str) -> None:
        self.css, self.words, self.last = css, words, ""

    def __call__(self, driver: Any) -> bool:
        self.last = text_of(driver, self.css)
        return self.words in self.last

    def __repr__(self) -> str:
        return f"{self.css} showed {self.last!r}, not {self.words!r}"


def open_page(driver: Any, hall: Hall) -> None:
    driver.get(hall.url)
    until(driver, lambda d: d.execute_script("return document.body.dataset.ready") == "yes")


def status(table: str, seq: int, **fields: Any) -> str:
    given = {"game": "sekigahara", "title": "Sekigahara", "game_id": 1,
             "players": {"ishida": "Ana Sato", "tokugawa": "Ben Ito"}, "stage": "",
             "score": "", "discrepancies": 0, "waiting_for": None, "last_ruling": None,
             "last_seal": None, "finished": False, "result": None, "alert": False}
    return shaped(table, seq, **(given | fields))


def first_card(page: Any) -> str:
    return str(page.execute_script(
        "return document.querySelector('#tables .card').dataset.table"))


def test_a_tables_status_feed_and_alert_appear_live(hall: Hall, page: Any) -> None:
    waiting = Client(hall.broker, "table-01")  # waiting longer than table 2
    waiting.publish(topics.table_topic(EVENT, "table-01", "status"),
                    status("table-01", 1, stage="Week 1, bidding"), retain=True)
    waiting.close()
    open_page(page, hall)
    table = Client(hall.broker, "table-02")
    seq = Seq()
    table.publish(topics.table_topic(EVENT, "table-02", "status"),
                  status("table-02", seq(), stage="Week 2, movement, Tokugawa to move",
                         waiting_for="tokugawa", discrepancies=1), retain=True)
    until(page, shows("[data-table=table-02]", "Week 2, movement, Tokugawa to move"))
    card = text_of(page, "[data-table=table-02]")
    assert "Waiting for Tokugawa (Ben Ito)" in card and "1 open discrepancy" in card
    assert "Last heard" in card and text_of(page, "#alerts") == ""

    table.publish(topics.table_topic(EVENT, "table-02", "events"), shaped(
        "table-02", seq(), game_id=1, entry=61,
        lines=[{"text": "Tokugawa moves 3 blocks from Edo to Hakone", "rule": "7.3"}]))
    until(page, shows("[data-table=table-02]", "Entry 61: Tokugawa moves 3 blocks from Edo"))
    assert first_card(page) == "table-01"  # the one waiting longest

    table.publish(topics.table_topic(EVENT, "table-02", "alerts"), shaped(
        "table-02", seq(), kind="call_referee",
        text="Table 2 calls the referee: Week 2, combat at Kiyosu"), retain=True)
    until(page, shows("#alerts", "Table 2 calls the referee: Week 2, combat at Kiyosu"))
    assert "Called" in text_of(page, "#alerts .alert")  # how long ago, said on the alert
    assert first_card(page) == "table-02"  # alerts first
    table.publish(topics.table_topic(EVENT, "table-02", "alerts"), shaped(
        "table-02", seq(), kind="cleared", text=""), retain=True)
    until(page, lambda d: text_of(d, "#alerts") == "")
    table.close()


def log_in(page: Any, name: str, password: str) -> None:
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "login-name").clear()
    page.find_element(By.ID, "login-name").send_keys(name)
    page.find_element(By.ID, "login-password").send_keys(password)
    page.find_element(By.ID, "login-button").click()


def test_a_wrong_password_is_refused_in_one_line(hall: Hall, page: Any) -> None:
    open_page(page, hall)
    log_in(page, "ana", "not the password")
    until(page, shows("#login-error", "The broker refused referee-ana: wrong name or password"))
    assert not page.find_element("id", "login").get_attribute("hidden")
    assert hall.dashboard.referees.sessions == {}


def test_a_referee_fetches_verifies_replays_and_explains_a_tables_record(
        hall: Hall, page: Any) -> None:
    from selenium.webdriver.common.by import By

    answering = RecordingTable(hall.broker, EVENT, "table-03", hall.export)
    answering.client.publish(topics.table_topic(EVENT, "table-03", "status"),
                  status("table-03", 1, stage="Game over"), retain=True)
    open_page(page, hall)
    until(page, shows("[data-table=table-03]", "Game over"))
    page.find_element(By.CSS_SELECTOR, "[data-table=table-03]").click()
    until(page, shows("#referee-hint", "Log in as a referee"))
    log_in(page, "ana", hall.broker.accounts.passwords["referee-ana"])
    until(page, shows("#session", "Referee ana"))

    page.find_element(By.ID, "fetch").click()
    until(page, shows("#verified", "verified: 188 entries (188 commands re-adjudicated"))
    assert "hash chain intact" in text_of(page, "#verified")
    assert answering.requests[0]["referee"] == "referee-ana"
    until(page, shows("#replay", "after entry 188 (public view) of 188"))

    at = page.find_element(By.ID, "replay-at")
    at.clear()
    at.send_keys("26")
    page.find_element(By.ID, "replay-go").click()
    until(page, shows("#replay", "after entry 26 (public view) of 188"))
    assert "Units on the board (Ishida / Tokugawa):" in text_of(page, "#replay")
    assert "Blocks (the manifest id" not in text_of(page, "#replay")  # none hidden shown
    page.find_element(By.CSS_SELECTOR, "#replay-view option[value=referee]").click()
    page.find_element(By.ID, "replay-go").click()
    until(page, shows("#replay", "after entry 26 (referee view) of 188"))
    assert "Blocks (the manifest id" in text_of(page, "#replay")

    n = page.find_element(By.ID, "explain-n")
    n.clear()
    n.send_keys("26")
    page.find_element(By.ID, "explain-go").click()
    until(page, shows("#explain", "entry 26: "))
    assert "upheld" in text_of(page, "#explain")

    hall.clock.now += 601  # the session ends unused: the page asks for the login again
    page.find_element(By.ID, "explain-go").click()
    until(page, shows("#login-error", "Your referee session has ended: log in again"))
    assert page.find_element(By.ID, "referee-tools").get_attribute("hidden")
    assert hall.dashboard.referees.sessions == {}
    answering.close()


def test_a_simulated_table_end_to_end(hall: Hall, page: Any) -> None:
    """A seeded Tenka Meidou game played and published by the real table side; its result
    reaches the standings; a referee fetches, verifies and replays its record."""
    from selenium.webdriver.common.by import By

    stop = threading.Event()
    done: list[SimResult] = []
    table = threading.Thread(target=lambda: done.append(play_and_publish(
        hall.broker.url("table-04"), hall.where / "table-04.sqlite", "tenka-meidou", 5, 0.0,
        stop)))
    table.start()
    try:
        open_page(page, hall)
        until(page, shows("[data-table=table-04]", " wins ("))
        until(page, shows("[data-table=table-04]", "Seal of the game: "))  # to note down
        winner = text_of(page, "[data-table=table-04]").split(" wins (")[0].split()[-1]
        until(page, shows("#standings", f"Table 4, {winner}"))
        page.find_element(By.CSS_SELECTOR, "[data-table=table-04]").click()
        until(page, shows("#feed", " wins with "))
        feed = text_of(page, "#feed")
        assert not re.search(r"\(([^()]+)\)\s*\(\1\)", feed), feed  # no rule cited twice
        log_in(page, "ana", hall.broker.accounts.passwords["referee-ana"])
        until(page, shows("#session", "Referee ana"))
        page.find_element(By.ID, "fetch").click()
        until(page, shows("#verified", "hash chain intact"))
        said = text_of(page, "#verified")
        assert said.startswith("✔ verified: ") and " won (" in said, said
        assert re.search(r"hash chain intact; \d+ seals? matched", said), said  # as published
        until(page, shows("#replay", "(public view) of "))
        at = page.find_element(By.ID, "replay-at")
        at.clear()
        at.send_keys("3")
        page.find_element(By.ID, "replay-go").click()
        until(page, shows("#replay", "after entry 3 (public view)"))
    finally:
        stop.set()
        table.join(30)
    assert done and done[0].finished and done[0].errors == ()


def test_the_page_says_when_the_broker_is_unreachable_and_when_it_is_back(
        hall: Hall, page: Any) -> None:
    open_page(page, hall)
    until(page, shows("#broker", "Broker connected"))
    hall.broker.stop()
    try:
        until(page, shows("#broker", "Broker unreachable since "))
        assert "tables keep playing and resend when it is back" in text_of(page, "#broker")
    finally:
        hall.broker.start()
    until(page, shows("#broker", "Broker connected"))  # it reconnects by itself
