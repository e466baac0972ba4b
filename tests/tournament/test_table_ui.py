"""The table's tournament on the touchscreen: the start screen says where it publishes and
whether it is connected, the play screen calls the referee and clears the call."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_helpers import WAIT_S, Receiver

from tournament import topics
from tournament.broker import Broker, free_port
from ui.shell import tournament
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo

EVENT = "test-cup"


@pytest.fixture
def tenka(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TenkaApp]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    options = TenkaOptions(seed=2, virtual_table=False, hubs=["sim"], rate_hz=DEMO_RATE_HZ,
                           settle_s=DEMO_SETTLE_S, workdir=tmp_path / "run",
                           db=tmp_path / "games.sqlite", pin_file=tmp_path / "pin.json")
    app = TenkaApp(options)
    try:
        yield app
    finally:
        app.close()
        tournament.stop()


def _until(app: TenkaApp, label: str) -> None:
    """Pump the app's own loop until a button ``label`` is drawn (bounded)."""
    deadline = time.monotonic() + WAIT_S
    app.app.invalidate()
    while app.app.find(label) is None:
        assert time.monotonic() < deadline, f"the screen never showed {label!r}"
        app.app.pump(15)


def test_the_play_screen_calls_the_referee_and_clears_the_call(
        broker: Broker, tenka: TenkaApp, tmp_path: Path) -> None:
    receiver = Receiver(broker, "referee-ana", topics.table_topic(EVENT, "table-03", "alerts"))
    tournament.start(broker.url("table-03"), tmp_path / "games.sqlite")
    TenkaDemo(tenka, seed=2).start(players=3, advanced=False)
    _until(tenka, "Call the referee")
    assert tenka.app.tap("Call the referee")
    _until(tenka, "The referee has been called")
    _, called = receiver.messages.get(timeout=WAIT_S)
    assert called["kind"] == "call_referee"
    assert called["text"].startswith("Table 3 calls the referee: Deployment, ")
    assert tenka.app.tap("The referee has been called")
    _until(tenka, "Call the referee")
    _, cleared = receiver.messages.get(timeout=WAIT_S)
    receiver.close()
    assert (cleared["kind"], cleared["text"]) == ("cleared",
                                                  "Table 3 no longer needs the referee")


def test_the_start_screen_says_the_table_plays_on_without_the_broker(
        tenka: TenkaApp, tmp_path: Path) -> None:
    link = tournament.start(f"mqtt://table-03:pw@127.0.0.1:{free_port()}/{EVENT}",
                            tmp_path / "games.sqlite")
    assert link.publisher.wait_until(lambda c: c.reason is not None, WAIT_S)
    tenka.show_start()
    tenka.app.draw()
    shown = [text for _screen, text in tenka.app.drawn]
    assert "Tournament: table-03 at 127.0.0.1, not connected, playing on" in shown
    assert tenka.app.find("New game") is not None


def _type(app: TenkaApp, text: str) -> None:
    """Type ``text`` on the tournament screen's keyboard, a tap a key."""
    for char in text:
        upper = char.isalpha() and char.isupper()
        shifted = app.app.find("Q") is not None
        if upper != shifted:
            assert app.app.tap("Shift")
        assert app.app.tap(char), f"no key {char!r}"


def test_the_start_screen_joins_and_leaves_a_tournament_typed_on_its_keyboard(
        broker: Broker, tenka: TenkaApp, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.shell.tournament_screen import saved, saved_path

    monkeypatch.setenv("SEKIGAHARA_CONFIG", str(tmp_path / "config"))
    tenka.show_start()
    tenka.app.draw()
    assert tenka.app.tap("Tournament")
    url = broker.url("table-04")
    _type(tenka, "mqtt:/" + url.removeprefix("mqtt://"))  # a slash short
    tenka.app.draw()
    shown = [text for _screen, text in tenka.app.drawn]
    password = broker.accounts.passwords["table-04"]
    assert not any(password in s for s in shown), "the password is never on the screen"
    assert tenka.app.tap("Join") and tournament.LINK is None
    tenka.app.draw()
    assert any(s.startswith("The tournament URL") for _sc, s in tenka.app.drawn)
    for _ in range(len(url) - 1):
        assert tenka.app.tap("Delete")
    _type(tenka, url)
    assert tenka.app.tap("Join")
    link = tournament.LINK
    assert link is not None and link.publisher.wait_connected(True, WAIT_S)
    tenka.app.draw()
    assert "Tournament: table-04 at 127.0.0.1, connected" in [t for _s, t in tenka.app.drawn]
    assert saved() == url and oct(saved_path().stat().st_mode & 0o777) == "0o600"
    assert tenka.app.tap("Tournament") and tenka.app.tap("Leave the tournament")
    assert tournament.LINK is None and saved() is None
