"""The off-map boxes above the map: both Recruitment Boxes (how many blocks) and the Mōri box,
whose blocks are face up (9.3) and so are drawn with their faces at every size.

Each box is a panel in its side's colour: its name on the first line, on the second the count
and (the Mōri box) one gold square per block showing its mon, a leader's square ringed.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.views import Face, PublicState
from ui.shell import theme as th
from ui.shell.canvas import Canvas

SHARES = (0.3, 0.4, 0.3)
"""The Mōri box gets the widest cell: its faces need the room."""
PAD = 3


def strip_height(text: int) -> int:
    """The strip's height for box names and faces of ``text`` px: two rows."""
    return text + face_square(text) + 3 * PAD + 2


def face_square(text: int) -> int:
    return text + 6


def draw_off_map(canvas: Canvas, strip: pygame.Rect, public: PublicState, mori_name: str,
                 text: int, ink: dict[Side, th.Colour]) -> list[pygame.Rect]:
    """Both Recruitment Boxes and the Mōri box; returns the three panels."""
    gap = max(4, text // 3)
    inner = strip.inflate(-2, -2)
    usable = inner.width - 2 * gap
    cells: list[pygame.Rect] = []
    x = inner.x
    for share in SHARES:
        width = round(usable * share)
        cells.append(pygame.Rect(x, inner.y, width, inner.height))
        x += width + gap
    recruit = public.recruitment_box
    _panel(canvas, cells[0], "Ishida Recruitment", recruit.get(Side.ISHIDA, 0), Side.ISHIDA,
           text, ink)
    _panel(canvas, cells[1], mori_name, len(public.mori_box), Side.ISHIDA, text, ink,
           faces=public.mori_box)
    _panel(canvas, cells[2], "Tokugawa Recruitment", recruit.get(Side.TOKUGAWA, 0),
           Side.TOKUGAWA, text, ink)
    return cells


def _panel(canvas: Canvas, rect: pygame.Rect, name: str, count: int, side: Side, text: int,
           ink: dict[Side, th.Colour], faces: Sequence[Face] = ()) -> None:
    canvas.fill(th.PANEL, rect, radius=4)
    bar = pygame.Rect(rect.x, rect.y, max(4, text // 4), rect.height)
    canvas.fill(ink[side], bar, radius=2)
    left = bar.right + PAD + 2
    width = rect.right - PAD - left
    size = canvas.painter.fit_size(name, text, width, smallest=14)
    canvas.text(name, (left, rect.y + PAD), size=size, colour=th.INK)
    square = face_square(text)
    row = pygame.Rect(left, rect.bottom - PAD - square, width, square)
    badge = _count(canvas, str(count), row, side, text)
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
    """Face-up blocks as gold squares showing their mon, a leader's square ringed; smaller
    squares (never text under 14 px) when many; one row is enough: the Mōri box holds the leader
    and four blocks at most (9.3)."""
    if not faces:
        return
    square = rect.height
    step = square + 3
    while len(faces) * step - 3 > rect.width and size > 14:
        size -= 1
        square = size + 6
        step = square + 3
    for i, face in enumerate(faces):
        cell = pygame.Rect(rect.x + i * step, rect.centery - square // 2, square, square)
        canvas.fill(th.GOLD, cell, radius=2)
        if face.leader:
            pygame.draw.rect(canvas.surface, th.INK, cell, width=2, border_radius=2)
        canvas.text(str(face.mon), cell.center, size=size, colour=th.BLACK_SIDE,
                    anchor="center", bold=True)
