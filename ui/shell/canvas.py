"""Immediate-mode drawing with touch targets.

A screen draws itself on a :class:`Canvas` each time something changed; every button it draws
registers a :class:`Target` (its rectangle, its label and what a tap does). The app hit-tests a
tap against the targets of the last frame, so what can be tapped is always exactly what is shown.
Buttons are never smaller than the theme's 9 mm target. A string cut short (``max_lines``) can
always be read whole: a tap on it opens it in full (:attr:`Canvas.read_in_full`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pygame

from ui.shell import theme as th
from ui.shell.text import Painter

Action = Callable[[], None]
READ_IN_FULL = "Read in full: "
"""How the tap area over a cut string is labelled (before the whole string)."""


@dataclass(frozen=True)
class Target:
    rect: pygame.Rect
    label: str
    action: Action | None
    """None: shown but not available now (greyed)."""
    button: bool = True
    """False: an invisible tap area over something drawn (:meth:`Canvas.tap_area`)."""


class DragHandler:
    """A region that follows a finger: press, move, release (the virtual table)."""

    def press(self, pos: tuple[int, int]) -> None: ...

    def motion(self, pos: tuple[int, int]) -> None: ...

    def release(self, pos: tuple[int, int]) -> None: ...


@dataclass
class Canvas:
    surface: pygame.Surface
    painter: Painter
    theme: th.Theme
    origin: tuple[int, int] = (0, 0)
    """Where this canvas's surface sits in the window (targets are kept in window pixels)."""
    targets: list[Target] = field(default_factory=list)
    regions: list[tuple[pygame.Rect, DragHandler]] = field(default_factory=list)
    read_in_full: Callable[[str], None] | None = None
    """Opens a string in full: a tap on a string cut by ``max_lines`` calls it."""
    openers: list[Target] = field(default_factory=list)
    """The tap areas over cut strings; the app puts them under every other target, so a
    button's or a line's own tap comes first."""

    @property
    def rect(self) -> pygame.Rect:
        return self.surface.get_rect()

    def _window(self, rect: pygame.Rect) -> pygame.Rect:
        return rect.move(self.origin)

    def fill(self, colour: th.Colour, rect: pygame.Rect | None = None, radius: int = 0) -> None:
        pygame.draw.rect(self.surface, colour, self.rect if rect is None else rect,
                         border_radius=radius)

    def text(self, text: str, pos: tuple[int, int], *, size: int | None = None,
             colour: th.Colour = th.INK, anchor: str = "topleft", bold: bool = False,
             width: int | None = None, max_lines: int | None = None) -> pygame.Rect:
        rect = self.painter.text(self.surface, text, pos, size=size or self.theme.body,
                                 colour=colour, anchor=anchor, bold=bold, width=width,
                                 max_lines=max_lines)
        if self.painter.last_cut and self.read_in_full is not None:
            area = rect.inflate(max(0, self.theme.target - rect.width),
                                max(0, self.theme.target - rect.height))
            self.openers.append(Target(self._window(area), READ_IN_FULL + text,
                                       partial(self.read_in_full, text), button=False))
        return rect

    def button(self, rect: pygame.Rect, label: str, action: Action | None, *,
               colour: th.Colour = th.PANEL_HI, text_colour: th.Colour = th.INK,
               size: int | None = None, selected: bool = False) -> pygame.Rect:
        """A tappable button, grown to the minimum target size if drawn smaller."""
        rect = pygame.Rect(rect)
        rect.width = max(rect.width, self.theme.target)
        rect.height = max(rect.height, self.theme.target)
        fill = colour if action is not None else th.PANEL
        pygame.draw.rect(self.surface, fill, rect, border_radius=self.theme.gap)
        if selected:
            pygame.draw.rect(self.surface, th.LIT, rect, width=3, border_radius=self.theme.gap)
        ink = text_colour if action is not None else th.DIM
        inner = rect.width - 2 * self.theme.gap
        room = rect.height - 4
        font = size or self.theme.body
        while font > th.MIN_TEXT and not self._fits(label, font, inner, room):
            font -= 1  # a long label: more lines in a smaller font, never under 14 px
        lines = max(1, room // self.painter.font(font).get_height())
        self.text(label, rect.center, size=font, colour=ink, anchor="center", width=inner,
                  max_lines=lines)
        self.targets.append(Target(self._window(rect), label, action))
        return rect

    def _fits(self, label: str, size: int, width: int, height: int) -> bool:
        lines = self.painter.wrap(label, size, width)
        return (len(lines) * self.painter.font(size).get_height() <= height
                and all(self.painter.measure(line, size)[0] <= width for line in lines))

    def tap_area(self, rect: pygame.Rect, label: str, action: Action) -> None:
        """An invisible target over something already drawn (a location on the map, a number)."""
        self.targets.append(Target(self._window(pygame.Rect(rect)), label, action, button=False))

    def drag_region(self, rect: pygame.Rect, handler: DragHandler) -> None:
        self.regions.append((self._window(pygame.Rect(rect)), handler))

    def sub(self, rect: pygame.Rect) -> Canvas:
        """A canvas on part of this one, sharing its targets."""
        child = Canvas(self.surface.subsurface(rect), self.painter, self.theme,
                       (self.origin[0] + rect.x, self.origin[1] + rect.y))
        child.targets = self.targets
        child.regions = self.regions
        child.read_in_full = self.read_in_full
        child.openers = self.openers
        return child


def row(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rectangles side by side across ``rect``."""
    if count < 1:
        return []
    width = (rect.width - gap * (count - 1)) // count
    return [pygame.Rect(rect.x + i * (width + gap), rect.y, width, rect.height)
            for i in range(count)]


def column(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rectangles stacked down ``rect``."""
    if count < 1:
        return []
    height = (rect.height - gap * (count - 1)) // count
    return [pygame.Rect(rect.x, rect.y + i * (height + gap), rect.width, height)
            for i in range(count)]


def grid(rect: pygame.Rect, count: int, columns: int, gap: int,
         height: int) -> list[pygame.Rect]:
    """``count`` cells of ``height``, ``columns`` a row, from the top of ``rect``."""
    columns = max(1, columns)
    width = (rect.width - gap * (columns - 1)) // columns
    return [pygame.Rect(rect.x + (i % columns) * (width + gap),
                        rect.y + (i // columns) * (height + gap), width, height)
            for i in range(count)]
