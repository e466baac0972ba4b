"""Tenka Meidou games saved in the store (issue 11): resumed after a restart with the virtual
table laid out as the rules have it, and a store that cannot be opened said on the start screen
with the same choices as Sekigahara's."""

from __future__ import annotations

from pathlib import Path

from ui_helpers import shown

from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo


def _app(tmp_path: Path, db: Path, seed: int = 3) -> TenkaApp:
    return TenkaApp(TenkaOptions(seed=seed, virtual_table=False, hubs=["sim"],
                                 rate_hz=DEMO_RATE_HZ, settle_s=DEMO_SETTLE_S,
                                 workdir=tmp_path / "run", db=db))


def test_a_game_survives_a_restart_and_resumes_where_it_stood(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    first = _app(tmp_path, db)
    try:
        demo = TenkaDemo(first, seed=3)
        assert "Resume the game" not in shown(first)
        assert any(s.startswith("Readers: simulated readers (2 virtual hubs)")
                   for s in shown(first))
        demo.start(players=3, advanced=False)
        for _ in range(5):
            demo.step()
        events = first.control.events
        state = demo.state
        status = [s for s in shown(first) if " left" in s]
    finally:
        first.close()  # the power goes off
    second = _app(tmp_path, db)
    try:
        assert "Resume the game" in shown(second)
        again = TenkaDemo(second, seed=3)
        again.tap("Resume the game")
        assert second.app.painter.screen == "board"
        assert second.control.events == events  # rebuilt by re-adjudicating every command
        assert again.state == state
        assert [s for s in shown(second) if " left" in s] == status
        # the table is laid out as the rules have it, and the readers agree: no discrepancy
        again.settled()
        again.wait(lambda: second.control.snapshot().table == (), "the readers to agree")
        assert not second.control.put_back()
        # and play goes on, through the readers
        again.play()
        again.finish()
        assert second.app.painter.screen == "score"
    finally:
        second.close()
    third = _app(tmp_path, db)
    try:  # a finished game is not offered again
        assert "Resume the game" not in shown(third)
    finally:
        third.close()


def test_a_store_that_cannot_be_opened_is_said_and_a_game_can_still_be_played(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    app = _app(tmp_path, db)
    try:
        text = " ".join(shown(app))
        assert "Games cannot be saved" in text and "is damaged" in text
        assert "Try saving again" in text and "New game without saving" in text
        demo = TenkaDemo(app, seed=0)
        demo.tap("New game without saving")
        assert app.app.painter.screen == "setup"
        assert any(s.startswith("Not saving this game") for s in shown(app))
        for colour in ("Red", "Blue"):
            demo.tap(colour)
        demo.tap("OK")  # the notice lies over the bottom bar (and opens in full if cut)
        demo.tap("Start the game")
        assert app.app.painter.screen == "board"
        assert any(s.startswith("Not saving this game") for s in shown(app))
        demo.step()  # a turn, through the readers
        assert len(app.control.events) == 2
    finally:
        app.close()
