"""Tenka Meidou's referee and hardware screens (issue 11): the referee view behind the same PIN
as Sekigahara's, the face-down Daimyo cards shown there and nowhere else, the event log with its
sections, "Verify this game" re-adjudicating the stored game; the hardware check listing the
simulated hubs and the places their antennas read."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

from ui_helpers import screen, shown

from companion.games.tenka_meidou.components import Daimyo, default_components
from companion.games.tenka_meidou.state import Phase
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo


def make(tmp_path: Path, seed: int) -> TenkaApp:
    return TenkaApp(TenkaOptions(seed=seed, virtual_table=False, hubs=["sim"],
                                 rate_hz=DEMO_RATE_HZ, settle_s=DEMO_SETTLE_S,
                                 workdir=tmp_path / "run", db=tmp_path / "games.sqlite",
                                 pin_file=tmp_path / "pin.json"))


def enter(demo: TenkaDemo, pin: str) -> None:
    for digit in pin:
        demo.tap(digit)
    demo.tap("OK")


def names() -> dict[Daimyo, set[str]]:
    return {Daimyo(c.id): {c.en, c.es} for c in default_components().daimyo_cards}


def test_the_referee_sees_the_hidden_daimyo_and_no_other_screen_does(tmp_path: Path) -> None:
    """Every screen is walked mid-game (the board, the start screen, the rules, the hardware
    check, the PIN pad, the referee's page) and the game played to the end: a face-down
    Daimyo card is named on the referee's page and nowhere else."""
    app = make(tmp_path, seed=2)
    cards = names()
    leaks: list[str] = []
    on_referee: set[str] = set()
    demo = TenkaDemo(app, seed=2)

    def scan(_when: float) -> None:
        state = demo.control.game.state
        hidden = {n for c, card in state.daimyo.items() if c not in state.daimyo_used
                  for n in cards[card]}
        for where, text in app.app.drawn:
            for name in hidden:
                if name in text:
                    if where == "referee":
                        on_referee.add(name)
                    else:
                        leaks.append(f"{where}: {text}")

    app.app.on_frame = scan
    try:
        demo.start(players=3, advanced=True)
        demo.play(until_phase=Phase.DEPLOYMENT)
        for _ in range(3):
            demo.step()
        demo.tap("Menu")
        assert screen(app) == "start"
        demo.tap("The rules in short")
        demo.tap("Back")
        demo.tap("Hardware check")
        assert screen(app) == "hardware"
        demo.tap("Back")
        demo.tap("Referee")
        assert screen(app) == "referee-pin"
        enter(demo, "2468")
        enter(demo, "2468")  # set on the first visit, confirmed
        assert screen(app) == "referee"
        demo.tap("Lock and leave")
        demo.tap("Referee")
        enter(demo, "1357")
        assert screen(app) == "referee-pin"
        assert "Wrong PIN. Wait 1 s before trying again" in shown(app)
        time.sleep(1.1)  # the wait after a wrong try (companion/core/pin.py)
        enter(demo, "2468")
        assert screen(app) == "referee"
        text = " ".join(shown(app))
        state = demo.control.game.state
        for colour, card in state.daimyo.items():
            assert any(n in text for n in cards[card]), (colour, card)
        assert "chose the Daimyo card" in text and "(9)" in text and "(5.I.1)" in text
        demo.tap("Lock and leave")
        assert screen(app) == "start"
        demo.tap("Resume the game")
        demo.play()
        demo.finish()
    finally:
        app.close()
    assert on_referee  # the referee's page named the hidden cards ...
    assert not leaks, leaks[:3]  # ... and no other screen did


def test_verify_says_the_game_checks_out_and_names_an_edited_entry(tmp_path: Path) -> None:
    app = make(tmp_path, seed=3)
    try:
        demo = TenkaDemo(app, seed=3)
        demo.start(players=2, advanced=False)
        for _ in range(3):
            demo.step()
        demo.tap("Menu")
        demo.tap("Referee")
        enter(demo, "9753")
        enter(demo, "9753")
        demo.tap("Verify this game")
        text = " ".join(shown(app))
        # the start and three turns, each one command and its events
        assert re.search(r"This game checks out: 4 entries, 4 commands re-adjudicated by the "
                         r"rules, 0 corrections, hash chain intact", text), text
        db = sqlite3.connect(tmp_path / "games.sqlite")
        db.execute("UPDATE entries SET at = '2001-01-01T00:00:00+0000' WHERE seq = 2")
        db.commit()
        db.close()
        demo.tap("Verify this game")
        assert any(s.startswith("The record does not hold at entry 2") for s in shown(app))
    finally:
        app.close()


def test_an_unsaved_game_has_no_record_to_verify(tmp_path: Path) -> None:
    (tmp_path / "games.sqlite").write_bytes(b"not a database" * 100)
    app = make(tmp_path, seed=1)
    try:
        demo = TenkaDemo(app, seed=1)
        demo.tap("Referee")
        enter(demo, "1234")
        enter(demo, "1234")
        demo.tap("Verify this game")
        assert any(s.startswith("This game is not being saved") for s in shown(app))
    finally:
        app.close()


def test_the_hardware_check_lists_the_hubs_and_the_places_they_read(tmp_path: Path) -> None:
    app = make(tmp_path, seed=0)
    try:
        demo = TenkaDemo(app, seed=0)
        demo.tap("Hardware check")
        assert screen(app) == "hardware"
        demo.wait(lambda: "Hardware check: All readers answer" in shown(app),
                  "every antenna to report", timeout=15)
        pages = []
        while True:
            pages += shown(app)
            if app.app.find("Next page") is None or not app.app.tap("Next page"):
                break
        assert any(s.startswith("2 hubs, 32 antennas, none dead") for s in pages)
        assert any(s.startswith("hub hub-1 on ") for s in pages)
        assert any(s.startswith("hub hub-2 on ") for s in pages)
        for place in ("Kyō (Kyoto)", "Red's reserve", "Black's reserve"):
            assert place in pages, place  # named as the game names them
        assert any(s.endswith("reads/s") for s in pages)
        demo.tap("Back")
        assert screen(app) == "start"
    finally:
        app.close()
