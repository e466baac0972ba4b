"""The Sekigahara table app: readers, game, screens and (with the simulator) the virtual table.

:class:`TableApp` puts the parts together: it opens the readers (real hubs, or the built-in
simulator when none is plugged in), starts the bridge and the table session on a game, and shows
the start screen. With the simulator on a desktop, the virtual table is drawn beside the screen:
blocks dragged there are read by the simulated hubs exactly as real blocks would be.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from companion.core.paths import default_pin_path
from companion.core.pin import RefereePin
from companion.games.sekigahara.components import Side, default_blocks, default_board
from ui.sekigahara.control import TableControl, default_workdir, open_readers, weekly_history
from ui.sekigahara.ending import History, WeekPoint
from ui.sekigahara.menus import HardwareScreen, RefereeScreen, StartScreen
from ui.sekigahara.parts import victory_points
from ui.sekigahara.play import PlayScreen
from ui.sekigahara.virtual_table import VirtualTable
from ui.shell.app import App

log = logging.getLogger(__name__)

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "1280x720": (1280, 720),
         "720x1280": (720, 1280)}


@dataclass
class Options:
    """How to run: ``companion run`` parses its arguments into one of these."""

    size: tuple[int, int] = (800, 480)
    hubs: Sequence[str] = ("auto",)
    kiosk: bool = False
    diagonal_in: float = 7.0
    rate_hz: int = 10
    seed: int = 0
    config: Path = field(default_factory=lambda: Path.home() / ".config" / "sekigahara-companion")
    pin_file: Path = field(default_factory=default_pin_path)
    workdir: Path | None = None
    virtual_table: bool = True
    """Draw the virtual table beside the screen when the readers are simulated."""


def panel_size(screen: tuple[int, int]) -> tuple[int, int]:
    """The virtual table's size: as large as the desktop allows beside the screen."""
    try:
        desktop = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        desktop = (1920, 1080)
    width = max(640, min(1000, desktop[0] - screen[0] - 40))
    height = max(screen[1], min(int(width * 0.72), desktop[1] - 80))
    return width, height


class TableApp:
    """See the module docstring. ``run()`` blocks until the window is closed."""

    def __init__(self, options: Options) -> None:
        self.options = options
        if options.kiosk and not os.environ.get("DISPLAY") and not os.environ.get(
                "WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")  # a Pi with no desktop
        pygame.display.init()
        self._own_workdir = options.workdir is None
        workdir = self.workdir = options.workdir or default_workdir()
        readers = open_readers(options.hubs, options.config, workdir, options.rate_hz,
                               options.seed)
        self.control = TableControl(readers)
        size = options.size
        if options.kiosk:
            info = pygame.display.Info()
            size = (info.current_w, info.current_h) if info.current_w > 0 else size
        simulated = readers.simulated is not None
        show_table = simulated and options.virtual_table and not options.kiosk
        self.app = App(size, panel_size=panel_size(size) if show_table else None,
                       diagonal_in=options.diagonal_in, fullscreen=options.kiosk,
                       title="Sekigahara table companion")
        if options.kiosk:
            pygame.mouse.set_visible(False)
        self.control.on_change = self.app.wake
        self.virtual: VirtualTable | None = None
        if readers.simulated is not None:
            self.virtual = VirtualTable(readers.simulated, default_board())
            if show_table:
                self.app.panel = self.virtual
        self.pin = RefereePin(options.pin_file)
        self.play = PlayScreen(self.app, self.control, self.show_start, history=self.history)
        self.control.start()
        self.show_start()

    # ------------------------------------------------------------------ screens

    def show_start(self) -> None:
        started = self.control.game.state.phase.value != "not_started"
        over = self.control.game.state.phase.value == "game_over"
        self.app.show(StartScreen(
            self.control, self.new_game, self.resume if started and not over else None,
            self.show_hardware, self.show_referee))

    def show_hardware(self) -> None:
        self.app.show(HardwareScreen(self.control, self.show_start))

    def show_referee(self) -> None:
        self.app.show(RefereeScreen(self.control, self.pin, self.show_start))

    def resume(self) -> None:
        self.app.show(self.play)

    def new_game(self) -> None:
        """A fresh game: the rules start it (5.1) and the set-up is guided from there (5.2)."""
        self.control.new_game()
        self.control.start_game()
        if self.virtual is not None:
            for block in default_blocks().blocks:
                self.virtual.place(block.id, "box")
            for side in Side:
                for block in self.control.bag_blocks(side):
                    self.virtual.to_bag(block, side)
        self.app.show(self.play)

    def history(self) -> History:
        weeks = []
        for week, view in weekly_history(self.control.events):
            castles = {s: sum(1 for c in view.castles.values() if c is s) for s in Side}
            weeks.append(WeekPoint(week, victory_points(view), castles, dict(view.hand)))
        return History(tuple(weeks))

    # ------------------------------------------------------------------ running

    def run(self) -> None:
        try:
            self.app.run()
        finally:
            self.close()

    def close(self) -> None:
        self.control.stop()
        self.app.close()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
