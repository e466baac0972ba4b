"""The virtual table: the physical board beside the screen when no hub is plugged in.

A person moves wooden blocks with the mouse or a finger exactly as on the real table: pressing a
location, tray or box picks up the blocks standing there, releasing puts them down where the
finger is. Where both sides' blocks stand, the finger takes only those of the side whose turn it
is (``to_move``, from the screen's public prompt); when both sides may act, the stack spreads out
instead so the blocks meant are taken one by one. A tap on a stack spreads its blocks out so one
or a few can be taken; the spread is put away while a block is held, so it never hides a drop.
Pressing a bag draws one block at random. Every block put on or lifted from an antenna's zone is
put on or lifted from the :class:`SimulatedTable`, so the simulated readers see exactly what was
done.

Blocks stand upright: no face, clan, mon, set-up symbol or block id is drawn unless that side's
"Show faces" toggle is on (a player looking at their own blocks).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import pygame

from companion.games.sekigahara.components import (
    Block,
    BlockFace,
    Board,
    SetupSymbol,
    Side,
    default_blocks,
)
from companion.games.sekigahara.facade import (
    CASUALTIES,
    GAME_BOX,
    MORI_ZONE,
    bag_zone,
    card_pad_zone,
    clan_name,
    deployment_zone,
    recruitment_zone,
    zone_name,
    zone_names,
)
from firmware_bridge.simtable import SimulatedTable
from ui.sekigahara.mapview import MapLayout, draw_map
from ui.shell import theme as th
from ui.shell.canvas import Canvas, DragHandler

Point = tuple[int, int]

HAND = "hand"
"""Blocks held by the finger (lifted from the table)."""
SLOP_PX = 6
TEXT_PX = th.MIN_TEXT
"""The virtual table's own words (tray names, counts, faces): 14 px lines."""
TRAY_MIN_PX = 64
"""A tray holds its name (two lines at most) and a row of blocks."""
MAP_THEME = th.Theme((1000, 600), 5.7)
"""The board's names at :data:`ui.shell.theme.MIN_TEXT` (14 px lines), read at a desk."""
FACE_MIN_PX = 20
"""A block drawn smaller shows no mon (its 14 px digit would not fit): spread it to see."""
WIDE_PX = 900
"""A panel this wide lays its trays in two rows of six; a narrower one in rows of three."""
NARROW_COLUMNS = 3
"""A press that moves less than this is a tap."""
DRAG_TICK_MS = 33

BLACK_EDGE: th.Colour = (176, 176, 170)
"""The edge of a black block, so it shows on the dark map."""
BAGS = frozenset(bag_zone(s) for s in Side)
SIDE_LABEL = {Side.ISHIDA: "Ishida", Side.TOKUGAWA: "Tokugawa"}


def draw_symbol(surface: pygame.Surface, symbol: SetupSymbol, centre: Point, half: int,
                colour: th.Colour, width: int = 0) -> None:
    """A set-up symbol as the map prints it (5.2.1): square, circle, star or triangle; filled,
    or an outline ``width`` pixels wide."""
    x, y = centre
    if symbol is SetupSymbol.SQUARE:
        pygame.draw.rect(surface, colour, pygame.Rect(x - half, y - half, 2 * half, 2 * half),
                         width=width)
    elif symbol is SetupSymbol.CIRCLE:
        pygame.draw.circle(surface, colour, centre, half, width=width)
    elif symbol is SetupSymbol.TRIANGLE:
        pygame.draw.polygon(surface, colour, [(x, y - half), (x + half, y + half),
                                              (x - half, y + half)], width=width)
    else:
        points = []
        for i in range(10):
            r = half if i % 2 == 0 else half * 0.45
            a = math.pi / 2 + i * math.pi / 5
            points.append((x + r * math.cos(a), y - r * math.sin(a)))
        pygame.draw.polygon(surface, colour, points, width=width)


def face_words(face: BlockFace) -> str:
    """A face in plain words (3.2): "Mōri 1 mon, leader", "Fukushima 1 mon, cavalry"."""
    words = [f"{clan_name(face.clan)} {face.mon} mon"]
    if face.leader:
        words.append("leader")
    if face.attack is not None:
        words.append(face.attack.value)
    return ", ".join(words)


def side_to_move(waiting: Mapping[Side, str]) -> Side | None:
    """The one side the rules wait for (the screen's prompt), else None (both, or nobody)."""
    return next(iter(waiting)) if len(waiting) == 1 else None


def _trays() -> list[list[tuple[str, str]]]:
    """The off-map zones as two rows (Ishida's, then Tokugawa's), ids and short names."""
    rows: list[list[tuple[str, str]]] = []
    for side in Side:
        name = SIDE_LABEL[side]
        row = [(bag_zone(side), f"{name} bag"), (recruitment_zone(side), f"{name} Recruitment"),
               (deployment_zone(side), f"{name} deployment"),
               (card_pad_zone(side), f"{name} cards")]
        row.append((MORI_ZONE, "Mōri box") if side is Side.ISHIDA else (CASUALTIES, "Casualties"))
        rows.append(row)
    return rows


@dataclass
class _Grip:
    """A finger on the table: where it went down, where it is, what it went down on."""

    start: Point
    pos: Point
    zone: str | None
    chip: str | None
    moved: bool = False


class VirtualTable(DragHandler):
    """The simulated physical board (a :class:`ui.shell.app.Panel`)."""

    name = "virtual-table"

    def __init__(self, table: SimulatedTable, board: Board,
                 rng: random.Random | None = None,
                 to_move: Callable[[], Side | None] | None = None) -> None:
        """``to_move``: the side whose turn it is (from the public view), or None when both or
        neither may move; a finger lifting a location takes only that side's blocks."""
        self.table = table
        self.to_move = to_move
        self.symbols: list[tuple[str, SetupSymbol]] = []
        """The set-up symbols drawn in the last frame (block, symbol): only on shown faces."""
        self.marks: list[tuple[str, SetupSymbol]] = []
        """The board's printed set-up symbols drawn in the last frame (zone, symbol)."""
        self.board = board
        self.rng = rng or random.Random(0)
        self.blocks: dict[str, Block] = default_blocks().by_id()
        self.peek: dict[Side, bool] = dict.fromkeys(Side, False)
        self.spread: str | None = None
        """The zone whose blocks are spread out as separate chips, if any."""
        self._antenna_zones = set(zone_names(board))
        self._where: dict[str, str] = dict.fromkeys(self.blocks, GAME_BOX)
        for zone, ids in table.occupied():
            for block in ids:
                if block in self._where:
                    self._where[block] = zone
        self._hand: list[str] = []
        self._hand_from = GAME_BOX
        self._grip: _Grip | None = None
        self._origin: Point = (0, 0)
        self._layout: MapLayout | None = None
        self._trays: dict[str, pygame.Rect] = {}
        self._chips: list[tuple[str, pygame.Rect]] = []
        self._spread_panel: pygame.Rect | None = None

    # ------------------------------------------------------------------ the physical world

    def where(self, block: str) -> str:
        """The zone a block stands on, a side's bag, ``box`` (not in play) or ``hand``."""
        if block not in self._where:
            raise ValueError(f"unknown block {block!r}")
        return self._where[block]

    def blocks_at(self, zone: str) -> list[str]:
        return sorted(b for b, z in self._where.items() if z == zone)

    def bag(self, side: Side | str) -> list[str]:
        return self.blocks_at(bag_zone(Side(side)))

    def read_where(self, block: str) -> bool:
        """Whether an antenna reads ``block`` where it stands (not in a bag or the game box)."""
        return self._where[block] in self._antenna_zones

    def place(self, block: str, zone: str) -> None:
        """Stand ``block`` on ``zone`` from wherever it is: off any antenna it was on, onto the
        zone's antenna unless the zone is a bag or the game box."""
        self._check(block, zone)
        if block in self._hand:
            self._hand.remove(block)
        if zone in self._antenna_zones:
            self.table.put(block, zone)
        elif self._where[block] in self._antenna_zones:
            self.table.lift(block)
        self._where[block] = zone

    def to_bag(self, block: str, side: Side | str) -> None:
        self.place(block, bag_zone(Side(side)))

    def _check(self, block: str, zone: str) -> None:
        if block not in self._where:
            raise ValueError(f"unknown block {block!r}")
        bags = {bag_zone(s): s for s in Side}
        if zone in bags and self.blocks[block].side is not bags[zone]:
            raise ValueError(f"{block} does not belong in {zone}")
        if zone not in self._antenna_zones and zone not in bags and zone != GAME_BOX:
            raise ValueError(f"no zone {zone!r} on the table")

    def _lift(self, blocks: list[str], origin: str) -> None:
        for block in blocks:
            if self._where[block] in self._antenna_zones:
                self.table.lift(block)
            self._where[block] = HAND
        self._hand, self._hand_from = blocks, origin

    def _put_down(self, zone: str | None) -> None:
        """Put what the hand holds on ``zone`` (back where it came from if None); a block
        dropped on a bag goes into its own side's bag."""
        hand, self._hand = self._hand, []
        for block in hand:
            target = zone or self._hand_from
            if target in BAGS:
                target = bag_zone(self.blocks[block].side)
            self.place(block, target)
        if self.spread is not None and not self.blocks_at(self.spread):
            self.spread = None

    # ------------------------------------------------------------------ the finger

    def tick_ms(self) -> int | None:
        return DRAG_TICK_MS if self._grip is not None and self._grip.moved else None

    def _local(self, pos: tuple[int, int]) -> Point:
        return pos[0] - self._origin[0], pos[1] - self._origin[1]

    def press(self, pos: tuple[int, int]) -> None:
        local = self._local(pos)
        self._grip = _Grip(local, local, self.zone_at(local), self._chip_at(local))

    def motion(self, pos: tuple[int, int]) -> None:
        grip = self._grip
        if grip is None:
            return
        grip.pos = self._local(pos)
        if not grip.moved and math.dist(grip.start, grip.pos) > SLOP_PX:
            grip.moved = True
            self._pick(grip)

    def release(self, pos: tuple[int, int]) -> None:
        self.motion(pos)
        grip, self._grip = self._grip, None
        if grip is None:
            return
        if grip.moved:
            if self._hand:
                self._put_down(self.zone_at(grip.pos))
        elif grip.chip is None:
            tapped = grip.zone if grip.zone and self._stack(grip.zone) else None
            self.spread = tapped

    def _stack(self, zone: str) -> list[str]:
        """The blocks a finger can take from a zone (none from a bag: it is drawn from)."""
        return [] if zone in BAGS else self.blocks_at(zone)

    def _pick(self, grip: _Grip) -> None:
        """The finger starts moving: it takes the chip, one block from a bag, or the stack."""
        zone = grip.zone
        if grip.chip is not None:
            self._lift([grip.chip], self._where[grip.chip])
        elif zone is None:
            return
        elif zone in BAGS:
            inside = self.blocks_at(zone)
            if inside:
                self._lift([self.rng.choice(inside)], zone)
        elif self._stack(zone):
            stack = self._stack(zone)
            sides = {self.blocks[b].side for b in stack}
            if len(sides) > 1 and self.to_move is not None:
                mover = self.to_move()
                if mover is None:  # which side's? the spread lets the finger choose
                    self.spread = zone
                    return
                stack = [b for b in stack if self.blocks[b].side is mover]
            self._lift(stack, zone)

    def zone_at(self, local: Point) -> str | None:
        """The tray, box or location under a point of this panel (none under the spread, unless
        blocks are held: the spread is put away while they are, so every drop target shows)."""
        if (self._spread_panel is not None and not self._hand
                and self._spread_panel.collidepoint(local)):
            return None
        for zone, rect in self._trays.items():
            if rect.collidepoint(local):
                return zone
        return self._layout.hit(local) if self._layout is not None else None

    def point_of(self, zone: str) -> Point:
        """Where a zone is in the window as last drawn (for simulated touches)."""
        rect = self._trays.get(zone)
        if rect is not None:
            centre = rect.center
        elif self._layout is not None and zone in self._layout.points:
            centre = self._layout.point(zone)
        else:
            raise ValueError(f"{zone!r} is not drawn on the virtual table")
        return centre[0] + self._origin[0], centre[1] + self._origin[1]

    def chip_points(self) -> dict[str, Point]:
        """Where each spread-out block's chip is in the window as last drawn."""
        return {b: (r.centerx + self._origin[0], r.centery + self._origin[1])
                for b, r in self._chips}

    def _chip_at(self, local: Point) -> str | None:
        return next((b for b, rect in self._chips if rect.collidepoint(local)), None)

    # ------------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        self._origin = canvas.origin
        self.symbols = []
        t = canvas.theme
        area = canvas.rect
        top = pygame.Rect(area.x, area.y, area.width, t.target)
        columns = len(_trays()[0]) + 1 if area.width >= WIDE_PX else NARROW_COLUMNS
        rows = 2 if columns > NARROW_COLUMNS else 4
        tray_h = max(TRAY_MIN_PX, round(area.height * 0.11))
        room = pygame.Rect(area.x, top.bottom, area.width,
                           area.height - top.height - rows * (tray_h + t.gap // 2))
        if self._layout is None or self._layout.rect.width != area.width or (
                self._layout.rect.y != room.y):
            names = MAP_THEME if area.width >= WIDE_PX else t  # 14 px names need the width
            fitted = MapLayout.fit(room, self.board, names, with_strip=False)
            map_area = pygame.Rect(room.x, room.y, room.width,
                                   min(room.height, fitted.map_rect.height))
            self._layout = MapLayout.fit(map_area, self.board, names, with_strip=False)
        map_area = self._layout.rect
        trays = pygame.Rect(area.x, map_area.bottom + t.gap // 2, area.width,
                            area.bottom - map_area.bottom - t.gap // 2)
        canvas.drag_region(area, self)
        self._draw_top(canvas, top)
        draw_map(canvas, self._layout)
        self._draw_setup_marks(canvas, self._layout)
        self._draw_map_blocks(canvas, self._layout)
        self._draw_trays(canvas, trays, columns)
        self._chips, self._spread_panel = [], None
        if self.spread is not None and not self._hand:
            self._draw_spread(canvas, map_area)
        self._draw_hand(canvas)

    def _draw_top(self, canvas: Canvas, rect: pygame.Rect) -> None:
        t = canvas.theme
        canvas.text("Virtual table", (rect.x + t.gap, rect.centery), size=TEXT_PX, bold=True,
                    anchor="midleft")
        width = min(round(t.target * 3.6), (rect.width - 2 * t.gap) // 3)
        for i, side in enumerate((Side.TOKUGAWA, Side.ISHIDA)):
            button = pygame.Rect(rect.right - (i + 1) * (width + t.gap), rect.y, width,
                                 rect.height)
            canvas.button(button, f"Show {SIDE_LABEL[side]} faces",
                          partial(self._toggle, side), selected=self.peek[side],
                          size=t.small)

    def _toggle(self, side: Side) -> None:
        self.peek[side] = not self.peek[side]

    def _square(self, canvas: Canvas, block: str, rect: pygame.Rect, face_size: int = 0) -> None:
        """One upright block: gold or black; its mon and set-up symbol (5.2.1) only when its
        side is peeked at."""
        side = self.blocks[block].side
        gold = side is Side.ISHIDA
        canvas.fill(th.GOLD if gold else th.BLACK_SIDE, rect, radius=2)
        pygame.draw.rect(canvas.surface, th.BLACK_SIDE if gold else BLACK_EDGE, rect, width=1,
                         border_radius=2)
        if not face_size or not self.peek[side]:
            return
        ink = th.BLACK_SIDE if gold else th.INK
        face = self.blocks[block].face
        symbol = face.setup
        centre = (rect.centerx - (rect.width // 6 if symbol else 0), rect.centery + 1)
        canvas.text(str(face.mon), centre, size=max(TEXT_PX, face_size), colour=ink,
                    anchor="center", bold=True)
        if symbol is not None:
            half = max(3, rect.height // 6)
            corner = (rect.right - half - 2, rect.bottom - half - 2)
            draw_symbol(canvas.surface, symbol, corner, half, ink)
            self.symbols.append((block, symbol))

    def _cluster(self, canvas: Canvas, blocks: list[str], centre: Point, size: int,
                 bottom: int | None = None) -> None:
        """Blocks side by side round ``centre`` (rising from ``bottom`` if given, so that a
        location's name below stays readable)."""
        columns = max(1, math.ceil(math.sqrt(len(blocks))))
        rows = math.ceil(len(blocks) / columns)
        step = size + 2
        x0 = centre[0] - (columns * step - 2) // 2
        y0 = centre[1] - (rows * step - 2) // 2
        if bottom is not None:
            y0 = min(y0, bottom - rows * step + 2)
        face = size if size >= FACE_MIN_PX else 0
        for i, block in enumerate(blocks):
            rect = pygame.Rect(x0 + (i % columns) * step, y0 + (i // columns) * step, size, size)
            self._square(canvas, block, rect, face)

    def _draw_setup_marks(self, canvas: Canvas, layout: MapLayout) -> None:
        """The set-up symbols printed on the board (5.2.1), round their locations: where the
        blocks carrying them stand at set-up (the blocks, once there, cover them)."""
        self.marks = []
        for loc in layout.board.locations.values():
            for side, symbols in loc.setup.fixed.items():
                for symbol in symbols:
                    grow = 1.9 if symbol in (SetupSymbol.STAR, SetupSymbol.TRIANGLE) else 1.5
                    draw_symbol(canvas.surface, symbol, layout.point(loc.id),
                                round(layout.radius * grow) + 3,
                                th.GOLD if side is Side.ISHIDA else BLACK_EDGE, width=2)
                    self.marks.append((loc.id, symbol))

    def _draw_map_blocks(self, canvas: Canvas, layout: MapLayout) -> None:
        size = max(7, round(layout.radius * 1.1))
        if self.spread in layout.points:
            pygame.draw.circle(canvas.surface, th.LIT, layout.point(self.spread),
                               layout.radius + 8, width=3)
        aim = self.zone_at(self._grip.pos) if self._grip is not None and self._hand else None
        if aim in layout.points:
            pygame.draw.circle(canvas.surface, th.LIT, layout.point(aim), layout.radius + 8,
                               width=3)
        for loc in layout.board.locations:
            blocks = self.blocks_at(loc)
            if blocks:
                x, y = layout.point(loc)
                self._cluster(canvas, blocks, (x, y), size, bottom=y + layout.radius)

    def _draw_trays(self, canvas: Canvas, rect: pygame.Rect, columns: int) -> None:
        """Ishida's trays, then Tokugawa's, then the game box: two rows of six on a wide
        panel (the game box down the right), else rows of three."""
        t = canvas.theme
        rows = _trays()
        gap = t.gap // 2
        width = (rect.width - (columns - 1) * gap) // columns
        self._trays = {}
        if columns > NARROW_COLUMNS:
            height = (rect.height - gap) // 2
            for r, row in enumerate(rows):
                for c, (zone, _label) in enumerate(row):
                    self._trays[zone] = pygame.Rect(rect.x + c * (width + gap),
                                                    rect.y + r * (height + gap), width, height)
            x = rect.x + (columns - 1) * (width + gap)
            self._trays[GAME_BOX] = pygame.Rect(x, rect.y, rect.right - x, rect.height)
        else:
            cells: list[str | None] = [zone for row in rows for zone, _label in row]
            cells.insert(len(rows[0]), None)  # each side's trays start a row
            cells.append(GAME_BOX)
            lines = -(-len(cells) // columns)
            height = (rect.height - (lines - 1) * gap) // lines
            for i, cell in enumerate(cells):
                if cell is not None:
                    self._trays[cell] = pygame.Rect(rect.x + (i % columns) * (width + gap),
                                                    rect.y + (i // columns) * (height + gap),
                                                    width, height)
        names = {zone: label for row in rows for zone, label in row} | {GAME_BOX: "Game box"}
        for zone, tray in self._trays.items():
            self._draw_tray(canvas, zone, names[zone], tray)

    def _draw_tray(self, canvas: Canvas, zone: str, label: str, rect: pygame.Rect) -> None:
        t = canvas.theme
        is_bag = zone in BAGS
        lit = self._grip is not None and self._hand and self.zone_at(self._grip.pos) == zone
        canvas.fill(th.PANEL_HI if is_bag else th.PANEL, rect, radius=t.gap // 2)
        if lit or self.spread == zone:
            pygame.draw.rect(canvas.surface, th.LIT, rect, width=2, border_radius=t.gap // 2)
        blocks = self.blocks_at(zone)
        count = str(len(blocks))
        size = TEXT_PX
        count_w = canvas.painter.measure(count, size, True)[0] + 8
        marked = zone in self.board.boxes and bool(self.board.boxes[zone].setup.fixed)
        count_w += 16 if marked else 0
        drawn = canvas.text(label, (rect.x + 4, rect.y + 2), size=size, colour=th.DIM,
                            width=rect.width - count_w - 6, max_lines=2)
        canvas.text(count, (rect.right - 4, rect.y + 2), size=size, colour=th.INK,
                    anchor="topright", bold=True)
        box = self.board.boxes.get(zone)
        for side, symbols in (box.setup.fixed.items() if box is not None else ()):
            for symbol in symbols:
                half = 6
                draw_symbol(canvas.surface, symbol, (rect.right - count_w - half - 2,
                                                     rect.y + 2 + size // 2 + 1), half,
                            th.GOLD if side is Side.ISHIDA else BLACK_EDGE)
                self.marks.append((zone, symbol))
        if is_bag or zone == GAME_BOX:
            return
        inner = pygame.Rect(rect.x + 4, drawn.bottom + 3, rect.width - 8,
                            rect.bottom - drawn.bottom - 5)
        square = next((size for size in range(24, 8, -1)
                       if ((inner.width + 2) // (size + 2)) * ((inner.height + 2) // (size + 2))
                       >= len(blocks)), 8)  # the largest that shows them all
        per_row = max(1, (inner.width + 2) // (square + 2))
        shown = blocks[: per_row * max(1, (inner.height + 2) // (square + 2))]
        for i, block in enumerate(shown):
            cell = pygame.Rect(inner.x + (i % per_row) * (square + 2),
                               inner.y + (i // per_row) * (square + 2), square, square)
            self._square(canvas, block, cell, square if square >= FACE_MIN_PX else 0)

    def _draw_spread(self, canvas: Canvas, area: pygame.Rect) -> None:
        """The tapped zone's blocks laid out side by side, each one draggable on its own."""
        assert self.spread is not None
        t = canvas.theme
        blocks = self.blocks_at(self.spread)
        faces = any(self.peek[self.blocks[b].side] for b in blocks)
        chip_w = round(t.target * 2.2) if faces else max(t.target, min(
            round(t.target * 2), (area.width - 2 * t.gap) // max(1, len(blocks))))
        per_row = max(1, (area.width - 2 * t.gap) // (chip_w + 4))
        rows = math.ceil(len(blocks) / per_row)
        chip_h = round(t.target * (1.6 if faces else 1.2))  # three short lines of a face
        where = zone_name(self.spread, self.board) if self.spread != GAME_BOX else "Game box"
        mixed = len({self.blocks[b].side for b in blocks}) > 1
        title = (f"{where}: {len(blocks)} block{'s' * (len(blocks) != 1)}"
                 + (" of both sides, drag the ones you move" if mixed else ", drag one away"))
        lines = len(canvas.painter.wrap(title, t.small, area.width - 2 * t.gap))
        title_h = lines * round(t.small * 1.25) + 8
        panel = pygame.Rect(area.x, area.y, area.width, rows * (chip_h + 4) + title_h + 4)
        self._spread_panel = panel
        canvas.fill(th.PANEL, panel, radius=t.gap)
        pygame.draw.rect(canvas.surface, th.LIT, panel, width=2, border_radius=t.gap)
        canvas.text(title, (panel.x + t.gap, panel.y + 4), size=t.small, colour=th.DIM,
                    width=panel.width - 2 * t.gap, max_lines=lines)
        for i, block in enumerate(blocks):
            chip = pygame.Rect(panel.x + t.gap + (i % per_row) * (chip_w + 4),
                               panel.y + title_h + (i // per_row) * (chip_h + 4),
                               chip_w, chip_h)
            self._draw_chip(canvas, block, chip)
            self._chips.append((block, chip))

    def _draw_chip(self, canvas: Canvas, block: str, rect: pygame.Rect) -> None:
        self._square(canvas, block, rect)
        side = self.blocks[block].side
        if not self.peek[side]:
            return
        ink = th.BLACK_SIDE if side is Side.ISHIDA else th.INK
        face = self.blocks[block].face
        corner = 0
        if face.setup is not None:
            half = max(4, rect.height // 7)
            corner = 2 * half + 4
            draw_symbol(canvas.surface, face.setup, (rect.right - half - 3, rect.bottom - half - 3),
                        half, ink)
            self.symbols.append((block, face.setup))
        canvas.text(face_words(face), (rect.centerx - corner // 2, rect.centery), size=TEXT_PX,
                    colour=ink, anchor="center", width=rect.width - 6 - corner, max_lines=3)

    def _draw_hand(self, canvas: Canvas) -> None:
        if self._grip is None or not self._hand:
            return
        size = max(12, canvas.theme.target // 3)
        self._cluster(canvas, self._hand, self._grip.pos, size)
