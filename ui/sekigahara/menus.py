"""The screens around a game: start, hardware check, and the referee's (behind the PIN)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.core.pin import PinError, RefereePin
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.data import FACES
from companion.games.sekigahara.engine.feed import place
from firmware_bridge.flows import check_report
from ui.sekigahara.control import TableControl
from ui.sekigahara.parts import side_colour, side_name
from ui.shell import theme as th
from ui.shell.canvas import Canvas, column, grid
from ui.shell.pages import pager


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
        if self.problem:
            y = canvas.text(f"Games cannot be saved: {self.problem}", (r.centerx, y),
                            size=t.small, anchor="midtop", colour=th.WARN,
                            width=r.width - 4 * t.gap).bottom - t.small
        width = min(r.width - 4 * t.gap, 9 * t.target)
        area = pygame.Rect(r.centerx - width // 2, y + t.small + 2 * t.gap, width,
                           r.bottom - y - t.small - 4 * t.gap)
        entries: list[tuple[str, Callable[[], None] | None, th.Colour]] = []
        if self.resume is not None:
            entries.append(("Resume the game", self.resume, th.ACCEPT))
        if self.new_game is not None or self.without_saving is None:
            entries.append(("New game", self.new_game, th.ACCEPT))
        if self.retry is not None:
            entries.append(("Try saving again", self.retry, th.WARN))
        if self.without_saving is not None:
            entries.append(("New game without saving", self.without_saving, th.DANGER))
        entries += [("Hardware check", self.hardware, th.PANEL_HI),
                    ("Referee", self.referee, th.PANEL_HI)]
        height = min(int(t.target * 1.4), (area.height - t.gap * (len(entries) - 1))
                     // len(entries))
        for cell, (label, action, colour) in zip(
            column(pygame.Rect(area.x, area.y, area.width,
                               len(entries) * (height + t.gap) - t.gap), len(entries), t.gap),
            entries, strict=True,
        ):
            canvas.button(cell, label, action, colour=colour)


@dataclass
class HardwareScreen:
    """Hubs, antennas, tag counts and read rates; dead antennas flagged (the `hardware check`
    lines)."""

    control: TableControl
    back: Callable[[], None]
    name: str = "hardware"
    page: int = 0

    def tick_ms(self) -> int | None:
        return 1000  # read rates change while the screen is up

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        lines, problems = check_report(self.control.bridge, None)
        head = "All readers answer" if not problems else f"{problems} problem(s) found"
        canvas.text(f"Hardware check: {head}", (t.gap, t.gap), size=t.body, bold=True,
                    colour=th.ACCEPT if not problems else th.WARN)
        per_page = max(1, (r.height - 3 * t.target) // (t.small + 4))
        pages = max(1, -(-len(lines) // per_page))
        self.page = min(self.page, pages - 1)
        y = t.gap + t.body + t.gap
        for line in lines[self.page * per_page:(self.page + 1) * per_page]:
            colour = th.WARN if "<--" in line or "LOST" in line or "refused" in line else th.INK
            canvas.text(line, (t.gap, y), size=t.small, colour=colour)
            y += t.small + 4
        pager(canvas, self.page, pages, self._turn, "Back", self.back)

    def _turn(self, page: int) -> None:
        self.page = page


@dataclass
class RefereeScreen:
    """Everything the rules hide, for the referee only: behind the PIN (set on first visit)."""

    control: TableControl
    pin: RefereePin
    back: Callable[[], None]
    name: str = "referee-pin"
    entered: str = ""
    first: str | None = None
    """While setting the PIN: the first entry, awaiting confirmation."""
    unlocked: bool = False
    message: str = ""
    page: int = 0
    _digits: list[str] = field(default_factory=lambda: [*"123456789", "Clear", "0", "OK"])

    def tick_ms(self) -> int | None:
        return 1000 if self.pin.wait_seconds() > 0 else None

    def draw(self, canvas: Canvas) -> None:
        self.name = "referee" if self.unlocked else "referee-pin"
        canvas.painter.screen = self.name
        if self.unlocked:
            self._referee(canvas)
        else:
            self._pad(canvas)

    # ------------------------------------------------------------------ the PIN

    def _pad(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        if not self.pin.is_set():
            title = ("Confirm the new referee PIN" if self.first is not None
                     else "Set a referee PIN (4 to 8 digits)")
        else:
            title = "Referee PIN"
        canvas.text(title, (t.gap * 2, t.gap * 2), size=t.body, bold=True)
        canvas.text("*" * len(self.entered) or "-", (t.gap * 2, t.gap * 3 + t.body),
                    size=t.title)
        wait = self.pin.wait_seconds()
        note = f"Wait {wait:.0f} s before trying again" if wait > 0 else self.message
        canvas.text(note, (t.gap * 2, t.gap * 4 + t.body + t.title), size=t.small,
                    colour=th.WARN, width=r.width // 2 - 3 * t.gap)
        pad = pygame.Rect(r.width // 2, t.gap, r.width // 2 - t.gap,
                          r.height - t.target - 3 * t.gap)
        size = min((pad.height - 3 * t.gap) // 4, (pad.width - 2 * t.gap) // 3)
        cells = grid(pygame.Rect(pad.x, pad.y, 3 * size + 2 * t.gap, pad.height), 12, 3, t.gap,
                     size)
        for cell, key in zip(cells, self._digits, strict=True):
            canvas.button(cell, key, self._key(key), size=t.title)
        canvas.button(pygame.Rect(t.gap, r.bottom - t.target - t.gap, 3 * t.target, t.target),
                      "Back", self._leave)

    def _key(self, key: str) -> Callable[[], None] | None:
        if self.pin.wait_seconds() > 0 and key == "OK":
            return None

        def press() -> None:
            if key == "Clear":
                self.entered = ""
            elif key == "OK":
                self._submit()
            elif len(self.entered) < 8:
                self.entered += key
        return press

    def _submit(self) -> None:
        entered, self.entered = self.entered, ""
        try:
            if not self.pin.is_set():
                if self.first is None:
                    self.first, self.message = entered, ""
                    if not 4 <= len(entered) <= 8:
                        self.first, self.message = None, "A PIN has 4 to 8 digits"
                elif self.first != entered:
                    self.first, self.message = None, "The two PINs differ: start again"
                else:
                    self.pin.set(entered)
                    self.first, self.unlocked = None, True
            elif self.pin.check(entered):
                self.unlocked, self.message = True, ""
            else:
                self.message = "Wrong PIN"
        except PinError as exc:
            self.first, self.message = None, str(exc)

    def _leave(self) -> None:
        self.unlocked, self.entered, self.first, self.message = False, "", None, ""
        self.back()

    # ------------------------------------------------------------------ the referee's view

    def _referee(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        view = self.control.referee().payload
        canvas.text("Referee view: hidden blocks shown. Not for the players' eyes.",
                    (t.gap, t.gap), size=t.small, bold=True, colour=th.WARN)
        lines: list[tuple[str, th.Colour]] = []
        by_zone: dict[str, list[str]] = {}
        for block, zone in view.positions.items():
            by_zone.setdefault(zone, []).append(block)
        for zone in sorted(by_zone, key=place):
            for side in Side:
                mine = sorted(b for b in by_zone[zone] if FACES[b].side is side)
                if mine:
                    faces = ", ".join(f"{b} {FACES[b].describe()}" for b in mine)
                    lines.append((f"{place(zone)} - {side_name(side)}: {faces}",
                                  side_colour(side)))
        for side, card in view.bids.items():
            lines.append((f"{side_name(side)} bid {card}", side_colour(side)))
        per_page = max(1, (r.height - 2 * t.target - 2 * t.gap) // (2 * t.small + 6))
        pages = max(1, -(-len(lines) // per_page))
        self.page = min(self.page, pages - 1)
        y = t.gap + t.small + t.gap
        for text, colour in lines[self.page * per_page:(self.page + 1) * per_page]:
            canvas.text(text, (t.gap, y), size=t.small, colour=colour, width=r.width - 2 * t.gap,
                        max_lines=2)
            y += 2 * t.small + 6
        pager(canvas, self.page, pages, self._turn, "Lock and leave", self._leave)

    def _turn(self, page: int) -> None:
        self.page = page
