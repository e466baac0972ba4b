"""The off-map boxes above the map: both Recruitment Boxes (how many blocks) and the Mōri box,
whose blocks are face up (9.3) and so are drawn with their faces at every size.

Each box is a panel in its side's colour: its name on the first line, on the second the count
and (the Mōri box) one gold square per block showing its mon, a leader's square ringed.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.facade import (
    Face,
    PublicState,
)
from ui.shell import theme as th
from ui.shell.canvas import Canvas

RECRUIT_SHARE = 0.3
"""Each Recruitment Box's least share of the strip, wider when its name needs it; the Mōri box
gets the rest (its faces need the room) and never less than this share."""
PAD = 3
NAMES = ("Ishida Recruitment", "Tokugawa Recruitment")


def strip_height(name: int, count: int) -> int:
    """The strip's height for box names of font size ``name`` over counts and faces of
    ``count``: two rows."""
    return _line(name) + face_square(count) + 3 * PAD + 2


def _line(size: int) -> int:
    return round(size * 0.72) + 2


def face_square(size: int) -> int:
    """A count's or a face's square for a font of ``size`` (lines two thirds of it high)."""
    return _line(size) + 4


def draw_off_map(canvas: Canvas, strip: pygame.Rect, public: PublicState, mori_name: str,
                 name: int, count: int, ink: dict[Side, th.Colour]) -> list[pygame.Rect]:
    """Both Recruitment Boxes and the Mōri box, names at font size ``name`` over counts at
    ``count``; returns the three panels."""
    gap = max(4, name // 3)
    inner = strip.inflate(-2, -2)
    usable = inner.width - 2 * gap
    named = max(canvas.painter.measure(n, name)[0] for n in NAMES) + max(4, name // 4) + 3 * PAD
    side = min(max(round(usable * RECRUIT_SHARE), named), round(usable * (1 - RECRUIT_SHARE) / 2))
    cells: list[pygame.Rect] = []
    x = inner.x
    for width in (side, usable - 2 * side, side):
        cells.append(pygame.Rect(x, inner.y, width, inner.height))
        x += width + gap
    recruit = public.recruitment_box
    sizes = (name, count)
    _panel(canvas, cells[0], NAMES[0], recruit.get(Side.ISHIDA, 0), Side.ISHIDA,
           sizes, ink)
    _panel(canvas, cells[1], mori_name, len(public.mori_box), Side.ISHIDA, sizes, ink,
           faces=public.mori_box)
    _panel(canvas, cells[2], NAMES[1], recruit.get(Side.TOKUGAWA, 0),
           Side.TOKUGAWA, sizes, ink)
    return cells


def _panel(canvas: Canvas, rect: pygame.Rect, name: str, count: int, side: Side,
           sizes: tuple[int, int], ink: dict[Side, th.Colour], faces: Sequence[Face] = ()) -> None:
    text, big = sizes
    canvas.fill(th.PANEL, rect, radius=4)
    bar = pygame.Rect(rect.x, rect.y, max(4, text // 4), rect.height)
    canvas.fill(ink[side], bar, radius=2)
    left = bar.right + PAD + 2
    width = rect.right - PAD - left
    canvas.text(name, (left, rect.y + PAD), size=text, colour=th.INK, width=width, max_lines=1)
    square = face_square(big)
    row = pygame.Rect(left, rect.bottom - PAD - square, width, square)
    badge = _count(canvas, str(count), row, side, big)
    _faces(canvas, pygame.Rect(badge.right + PAD + 2, row.y, row.right - badge.right - PAD - 2,
                               square), faces, text)


def _count(canvas: Canvas, text: str, row: pygame.Rect, side: Side, size: int) -> pygame.Rect:
    gold = side is Side.ISHIDA
    fill, ink = (th.GOLD, th.BLACK_SIDE) if gold else (th.BLACK_SIDE, th.INK)
    w, _ = canvas.painter.measure(text, size, bold=True)
    rect = pygame.Rect(row.x, row.y, max(row.height, w + 8), row.height)
    canvas.fill(fill, rect, radius=3)
    pygame.draw.rect(canvas.surface, th.BLACK_SIDE if gold else th.INK, rect, width=1,
                     border_radius=3)
    canvas.text(text, rect.center, size=size, colour=ink, anchor="center", bold=True)
    return rect


def _faces(canvas: Canvas, rect: pygame.Rect, faces: Sequence[Face], size: int) -> None:
    """Face-up blocks as gold squares showing their mon (font ``size``, the names'), a leader's
    square ringed; narrower squares when many; one row is enough: the Mōri box holds the leader
    and four blocks at most (9.3)."""
    if not faces:
        return
    square = rect.height
    digit = canvas.painter.measure("8", size, bold=True)[0] + 4
    step = max(digit, min(square, (rect.width + 3) // len(faces) - 3)) + 3
    for i, face in enumerate(faces):
        cell = pygame.Rect(rect.x + i * step, rect.centery - square // 2, step - 3, square)
        canvas.fill(th.GOLD, cell, radius=2)
        if face.leader:
            pygame.draw.rect(canvas.surface, th.INK, cell, width=2, border_radius=2)
        canvas.text(str(face.mon), cell.center, size=size, colour=th.BLACK_SIDE,
                    anchor="center", bold=True)
