"""The screens around a game: start, and the referee's page (behind the PIN: the shell's
:class:`~ui.shell.referee.RefereeScreen`). The hardware check is the shell's
(:mod:`ui.hardware`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from companion.core.records import UndoRefused
from companion.core.store import StoreError
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.facade import (
    FACES,
    face_words,
    place,
)
from ui.sekigahara.control import TableControl
from ui.sekigahara.parts import side_colour, side_name
from ui.shell import theme as th
from ui.shell import tournament
from ui.shell.app import App, Screen
from ui.shell.canvas import Canvas, column
from ui.shell.pages import confirm_page, pager
from ui.shell.saving import game_entries
from ui.shell.saving import undo_button as shell_undo_button


@dataclass
class StartScreen:
    """New game, resume, hardware check, referee."""

    control: TableControl
    new_game: Callable[[], None] | None
    resume: Callable[[], None] | None
    hardware: Callable[[], None]
    referee: Callable[[], None]
    problem: str | None = None
    """Why games cannot be saved now (the store), said on the screen (8)."""
    retry: Callable[[], None] | None = None
    without_saving: Callable[[], None] | None = None
    change_game: Callable[[], None] | None = None
    """Back to the game choice (when more than one game is installed)."""
    saved_games: Callable[[], None] | None = None
    """The Saved games page (when an unfinished game is saved)."""
    tournament: Callable[[], None] | None = None
    """The tournament setting (ui.shell.tournament_screen)."""
    name: str = "start"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text("Sekigahara", (r.centerx, t.gap * 2), size=t.title * 2, bold=True,
                        anchor="midtop", colour=th.GOLD).bottom
        y = canvas.text("The table companion", (r.centerx, y), size=t.body, anchor="midtop",
                        colour=th.DIM).bottom + t.gap
        y = canvas.text(f"Readers: {self.control.readers.describe()}", (r.centerx, y),
                        size=t.small, anchor="midtop", colour=th.DIM).bottom
        if tournament.shown():
            y = canvas.text(str(tournament.shown()), (r.centerx, y), size=t.small,
                            anchor="midtop", colour=th.DIM, width=r.width - 4 * t.gap).bottom
        if self.problem:
            y = canvas.text(f"Games cannot be saved: {self.problem}", (r.centerx, y),
                            size=t.small, anchor="midtop", colour=th.WARN,
                            width=r.width - 4 * t.gap).bottom - t.small
        width = min(r.width - 4 * t.gap, 9 * t.target)
        area = pygame.Rect(r.centerx - width // 2, y + t.small + 2 * t.gap, width,
                           r.bottom - y - t.small - 4 * t.gap)
        entries = game_entries(self.resume, self.new_game, self.retry, self.without_saving,
                               self.saved_games)
        entries += [("Hardware check", self.hardware, th.PANEL_HI),
                    ("Referee", self.referee, th.PANEL_HI)]
        if self.tournament is not None:
            entries.append(("Tournament", self.tournament, th.PANEL_HI))
        if self.change_game is not None:
            entries.append(("Change game", self.change_game, th.PANEL))
        height = min(int(t.target * 1.4), (area.height - t.gap * (len(entries) - 1))
                     // len(entries))
        for cell, (label, action, colour) in zip(
            column(pygame.Rect(area.x, area.y, area.width,
                               len(entries) * (height + t.gap) - t.gap), len(entries), t.gap),
            entries, strict=True,
        ):
            canvas.button(cell, label, action, colour=colour)


def undo_button(canvas: Canvas, rect: pygame.Rect, control: TableControl,
                say: Callable[[str], None]) -> None:
    """"Undo: Ishida's bid" while the last command may be taken back (docs/referee.md, Undo);
    a plain "Undo" that says why not otherwise; nothing before the first command."""
    shell_undo_button(canvas, rect, control.undo_offer(), partial(undo, control, say), say)


def undo(control: TableControl, say: Callable[[str], None]) -> None:
    """Take back the last command; what happened is in the feed, a refusal is said."""
    try:
        control.undo()
    except UndoRefused as exc:
        say(str(exc))
    except StoreError as exc:
        say(f"Not saved: {exc.message}. Nothing was undone.")


@dataclass
class ConfirmStep:
    """A tap that cannot be undone this time, said before it happens: "Back" changes nothing,
    "Go ahead" plays it (one extra tap; docs/referee.md, Undo)."""

    said: str
    app: App
    play: Screen
    go: Callable[[], None]
    name: str = "confirm-step"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        confirm_page(canvas, "This cannot be undone", [(self.said, th.INK)], self._back,
                     "Go ahead", self._go, title_colour=th.WARN)

    def _back(self) -> None:
        self.app.show(self.play)

    def _go(self) -> None:
        self.app.show(self.play)
        self.go()


@dataclass
class SekigaharaReferee:
    """The referee's page (behind the PIN, :class:`ui.shell.referee.RefereeScreen`): every
    block with its face and id, the bids, and "Verify this game" (the stored record's hash chain
    and every command re-adjudicated, :meth:`ui.shell.saving.SavedGames.verify`)."""

    control: TableControl
    verify: Callable[[], tuple[bool, str]] | None = None
    page: int = 0
    verdict: tuple[bool, str] | None = None

    # ------------------------------------------------------------------ the referee's view

    def draw(self, canvas: Canvas, leave: Callable[[], None]) -> None:
        t = canvas.theme
        r = canvas.rect
        view = self.control.referee().payload
        heading = canvas.text("Referee view: hidden blocks shown. Not for the players' eyes.",
                              (t.gap, t.gap), size=t.small, bold=True, colour=th.WARN)
        top = heading.bottom + t.gap
        if self.verify is not None:
            button = pygame.Rect(r.right - 5 * t.target - t.gap, t.gap, 5 * t.target, t.target)
            canvas.button(button, "Verify this game", self._verify, colour=th.ACCEPT,
                          size=t.small)
            top = max(top, button.bottom + t.gap)
        if self.verdict is not None:
            holds, said = self.verdict
            top = canvas.text(said, (t.gap, top), size=t.small, width=r.width - 2 * t.gap,
                              colour=th.ACCEPT if holds else th.WARN, max_lines=3).bottom + t.gap
        lines: list[tuple[str, th.Colour]] = []
        by_zone: dict[str, list[str]] = {}
        for block, zone in view.positions.items():
            by_zone.setdefault(zone, []).append(block)
        for zone in sorted(by_zone, key=place):
            for side in Side:
                mine = sorted(b for b in by_zone[zone] if FACES[b].side is side)
                if mine:
                    faces = ", ".join(f"{face_words(b)} ({b})" for b in mine)
                    where = place(zone)
                    lines.append((f"{where[0].upper()}{where[1:]}, {side_name(side)}: {faces}",
                                  side_colour(side)))
        for side, card in view.bids.items():
            lines.append((f"{side_name(side)} bid {card}", side_colour(side)))
        per_page = max(1, (r.height - top - t.target - 2 * t.gap) // (2 * t.small + 6))
        pages = max(1, -(-len(lines) // per_page))
        self.page = min(self.page, pages - 1)
        y = top
        for text, colour in lines[self.page * per_page:(self.page + 1) * per_page]:
            canvas.text(text, (t.gap, y), size=t.small, colour=colour, width=r.width - 2 * t.gap,
                        max_lines=2)
            y += 2 * t.small + 6
        pager(canvas, self.page, pages, self._turn, "Lock and leave", leave)

    def _turn(self, page: int) -> None:
        self.page = page

    def _verify(self) -> None:
        if self.verify is not None:
            self.verdict = self.verify()
