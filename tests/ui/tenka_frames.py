"""What a player sees, frame by frame, for the Tenka Meidou screen tests: every string drawn on
the touchscreen with its font size and box, and the checks a player at arm's length would make
(legible size, no two strings over each other, plain words)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import pygame

from companion.games.tenka_meidou.components import Colour, default_board, default_components
from ui.shell.text import Painter

SMALLEST = 14
"""No string on a player screen is drawn under 14 px (issue 15)."""


@dataclass(frozen=True)
class Drawn:
    screen: str
    text: str
    px: int
    rect: pygame.Rect


@dataclass
class MeasuringPainter(Painter):
    """A painter that also keeps, for the frame being drawn, each string's size and box in
    window pixels."""

    placed: list[Drawn] = field(default_factory=list)

    def text(self, surface: pygame.Surface, text: str, pos: tuple[int, int], **kw: object
             ) -> pygame.Rect:
        rect = super().text(surface, text, pos, **kw)  # type: ignore[arg-type]
        if text:
            size = kw["size"]
            assert isinstance(size, int)
            self.placed.append(Drawn(self.screen, text, size,
                                     rect.move(surface.get_abs_offset())))
        return rect


def too_small(frame: Iterable[Drawn]) -> list[str]:
    return [f"{d.screen}: {d.text!r} at {d.px} px" for d in frame if d.px < SMALLEST]


def overlapping(frame: list[Drawn]) -> list[str]:
    """Pairs of strings drawn over each other (more than a pixel or two of their boxes)."""
    found = []
    for i, a in enumerate(frame):
        for b in frame[i + 1:]:
            clip = a.rect.clip(b.rect)
            if clip.width > 2 and clip.height > 2:
                found.append(f"{a.screen}: {a.text!r} over {b.text!r}")
    return found


def _words() -> re.Pattern[str]:
    ids = {z.id for z in default_board().zones if "_" in z.id or z.id != z.name.lower()}
    ids |= {c.id for c in (*default_components().tactic_cards,
                           *default_components().daimyo_cards)}
    colours = "|".join(c.value for c in Colour)
    return re.compile(
        r"\b(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True)) + r")\b"
        r"|\((s|es)\)|\{|\}|\bNone\b|\?\?|\b(" + colours + r")'s\b|\b\d+ [a-z]+\(s\)"
        r"|\b1 (cards|pawns|soldiers|zones|points)\b")


_PLAIN = _words()
_CITED = re.compile(r"\((?:rule |section )?(\d+(?:\.[0-9IVX]+)*|TM\d+)\)")


def not_plain(frame: Iterable[Drawn]) -> list[str]:
    """Ids, placeholders, broken plurals, lowercase colour names, a section cited twice."""
    found = []
    for d in frame:
        if _PLAIN.search(d.text):
            found.append(f"{d.screen}: {d.text!r}")
            continue
        cited = _CITED.findall(d.text)
        if len(cited) != len(set(cited)):
            found.append(f"{d.screen}: {d.text!r} cites a section twice")
    return found
