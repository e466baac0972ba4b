"""No game lost to a tap (issue 15): "New game" asks first while a game is unfinished and says
it stays saved; the Saved games page resumes the game chosen; the feed is back on resume."""

from __future__ import annotations

from pathlib import Path

from test_ui_tenka_saved import _app as tenka_app
from ui_helpers import app_options, screen, shown

from companion.core.store import Store
from companion.games.sekigahara import records
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo
from ui.tenka_meidou.demo import TenkaDemo


def said(app: TableApp) -> list[str]:
    """The feed's rulings, as the shared screen was told them."""
    return [line.text for line in app.control.snapshot().feed if line.kind == "command"]


def test_new_game_asks_first_and_the_saved_games_page_resumes_the_game_chosen(
        tmp_path: Path) -> None:
    app = TableApp(app_options(tmp_path))
    try:
        demo = Demo(app, seed=4)
        demo.play(1, until=lambda: demo.state.phase.value == "bid")
        first_id, first_events, first_feed = app.game_id, app.control.events, said(app)
        assert first_feed and first_feed[-1].startswith("Week 1")
        demo.tap("Menu")
        assert "Saved games" not in shown(app)  # the only game is the one under way
        demo.tap("New game")
        assert screen(app) == "confirm-new-game"
        text = " ".join(shown(app))
        assert "Week 1, turn A: bidding, started " in text
        assert "It stays saved: resume it any time from \u201cSaved games\u201d" in text
        demo.tap("Back")  # nothing happened
        assert screen(app) == "start" and app.control.events == first_events
        demo.tap("New game")
        demo.tap("Start a new game")
        assert app.game_id is not None and app.game_id != first_id
        # the last game's blocks, still read on the map, never pass for set-up placements
        demo.wait(lambda: not app.control.snapshot().settling, "the table")
        for _ in range(20):
            app.app.pump(50)
        setup = app.control.snapshot().prompt.setup
        assert app.control.game.state.phase.value == "setup", app.control.game.state.phase
        assert setup is not None and setup.done == 0
        assert app.store is not None and len(app.store.unfinished("sekigahara")) == 2
        second_id = app.game_id
        demo.tap("Menu")
        demo.tap("Saved games")
        assert screen(app) == "saved-games"
        rows = [t.label for t in app.app.targets if "started " in t.label]
        assert len(rows) == 1 and rows[0].startswith("Week 1, turn A: bidding \u00b7 started ")
        assert "last played" in rows[0]
        demo.tap(rows[0])
        assert screen(app) == "bidding" and app.game_id == first_id
        assert app.control.events == first_events
        assert said(app) == first_feed  # the feed as it was shown
        assert first_feed[-1] in shown(app)
        ok, verdict = app.verify()
        assert ok, verdict
        # the other game is on the page now, and resumes too
        demo.tap("Menu")
        demo.tap("Saved games")
        rows = [t.label for t in app.app.targets if "started " in t.label]
        assert len(rows) == 1
        demo.tap(rows[0])
        assert app.game_id == second_id
    finally:
        app.close()


def test_the_feed_is_back_after_a_restart(tmp_path: Path) -> None:
    first = TableApp(app_options(tmp_path))
    try:
        demo = Demo(first, seed=6)
        demo.play(1, until=lambda: demo.state.phase.value == "movement")
        feed = said(first)
    finally:
        first.close()  # the power goes off
    second = TableApp(app_options(tmp_path))
    try:
        assert screen(second) == "start"
        Demo(second, seed=6).tap("Resume the game")
        assert said(second) == feed
        assert feed[-1] in shown(second)
    finally:
        second.close()


def test_tenka_new_game_asks_first_and_saved_games_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    app = tenka_app(tmp_path, db)
    try:
        demo = TenkaDemo(app, seed=3)
        demo.start(players=2, advanced=False)
        demo.step()
        first_id, events = app.game_id, app.control.events
        feed = app.control.snapshot().feed
        demo.tap("Menu")
        demo.tap("New game")
        assert app.app.painter.screen == "confirm-new-game"
        text = " ".join(t for _s, t in app.app.drawn)
        assert "2 players, basic game: 1 turn played" in text and "stays saved" in text
        demo.tap("Start a new game")
        assert app.app.painter.screen == "setup"
        demo.tap("Back")  # no new game yet: the game under way is still followed
        assert app.game_id == first_id
        demo.start(players=3, advanced=False)  # New game, asked, then started
        assert app.game_id != first_id
        demo.tap("Menu")
        demo.tap("Saved games")
        rows = [t.label for t in app.app.targets if "started " in t.label]
        assert len(rows) == 1 and rows[0].startswith("2 players, basic game: 1 turn played")
        demo.tap(rows[0])
        assert app.game_id == first_id and app.control.events == events
        assert app.control.snapshot().feed == feed
    finally:
        app.close()


def test_an_app_on_a_database_another_app_holds_says_so_and_saves_nothing(
        tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    hold = ("import sys; from companion.core.inuse import DatabaseLock; "
            "DatabaseLock(sys.argv[1]).acquire(); print('held', flush=True); sys.stdin.read()")
    root = Path(__file__).resolve().parents[2]
    other = subprocess.Popen([sys.executable, "-c", hold, str(tmp_path / "games.sqlite")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(root)})
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        app = TableApp(app_options(tmp_path))
        try:
            text = " ".join(shown(app))
            assert "Games cannot be saved" in text
            assert f"is in use by another companion (pid {other.pid} on " in text
            assert app.store is None and "New game without saving" in text
        finally:
            app.close()
    finally:
        other.kill()
        other.wait(timeout=10)
    app = TableApp(app_options(tmp_path))  # the other app is gone: its lock went with it
    try:
        assert app.store is not None and "Games cannot be saved" not in " ".join(shown(app))
    finally:
        app.close()


def test_an_unreadable_saved_game_is_named_and_the_others_still_listed(tmp_path: Path) -> None:
    """A damaged or hostile database (issue 18): the Saved games page lists the games that can
    be read and says which cannot and why; "Resume the game" offers a readable one."""
    with Store.open(tmp_path / "games.sqlite") as store:
        good, _ = records.start(store)
        deep, _ = records.start(store)
        store._db.execute("INSERT INTO entries VALUES (?, 1, 'command', 'at', ?, 'p', 'h')",
                          (deep, "[" * 5000 + "]" * 5000))
        blob, _ = records.start(store)
        store._db.execute("UPDATE games SET finished = x'00ff' WHERE id = ?", (blob,))
    app = TableApp(app_options(tmp_path))
    try:
        demo = Demo(app, seed=4)
        assert "Resume the game" in shown(app)
        demo.tap("Saved games")
        assert screen(app) == "saved-games"
        rows = [t.label for t in app.app.targets if "started " in t.label or "read" in t.label]
        assert rows[0] == (f"This saved game cannot be read: stored game {blob}: finished is a "
                           "blob, not text")
        assert rows[1] == (f"This saved game cannot be read: stored game {deep}, entry 1: body "
                           "is nested more than 64 deep")
        assert rows[2].startswith("Not started \u00b7 started ") and len(rows) == 3
        assert f"stored game {deep}, entry 1: body is nested more than 64 deep" in shown(app)
        demo.tap(rows[1])
        assert app.game_id is None and app.app.banner == (
            f"That game cannot be read: stored game {deep}, entry 1: body is nested more than "
            "64 deep")
        demo.tap("OK")
        demo.tap("Back")
        assert screen(app) == "start"
        demo.tap("Resume the game")
        assert app.game_id == good
    finally:
        app.close()
