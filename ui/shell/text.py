"""The one text function: every string the app draws goes through :meth:`Painter.text`.

Concealment is checked at this choke point: a recorder (headless runs, tests) sees every string
exactly as drawn, with the screen it was drawn on, so a test can scan all of them against what the
rules had revealed at that moment. Nothing else in the app renders text.

Legibility is checked here too: :attr:`Painter.on_text` gets a :class:`Drawn` for every string,
with the pixel height of its font, where each of its lines landed in the window and whether
``max_lines`` cut it (:mod:`ui.shell.legibility` lints them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

Colour = tuple[int, int, int]
TextSink = Callable[[str, str], None]
"""Called as ``sink(screen, text)`` for every string drawn."""
Box = tuple[int, int, int, int]
"""A rectangle as ``(x, y, w, h)`` in pixels."""
CUT = " ..."
"""What ends the last line of a string cut by ``max_lines``."""

_ANCHORS = ("topleft", "midtop", "topright", "midleft", "center", "midright",
            "bottomleft", "midbottom", "bottomright")


@dataclass(frozen=True)
class Drawn:
    """One string as drawn: its font's pixel height (``font.get_height()``, the line height the
    eye gets), its lines' boxes in window pixels (``surface.get_abs_offset()`` applied) and their
    union, whether ``max_lines`` cut it, whether it runs past the surface it was drawn on (so
    part of it is not shown), and that surface's box in the window."""

    screen: str
    text: str
    px: int
    rect: Box
    lines: tuple[Box, ...]
    cut: bool = False
    clipped: bool = False
    surface: Box = (0, 0, 0, 0)


Placed = Callable[[Drawn], None]


@dataclass
class Painter:
    """Fonts by size, text drawing, wrapping, and the record of what was drawn."""

    sink: TextSink | None = None
    screen: str = ""
    """The name of the screen being drawn, recorded with each string."""
    on_text: Placed | None = None
    """Called with every string drawn, once it is on the surface (the legibility record)."""
    last_cut: bool = False
    """Whether the last string drawn was cut by ``max_lines`` (so a tap can open it whole)."""
    _fonts: dict[tuple[int, bool], pygame.font.Font] = field(default_factory=dict)

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, size), bold)
        font = self._fonts.get(key)
        if font is None:
            if not pygame.font.get_init():
                pygame.font.init()
            font = pygame.font.Font(None, key[0])  # pygame-ce's bundled font: no system fonts
            font.set_bold(bold)
            self._fonts[key] = font
        return font

    def measure(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        return self.font(size, bold).size(text)

    def wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """Lines of ``text`` no wider than ``width`` pixels (words kept whole when they fit)."""
        font = self.font(size, bold)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                trial = f"{line} {word}" if line else word
                if font.size(trial)[0] <= width or not line:
                    line = trial
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def fit_size(self, text: str, size: int, width: int, bold: bool = False,
                 smallest: int = 12) -> int:
        """The largest font size up to ``size`` at which ``text`` fits in ``width``."""
        while size > smallest and self.measure(text, size, bold)[0] > width:
            size -= 1
        return size

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        pos: tuple[int, int],
        *,
        size: int,
        colour: Colour,
        anchor: str = "topleft",
        bold: bool = False,
        width: int | None = None,
        max_lines: int | None = None,
    ) -> pygame.Rect:
        """Draw ``text`` (wrapped to ``width`` if given); returns the rectangle it covers."""
        if anchor not in _ANCHORS:
            raise ValueError(f"unknown anchor {anchor!r}")
        if self.sink is not None and text:
            self.sink(self.screen, text)
        font = self.font(size, bold)
        lines = self.wrap(text, size, width, bold) if width else text.split("\n")
        cut = max_lines is not None and len(lines) > max_lines
        self.last_cut = cut
        if max_lines is not None and cut:
            last = lines[max_lines - 1]
            while width and " " in last and font.size(last + CUT)[0] > width:
                last = last.rsplit(" ", 1)[0]  # the mark fits inside the width too
            lines = [*lines[: max_lines - 1], last + CUT]
        images = [font.render(line, True, colour) for line in lines]
        height = sum(i.get_height() for i in images)
        block = pygame.Rect(0, 0, max((i.get_width() for i in images), default=0), height)
        setattr(block, anchor, pos)
        y = block.top
        boxes: list[pygame.Rect] = []
        for image in images:
            rect = image.get_rect()
            if anchor in ("midtop", "center", "midbottom"):
                rect.midtop = (block.centerx, y)
            elif anchor in ("topright", "midright", "bottomright"):
                rect.topright = (block.right, y)
            else:
                rect.topleft = (block.left, y)
            surface.blit(image, rect)
            boxes.append(rect)
            y += image.get_height()
        if self.on_text is not None and text:
            self._place(surface, text, font.get_height(), block, boxes, cut)
        return block

    def _place(self, surface: pygame.Surface, text: str, px: int, block: pygame.Rect,
               boxes: list[pygame.Rect], cut: bool) -> None:
        dx, dy = surface.get_abs_offset()
        on_text = self.on_text
        assert on_text is not None
        on_text(Drawn(self.screen, text, px, _box(block.move(dx, dy)),
                     tuple(_box(b.move(dx, dy)) for b in boxes if b.width), cut,
                     not surface.get_rect().contains(block), (dx, dy, *surface.get_size())))


def _box(rect: pygame.Rect) -> Box:
    return rect.x, rect.y, rect.width, rect.height
