"""The screens around a game, driven by simulated touches: start, the referee's screen behind its
PIN (set on the first visit), the hardware check."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_helpers import app_options, screen, shown

from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo


@pytest.fixture
def table_app(tmp_path: Path) -> Iterator[TableApp]:
    options = app_options(tmp_path, rate_hz=20)
    app = TableApp(options)
    try:
        yield app
    finally:
        app.close()


def enter(demo: Demo, pin: str) -> None:
    for digit in pin:
        demo.tap(digit)
    demo.tap("OK")


def test_the_referee_screen_needs_the_pin_set_on_the_first_visit(
        table_app: TableApp, tmp_path: Path) -> None:
    demo = Demo(table_app, seed=0)
    demo.start()
    demo.tap("Menu")
    demo.tap("Referee")
    assert screen(table_app) == "referee-pin"
    assert "Set a referee PIN (4 to 8 digits)" in shown(table_app)
    enter(demo, "2468")
    assert "Confirm the new referee PIN" in shown(table_app)
    enter(demo, "2468")
    assert screen(table_app) == "referee"
    text = " ".join(shown(table_app))
    assert "hidden blocks shown" in text
    assert "I01" in text or "T01" in text  # the referee sees block ids and faces
    assert "2468" not in (tmp_path / "pin.json").read_text()  # a salted hash only
    demo.tap("Lock and leave")
    assert screen(table_app) == "start"
    demo.tap("Referee")
    assert "Referee PIN" in shown(table_app)
    enter(demo, "1111")
    assert "Wrong PIN" in shown(table_app) or any("Wait" in s for s in shown(table_app))
    assert screen(table_app) == "referee-pin"


def test_verify_this_game_on_the_referee_screen_checks_the_record(
        table_app: TableApp, tmp_path: Path) -> None:
    """"Verify this game" re-adjudicates the stored record and says so; an entry edited in the
    database is named (8)."""
    demo = Demo(table_app, seed=0)
    demo.start()
    demo.tap("Menu")
    demo.tap("Referee")
    enter(demo, "2468")
    enter(demo, "2468")
    demo.tap("Verify this game")
    text = " ".join(shown(table_app))
    assert "This game checks out:" in text and "hash chain intact" in text, text
    db = sqlite3.connect(tmp_path / "games.sqlite")
    db.execute("UPDATE entries SET at = '2001-01-01T00:00:00+0000' WHERE seq = 1")
    db.commit()
    db.close()
    demo.tap("Verify this game")
    assert any(s.startswith("The record does not hold at entry 1") for s in shown(table_app))


def test_the_start_screen_offers_resume_once_a_game_is_under_way(table_app: TableApp) -> None:
    demo = Demo(table_app, seed=0)
    assert "Resume the game" not in shown(table_app)
    demo.start()
    demo.tap("Menu")
    assert "Resume the game" in shown(table_app)
    demo.tap("Resume the game")
    assert screen(table_app) == "setup"


def test_the_hardware_check_lists_every_hub_and_antenna(table_app: TableApp) -> None:
    demo = Demo(table_app, seed=0)
    demo.tap("Hardware check")
    assert screen(table_app) == "hardware"
    demo.wait(lambda: "Hardware check: All readers answer" in shown(table_app),
              "every antenna to report", timeout=15)
    text = shown(table_app)
    assert any(line.startswith("hub hub-1 on ") for line in text)
    demo.tap("Back")
    assert screen(table_app) == "start"


def _app(tmp_path: Path, db: Path) -> TableApp:
    options = app_options(tmp_path)
    options.db = db
    return TableApp(options)


def test_a_game_survives_a_restart_and_resumes_where_it_stood(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = _app(tmp_path, db)
    try:
        demo = Demo(first, seed=5)
        demo.start()
        for _ in range(4):
            demo.step()
        events = first.control.events
        step = next(s for s in shown(first) if s.startswith("Set-up: step"))
    finally:
        first.close()  # the power goes off
    second = _app(tmp_path, db)
    try:
        assert "Resume the game" in shown(second)
        again = Demo(second, seed=5)
        again.tap("Resume the game")
        assert screen(second) == "setup"
        again.wait(lambda: step in shown(second), "the table to be read again")
        assert second.control.events == events  # rebuilt by re-adjudicating every command
    finally:
        second.close()


def test_a_store_that_cannot_be_opened_is_said_and_a_game_can_still_be_played(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    table_app = _app(tmp_path, db)
    try:
        text = " ".join(shown(table_app))
        assert "Games cannot be saved" in text and "New game without saving" in text
        Demo(table_app, seed=0).tap("New game without saving")
        assert screen(table_app) == "setup"
        assert any(s.startswith("Not saving this game") for s in shown(table_app))
    finally:
        table_app.close()


def test_a_command_the_store_cannot_save_is_not_applied_and_said(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    table_app = _app(tmp_path, db)
    try:
        demo = Demo(table_app, seed=1)
        demo.play(1, until=lambda: demo.state.phase.value == "bid")
        blocker = sqlite3.connect(db, timeout=0.1, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        before = len(table_app.control.events)
        label = next(t.label for t in table_app.app.targets if "(bid " in t.label)
        demo.tap(label)
        assert len(table_app.control.events) == before
        assert any(s.startswith("Not saved:") for s in shown(table_app))
        blocker.execute("ROLLBACK")
        blocker.close()
        demo.tap("OK")
        demo.tap(label)
        assert len(table_app.control.events) > before
    finally:
        table_app.close()
