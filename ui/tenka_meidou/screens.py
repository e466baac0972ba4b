"""Tenka Meidou's screens before the game: the start screen, the set-up (who plays, the advanced
game) and the rules in short. The game itself, phase by phase, is :mod:`ui.tenka_meidou.play`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pygame

from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.rulebook import default_rules
from ui.shell import theme as th
from ui.shell import tournament
from ui.shell.canvas import Canvas, column, row
from ui.shell.pages import pager
from ui.shell.saving import game_entries
from ui.tenka_meidou.words import PAWN_FILL, TEXT_COLOUR, colour_name

# ---------------------------------------------------------------------------- start, set-up

@dataclass
class StartScreen:
    new_game: Callable[[], None] | None
    resume: Callable[[], None] | None
    rules: Callable[[], None] | None = None
    readers: str = ""
    """One line on the readers: the simulator or the hubs found."""
    problem: str | None = None
    """Why games cannot be saved now (the store), said on the screen."""
    retry: Callable[[], None] | None = None
    without_saving: Callable[[], None] | None = None
    hardware: Callable[[], None] | None = None
    referee: Callable[[], None] | None = None
    """Behind the referee PIN."""
    change_game: Callable[[], None] | None = None
    """Back to the game choice (when more than one game is installed)."""
    saved_games: Callable[[], None] | None = None
    """The Saved games page (ui.shell.saving), when an unfinished game is saved."""
    tournament: Callable[[], None] | None = None
    """The tournament setting (ui.shell.tournament_screen)."""
    name: str = "start"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text("Tenka Meidou", (r.centerx, t.gap * 3), size=t.title * 3 // 2,
                        bold=True, anchor="midtop").bottom
        y = canvas.text("Rumble Nation · 2 to 4 players · pawns, dice and castles",
                        (r.centerx, y + t.gap), size=t.small, colour=th.DIM,
                        anchor="midtop").bottom
        if self.readers:
            y = canvas.text(f"Readers: {self.readers}", (r.centerx, y), size=t.small,
                            colour=th.DIM, anchor="midtop").bottom
        if tournament.shown():
            y = canvas.text(str(tournament.shown()), (r.centerx, y), size=t.small,
                            anchor="midtop", colour=th.DIM, width=r.width - 4 * t.gap).bottom
        if self.problem:
            y = canvas.text(f"Games cannot be saved: {self.problem}", (r.centerx, y),
                            size=t.small, anchor="midtop", colour=th.WARN,
                            width=r.width - 4 * t.gap).bottom
        width = min(r.width - 4 * t.gap, 8 * t.target)
        entries = game_entries(self.resume, self.new_game, self.retry, self.without_saving,
                               self.saved_games)
        if self.rules is not None:
            entries.append(("The rules in short", self.rules, th.PANEL_HI))
        if self.hardware is not None:
            entries.append(("Hardware check", self.hardware, th.PANEL_HI))
        if self.referee is not None:
            entries.append(("Referee", self.referee, th.PANEL_HI))
        if self.tournament is not None:
            entries.append(("Tournament", self.tournament, th.PANEL_HI))
        if self.change_game is not None:
            entries.append(("Change game", self.change_game, th.PANEL))
        top = y + 2 * t.gap
        height = min(int(t.target * 1.4), (r.bottom - top - t.gap - t.gap * (len(entries) - 1))
                     // len(entries))
        area = pygame.Rect(r.centerx - width // 2, top, width,
                           len(entries) * (height + t.gap) - t.gap)
        for cell, (label, action, colour) in zip(column(area, len(entries), t.gap), entries,
                                                 strict=True):
            canvas.button(cell, label, action, colour=colour)


@dataclass
class SetupScreen:
    """Who plays (2-4 colours, in seating order clockwise from the first player) and whether
    it is the advanced game with Daimyo (sections 1, 3, 9)."""

    start: Callable[[tuple[Colour, ...], bool], None]
    back: Callable[[], None]
    seats: list[Colour] = field(default_factory=list)
    advanced: bool = False
    name: str = "setup"

    def tick_ms(self) -> int | None:
        return None

    def toggle(self, colour: Colour) -> None:
        if colour in self.seats:
            self.seats.remove(colour)
        elif len(self.seats) < 4:
            self.seats.append(colour)

    def flip(self) -> None:
        self.advanced = not self.advanced

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        x = 2 * t.gap
        width = r.width - 4 * t.gap
        y = canvas.text("New game of Tenka Meidou", (x, t.gap), size=t.title, bold=True).bottom
        y = canvas.text("Tap the colours playing, starting with the first player and going "
                        "clockwise round the table (1, 3).", (x, y + t.gap // 2), size=t.small,
                        width=width).bottom + t.gap
        height = int(t.target * 1.3)
        for cell, colour in zip(row(pygame.Rect(x, y, width, height), 4, t.gap), Colour,
                                strict=True):
            seat = self.seats.index(colour) + 1 if colour in self.seats else None
            label = colour_name(colour) + (f" · seat {seat}" if seat else "")
            ink = th.INK if colour in (Colour.RED, Colour.BLUE, Colour.BLACK) else th.BLACK_SIDE
            canvas.button(cell, label, partial(self.toggle, colour),
                          colour=PAWN_FILL[colour] if seat else th.PANEL_HI,
                          text_colour=ink if seat else TEXT_COLOUR[colour], selected=bool(seat))
        y += height + t.gap
        order = ", ".join(colour_name(c) for c in self.seats) or "nobody yet"
        count = f"{len(self.seats)} player{'s' if len(self.seats) != 1 else ''}"
        y = canvas.text(f"{count}: {order}", (x, y), size=t.body,
                        width=width).bottom + t.gap
        label = ("Advanced game with Daimyo: on" if self.advanced
                 else "Advanced game with Daimyo: off")
        canvas.button(pygame.Rect(x, y, width, t.target), label, self.flip,
                      selected=self.advanced)
        y += t.target + t.gap
        canvas.text("The app shuffles the castle tokens and deals the card offers; lay them "
                    "out as the board shows (3.2, 3.3).", (x, y), size=t.small, colour=th.DIM,
                    width=width, max_lines=2)
        bar = pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target)
        left, right = row(bar, 2, t.gap)
        canvas.button(left, "Back", self.back)
        ready = 2 <= len(self.seats) <= 4
        canvas.button(right, "Start the game",
                      partial(self.start, tuple(self.seats), self.advanced) if ready else None,
                      colour=th.ACCEPT)


@dataclass
class RulesScreen:
    """Every section's summary (the project's words), a page at a time."""

    back: Callable[[], None]
    page: int = 0
    name: str = "rules"

    def tick_ms(self) -> int | None:
        return None

    def turn(self, page: int) -> None:
        self.page = page

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        bottom = r.bottom - t.target - 2 * t.gap
        pages: list[list[str]] = [[]]
        y = 0
        for entry in default_rules().rules:
            text = entry.cite()
            height = len(canvas.painter.wrap(text, t.small, width)) * (t.small + 1) + t.gap
            if pages[-1] and y + height > bottom - t.body - 2 * t.gap:
                pages.append([])
                y = 0
            pages[-1].append(text)
            y += height
        self.page = max(0, min(self.page, len(pages) - 1))
        canvas.text(f"The rules in short ({self.page + 1} of {len(pages)}): our own words; the "
                    "printed rulebook is the authority", (2 * t.gap, t.gap), size=t.small,
                    bold=True, width=width, max_lines=2)
        y = t.gap + 2 * t.small + t.gap
        for text in pages[self.page]:
            y = canvas.text(text, (2 * t.gap, y), size=t.small, width=width).bottom + t.gap
        pager(canvas, self.page, len(pages), self.turn, "Back", self.back)
