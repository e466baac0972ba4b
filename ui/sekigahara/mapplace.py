"""Where the map's words and counters go so that none covers another: a greedy placer.

The map draws, over each location, its block counts (badges), the disks, the battle tag and its
name. Each asks the :class:`Placer` for the first of a few spots around its location that covers
nothing already taken (the locations' shapes, then everything placed before it). A word that
finds no free spot is not drawn: on the whole map that only happens in the crowded corners, and
the zoomed view (tap there) has room for every name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pygame

from ui.shell.text import Painter

Point = tuple[int, int]


@dataclass
class Placer:
    """The free room of a rectangle; what is placed is taken."""

    bounds: pygame.Rect
    taken: list[pygame.Rect] = field(default_factory=list)

    def free(self, rect: pygame.Rect) -> bool:
        return self.bounds.contains(rect) and rect.collidelist(self.taken) == -1

    def take(self, rect: pygame.Rect) -> pygame.Rect:
        self.taken.append(rect)
        return rect

    def first_free(self, rects: Iterable[pygame.Rect]) -> pygame.Rect | None:
        return next((r for r in rects if self.free(r)), None)

    def least_covering(self, rects: Sequence[pygame.Rect]) -> pygame.Rect:
        """The spot covering the fewest things (for what must be drawn somewhere)."""
        def cost(rect: pygame.Rect) -> int:
            inside = 0 if self.bounds.contains(rect) else 100
            return inside + len(rect.collidelistall(self.taken))
        return min(rects, key=cost)


def around(centre: Point, reach: int, size: tuple[int, int],
           far: Sequence[int] = ()) -> list[pygame.Rect]:
    """Spots of ``size`` around a shape of half-width ``reach``: below, above, right, left, the
    four corners, then below and above sliding sideways; for each of ``far``, the same again
    that many pixels further out."""
    x, y = centre
    w, h = size
    spots: list[pygame.Rect] = []
    for extra in (0, *far):
        d = reach + 1 + extra
        for anchor, pos in (("midtop", (x, y + d)), ("midbottom", (x, y - d)),
                            ("midleft", (x + d + 1, y)), ("midright", (x - d - 1, y)),
                            ("topleft", (x + d - reach // 2, y + d - reach // 2)),
                            ("topright", (x - d + reach // 2, y + d - reach // 2)),
                            ("bottomleft", (x + d - reach // 2, y - d + reach // 2)),
                            ("bottomright", (x - d + reach // 2, y - d + reach // 2)),
                            ("topleft", (x - reach, y + d)), ("topright", (x + reach, y + d)),
                            ("bottomleft", (x - reach, y - d)),
                            ("bottomright", (x + reach, y - d))):
            rect = pygame.Rect(0, 0, w, h)
            setattr(rect, anchor, pos)
            spots.append(rect)
    return spots


def text_box(painter: Painter, text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """The box ``text`` covers when drawn (a rendered line is taller than the font's size())."""
    key = (text, size, bold)
    box = _BOXES.get(key)
    if box is None:
        box = _BOXES[key] = painter.font(size, bold).render(text, True, (0, 0, 0)).get_size()
    return box


_BOXES: dict[tuple[str, int, bool], tuple[int, int]] = {}
