"""The start-up problem screen: what stops the table from starting, said on the screen with a
way on, never a silent exit (a kiosk would show black and restart in a loop).

Game-neutral: the caller (``companion run``, :mod:`ui.cli`) gives the problem, the advice and
``recheck``, which says the problem again or None once it is gone. The screen checks again
every :data:`RETRY_S` by itself (a hub plugged in meanwhile) and when "Try again" is tapped;
"Use the simulator" is offered where a virtual table can stand in (not on a kiosk).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from ui.shell import theme as th
from ui.shell.app import App
from ui.shell.canvas import Canvas, row

RETRY_S = 2.0
"""How often the problem is checked again without a touch."""

Recheck = Callable[[], "tuple[str, str] | None"]
"""The problem and its advice now, or None once the table can start."""


@dataclass
class StartupScreen:
    problem: str
    advice: str
    recheck: Recheck
    done: Callable[[str], None]
    """Called with ``retry`` (the problem is gone), ``simulator`` or ``quit``."""
    simulator: bool = True
    """Offer "Use the simulator"."""
    note: str = ""
    """A line on what was found (the hub ports plugged in now)."""
    name: str = "startup"
    tries: int = 0
    _checked: float = field(default_factory=time.monotonic)

    def tick_ms(self) -> int | None:
        return int(RETRY_S * 1000)

    def draw(self, canvas: Canvas) -> None:
        if time.monotonic() - self._checked >= RETRY_S:
            self.try_again(tapped=False)
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        y = canvas.text("The table cannot start", (2 * t.gap, 2 * t.gap), size=t.title,
                        bold=True, colour=th.WARN, width=width).bottom + t.gap
        y = canvas.text(f"{self.problem}:", (2 * t.gap, y), size=t.body, bold=True,
                        width=width).bottom + t.gap // 2
        y = canvas.text(self.advice[:1].upper() + self.advice[1:] + ".", (2 * t.gap, y),
                        size=t.body, width=width).bottom + t.gap
        if self.note:
            y = canvas.text(self.note, (2 * t.gap, y), size=t.body, colour=th.DIM,
                            width=width).bottom + t.gap // 2
        again = f"Tried {self.tries + 1} times. " if self.tries else ""
        canvas.text(f"{again}Trying again every {RETRY_S:.0f} seconds.", (2 * t.gap, y),
                    size=t.body, colour=th.DIM, width=width)
        buttons = [("Try again", lambda: self.try_again(tapped=True), th.ACCEPT)]
        if self.simulator:
            buttons.append(("Use the simulator", lambda: self.done("simulator"), th.PANEL_HI))
        buttons.append(("Quit", lambda: self.done("quit"), th.PANEL_HI))
        height = t.target + t.gap
        bar = pygame.Rect(2 * t.gap, r.bottom - height - 2 * t.gap, width, height)
        for cell, (label, action, colour) in zip(row(bar, len(buttons), t.gap), buttons,
                                                 strict=True):
            canvas.button(cell, label, action, colour=colour)

    def try_again(self, tapped: bool) -> None:
        self._checked = time.monotonic()
        found = self.recheck()
        if found is None:
            self.done("retry")
            return
        self.problem, self.advice = found
        if tapped:
            self.tries += 1


def startup_problem(app: App, problem: str, advice: str, recheck: Recheck,
                    simulator: bool = True, note: str = "") -> str | None:
    """Show the problem in ``app`` and run its loop until it is gone (``retry``), the players
    choose (``simulator``, ``quit``) or the window is closed (None)."""
    chosen: list[str] = []

    def done(choice: str) -> None:
        chosen.append(choice)
        app.running = False

    app.running = True
    app.show(StartupScreen(problem, advice, recheck, done, simulator, note))
    app.run()
    return chosen[0] if chosen else None
