"""The map of Sekigahara drawn from the board data alone (no GMT artwork), and what is public on it.

:class:`MapLayout` scales the board's ``map_size`` coordinates into a rectangle of the screen and
answers which location a finger is on. :func:`draw_board` draws the roads and highways, the
locations (castles as squares in their natural colour, Resource Locations red, recruitment
locations marked), and over them only what the :class:`PublicState` holds: the block counts of
each side, castle occupancy, control, the disks, pending combats and the battle in progress. The
off-map boxes (both Recruitment Boxes and the Mori box) sit in a strip above the map.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import pygame

from companion.games.sekigahara.components import Board, Location, RoadKind, Side
from companion.games.sekigahara.engine.views import Face, PublicState, Stack
from ui.shell import theme as th
from ui.shell.canvas import Canvas

Point = tuple[int, int]

ROAD: th.Colour = (104, 110, 120)
HIGHWAY: th.Colour = (208, 178, 120)
"""Highways: thick and sand-coloured, roads thin and grey (4.1)."""
LOCATION: th.Colour = (86, 90, 98)
RESOURCE: th.Colour = (200, 58, 50)
BLUE_CASTLE: th.Colour = (70, 110, 180)
"""A castle whose natural alignment is Tokugawa (4.3)."""
LABEL: th.Colour = (214, 210, 198)
LAND: th.Colour = (34, 38, 40)

SIDE_INK: dict[Side, th.Colour] = {Side.ISHIDA: th.GOLD, Side.TOKUGAWA: th.TOKUGAWA}
"""A side's colour for rings and lines on the dark screen."""
CASTLE_FILL: dict[Side, th.Colour] = {Side.ISHIDA: th.GOLD, Side.TOKUGAWA: BLUE_CASTLE}
DISK_LETTER = {"hideyori": "H", "sanada": "S"}


@dataclass(frozen=True)
class MapLayout:
    """Where each location sits in a rectangle of the screen, and the sizes that follow."""

    board: Board
    rect: pygame.Rect
    """The whole area given (map plus the off-map strip)."""
    strip: pygame.Rect
    """The off-map boxes, above the map."""
    map_rect: pygame.Rect
    """The area the locations (with their labels) occupy."""
    scale: float
    radius: int
    """A location circle's radius in pixels."""
    label_size: int
    target: int
    points: dict[str, Point]
    spacing: dict[str, int]
    """Distance from each location to its nearest neighbour, in pixels."""

    @classmethod
    def fit(cls, rect: pygame.Rect, board: Board, theme: th.Theme | None = None, *,
            with_strip: bool = True) -> MapLayout:
        """Scale the board's coordinates into ``rect``, keeping the aspect ratio, with a margin
        for labels and badges and (``with_strip``) a strip above the map for the off-map
        boxes."""
        rect = pygame.Rect(rect)
        target = (theme or th.Theme((800, 480))).target
        xs = [loc.xy[0] for loc in board.locations.values()]
        ys = [loc.xy[1] for loc in board.locations.values()]
        x0, y0 = min(xs), min(ys)
        span_x, span_y = max(1, max(xs) - x0), max(1, max(ys) - y0)
        scale = min(rect.width / span_x, rect.height / span_y)
        for _ in range(3):  # sizes depend on the scale and the margins on the sizes
            radius, label = _sizes(scale)
            pad_x = max(label * 2, round(rect.width * 0.03))
            pad_top = radius + round(label * 1.6)
            pad_bottom = radius + round(label * 1.3)
            strip_h = round(label * 2.0) + 4 if with_strip else 0
            scale = min((rect.width - 2 * pad_x) / span_x,
                        (rect.height - strip_h - pad_top - pad_bottom) / span_y)
        radius, label = _sizes(scale)
        height = round(span_y * scale) + pad_top + pad_bottom
        width = round(span_x * scale) + 2 * pad_x
        if with_strip:
            strip_h += min(label, max(0, rect.height - strip_h - height) // 2)  # room to spare
        strip = pygame.Rect(rect.x, rect.y, rect.width, strip_h)
        map_rect = pygame.Rect(0, 0, width, height)
        map_rect.center = pygame.Rect(rect.x, strip.bottom, rect.width,
                                      rect.height - strip_h).center
        points = {
            loc.id: (map_rect.x + pad_x + round((loc.xy[0] - x0) * scale),
                     map_rect.y + pad_top + round((loc.xy[1] - y0) * scale))
            for loc in board.locations.values()
        }
        return cls(board, rect, strip, map_rect, scale, radius, label, target, points,
                   _spacing(points))

    def point(self, location_id: str) -> Point:
        """The centre of a location's circle, in the canvas's pixels."""
        return self.points[location_id]

    def hit(self, pos: Sequence[int]) -> str | None:
        """The location under a finger: the nearest centre within max(radius, target / 2)."""
        reach = max(self.radius, self.target // 2)
        best: str | None = None
        best_d = float("inf")
        for loc, (x, y) in self.points.items():
            d = math.hypot(pos[0] - x, pos[1] - y)
            if d <= reach and d < best_d:
                best, best_d = loc, d
        return best

    def tap_rect(self, location_id: str) -> pygame.Rect:
        """A location's tap area: a touch target, shrunk so neighbours do not overlap."""
        side = max(2 * self.radius, min(self.target, self.spacing[location_id]))
        rect = pygame.Rect(0, 0, side, side)
        rect.center = self.points[location_id]
        return rect


def _sizes(scale: float) -> tuple[int, int]:
    """Circle radius and label font size for a map drawn at ``scale`` pixels per map unit."""
    return max(5, round(scale * 36)), max(12, min(24, round(scale * 58)))


def _spacing(points: dict[str, Point]) -> dict[str, int]:
    out: dict[str, int] = {}
    for loc, (x, y) in points.items():
        out[loc] = round(min((math.hypot(x - a, y - b) for other, (a, b) in points.items()
                              if other != loc), default=1000))
    return out


# --------------------------------------------------------------------------- the plain map


def draw_roads(canvas: Canvas, layout: MapLayout) -> None:
    """Roads thin and grey, highways thick and sand-coloured."""
    road_w = max(1, round(layout.radius / 5))
    highway_w = max(3, round(layout.radius / 2))
    for road in sorted(layout.board.roads, key=lambda r: r.kind is RoadKind.HIGHWAY):
        a, b = layout.point(road.a), layout.point(road.b)
        if road.kind is RoadKind.HIGHWAY:
            pygame.draw.line(canvas.surface, HIGHWAY, a, b, highway_w)
        else:
            pygame.draw.line(canvas.surface, ROAD, a, b, road_w)


def draw_location(canvas: Canvas, layout: MapLayout, loc: Location) -> None:
    """A location's shape in its printed colours: a castle square in its natural alignment's
    colour, a red Resource Location, a grey circle otherwise; recruitment locations marked."""
    x, y = layout.point(loc.id)
    r = layout.radius
    surface = canvas.surface
    if loc.castle is not None:
        square = pygame.Rect(0, 0, 2 * r, 2 * r)
        square.center = (x, y)
        pygame.draw.rect(surface, CASTLE_FILL[loc.castle], square)
        pygame.draw.rect(surface, th.BLACK_SIDE, square, width=1)
    else:
        pygame.draw.circle(surface, RESOURCE if loc.resource else LOCATION, (x, y), r)
        pygame.draw.circle(surface, th.BLACK_SIDE, (x, y), r, width=1)
        if loc.capital is not None:
            pygame.draw.circle(surface, SIDE_INK[loc.capital], (x, y), max(2, r // 2))
    if loc.recruitment:
        _diamond(surface, (x - r - 1, y - r - 1), max(3, r // 2), th.INK)


def _diamond(surface: pygame.Surface, centre: Point, half: int, colour: th.Colour) -> None:
    x, y = centre
    corners = [(x, y - half), (x + half, y), (x, y + half), (x - half, y)]
    pygame.draw.polygon(surface, colour, corners)
    pygame.draw.polygon(surface, th.BLACK_SIDE, corners, width=1)


def place_labels(canvas: Canvas, layout: MapLayout,
                 obstacles: Sequence[pygame.Rect] = ()) -> dict[str, pygame.Rect]:
    """Where each location's name goes: under its shape unless that covers another location, a
    badge or a name already placed; then right, left, above (the least covered wins)."""
    r = layout.radius
    shapes = {loc: pygame.Rect(x - r - 2, y - r - 2, 2 * r + 4, 2 * r + 4)
              for loc, (x, y) in layout.points.items()}
    taken: list[pygame.Rect] = [*shapes.values(), *obstacles]
    placed: dict[str, pygame.Rect] = {}
    for loc in sorted(layout.board.locations.values(), key=lambda loc: layout.point(loc.id)):
        w, h = canvas.painter.measure(loc.name, layout.label_size)
        x, y = layout.point(loc.id)
        best: pygame.Rect | None = None
        best_hits = 1 << 30
        for anchor, pos in (("midtop", (x, y + r + 1)), ("midleft", (x + r + 3, y)),
                            ("midright", (x - r - 3, y)), ("midbottom", (x, y - r - 2)),
                            ("topleft", (x + r // 2, y + r)), ("topright", (x - r // 2, y + r))):
            rect = pygame.Rect(0, 0, w + 2, h - 2)
            setattr(rect, anchor, pos)
            hits = len(rect.collidelistall(taken)) - (1 if rect.colliderect(shapes[loc.id]) else 0)
            if not layout.map_rect.contains(rect):
                hits += 2
            if hits < best_hits:
                best, best_hits = rect, hits
            if hits == 0:
                break
        assert best is not None
        placed[loc.id] = best
        taken.append(best)
    return placed


def draw_labels(canvas: Canvas, layout: MapLayout,
                obstacles: Sequence[pygame.Rect] = ()) -> None:
    """Every location's name, on a dark patch so roads do not cross it."""
    names = {loc.id: loc.name for loc in layout.board.locations.values()}
    for loc_id, patch in place_labels(canvas, layout, obstacles).items():
        canvas.fill(LAND, patch, radius=3)
        canvas.text(names[loc_id], (patch.centerx, patch.top - 1), size=layout.label_size,
                    colour=LABEL, anchor="midtop")


def draw_map(canvas: Canvas, layout: MapLayout) -> None:
    """Roads, locations and names: the board as printed, with nothing on it."""
    canvas.fill(LAND, layout.map_rect, radius=layout.radius)
    draw_roads(canvas, layout)
    for loc in layout.board.locations.values():
        draw_location(canvas, layout, loc)
    draw_labels(canvas, layout)


# --------------------------------------------------------------------------- the public board


def draw_board(
    canvas: Canvas,
    layout: MapLayout,
    public: PublicState,
    *,
    lit: frozenset[str] = frozenset(),
    blinking: frozenset[str] = frozenset(),
    blink_on: bool = True,
    on_location: Callable[[str], None] | None = None,
) -> None:
    """The board with what both players may see on it (never a block's identity)."""
    canvas.fill(LAND, layout.map_rect, radius=layout.radius)
    draw_roads(canvas, layout)
    contested = set(public.contested)
    battle = public.battle.location if public.battle is not None else None
    for loc in layout.board.locations.values():
        _draw_marks_below(canvas, layout, loc.id, loc.id in lit, loc.id in contested,
                          loc.id == battle)
        draw_location(canvas, layout, loc)
        _draw_control(canvas, layout, loc, public)
        if loc.id in blinking and blink_on:
            pygame.draw.circle(canvas.surface, th.WARN, layout.point(loc.id),
                               layout.radius + max(6, layout.radius // 2) + 3,
                               width=max(3, layout.radius // 3))
    badges = [b for loc_id, stack in public.locations.items() if loc_id in layout.points
              for b in count_badges(canvas, layout, loc_id, stack)]
    tag = None
    if public.battle is not None and battle in layout.points:
        tag = _battle_tag(canvas, layout, battle, public.battle.siege)
    disks = _disk_spots(layout, public.disks)
    obstacles = [b.rect for b in badges] + [spot for _, spot in disks]
    draw_labels(canvas, layout, obstacles + ([tag[0]] if tag else []))
    _draw_disks(canvas, disks)
    for badge in badges:
        badge.draw(canvas)
    for loc_id, stack in public.locations.items():
        for side, inside in stack.inside.items():
            if inside and loc_id in layout.points:
                _draw_inside(canvas, layout, layout.point(loc_id), side, inside)
    if tag is not None:
        _draw_battle_tag(canvas, *tag)
    draw_legend(canvas, layout)
    draw_off_map(canvas, layout, public)
    if on_location is not None:
        for loc in layout.board.locations.values():
            canvas.tap_area(layout.tap_rect(loc.id), loc.name, partial(on_location, loc.id))


def _draw_marks_below(canvas: Canvas, layout: MapLayout, loc_id: str, lit: bool,
                      contested: bool, battle: bool) -> None:
    """Legal destinations glow green; pending combats carry crossed swords; the battle in
    progress a thick red ring."""
    x, y = layout.point(loc_id)
    r = layout.radius
    surface = canvas.surface
    if lit:
        pygame.draw.circle(surface, th.LIT, (x, y), r + max(5, r // 2))
    if contested or battle:
        arm = r + max(6, r // 2)
        width = max(3, r // 3)
        pygame.draw.line(surface, th.DANGER, (x - arm, y - arm), (x + arm, y + arm), width)
        pygame.draw.line(surface, th.DANGER, (x - arm, y + arm), (x + arm, y - arm), width)
    if battle:
        pygame.draw.circle(surface, th.DANGER, (x, y), r + max(6, r // 2), width=max(3, r // 3))


def _draw_control(canvas: Canvas, layout: MapLayout, loc: Location, public: PublicState) -> None:
    """A ring in the colour of the side that controls a castle or a Resource Location now."""
    x, y = layout.point(loc.id)
    r = layout.radius
    width = max(2, r // 4)
    if loc.castle is not None:
        side = public.castles.get(loc.id)
        if side is not None:
            ring = pygame.Rect(0, 0, 2 * (r + width + 1), 2 * (r + width + 1))
            ring.center = (x, y)
            pygame.draw.rect(canvas.surface, SIDE_INK[side], ring, width=width)
    elif loc.resource:
        side = public.resources.get(loc.id)
        if side is not None:
            pygame.draw.circle(canvas.surface, SIDE_INK[side], (x, y), r + width + 1, width=width)


def _disk_spots(layout: MapLayout,
                disks: dict[str, str | None]) -> list[tuple[str, pygame.Rect]]:
    """Where each disk (Hideyori, Sanada) stands: a counter at the lower right of its location."""
    r = layout.radius
    disk_r = max(7, round(r * 0.8))
    spots = []
    for disk, where in sorted(disks.items()):
        if where in layout.points:
            x, y = layout.point(where)
            spot = pygame.Rect(0, 0, 2 * disk_r, 2 * disk_r)
            spot.center = (x + r + disk_r - 2, y + r // 2)
            spots.append((disk, spot))
    return spots


def _draw_disks(canvas: Canvas, spots: list[tuple[str, pygame.Rect]]) -> None:
    for disk, spot in spots:
        pygame.draw.circle(canvas.surface, th.INK, spot.center, spot.width // 2)
        pygame.draw.circle(canvas.surface, th.BLACK_SIDE, spot.center, spot.width // 2, width=1)
        canvas.text(DISK_LETTER.get(disk, disk[:1].upper()), (spot.centerx, spot.centery + 1),
                    size=round(spot.width * 1.0), colour=th.BLACK_SIDE, anchor="center",
                    bold=True)


@dataclass(frozen=True)
class Badge:
    """A count in a side's block colour: gold with dark text, black with light text."""

    rect: pygame.Rect
    text: str
    side: Side
    size: int

    @classmethod
    def at(cls, canvas: Canvas, text: str, pos: Point, anchor: str, size: int,
           side: Side) -> Badge:
        w, h = canvas.painter.measure(text, size, bold=True)
        rect = pygame.Rect(0, 0, max(h, w + 6), h)
        setattr(rect, anchor, pos)
        return cls(rect, text, side, size)

    def draw(self, canvas: Canvas) -> None:
        gold = self.side is Side.ISHIDA
        fill, ink = (th.GOLD, th.BLACK_SIDE) if gold else (th.BLACK_SIDE, th.INK)
        canvas.fill(fill, self.rect, radius=3)
        pygame.draw.rect(canvas.surface, th.BLACK_SIDE if gold else th.INK, self.rect, width=1,
                         border_radius=3)
        canvas.text(self.text, (self.rect.centerx, self.rect.centery + 1), size=self.size,
                    colour=ink, anchor="center", bold=True)


def badge_size(layout: MapLayout) -> int:
    return round(layout.label_size * 1.45)


def count_badges(canvas: Canvas, layout: MapLayout, loc_id: str, stack: Stack) -> list[Badge]:
    """How many blocks of each side stand at a location: badges just above it, gold left."""
    x, y = layout.point(loc_id)
    r = layout.radius
    size = badge_size(layout)
    counts = [(s, n) for s, n in ((Side.ISHIDA, stack.ishida), (Side.TOKUGAWA, stack.tokugawa))
              if n]
    top = y - r + max(1, r // 3)
    if len(counts) == 1:
        return [Badge.at(canvas, str(counts[0][1]), (x, top), "midbottom", size, counts[0][0])]
    if len(counts) == 2:
        return [Badge.at(canvas, str(counts[0][1]), (x - 1, top), "bottomright", size,
                         counts[0][0]),
                Badge.at(canvas, str(counts[1][1]), (x + 1, top), "bottomleft", size,
                         counts[1][0])]
    return []


def _draw_inside(canvas: Canvas, layout: MapLayout, centre: Point, side: Side, n: int) -> None:
    r = layout.radius
    inner = pygame.Rect(0, 0, max(10, round(r * 1.5)), max(10, round(r * 1.5)))
    inner.center = centre
    fill, ink = (th.GOLD, th.BLACK_SIDE) if side is Side.ISHIDA else (th.BLACK_SIDE, th.INK)
    canvas.fill(fill, inner)
    pygame.draw.rect(canvas.surface, th.INK, inner, width=1)
    canvas.text(str(n), (centre[0], centre[1] + 1), size=max(11, round(r * 1.6)), colour=ink,
                anchor="center", bold=True)


def _battle_tag(canvas: Canvas, layout: MapLayout, loc_id: str,
                siege: bool) -> tuple[pygame.Rect, str, int]:
    """The tag naming the combat in progress, to the right of its location."""
    x, y = layout.point(loc_id)
    r = layout.radius
    text = "SIEGE" if siege else "BATTLE"
    size = layout.label_size
    w, h = canvas.painter.measure(text, size, bold=True)
    tag = pygame.Rect(0, 0, w + 8, h + 2)
    tag.midleft = (x + r + max(7, r // 2) + 3, y - r // 2)
    return tag, text, size


def _draw_battle_tag(canvas: Canvas, tag: pygame.Rect, text: str, size: int) -> None:
    canvas.fill(th.DANGER, tag, radius=4)
    canvas.text(text, (tag.centerx, tag.centery + 1), size=size, colour=th.INK, anchor="center",
                bold=True)


# --------------------------------------------------------------------------- legend, boxes


def draw_legend(canvas: Canvas, layout: MapLayout) -> None:
    """What the shapes mean, in the empty sea at the lower left of the map (when it fits)."""
    size = layout.label_size
    if size < 12:
        return
    line_h = round(size * 1.15)
    items = ["Castle", "Resource", "Recruitment", "Highway", "Road"]
    x = layout.map_rect.x + layout.radius
    y = layout.map_rect.bottom - len(items) * line_h - layout.radius // 2
    r = max(4, size // 3)
    for i, item in enumerate(items):
        cy = y + i * line_h + line_h // 2
        icon = (x + r, cy)
        if item == "Castle":
            pygame.draw.rect(canvas.surface, th.GOLD, (x, cy - r, 2 * r, 2 * r))
        elif item == "Resource":
            pygame.draw.circle(canvas.surface, RESOURCE, icon, r)
        elif item == "Recruitment":
            _diamond(canvas.surface, icon, r, th.INK)
        else:
            colour, width = (HIGHWAY, max(3, r)) if item == "Highway" else (ROAD, 2)
            pygame.draw.line(canvas.surface, colour, (x - 2, cy), (x + 2 * r + 2, cy), width)
        canvas.text(item, (x + 2 * r + 6, cy + 1), size=size, colour=th.DIM, anchor="midleft")


def draw_off_map(canvas: Canvas, layout: MapLayout, public: PublicState) -> None:
    """Both Recruitment Boxes (counts) and the Mori box (its blocks are face up: 9.3)."""
    cells = _strip_cells(layout)
    recruit = public.recruitment_box
    _box_panel(canvas, layout, cells[0], "Ishida Recruitment", recruit.get(Side.ISHIDA, 0),
               Side.ISHIDA)
    _box_panel(canvas, layout, cells[1], layout.board.mori_box.name, len(public.mori_box),
               Side.ISHIDA, faces=public.mori_box)
    _box_panel(canvas, layout, cells[2], "Tokugawa Recruitment",
               recruit.get(Side.TOKUGAWA, 0), Side.TOKUGAWA)


def _strip_cells(layout: MapLayout) -> list[pygame.Rect]:
    strip = layout.strip.inflate(-4, -4)
    gap = max(4, layout.radius // 2)
    width = (strip.width - 2 * gap) // 3
    return [pygame.Rect(strip.x + i * (width + gap), strip.y, width, strip.height)
            for i in range(3)]


def _box_panel(canvas: Canvas, layout: MapLayout, rect: pygame.Rect, name: str, count: int,
               side: Side, faces: Sequence[Face] = ()) -> None:
    canvas.fill(th.PANEL, rect, radius=4)
    bar = pygame.Rect(rect.x, rect.y, max(4, rect.height // 6), rect.height)
    canvas.fill(SIDE_INK[side], bar, radius=2)
    size = max(layout.label_size + 1, round(rect.height * 0.45))
    text_x = bar.right + 6
    badge_x = rect.right - 4
    label_w = badge_x - text_x - size * 2
    fitted = canvas.painter.fit_size(name, size, label_w, smallest=10)
    canvas.text(name, (text_x, rect.centery + 1), size=fitted, colour=th.INK, anchor="midleft")
    Badge.at(canvas, str(count), (badge_x, rect.centery), "midright", size + 2, side).draw(canvas)
    if faces:
        name_w = canvas.painter.measure(name, fitted)[0]
        _face_row(canvas, pygame.Rect(text_x + name_w + 6, rect.y, badge_x - size * 2 - text_x
                                      - name_w - 6, rect.height), faces, size)


def _face_row(canvas: Canvas, rect: pygame.Rect, faces: Sequence[Face], size: int) -> None:
    """Face-up blocks as small gold squares showing their mon; a leader's square is ringed."""
    side = min(rect.height - 6, size + 4)
    room = rect.right - size * 2
    x = rect.x
    for i, face in enumerate(faces):
        if x + side > (room if i < len(faces) - 1 else rect.right):
            canvas.text(f"+{len(faces) - i}", (x - 1, rect.centery + 1), size=size,
                        colour=th.DIM, anchor="midleft")
            break
        square = pygame.Rect(x, rect.centery - side // 2, side, side)
        canvas.fill(th.GOLD, square, radius=2)
        if face.leader:
            pygame.draw.rect(canvas.surface, th.INK, square, width=2, border_radius=2)
        canvas.text(str(face.mon), (square.centerx, square.centery + 1), size=size,
                    colour=th.BLACK_SIDE, anchor="center", bold=True)
        x += side + 3
