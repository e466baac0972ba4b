"""The first screen when more than one game is installed: "Which game is on the table?"

Game-neutral: the caller (``companion run``, :mod:`ui.cli`) gives the games' names and a line
on each; the shell knows none of them. One big button per game; the choice is handed to
``choose`` and the caller starts that game's app. Each game's start screen offers
"Change game" to come back here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from ui.shell import theme as th
from ui.shell.app import App
from ui.shell.canvas import Canvas, column, grid


@dataclass(frozen=True)
class GameChoice:
    key: str
    """What the caller knows the game by (``tenka-meidou``)."""
    title: str
    """What the players read ("Tenka Meidou")."""
    line: str = ""
    """One line under the title (players, pieces)."""


@dataclass
class ChooserScreen:
    games: Sequence[GameChoice]
    choose: Callable[[str], None]
    note: str = ""
    """One line under the question (which readers, say)."""
    name: str = "choose-game"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text("Which game is on the table?", (r.centerx, t.gap * 3),
                        size=t.title * 3 // 2, bold=True, anchor="midtop", colour=th.GOLD,
                        width=r.width - 4 * t.gap).bottom
        if self.note:
            y = canvas.text(self.note, (r.centerx, y + t.gap), size=t.small, colour=th.DIM,
                            anchor="midtop", width=r.width - 4 * t.gap).bottom
        top = y + 3 * t.gap
        area = pygame.Rect(2 * t.gap, top, r.width - 4 * t.gap, r.bottom - top - 2 * t.gap)
        count = max(1, len(self.games))
        if t.portrait or count > 3:  # one above the other
            height = min(3 * t.target, (area.height - (count - 1) * t.gap) // count)
            cells = column(pygame.Rect(area.x, area.y, area.width,
                                       count * (height + t.gap) - t.gap), count, t.gap)
        else:  # side by side, in the middle of what is left
            height = min(4 * t.target, area.height)
            top = area.y + max(0, (area.height - height) // 3)
            cells = grid(pygame.Rect(area.x, top, area.width, height), count, count, 2 * t.gap,
                         height)
        for cell, game in zip(cells, self.games, strict=True):
            self._game(canvas, cell, game)

    def _game(self, canvas: Canvas, cell: pygame.Rect, game: GameChoice) -> None:
        t = canvas.theme
        canvas.fill(th.PANEL_HI, cell, radius=t.gap)
        title = canvas.text(game.title, (cell.centerx, cell.centery - t.gap // 2),
                            size=t.title, bold=True, anchor="midbottom")
        if game.line:
            canvas.text(game.line, (cell.centerx, title.bottom + t.gap), size=t.small,
                        colour=th.DIM, anchor="midtop", width=cell.width - 2 * t.gap,
                        max_lines=2)
        canvas.tap_area(cell, game.title, lambda: self.choose(game.key))


def choose_game(app: App, games: Sequence[GameChoice], note: str = "") -> str | None:
    """Show the choice in ``app`` and run its loop until a game is tapped (its key) or the
    window is closed (None)."""
    chosen: list[str] = []

    def choose(key: str) -> None:
        chosen.append(key)
        app.running = False

    app.running = True
    app.show(ChooserScreen(games, choose, note))
    app.run()
    return chosen[0] if chosen else None
