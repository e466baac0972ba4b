"""What every game's table app shares: its options, the window, the game the bridge serves,
the readers' work directory, and the way out (run, close, "Change game").

A game's app (:class:`ui.sekigahara.app.TableApp`, :class:`ui.tenka_meidou.app.TenkaApp`)
derives from :class:`GameTableApp`, calls :meth:`GameTableApp._serve` first (the bridge serves
that game in this process, :func:`firmware_bridge.zones.use_table`), opens its readers and
control, then :meth:`GameTableApp._open_window`. This module sits in ``ui`` rather than
``ui.shell`` because it reaches the bridge; it imports no game.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pygame

from companion.core.paths import config_dir, default_pin_path
from companion.core.records import LogRefused
from companion.core.store import GameLog, StoreError
from firmware_bridge.tablelink import check_readers, default_workdir, remove_workdir
from firmware_bridge.zones import active_table, use_table
from ui.shell.app import App, Screen, panel_size
from ui.shell.saving import ConfirmNewGame, SavedGames, SavedGamesScreen

G = TypeVar("G")


@dataclass
class TableOptions:
    """How to run a game's table app: ``companion run`` parses its arguments into one."""

    size: tuple[int, int] = (800, 480)
    hubs: Sequence[str] = ("auto",)
    kiosk: bool = False
    diagonal_in: float = 7.0
    rate_hz: int = 10
    time_model: bool = False
    """Simulated hubs read at the air-time model's pace and keep the schedule (benchmarks)."""
    instr_us: float = 250.0
    """With ``time_model``: the hubs' cost per SPI instruction (us)."""
    seed: int = 0
    """Seeds what the app shuffles (and the simulator)."""
    config: Path = field(default_factory=config_dir)
    """Where the wiring map and tag registry of real hubs are."""
    pin_file: Path = field(default_factory=default_pin_path)
    """The referee PIN (one file for every game: one referee, one PIN)."""
    workdir: Path | None = None
    virtual_table: bool = True
    """Draw the virtual table beside the screen when the readers are simulated."""
    desktop: tuple[int, int] | None = None
    """The desktop the window must fit (default: the display's own)."""
    settle_s: float = 0.3
    """Pieces set down are ruled once they have rested this long and a later full read of the
    place still lists them (the settle rule, firmware_bridge/tracking.py)."""
    db: Path | None = None
    """The game database (default: the data directory's games.sqlite)."""
    change_game: bool = False
    """Offer "Change game" on the start screen (``companion run`` with more than one game):
    it closes this game and goes back to the game choice (:attr:`GameTableApp.changing`)."""


class GameTableApp:
    """The parts of a table app that do not depend on the game. ``run()`` blocks until the
    window is closed or the players ask for the game choice (:attr:`changing`)."""

    options: TableOptions
    app: App
    saved: SavedGames
    play: Screen
    workdir: Path
    changing: bool
    game_id: int | None

    def _serve(self, options: TableOptions, game: str) -> None:
        """Before the readers open: the readers checked (:class:`~firmware_bridge.tablelink.
        ReadersUnavailable` before anything is made, for ``companion run``'s start-up screen),
        the display driver, the game the bridge serves (given back on :meth:`close`, so tests
        can run both games in one process) and the work directory."""
        check_readers(options.hubs, options.config)
        self.options = options
        self.changing = False
        if options.kiosk and not os.environ.get("DISPLAY") and not os.environ.get(
                "WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")  # a Pi with no desktop
        pygame.display.init()
        self._served = active_table()
        use_table(game)
        self._own_workdir = options.workdir is None
        self.workdir = options.workdir or default_workdir()

    def _open_window(self, title: str, simulated: bool) -> bool:
        """The window (full screen on a kiosk, exactly the panel); True when the virtual table
        is drawn beside or below the screen (simulated readers on a desktop): the window then
        fits the desktop (:func:`ui.shell.window.fit`)."""
        options = self.options
        size = options.size
        if options.kiosk:
            info = pygame.display.Info()
            size = (info.current_w, info.current_h) if info.current_w > 0 else size
        show_table = simulated and options.virtual_table and not options.kiosk
        self.app = App(size, panel_size=panel_size(size) if show_table else None,
                       diagonal_in=options.diagonal_in, fullscreen=options.kiosk, title=title,
                       desktop=options.desktop)
        if options.kiosk:
            pygame.mouse.set_visible(False)
        return show_table

    def _load_saved(self, load: Callable[[], tuple[int, G]]) -> G | None:
        """A stored game re-adjudicated by ``load`` (the game's ``records.resume``), now the
        game being saved to; None, said on the screen, when its record is refused or cannot be
        read (8)."""
        try:
            game_id, game = load()
        except LogRefused as exc:
            self.app.say(f"That game cannot be resumed: {exc.public()}")
            return None
        except StoreError as exc:
            self.app.say(f"That game cannot be read: {exc.message}")
            return None
        self.game_id = game_id
        return game

    # ------------------------------------------------------------------ saved games

    title: str
    """The game's name, as the Saved games page heads it."""

    def _progress(self, log: GameLog) -> str:
        """How far a stored game got, in a few words (the game's ``records.progress``)."""
        raise NotImplementedError

    def _under_way(self) -> bool:
        """A game is followed and not over."""
        raise NotImplementedError

    def resume(self, game_id: int) -> None:
        raise NotImplementedError

    def show_start(self) -> None:
        raise NotImplementedError

    def new_game(self) -> None:
        raise NotImplementedError

    def new_game_unsaved(self) -> None:
        raise NotImplementedError

    def show_saved_games(self) -> None:
        """Every unfinished game: a tap resumes it (the game under way stays saved)."""
        games = [g for g in self.saved.saved_games(self._progress)
                 if not (self._under_way() and g.id == self.game_id)]
        self.app.show(SavedGamesScreen(self.title, games, self.resume, self.show_start))

    def _unfinished(self) -> tuple[str, bool] | None:
        """The unfinished game "New game" would leave: in a few words, and whether it is
        saved (a game played without saving has no id); None when there is none."""
        if self._under_way():
            if self.game_id is None:
                return "the game under way", False
            said = self.saved.describe(self.game_id, self._progress)
            return said or "the game under way", True
        latest = self.saved.latest()
        if latest is None:
            return None
        return self.saved.describe(latest.id, self._progress) or "a saved game", True

    def ask_new_game(self) -> None:
        """"New game": asks first while a game is unfinished, saying what becomes of it."""
        self._ask(self.new_game)

    def ask_new_game_unsaved(self) -> None:
        self._ask(self.new_game_unsaved)

    def _ask(self, start: Callable[[], None]) -> None:
        unfinished = self._unfinished()
        if unfinished is None:
            start()
            return
        said, saved = unfinished
        self.app.show(ConfirmNewGame(said, start, self.show_start, saved=saved))

    # ------------------------------------------------------------------ leaving

    def change_game(self) -> None:
        """Back to the game choice: the loop ends and ``companion run`` shows the choice."""
        self.changing = True
        self.app.running = False

    def show_tournament(self) -> None:
        """The tournament setting: the table's URL, joined or left (docs/tournament.md)."""
        from ui.shell.tournament_screen import TournamentScreen

        self.app.show(TournamentScreen(self.options.db, self.show_start))

    def back_to_game(self) -> None:
        self.app.show(self.play)

    def run(self) -> None:
        try:
            self.app.run()
        finally:
            self.close()

    def _stop_readers(self) -> None:
        """Stop the game's control (bridge, session, simulator)."""
        raise NotImplementedError

    def close(self) -> None:
        self._stop_readers()
        self.app.close()
        self.saved.close()
        if self._own_workdir:
            remove_workdir(self.workdir)
        use_table(self._served)
