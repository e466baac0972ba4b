"""One page of the battle on the touchscreen: a title, a few lines (each ruling a tap from its
rule and arithmetic), large buttons, and a bar of the ways out. Every battle screen is one of
these, built afresh from the public view each time it is drawn (:mod:`ui.kensei.battle`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas, grid, row

Action = Callable[[], object]
ON: th.Colour = (48, 96, 64)


@dataclass(frozen=True)
class Line:
    text: str
    rule: str | None = None
    """The rule the line applies: a tap on it shows the rule and the whole line."""
    colour: th.Colour = th.INK
    bold: bool = False
    big: bool = False
    """A secret a player glances at (a hand, a mission): the title's size."""


@dataclass(frozen=True)
class Button:
    label: str
    action: Action | None
    colour: th.Colour = th.PANEL_HI
    selected: bool = False
    big: bool = False
    """A die's face on the pad: the title's size, to read at arm's length."""


@dataclass
class Page:
    """See the module docstring. ``name`` is the screen's name in the recording: private steps
    are named ``kensei-private`` and nothing else may show a secret."""

    name: str
    title: str
    lines: list[Line] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    bar: list[Button] = field(default_factory=list)
    columns: int = 0
    """Columns of the buttons (0: as many as fit)."""
    show_rule: Callable[[Line], None] | None = None
    line_size: str = "body"
    tall: float = 1.5
    """The buttons' greatest height, in touch targets."""


class PageScreen:
    """A :class:`Page` made by ``build`` each frame (so it always shows the battle as it is)."""

    def __init__(self, build: Callable[[], Page]) -> None:
        self.build = build
        self.name = "kensei-battle"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        page = self.build()
        self.name = page.name
        canvas.painter.screen = page.name
        draw_page(canvas, page)


def draw_page(canvas: Canvas, page: Page) -> None:
    t = canvas.theme
    r = canvas.rect
    width = r.width - 4 * t.gap
    y = canvas.text(page.title, (2 * t.gap, t.gap), size=t.title, bold=True, width=width,
                    max_lines=2).bottom + t.gap
    bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
    size = t.small if page.line_size == "small" else t.body
    for line in page.lines:
        if y > bar.y - t.target:
            break
        box = canvas.text(line.text, (2 * t.gap, y), size=t.title if line.big else size,
                          colour=line.colour, bold=line.bold or line.big, width=width,
                          max_lines=3)
        if line.rule and page.show_rule is not None:
            canvas.tap_area(box.inflate(0, max(0, t.target - box.height)),
                            f"The rule: {line.text}", partial(page.show_rule, line))
            canvas.fill(th.GOLD, pygame.Rect(t.gap // 2, box.y + 2, 4, box.height - 4))
        y = box.bottom + t.gap // 2
    y += t.gap // 2
    if page.buttons:
        count = len(page.buttons)
        cols = page.columns or (1 if t.portrait else 2 if count <= 4 else 3)
        rows = (count + cols - 1) // cols
        room = bar.y - t.gap - y
        height = max(t.target, min(int(t.target * page.tall),
                                   (room - t.gap * (rows - 1)) // rows))
        area = pygame.Rect(2 * t.gap, y, width, room)
        for cell, b in zip(grid(area, count, cols, t.gap, height), page.buttons, strict=True):
            canvas.button(cell, b.label, _done(b.action), colour=ON if b.selected else b.colour,
                          selected=b.selected, size=t.title * 3 // 2 if b.big else None)
    if page.bar:
        for cell, b in zip(row(bar, len(page.bar), t.gap), page.bar, strict=True):
            canvas.button(cell, b.label, _done(b.action), colour=b.colour)


def _call(action: Action) -> None:
    action()


def _done(action: Action | None) -> Callable[[], None] | None:
    """A button's action as the canvas takes it (what it returns is not the button's)."""
    return None if action is None else partial(_call, action)
