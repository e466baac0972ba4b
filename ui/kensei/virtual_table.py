"""The virtual table for Kensei: each player's trays and pads (B18) drawn as boxes beside the
screen, with the field between them, for the demo and for players without the hardware.

Each player's column holds the reserve tray, the casualty tray, the command pad, the card pad
and the ammunition pad; the middle holds the field (the open table, which no reader watches)
and each player's hand (cards and ammunition markers on no pad). Tags are drawn as chips, one
per troop in its player's colour (its name and how many of its models lie there), one for each
player's cards and one for its ammunition markers: face down, a chip never shows a value.

Drag a chip onto a box as you would at the table. From a reserve tray the whole troop goes
(its unit card, its models and a leader inside it); onto a command pad its troop tag (its unit
card or leader's base) goes, onto a casualty tray one model; one card or marker at a time. Every
tag put down on a tray or pad, or taken off one, is put on or lifted from the
:class:`~firmware_bridge.simtable.SimulatedTable`: the simulated hubs read it over real
pseudo-terminals, so the bridge and the table session see exactly what the real readers would.
Tag ids are never drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pygame

from companion.core.table import REGISTRATION
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.table import (
    BOX,
    FIELD,
    PAD_KINDS,
    SIDES,
    TABLE,
    KenseiTable,
    hand_place,
    piece_kind,
    place_id,
    troop_name,
)
from companion.games.kensei.table_session import KenseiSessionRules
from firmware_bridge.simtable import SimulatedTable
from ui.shell import theme as th
from ui.shell.canvas import Canvas, DragHandler

Point = tuple[int, int]
HAND = "in hand"
"""Where a held chip's tags are while the finger moves (off every reader)."""
SIDE_INK: dict[Side, th.Colour] = {"a": th.GOLD, "b": th.TOKUGAWA}
FACE_DOWN = ("cards", "ammunition")
"""The chips of face-down tags: never a value, only how many."""


def _unwatched(place: str) -> bool:
    return place in (FIELD, BOX, HAND) or place.startswith("hand_")


def troop_words(rules: KenseiSessionRules) -> Callable[[str], str]:
    """A troop or model tag's chip name: its troop's, as the list names it (B18); a troop
    kept back in secret is only "hidden troop" (B12)."""
    def words(tag: str) -> str:
        troop = rules.troop_of(tag)
        if troop is None:
            return "tags of no troop"
        return "hidden troop" if rules.hidden(troop) else troop_name(rules.state, troop)
    return words


@dataclass
class _Chip:
    place: str
    side: Side
    group: str
    """What the tags are to players: a troop's name, or one of :data:`FACE_DOWN`."""
    tags: list[str]
    rect: pygame.Rect

    @property
    def text(self) -> str:
        """A troop's name and its models there (none for a unit card or a hero's base
        alone); face-down tags by count."""
        models = sum(1 for t in self.tags if piece_kind(t)[1] in ("model", "card", "ammo"))
        return f"{self.group} {models}" if models else self.group


class VirtualTable(DragHandler):
    """A :class:`ui.shell.app.Panel` and a drag handler. ``groups`` names a tag's chip: its
    troop's name ("Yari Ashigaru"), given by the battle screens from the list's tags (B18);
    cards and ammunition markers are grouped face down whatever it says."""

    name = "virtual-table"

    def __init__(self, table: SimulatedTable, words: KenseiTable = TABLE) -> None:
        self.table = table
        self.words = words
        self.groups: Callable[[str], str] = lambda tag: "tags"
        self._where: dict[str, str] = {}
        self._chips: list[_Chip] = []
        self._drops: dict[str, pygame.Rect] = {}
        self._origin: Point = (0, 0)
        self._held: _Chip | None = None
        self._pos: Point = (0, 0)

    # ------------------------------------------------------------------ the physical table

    def arrange(self, where: Mapping[str, str], groups: Callable[[str], str] | None = None
                ) -> None:
        """The tags where ``where`` says (tag -> place); every other tag off the table."""
        if groups is not None:
            self.groups = groups
        for tag in set(self._where) - set(where):
            self.table.lift(tag)
        self._where = {}
        for tag, place in sorted(where.items()):
            self.move(tag, place)

    def lay_out(self, rules: KenseiSessionRules) -> None:
        """Every tag of the battle where its rules expect it (the tags of no troop put away),
        each troop's chips named as the list names it."""
        self.arrange({t: z for t, z in rules.expected_positions().items() if z != BOX},
                     troop_words(rules))

    def where(self, tag: str, /) -> str:
        """Where ``tag`` lies (a place of Kensei's table; the tag box when it is not out)."""
        return self._where.get(tag, BOX)

    def tags_at(self, place: str) -> list[str]:
        return sorted(t for t, z in self._where.items() if z == place)

    def move(self, tag: str, place: str) -> None:
        """Put ``tag`` on ``place`` (a tray or pad: on the readers; the field or a hand: off
        them)."""
        if not _unwatched(place) and place not in self.words.places():
            raise ValueError(f"no place {place!r} on the Kensei table")
        self._where[tag] = place
        if _unwatched(place):
            self.table.lift(tag)
        else:
            self.table.put(tag, place)

    def on_readers(self) -> dict[str, str]:
        """tag -> place of every tag a reader would see."""
        return {t: z for t, z in self._where.items() if not _unwatched(z)}

    def _group(self, tag: str) -> str:
        kind = piece_kind(tag)[1]
        if kind == "card":
            return FACE_DOWN[0]
        if kind == "ammo":
            return FACE_DOWN[1]
        return self.groups(tag)

    # ------------------------------------------------------------------ drawing

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        self._origin = canvas.origin
        self._chips, self._drops = [], {}
        head = canvas.text("The trays and pads (drag a chip onto a box)", (t.gap, t.gap // 2),
                           size=t.small, colour=th.DIM)
        top = head.bottom + t.gap // 2
        column = (r.width - 4 * t.gap) * 7 // 20
        middle = r.width - 2 * column - 4 * t.gap
        for n, side in enumerate(SIDES):
            x = t.gap if n == 0 else r.width - t.gap - column
            self._column(canvas, side, pygame.Rect(x, top, column, r.bottom - top - t.gap))
        mid = pygame.Rect(2 * t.gap + column, top, middle, r.bottom - top - t.gap)
        hand_h = max(2 * t.target, mid.height // 5)
        field = pygame.Rect(mid.x, mid.y, mid.width, mid.height - 2 * (hand_h + t.gap))
        self._box(canvas, FIELD, "The field (not read)", field, th.INK)
        for n, side in enumerate(SIDES):
            box = pygame.Rect(mid.x, field.bottom + t.gap + n * (hand_h + t.gap), mid.width,
                              hand_h)
            self._box(canvas, hand_place(side), self.words.label(hand_place(side)).capitalize(),
                      box, SIDE_INK[side])
        if self._held is not None:
            local = self._local(self._pos)
            rect = self._held.rect.copy()
            rect.center = local
            self._chip(canvas, rect, self._held, held=True)
        canvas.drag_region(r, self)

    def _column(self, canvas: Canvas, side: Side, area: pygame.Rect) -> None:
        t = canvas.theme
        weights = {"reserve": 8, "casualties": 6, "command": 3, "cards": 3, "ammo": 3}
        unit = (area.height - t.gap * (len(PAD_KINDS) - 1)) / sum(weights.values())
        y = float(area.y)
        for kind in PAD_KINDS:
            h = int(unit * weights[kind])
            place = place_id(kind, side)
            box = pygame.Rect(area.x, int(y), area.width, h)
            self._box(canvas, place, self.words.label(place), box, SIDE_INK[side])
            y += h + t.gap

    def _box(self, canvas: Canvas, place: str, label: str, box: pygame.Rect,
             ink: th.Colour) -> None:
        t = canvas.theme
        canvas.fill(th.PANEL, box, radius=t.gap)
        size = canvas.painter.fit_size(label, t.small, box.width - 2 * t.gap,
                                       smallest=th.MIN_TEXT)
        named = canvas.text(label, (box.x + t.gap, box.y + 2), colour=ink, size=size,
                            width=box.width - 2 * t.gap, max_lines=1)
        inner = pygame.Rect(box.x + 4, named.bottom + 2, box.width - 8,
                            box.bottom - named.bottom - 6)
        self._drops[place] = box
        groups: dict[tuple[Side, str], list[str]] = {}
        for tag in self.tags_at(place):
            groups.setdefault((piece_kind(tag)[0], self._group(tag)), []).append(tag)
        x, y = inner.x, inner.y
        height = th.MIN_TEXT + 10
        for (side, group), tags in sorted(groups.items()):
            chip = _Chip(place, side, group, tags, pygame.Rect(x, y, 0, height))
            chip.rect.width = min(inner.width,
                                  canvas.painter.measure(chip.text, th.MIN_TEXT)[0] + 16)
            if chip.rect.right > inner.right and x > inner.x:
                x, y = inner.x, y + height + 4
                chip.rect.topleft = (x, y)
            if chip.rect.bottom > inner.bottom + 2:
                more = len(groups) - len([c for c in self._chips if c.place == place])
                canvas.text(f"and {more} more", (inner.right - 4, inner.bottom),
                            size=th.MIN_TEXT, colour=th.DIM, anchor="bottomright")
                break  # no room left in the box: the rest are still on the readers
            self._chip(canvas, chip.rect, chip)
            self._chips.append(chip)
            x += chip.rect.width + 4

    def _chip(self, canvas: Canvas, rect: pygame.Rect, chip: _Chip, held: bool = False) -> None:
        canvas.fill(th.LINE if chip.group in FACE_DOWN else th.PANEL_HI, rect, radius=6)
        if held:
            pygame.draw.rect(canvas.surface, th.LIT, rect, width=2, border_radius=6)
        canvas.text(chip.text, (rect.x + 8, rect.centery), size=th.MIN_TEXT,
                    colour=SIDE_INK[chip.side], anchor="midleft", width=rect.width - 12,
                    max_lines=1)

    def drawn_at(self, place: str, group: str | None = None, side: Side | None = None
                 ) -> Point | None:
        """Where (window pixels) the last frame drew the chip ``group`` (of ``side``, if
        given) at ``place``, or the place itself when ``group`` is None."""
        ox, oy = self._origin
        if group is None:
            rect = self._drops.get(place)
            return None if rect is None else (rect.centerx + ox, rect.centery + oy)
        for chip in self._chips:
            if (chip.place, chip.group) == (place, group) and side in (None, chip.side):
                return chip.rect.centerx + ox, chip.rect.centery + oy
        return None

    # ------------------------------------------------------------------ the finger

    def _local(self, pos: Point) -> Point:
        return pos[0] - self._origin[0], pos[1] - self._origin[1]

    def press(self, pos: Point) -> None:
        local = self._local(pos)
        for chip in self._chips:
            if chip.rect.collidepoint(local):
                self._held, self._pos = chip, pos
                return

    def motion(self, pos: Point) -> None:
        self._pos = pos

    def release(self, pos: Point) -> None:
        chip, self._held = self._held, None
        if chip is None:
            return
        local = self._local(pos)
        target = next((p for p, rect in self._drops.items() if rect.collidepoint(local)), None)
        if target is None or target == chip.place or target == REGISTRATION:
            return
        for tag in self._taken(chip, target):
            self.move(tag, target)

    def _taken(self, chip: _Chip, target: str) -> list[str]:
        """The tags a hand moves from ``chip`` to ``target``: a whole troop from a reserve
        tray, its unit card or leader's base onto a command pad, else one tag (a model before
        the troop's own tag)."""
        here = [t for t in chip.tags if self._where.get(t) == chip.place]
        troops = [t for t in here if piece_kind(t)[1] == "troop"]
        models = [t for t in here if piece_kind(t)[1] == "model"]
        if chip.place.startswith("reserve_") and not target.startswith("command_"):
            return here
        if target.startswith("command_"):
            return (troops or models)[:1]
        return (models or here)[:1]
