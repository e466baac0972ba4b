"""Colours and sizes for a screen read at arm's length and touched with a finger.

Sizes follow the panel's pixel density: a touch target is at least 9 mm (:attr:`Theme.target`),
so 48 px on a 7-inch 800x480 panel and 75 px on the 7-inch 1280x720 Touch Display 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Colour = tuple[int, int, int]

INK: Colour = (236, 232, 220)
DIM: Colour = (150, 146, 136)
PAPER: Colour = (28, 30, 34)
PANEL: Colour = (44, 47, 53)
PANEL_HI: Colour = (62, 66, 74)
LINE: Colour = (90, 94, 102)
GOLD: Colour = (222, 178, 60)
"""Ishida's colour: its blocks are gold."""
BLACK_SIDE: Colour = (20, 20, 22)
TOKUGAWA: Colour = (120, 160, 220)
"""Tokugawa's blocks are black; on a dark screen its text and bars are drawn in blue."""
ACCEPT: Colour = (70, 150, 90)
WARN: Colour = (214, 120, 48)
DANGER: Colour = (196, 64, 56)
LIT: Colour = (120, 220, 140)

MIN_TEXT = 21
"""The smallest font size drawn: its lines are 14 px high with the bundled font, the least a
player reads from a chair at arm's length (issue 15; :mod:`ui.shell.legibility` checks it)."""


@dataclass(frozen=True)
class Theme:
    """Sizes derived from the panel: ``size`` in pixels, ``diagonal_in`` in inches."""

    size: tuple[int, int]
    diagonal_in: float = 7.0

    @property
    def px_per_mm(self) -> float:
        w, h = self.size
        return math.hypot(w, h) / (self.diagonal_in * 25.4)

    @property
    def target(self) -> int:
        """The smallest touch target: 9 mm."""
        return max(40, math.ceil(9 * self.px_per_mm))

    @property
    def gap(self) -> int:
        return max(6, self.target // 6)

    @property
    def body(self) -> int:
        """Body text: about 3.2 mm tall, readable at arm's length."""
        return max(18, round(3.2 * self.px_per_mm * 1.35))

    @property
    def small(self) -> int:
        """Secondary text, never under :data:`MIN_TEXT`."""
        return max(MIN_TEXT, round(self.body * 0.8))

    @property
    def title(self) -> int:
        return round(self.body * 1.5)

    @property
    def portrait(self) -> bool:
        return self.size[1] > self.size[0]
