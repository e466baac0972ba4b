"""The referee's screen behind the PIN (game-neutral): the PIN pad, then the game's own page.

The PIN is :class:`companion.core.pin.RefereePin` (set on the first visit; a salted hash only,
a growing wait after each wrong try). Until it is entered the screen is ``referee-pin`` and
shows nothing of the game; once unlocked it is ``referee`` and draws the game's
:class:`RefereePage`. "Lock and leave" (the page's way out) locks it again. The screen name is
what the concealment tests rely on: referee-only items may appear on ``referee`` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import pygame

from companion.core.pin import PinError, RefereePin
from ui.shell import theme as th
from ui.shell.canvas import Canvas, grid


class RefereePage(Protocol):
    """What a game shows the referee once the PIN is entered; ``leave`` locks and goes back."""

    def draw(self, canvas: Canvas, leave: Callable[[], None]) -> None: ...


@dataclass
class PinPad:
    """The PIN pad: set a PIN on the first visit (twice, to confirm), else check it."""

    pin: RefereePin
    entered: str = ""
    first: str | None = None
    """While setting the PIN: the first entry, awaiting confirmation."""
    unlocked: bool = False
    message: str = ""
    _digits: list[str] = field(default_factory=lambda: [*"123456789", "Clear", "0", "OK"])

    def tick_ms(self) -> int | None:
        return 1000 if self.pin.wait_seconds() > 0 else None

    def lock(self) -> None:
        self.unlocked, self.entered, self.first, self.message = False, "", None, ""

    def draw(self, canvas: Canvas, back: Callable[[], None]) -> None:
        t = canvas.theme
        r = canvas.rect
        if not self.pin.is_set():
            title = ("Confirm the new referee PIN" if self.first is not None
                     else "Set a referee PIN (4 to 8 digits)")
        else:
            title = "Referee PIN"
        half = r.width // 2 - 3 * t.gap
        canvas.text(title, (t.gap * 2, t.gap * 2), size=t.body, bold=True, width=half,
                    max_lines=2)
        y = t.gap * 3 + 2 * t.body
        y = canvas.text("*" * len(self.entered) or "-", (t.gap * 2, y), size=t.title).bottom
        wait = self.pin.wait_seconds()
        note = ". ".join(part for part in (
            self.message, f"Wait {wait:.0f} s before trying again" if wait > 0 else "") if part)
        canvas.text(note, (t.gap * 2, y + t.gap), size=t.small, colour=th.WARN, width=half)
        pad = pygame.Rect(r.width // 2, t.gap, r.width // 2 - t.gap,
                          r.height - t.target - 3 * t.gap)
        size = min((pad.height - 3 * t.gap) // 4, (pad.width - 2 * t.gap) // 3)
        cells = grid(pygame.Rect(pad.x, pad.y, 3 * size + 2 * t.gap, pad.height), 12, 3, t.gap,
                     size)
        for cell, key in zip(cells, self._digits, strict=True):
            canvas.button(cell, key, self._key(key), size=t.title)
        canvas.button(pygame.Rect(t.gap, r.bottom - t.target - t.gap, 3 * t.target, t.target),
                      "Back", back)

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


@dataclass
class RefereeScreen:
    """The game's referee page behind the PIN pad."""

    pin: RefereePin
    page: RefereePage
    back: Callable[[], None]
    name: str = "referee-pin"
    pad: PinPad = field(init=False)

    def __post_init__(self) -> None:
        self.pad = PinPad(self.pin)

    @property
    def unlocked(self) -> bool:
        return self.pad.unlocked

    def tick_ms(self) -> int | None:
        return None if self.pad.unlocked else self.pad.tick_ms()

    def draw(self, canvas: Canvas) -> None:
        self.name = "referee" if self.pad.unlocked else "referee-pin"
        canvas.painter.screen = self.name
        if self.pad.unlocked:
            self.page.draw(canvas, self.leave)
        else:
            self.pad.draw(canvas, self.leave)

    def leave(self) -> None:
        self.pad.lock()
        self.back()
