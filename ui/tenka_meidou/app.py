"""The Tenka Meidou table app: the game, its screens and (on a desktop) the virtual table.

The shell (:mod:`ui.shell`) holds the window, the loop, touch and the recorder; this module puts
Tenka Meidou's parts in it. The pawns' readers are stood in for by the virtual table, which
reports to the same :class:`~ui.tenka_meidou.sightings.Sightings` adapter a reader bridge will.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pygame

from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.state import Phase
from ui.shell.app import App, panel_size
from ui.tenka_meidou.control import TenkaControl
from ui.tenka_meidou.screens import PlayScreen, RulesScreen, SetupScreen, StartScreen
from ui.tenka_meidou.virtual_table import VirtualTable


@dataclass
class TenkaOptions:
    size: tuple[int, int] = (800, 480)
    diagonal_in: float = 7.0
    kiosk: bool = False
    seed: int = 0
    """Seeds the shuffle of the castle tokens and the card offers."""
    virtual_table: bool = True


class TenkaApp:
    def __init__(self, options: TenkaOptions) -> None:
        self.options = options
        if options.kiosk and not os.environ.get("DISPLAY") and not os.environ.get(
                "WAYLAND_DISPLAY"):
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
        pygame.display.init()
        self.control = TenkaControl(seed=options.seed)
        self.virtual = VirtualTable(self.control.sightings)
        self.control.on_start = self.virtual.lay_out
        size = options.size
        if options.kiosk:
            info = pygame.display.Info()
            size = (info.current_w, info.current_h) if info.current_w > 0 else size
        show_table = options.virtual_table and not options.kiosk
        self.app = App(size, panel_size=panel_size(size) if show_table else None,
                       diagonal_in=options.diagonal_in, fullscreen=options.kiosk,
                       title="Tenka Meidou table companion")
        if options.kiosk:
            pygame.mouse.set_visible(False)
        if show_table:
            self.app.panel = self.virtual
        self.play = PlayScreen(self.control, self.show_start)
        self.show_start()

    def show_start(self) -> None:
        phase = self.control.game.state.phase
        under_way = phase not in (Phase.SETUP, Phase.OVER)
        self.app.show(StartScreen(self.new_game, self.back_to_game if under_way else None,
                                  self.show_rules))

    def show_rules(self) -> None:
        self.app.show(RulesScreen(self.show_start))

    def new_game(self) -> None:
        self.app.show(SetupScreen(self.start_game, self.show_start))

    def start_game(self, players: tuple[Colour, ...], advanced: bool) -> None:
        rejected = self.control.new_game(players, advanced)
        if rejected is not None:
            self.app.say(f"{rejected.message} ({rejected.rule})")
            return
        self.play.reset()
        self.app.show(self.play)

    def back_to_game(self) -> None:
        self.app.show(self.play)

    def run(self) -> None:
        try:
            self.app.run()
        finally:
            self.app.close()

    def close(self) -> None:
        self.app.close()
