"""``companion run`` with both games installed: the first screen asks which game is on the table,
then that game's start screen, whose "Change game" goes back to the choice; ``--game`` skips it
(issue 11). The app loop is driven by a script of taps on what the screens draw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from ui.cli import installed_games
from ui.shell.app import App


@pytest.fixture
def taps(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[list[str | None],
                                                                         list[tuple[str, str]]]]:
    """Each time an app's loop runs, tap the next label of the script (None: close the window);
    record the screen shown and its heading."""
    script: list[str | None] = []
    seen: list[tuple[str, str]] = []
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def run(app: App) -> None:
        app.pump()
        app.draw()
        seen.append((app.painter.screen, app.drawn[0][1] if app.drawn else ""))
        label = script.pop(0)
        if label is None:
            app.running = False
            return
        assert app.tap(label), f"no {label!r} on {seen[-1]}"
        assert not app.running, f"{label!r} did not leave the loop"

    monkeypatch.setattr(App, "run", run)
    yield script, seen
    assert not script


def _run(tmp_path: Path, *extra: str) -> int:
    return main(["run", "--headless", "--hubs", "sim", "--rate", "20",
                 "--db", str(tmp_path / "games.sqlite"), *extra])


def test_the_three_games_are_installed() -> None:
    assert [g.key for g in installed_games()] == ["kensei", "sekigahara", "tenka-meidou"]


def test_the_choice_leads_to_each_game_and_change_game_comes_back(
        tmp_path: Path, taps: tuple[list[str | None], list[tuple[str, str]]]) -> None:
    script, seen = taps
    script += ["Tenka Meidou", "Change game", "Sekigahara", "Change game", None]
    assert _run(tmp_path) == 0
    assert seen == [("choose-game", "Which game is on the table?"),
                    ("start", "Tenka Meidou"),
                    ("choose-game", "Which game is on the table?"),
                    ("start", "Sekigahara"),
                    ("choose-game", "Which game is on the table?")]


def test_game_skips_the_choice(tmp_path: Path,
                               taps: tuple[list[str | None], list[tuple[str, str]]]) -> None:
    script, seen = taps
    script += [None]
    assert _run(tmp_path, "--game", "tenka-meidou") == 0
    assert seen == [("start", "Tenka Meidou")]


def test_closing_the_choice_ends_the_app(tmp_path: Path,
                                         taps: tuple[list[str | None], list[tuple[str, str]]]
                                         ) -> None:
    script, seen = taps
    script += [None]
    assert _run(tmp_path) == 0
    assert [name for name, _ in seen] == ["choose-game"]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (720, 1280)])
def test_the_choice_has_finger_sized_buttons_on_the_screen(size: tuple[int, int]) -> None:
    from ui.shell.chooser import ChooserScreen

    app = App(size)
    chosen: list[str] = []
    try:
        app.show(ChooserScreen(installed_games(), chosen.append))
        app.draw()
        bounds = app.window.get_rect()
        games = [t for t in app.targets if t.action is not None]
        assert [t.label for t in games] == ["Kensei", "Sekigahara", "Tenka Meidou"]
        for target in games:
            assert bounds.contains(target.rect)
            assert min(target.rect.size) >= 2 * app.theme.target
        app.tap("Tenka Meidou")
        assert chosen == ["tenka-meidou"]
    finally:
        app.close()
