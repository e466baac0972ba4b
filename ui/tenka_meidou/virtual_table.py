"""The virtual table for Tenka Meidou: the board, each player's reserve and the reinforcement
supply (the 30 white pawns of the War, 5.II.3), beside the screen.

Drag a pawn from a reserve, the supply (or a zone) onto a zone as you would at the table:
pressing a chip takes one pawn of that colour (the Daimyo chip, marked D, takes the Daimyo; the
white chip a reinforcement pawn), releasing puts it where the finger is; released anywhere else
(another colour's reserve, a coloured pawn on the supply) it goes back. Every pawn put down or
picked up is put on or lifted from the :class:`~firmware_bridge.simtable.SimulatedTable`: the
simulated hubs read its tag over real pseudo-terminals, and the bridge and the table session see
exactly what was done. Pawns carry ids (``red-03``, ``red-daimyo``, ``white-12``) as their tags
do; the ids are never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.games.tenka_meidou.components import Colour, default_board
from companion.games.tenka_meidou.state import RESERVE, PawnMove
from companion.games.tenka_meidou.table import REINFORCEMENTS, SUPPLY, pawn_kind, reserve_place
from firmware_bridge.simtable import SimulatedTable
from ui.shell import theme as th
from ui.shell.canvas import Canvas, DragHandler
from ui.tenka_meidou.boardview import draw_links, layout, pawn_chip, pawn_rows, zone_box
from ui.tenka_meidou.control import pawn_ids
from ui.tenka_meidou.words import TEXT_COLOUR, colour_name

Point = tuple[int, int]
HAND = "hand"
TEXT_PX = th.MIN_TEXT
"""The smallest words on the virtual table: 14 px lines."""
WHITE = "white"
"""The white reinforcement pawns' colour (they belong to nobody, 5.II.3)."""


def white_ids(count: int = REINFORCEMENTS) -> list[str]:
    """The white reinforcement pawns (section 2: 30 of them)."""
    return [f"{WHITE}-{i:02d}" for i in range(1, count + 1)]


@dataclass
class _Chip:
    place: str
    colour: Colour | str
    """A player's colour, or :data:`WHITE`."""
    daimyo: bool
    rect: pygame.Rect


class VirtualTable(DragHandler):
    """A :class:`ui.shell.app.Panel` and a drag handler."""

    name = "virtual-table"

    def __init__(self, table: SimulatedTable, whites: int = REINFORCEMENTS) -> None:
        self.table = table
        self.whites = whites
        """How many white pawns the reinforcement supply holds at the start (5.II.3)."""
        self.board = default_board()
        self.players: tuple[Colour, ...] = ()
        self._where: dict[str, str] = {}
        self._chips: list[_Chip] = []
        self._drops: dict[str, pygame.Rect] = {}
        self._origin: Point = (0, 0)
        self._held: str | None = None
        self._held_from = ""
        self._pos: Point = (0, 0)

    # ------------------------------------------------------------------ the physical table

    def lay_out(self, players: tuple[Colour, ...], soldiers: int, advanced: bool) -> None:
        """Every pawn of each player in their reserve, the white pawns in the reinforcement
        supply; the board empty (section 3.5)."""
        self.arrange(players, {p: reserve_place(c) for c in players
                               for p in pawn_ids(c, soldiers, advanced)})

    def arrange(self, players: tuple[Colour, ...], where: dict[str, str]) -> None:
        """The pawns where ``where`` says (pawn -> place), the white pawns it does not place in
        the reinforcement supply (where they wait for the War, 5.II.3); every other pawn off
        the table."""
        where = {**dict.fromkeys(white_ids(self.whites), SUPPLY), **where}
        for pawn in set(self._where) - set(where):
            self.table.lift(pawn)
        self.players = players
        self._where = dict(where)
        for pawn, place in sorted(where.items()):
            self.table.put(pawn, place)

    def pawns_at(self, place: str) -> list[str]:
        return sorted(p for p, where in self._where.items() if where == place)

    def where(self, pawn: str) -> str:
        return self._where[pawn]

    def move(self, pawn: str, place: str) -> None:
        """Put ``pawn`` on ``place`` (a zone or a reserve tray) from wherever it is; ``hand``
        lifts it off the table."""
        self._where[pawn] = place
        if place == HAND:
            self.table.lift(pawn)
        else:
            self.table.put(pawn, place)

    def take(self, colour: Colour | str, place: str, daimyo: bool = False) -> str | None:
        """The pawn a hand picks up: the Daimyo, or a soldier of ``colour`` at ``place`` (a
        white pawn for :data:`WHITE`)."""
        for pawn in reversed(self.pawns_at(place)):
            c, kind = pawn_kind(pawn)
            if c == str(colour) and (kind == "daimyo") == daimyo:
                return pawn
        return None

    def whites_at(self, place: str) -> int:
        """White pawns standing at ``place``."""
        return sum(1 for p in self.pawns_at(place) if pawn_kind(p)[0] == WHITE)

    def carry_out(self, moves: tuple[PawnMove, ...]) -> None:
        """Move the pawns as ``moves`` say (the demo's hands)."""
        for m in moves:
            origin = reserve_place(m.colour) if m.origin == RESERVE else m.origin
            to = reserve_place(m.colour) if m.destination == RESERVE else m.destination
            for _ in range(m.count):
                pawn = self.take(m.colour, origin, daimyo=m.pawn == "daimyo")
                if pawn is None:
                    raise ValueError(f"no {m.colour} {m.pawn} at {origin}")
                self.move(pawn, to)

    def on_table(self) -> dict[str, str]:
        """pawn -> place of every pawn standing on the table (not in a hand)."""
        return {p: z for p, z in self._where.items() if z != HAND}

    # ------------------------------------------------------------------ drawing

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        self._origin = canvas.origin
        self._chips, self._drops = [], {}
        canvas.text("The table (drag pawns from a reserve or the supply onto a zone)",
                    (t.gap, t.gap // 2), size=t.small, colour=th.DIM)
        trays_h = max(2 * t.target, r.height // 5)
        area = pygame.Rect(t.gap, t.gap + t.small, r.width - 2 * t.gap,
                           r.height - trays_h - 2 * t.gap - t.small)
        boxes = layout(area, self.board)
        draw_links(canvas, boxes, self.board)
        for zone, box in boxes.items():
            inner = zone_box(canvas, box, zone, None)
            self._place_chips(canvas, zone, inner)
            self._drops[zone] = box
        trays = pygame.Rect(t.gap, r.bottom - trays_h - t.gap, r.width - 2 * t.gap, trays_h)
        shelves = [(reserve_place(c), f"{colour_name(c)} reserve", TEXT_COLOUR[c])
                   for c in self.players]
        shelves.append((SUPPLY, "White supply", th.INK))
        count = len(shelves)
        width = (trays.width - t.gap * (count - 1)) // count
        for i, (place, label, ink) in enumerate(shelves):
            tray = pygame.Rect(trays.x + i * (width + t.gap), trays.y, width, trays.height)
            canvas.fill(th.PANEL, tray, radius=t.gap)
            named = canvas.text(label, (tray.x + t.gap, tray.y + 2), colour=ink,
                                size=canvas.painter.fit_size(label, t.small,
                                                             tray.width - 2 * t.gap,
                                                             smallest=TEXT_PX),
                                width=tray.width - 2 * t.gap, max_lines=2)
            inner = pygame.Rect(tray.x + 4, named.bottom + 4, tray.width - 8,
                                tray.bottom - named.bottom - 8)
            self._place_chips(canvas, place, inner)
            self._drops[place] = tray
        if self._held is not None:
            held, kind = pawn_kind(self._held)
            local = (self._pos[0] - self._origin[0], self._pos[1] - self._origin[1])
            pawn_chip(canvas, local, 16, None if held == WHITE else Colour(held),
                      "D" if kind == "daimyo" else "1", kind == "daimyo")
        canvas.drag_region(r, self)

    def _place_chips(self, canvas: Canvas, place: str, area: pygame.Rect) -> None:
        counts: dict[Colour, int] = {}
        daimyo: list[Colour] = []
        whites = 0
        for pawn in self.pawns_at(place):
            colour, kind = pawn_kind(pawn)
            if kind == "daimyo":
                daimyo.append(Colour(colour))
            elif kind == "soldier":
                counts[Colour(colour)] = counts.get(Colour(colour), 0) + 1
            else:
                whites += 1
        for chip, is_daimyo, rect in pawn_rows(canvas, area, counts, tuple(daimyo), whites):
            self._chips.append(_Chip(place, WHITE if chip is None else chip, is_daimyo, rect))

    def drawn_at(self, place: str, colour: Colour | str | None = None,
                 daimyo: bool = False) -> Point | None:
        """Where (window pixels) the last frame drew a chip of ``colour`` (a player's, or
        :data:`WHITE`) at ``place``, or the place itself when ``colour`` is None."""
        ox, oy = self._origin
        if colour is None:
            rect = self._drops.get(place)
            return None if rect is None else (rect.centerx + ox, rect.centery + oy)
        for chip in self._chips:
            if (chip.place, chip.colour, chip.daimyo) == (place, colour, daimyo):
                return chip.rect.centerx + ox, chip.rect.centery + oy
        return None

    # ------------------------------------------------------------------ the finger

    def _local(self, pos: Point) -> Point:
        return pos[0] - self._origin[0], pos[1] - self._origin[1]

    def press(self, pos: Point) -> None:
        local = self._local(pos)
        for chip in self._chips:
            if chip.rect.inflate(8, 8).collidepoint(local):
                pawn = self.take(chip.colour, chip.place, chip.daimyo)
                if pawn is not None:
                    self._held, self._held_from, self._pos = pawn, chip.place, pos
                    self.move(pawn, HAND)
                return

    def motion(self, pos: Point) -> None:
        self._pos = pos

    def release(self, pos: Point) -> None:
        pawn, self._held = self._held, None
        if pawn is None:
            return
        local = self._local(pos)
        colour, _kind = pawn_kind(pawn)
        target = self._held_from
        for place, rect in self._drops.items():
            if rect.collidepoint(local) and _may_stand(colour, place):
                target = place
                break
        self.move(pawn, target)


def _may_stand(colour: str, place: str) -> bool:
    """A zone takes any pawn; a reserve only its colour's; the supply only white pawns."""
    if place == SUPPLY:
        return colour == WHITE
    if place.startswith("reserve_"):
        return colour != WHITE and place == reserve_place(Colour(colour))
    return True
