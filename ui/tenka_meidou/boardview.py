"""The Tenka Meidou board drawn from the game's board data: the zones, land borders (solid) and
sea links (dashed blue), each zone's large castle value, and the pawns on it.

Where a zone sits on the screen is a layout choice (columns west to east, like the map); which
zones border which, and how, comes from ``data/board.yaml`` only. A zone the layout does not know
(a corrected board) is placed in a spare cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pygame

from companion.games.tenka_meidou.components import Board, Colour, default_board
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.tenka_meidou.words import PAWN_FILL, SMALLEST, short_zone

CELLS: dict[str, tuple[float, float]] = {
    "usuki": (0, 0), "shuri": (0, 1), "yoshida_koriyama": (1, 0), "oko": (1, 1),
    "kyoto": (2, 0.5), "tsutsujigasaki": (3, 0), "kiyosu": (3, 1), "kasugayama": (4, 0),
    "odawara": (4, 1), "tokuyama": (5, 0), "yonezawa": (5, 1),
}
"""(column west to east, row north to south) of each zone of the bundled board."""
BREAKS = {"tsutsujigasaki": "Tsutsuji-\ngasaki", "kasugayama": "Kasuga-\nyama",
          "yoshida_koriyama": "Yoshida-\nKōriyama", "tokuyama": "Toku-\nyama",
          "yonezawa": "Yone-\nzawa", "odawara": "Oda-\nwara"}
"""Where a long name breaks in a narrow box."""
SEA: th.Colour = (70, 120, 170)
CASTLE: th.Colour = (196, 160, 70)
ZONE: th.Colour = (52, 56, 62)
WHITE_PAWN: th.Colour = (236, 234, 226)
"""The white reinforcement pawns (5.II.3)."""


def layout(rect: pygame.Rect, board: Board | None = None) -> dict[str, pygame.Rect]:
    """Each zone's box in ``rect``."""
    board = board or default_board()
    cells = dict(CELLS)
    spare = [(c, r) for c in range(6) for r in (0, 1) if (c, r) not in cells.values()]
    for zone in board.zone_ids:
        if zone not in cells:
            cells[zone] = spare.pop(0) if spare else (len(cells) % 6, 0.5)
    columns = 6
    gap = max(6, rect.width // 60)
    width = (rect.width - gap * (columns - 1)) // columns
    height = min(int(rect.height * 0.42), rect.height // 2 - gap)
    out = {}
    for zone in board.zone_ids:
        col, row = cells[zone]
        x = rect.x + int(col * (width + gap))
        y = rect.y + int(row * (rect.height - height))
        out[zone] = pygame.Rect(x, y, width, height)
    return out


def draw_links(canvas: Canvas, boxes: Mapping[str, pygame.Rect], board: Board | None = None
               ) -> None:
    """Land borders solid, sea links dashed, centre to centre beneath the boxes."""
    board = board or default_board()
    t = canvas.theme
    for a, b in board.adjacency.land:
        pygame.draw.line(canvas.surface, th.LINE, boxes[a].center, boxes[b].center,
                         max(3, t.gap // 2))
    for a, b in board.adjacency.sea:
        _dashed(canvas.surface, SEA, boxes[a].center, boxes[b].center, max(3, t.gap // 2))


def _dashed(surface: pygame.Surface, colour: th.Colour, a: tuple[int, int], b: tuple[int, int],
            width: int) -> None:
    length = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
    steps = int(length // 10)
    for i in range(0, steps, 2):
        p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
        pygame.draw.line(surface, colour, p, q, width)


def zone_box(canvas: Canvas, box: pygame.Rect, zone: str, value: int | None, *,
             lit: bool = False, ring: th.Colour | None = None, smallest: int = 11
             ) -> pygame.Rect:
    """The zone's box, castle value and name (its font never under ``smallest``, the name
    broken where :data:`BREAKS` says if need be); returns the area left for the pawns."""
    t = canvas.theme
    canvas.fill(ZONE, box, radius=t.gap)
    if ring is not None:
        pygame.draw.rect(canvas.surface, ring, box, width=4, border_radius=t.gap)
    if lit:
        pygame.draw.rect(canvas.surface, th.LIT, box, width=4, border_radius=t.gap)
    side = max(t.body + 6, min(box.width // 2, box.height // 3))
    square = pygame.Rect(box.x + 4, box.y + 4, side, side)
    if value is not None:
        canvas.fill(CASTLE, square, radius=4)
        canvas.text(str(value), square.center, size=int(side * 0.8), bold=True,
                    colour=th.BLACK_SIDE, anchor="center")
    name = short_zone(zone)
    inner = box.width - 8
    if canvas.painter.measure(name, t.small)[0] > inner:
        name = BREAKS.get(zone, name)
    size = min(canvas.painter.fit_size(line, t.small, inner, smallest=smallest)
               for line in name.split("\n"))
    label = canvas.text(name, (box.x + 4, square.bottom + 2), size=size, width=inner,
                        max_lines=2)
    return pygame.Rect(box.x + 4, label.bottom + 2, box.width - 8, box.bottom - label.bottom - 6)


def pawn_chip(canvas: Canvas, centre: tuple[int, int], radius: int, colour: Colour | None,
              label: str, daimyo: bool = False) -> pygame.Rect:
    """A pawn of ``colour`` (None: a white reinforcement pawn, 5.II.3), its count (or D for the
    Daimyo) written on it."""
    fill = WHITE_PAWN if colour is None else PAWN_FILL[colour]
    rect = pygame.Rect(0, 0, 2 * radius, 2 * radius)
    rect.center = centre
    if daimyo:
        pygame.draw.rect(canvas.surface, fill, rect, border_radius=3)
    else:
        pygame.draw.circle(canvas.surface, fill, centre, radius)
    edge = (200, 200, 196) if colour is Colour.BLACK else th.BLACK_SIDE
    if daimyo:
        pygame.draw.rect(canvas.surface, edge, rect, width=2, border_radius=3)
    else:
        pygame.draw.circle(canvas.surface, edge, centre, radius, 2)
    ink = th.INK if colour in (Colour.BLACK, Colour.BLUE, Colour.RED) else th.BLACK_SIDE
    canvas.text(label, centre, size=max(SMALLEST, int(radius * 1.3)), bold=True, colour=ink,
                anchor="center")
    return rect


def pawn_rows(canvas: Canvas, area: pygame.Rect, counts: Mapping[Colour, int],
              daimyo: tuple[Colour, ...] = (), white: int = 0, largest: int = 18,
              per_row: int | None = 2) -> list[tuple[Colour | None, bool, pygame.Rect]]:
    """Draw one chip per colour with its count, each Daimyo, and the white reinforcement pawns
    (``white``, colour None), no chip wider than ``largest`` px in radius, ``per_row`` to a row
    (None: as many as make the chips largest); where each went."""
    items: list[tuple[Colour | None, bool, str]] = [(c, False, str(n))
                                                    for c, n in counts.items() if n]
    items += [(c, True, "D") for c in daimyo]
    if white:
        items.append((None, False, str(white)))
    if not items or area.height < 8:
        return []
    def fitting(across: int) -> int:
        rows = -(-len(items) // across)
        return min(area.width // (2 * across) - 3, area.height // (2 * max(rows, 2)) - 2,
                   largest)

    if per_row is None:
        per_row = max((1, 2, 3), key=lambda n: (fitting(n), -n))
    radius = max(8, fitting(per_row))
    out = []
    for i, (colour, is_daimyo, label) in enumerate(items):
        col, row = i % per_row, i // per_row
        cx = area.x + (col * 2 + 1) * area.width // (2 * per_row)
        cy = area.y + radius + row * (2 * radius + 4)
        out.append((colour, is_daimyo, pawn_chip(canvas, (cx, cy), radius, colour, label,
                                                 is_daimyo)))
    return out


def draw_board(canvas: Canvas, rect: pygame.Rect, castles: Mapping[str, int],
               soldiers: Mapping[str, Mapping[Colour, int]], daimyo_at: Mapping[Colour, str],
               *, lit: frozenset[str] = frozenset(), rings: Mapping[str, th.Colour] | None = None,
               on_zone: Callable[[str], Callable[[], None]] | None = None
               ) -> dict[str, pygame.Rect]:
    """The whole board as the public view has it; a tap on a zone calls ``on_zone(zone)()``."""
    boxes = layout(rect)
    draw_links(canvas, boxes)
    for zone, box in boxes.items():
        area = zone_box(canvas, box, zone, castles.get(zone), lit=zone in lit,
                        ring=(rings or {}).get(zone), smallest=SMALLEST)
        here = tuple(c for c, z in daimyo_at.items() if z == zone)
        pawn_rows(canvas, area, soldiers.get(zone, {}), here,  # counts read from a chair
                  largest=max(18, canvas.theme.target * 2 // 5), per_row=None)
        if on_zone is not None:
            canvas.tap_area(box, short_zone(zone), on_zone(zone))
    return boxes
