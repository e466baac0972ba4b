"""The seal on the public screen (issue 19, docs/referee.md, Seals): Sekigahara shows the seal
of the week just ended as the next week's bidding begins, Tenka Meidou the seal of the game with
the final score; each is the seal ``referee verify --seal`` checks the saved record against."""

from __future__ import annotations

from pathlib import Path

from test_ui_tenka_saved import _app as tenka_app
from ui_helpers import app_options, shown

from companion.core.seals import check_seals, parse_seal, seals
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo
from ui.tenka_meidou.demo import TenkaDemo


def _seal_lines(lines: list[str]) -> list[str]:
    return [s for s in lines if s.startswith("Seal of ")]


def test_sekigahara_shows_the_seal_of_week_1_as_week_2_begins(tmp_path: Path) -> None:
    app = TableApp(app_options(tmp_path))
    try:
        demo = Demo(app, seed=3)
        demo.play(1, until=lambda: demo.state.phase.value == "bid")
        assert _seal_lines(shown(app)) == []  # week 1 has not ended yet
        demo.play(2, until=lambda: demo.state.week == 2 and demo.state.phase.value == "bid")
        assert app.store is not None and app.game_id is not None
        log = app.store.load(app.game_id)
        week1 = seals(log)[0]
        assert week1.label == "week 1"
        text = shown(app)
        assert _seal_lines(text) == [f"Seal of week 1: {week1.code}"]
        assert any(s.startswith("Write it on your score sheet") for s in text)
        assert check_seals(log, [parse_seal(f"week 1={week1.code}")]) is None
    finally:
        app.close()


def test_tenka_meidou_shows_the_seal_of_the_game_with_the_final_score(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    app = tenka_app(tmp_path, db)
    try:
        demo = TenkaDemo(app, seed=3)
        demo.start(players=3, advanced=False)
        demo.play()
        demo.finish()
        assert app.app.painter.screen == "score"
        assert app.saved.store is not None and app.game_id is not None
        log = app.saved.store.load(app.game_id)
        (game,) = seals(log)
        assert game.entry == log.entries[-1].seq
        assert _seal_lines(shown(app)) == [f"Seal of the game: {game.code}"]
        assert log.summary.finished == log.entries[-1].at
    finally:
        app.close()
