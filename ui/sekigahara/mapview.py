"""The map of Sekigahara drawn from the board data alone (no GMT artwork), and what is public on it.

:class:`MapLayout` scales the board's ``map_size`` coordinates into a rectangle of the screen
(the whole map) or, zoomed (:meth:`MapLayout.zoom`), shows the part around a point large enough
that every location there is a full finger's target with its name. :func:`draw_board` draws the
roads and highways, the locations (castles as squares in their natural colour, Resource
Locations red, recruitment locations marked), and over them only what the :class:`PublicState`
holds: the block counts of each side, castle occupancy, control, the disks, pending combats and
the battle in progress. No word or count covers another (:mod:`ui.sekigahara.mapplace`); the
off-map boxes (:mod:`ui.sekigahara.mapboxes`) sit in a strip above the map.

Every word is at least 14 px high as drawn (font size :data:`MIN_TEXT`), every count clearly
larger (:data:`COUNT_OVER_NAME`). The whole map names what it has room for, what matters first
(:func:`_tier`); zoomed, every location shown is named. What the shapes mean is a page
(:data:`KEY`), not a legend too small to read.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import partial

import pygame

from companion.games.sekigahara.components import Board, Location, RoadKind, Side
from companion.games.sekigahara.facade import (
    PublicState,
    Stack,
)
from ui.sekigahara import mapboxes
from ui.sekigahara.mapplace import Placer, around, text_box
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.text import Painter

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

MIN_TEXT = th.MIN_TEXT
"""No word on the map is drawn at a smaller font size (its lines 14 px high), at any screen
size or zoom."""
MIN_COUNT = 27
"""Block counts are read at a glance: never a smaller font size (18 px lines), and always
clearly larger than the names beside them (:attr:`MapLayout.badge_size`)."""
COUNT_OVER_NAME = 1.3
"""How much larger a count's font is than the names'."""
NAME_GAP = 10
"""Room kept clear either side of a name (px), so two names never read as one."""
STRETCH = 1.3
"""At most this much taller than true, where the screen has height to spare (the map is a
diagram of roads: the names gain room, the roads stay legible)."""


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
    shown: frozenset[str] = frozenset()
    """The locations drawn whole, named and tappable (all of them on the whole map)."""
    focus: Point | None = None
    """Zoomed: the board point (map units) at the centre of the view."""
    aim: Point | None = None
    """Zoomed: the board point asked for (the view stops at the board's edges)."""
    text_min: int = MIN_TEXT
    """The size a name is drawn at when the map is small (:func:`legible`)."""
    text_max: int = MIN_TEXT
    """The largest a name may be drawn (the theme's small text)."""
    strip_text: int = MIN_COUNT
    """The off-map boxes' count size (the same zoomed or not: the strip does not zoom)."""
    strip_name: int = MIN_TEXT
    """The off-map boxes' name size."""
    stretch: float = 1.0
    """How much taller than true the map is drawn (an upright screen has height to spare)."""

    @property
    def zoomed(self) -> bool:
        return self.focus is not None

    @property
    def badge_size(self) -> int:
        return count_size(self.label_size)

    @classmethod
    def fit(cls, rect: pygame.Rect, board: Board, theme: th.Theme | None = None, *,
            with_strip: bool = True, top: bool = False, fill: bool = False) -> MapLayout:
        """Scale the board's coordinates into ``rect``, keeping the aspect ratio, with a margin
        for badges and names and (``with_strip``) a strip above the map for the off-map boxes.
        ``top``: the strip and map at the top of ``rect`` (the room to spare below), else
        centred; ``fill``: the map's area is all of ``rect`` under the strip (room for names
        round the map, and a larger zoomed view)."""
        rect = pygame.Rect(rect)
        theme = theme or th.Theme((800, 480))
        (x0, y0), (span_x, span_y) = _extent(board)
        scale = min(rect.width / span_x, rect.height / span_y)
        for _ in range(3):  # sizes depend on the scale and the margins on the sizes
            radius, label = _sizes(scale, legible(theme), theme.small)
            badge = count_size(label)
            pad_x = radius + 4
            pad_top = radius + badge + 8
            pad_bottom = radius + label + 4
            strip_h = mapboxes.strip_height(label, badge) if with_strip else 0
            scale = min((rect.width - 2 * pad_x) / span_x,
                        (rect.height - strip_h - pad_top - pad_bottom) / span_y)
        radius, label = _sizes(scale, legible(theme), theme.small)
        below = pygame.Rect(rect.x, rect.y + strip_h, rect.width, rect.height - strip_h)
        stretch = 1.0
        if fill:  # taller than the map needs: spread it up to STRETCH, names need the room
            room = (below.height - pad_top - pad_bottom) / (span_y * scale)
            stretch = max(1.0, min(STRETCH, room))
        height = round(span_y * scale * stretch) + pad_top + pad_bottom
        width = round(span_x * scale) + 2 * pad_x
        map_rect = pygame.Rect(0, 0, width, height)
        map_rect.center = below.center
        if top:
            map_rect.top = below.top
        if fill:
            map_rect = below
        strip = pygame.Rect(rect.x, map_rect.top - strip_h, rect.width, strip_h)
        origin = (map_rect.centerx - width // 2, map_rect.centery - height // 2)
        points = {
            loc.id: (origin[0] + pad_x + round((loc.xy[0] - x0) * scale),
                     origin[1] + pad_top + round((loc.xy[1] - y0) * scale * stretch))
            for loc in board.locations.values()
        }
        return cls(board, rect, strip, map_rect, scale, radius, label, theme.target, points,
                   _spacing(points), frozenset(points), None, text_min=legible(theme),
                   text_max=theme.small, strip_text=badge, strip_name=label, stretch=stretch)

    def zoom(self, focus: Sequence[float], public: PublicState | None = None) -> MapLayout:
        """The same map area showing the board around ``focus`` (map units), twice the whole
        map's scale or more: enough that the touch targets of the locations shown (squares
        round their centres) never overlap and (given the ``public`` marks drawn round them)
        that every location shown has room for its name."""
        scale = 2 * self.scale
        for _ in range(4):
            view = self._view(focus, scale)
            spread = [self.board.locations[loc].xy for loc in view.shown]
            closest = min((max(abs(a[0] - b[0]), abs(a[1] - b[1]))
                           for a, b in itertools.combinations(spread, 2)), default=1 << 20)
            needed = self.target * 1.02 / max(1, closest)
            if needed <= scale:
                break
            scale = needed
        else:
            view = self._view(focus, scale)
        return view if public is None else view.named(public)

    def named(self, public: PublicState) -> MapLayout:
        """Zoomed: this view, or closer in on the same point until every location shown has
        room for its name beside the marks of ``public``, none covering another."""
        if not self.zoomed:
            return self
        key = (self.map_rect.topleft, self.map_rect.size, self.scale, self.aim,
               _marks_key(public))
        found = _NAMED.get(key)
        if found is not None:
            return found
        view = self
        for _ in range(12):
            plan = plan_board(_measure(), view, public)
            if not plan.left and plan.clear():
                break
            assert view.aim is not None
            view = view._view(view.aim, view.scale * 1.15)
        _NAMED[key] = view
        while len(_NAMED) > 32:
            del _NAMED[next(iter(_NAMED))]
        return view

    def _view(self, focus: Sequence[float], scale: float) -> MapLayout:
        radius, label = _sizes(scale, self.text_min, self.text_max)
        area = self.map_rect
        (x0, y0), (span_x, span_y) = _extent(self.board)
        margin = (radius + label + self.target // 2) / scale
        fx = _clamp(focus[0], x0 - margin, x0 + span_x + margin, area.width / 2 / scale)
        fy = _clamp(focus[1], y0 - margin, y0 + span_y + margin, area.height / 2 / scale)
        points = {loc.id: (area.centerx + round((loc.xy[0] - fx) * scale),
                           area.centery + round((loc.xy[1] - fy) * scale))
                  for loc in self.board.locations.values()}
        inner = area.inflate(-4 * radius, -4 * radius)
        shown = frozenset(loc for loc, p in points.items() if inner.collidepoint(p))
        return replace(self, scale=scale, radius=radius, label_size=label, points=points,
                       spacing=_spacing(points), shown=shown, focus=(round(fx), round(fy)),
                       aim=(round(focus[0]), round(focus[1])), stretch=1.0)

    def to_board(self, pos: Sequence[int]) -> Point:
        """The board point (map units) under a point of the screen."""
        any_loc = next(iter(self.board.locations.values()))
        ax, ay = self.points[any_loc.id]
        return (round(any_loc.xy[0] + (pos[0] - ax) / self.scale),
                round(any_loc.xy[1] + (pos[1] - ay) / (self.scale * self.stretch)))

    def point(self, location_id: str) -> Point:
        """The centre of a location's circle, in the canvas's pixels."""
        return self.points[location_id]

    def hit(self, pos: Sequence[int]) -> str | None:
        """The location under a finger: the nearest centre within max(radius, target / 2)."""
        reach = max(self.radius, self.target // 2)
        best: str | None = None
        best_d = float("inf")
        for loc in self.shown:
            x, y = self.points[loc]
            d = math.hypot(pos[0] - x, pos[1] - y)
            if d <= reach and d < best_d:
                best, best_d = loc, d
        return best

    def tap_rect(self, location_id: str) -> pygame.Rect:
        """A location's tap area: a touch target, shrunk so neighbours do not overlap."""
        if self.zoomed:  # the scale keeps the targets of the locations shown apart
            rect = pygame.Rect(0, 0, self.target, self.target)
            rect.center = self.points[location_id]
            return rect.clamp(self.map_rect)
        side = max(2 * self.radius, min(self.target, self.spacing[location_id]))
        rect = pygame.Rect(0, 0, side, side)
        rect.center = self.points[location_id]
        return rect


def _extent(board: Board) -> tuple[tuple[int, int], tuple[int, int]]:
    xs = [loc.xy[0] for loc in board.locations.values()]
    ys = [loc.xy[1] for loc in board.locations.values()]
    return (min(xs), min(ys)), (max(1, max(xs) - min(xs)), max(1, max(ys) - min(ys)))


def _clamp(value: float, low: float, high: float, half: float) -> float:
    """``value`` moved so that a window ``half`` either side stays within [low, high]."""
    if high - low <= 2 * half:
        return (low + high) / 2
    return min(max(value, low + half), high - half)


def _sizes(scale: float, smallest: int, largest: int) -> tuple[int, int]:
    """Circle radius and name size for a map drawn at ``scale`` pixels per map unit."""
    return max(5, round(scale * 36)), max(smallest, min(largest, round(scale * 58)))


def legible(theme: th.Theme) -> int:
    """The names' font size read from a chair: lines 2.6 mm high on the panel (a line is about
    two thirds of the font size), never under :data:`MIN_TEXT` nor over the theme's small
    text."""
    return max(MIN_TEXT, min(theme.small, round(2.6 * theme.px_per_mm * 1.5)))


def count_size(label: int) -> int:
    """A count's font size beside names of ``label``: clearly larger, never under
    :data:`MIN_COUNT`."""
    return max(MIN_COUNT, round(label * COUNT_OVER_NAME))


def _spacing(points: dict[str, Point]) -> dict[str, int]:
    out: dict[str, int] = {}
    for loc, (x, y) in points.items():
        out[loc] = round(min((math.hypot(x - a, y - b) for other, (a, b) in points.items()
                              if other != loc), default=1000))
    return out


def _reach(layout: MapLayout) -> int:
    """How far from its centre a location's shape and control ring reach."""
    return layout.radius + max(2, layout.radius // 4) + 2


def _shape(layout: MapLayout, loc: str) -> pygame.Rect:
    """What a location's shape (and the marks round it) keeps free of words."""
    x, y = layout.point(loc)
    r = _reach(layout)
    return pygame.Rect(x - r, y - r, 2 * r, 2 * r)


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


def _crowded_first(layout: MapLayout, locations: Sequence[str]) -> list[str]:
    return sorted(locations, key=lambda loc: (layout.spacing[loc], layout.point(loc)))


def _tier(board: Board, loc_id: str, occupied: Collection[str]) -> int:
    """Which names the whole map shows first when not all fit: where blocks stand, then the
    castles and capitals (4.3, 4.5), the Resource Locations (4.2), the recruitment
    locations (7.2), the rest."""
    loc = board.locations[loc_id]
    if loc_id in occupied:
        return 0
    if loc.castle is not None or loc.capital is not None:
        return 1
    if loc.resource:
        return 2
    return 3 if loc.recruitment else 4


Placed = dict[str, tuple[pygame.Rect, int]]


def place_labels(painter: Painter, layout: MapLayout, obstacles: Sequence[pygame.Rect] = (), *,
                 placer: Placer | None = None, drop: bool = True,
                 occupied: Collection[str] = (),
                 skip: Collection[str] = ()) -> tuple[Placed, list[str]]:
    """Where each location's name goes and at what size, and the names left out: the first
    free spot around its shape (below, above, right, left, the corners, further out). Zoomed,
    crowded locations first, and a name that finds no room tries smaller sizes down to
    :data:`MIN_TEXT`; on the whole map the names that matter most first (:func:`_tier`). Names
    left without room go first on the next try (a few tries, the best kept). A name with no
    free spot is left out (``drop``: the zoomed view has it) or put where it covers least.
    ``skip``: names placed already."""
    if placer is None:
        placer = Placer(layout.map_rect, [_shape(layout, loc) for loc in layout.shown])
        placer.taken += obstacles
    tiers = {loc: 0 if layout.zoomed else _tier(layout.board, loc, occupied)
             for loc in layout.shown if loc not in skip}
    key = (layout.map_rect.topleft, layout.scale, layout.label_size, layout.focus,
           tuple(sorted(tiers.items())), tuple(map(tuple, placer.taken)))
    found = _PLACED.get(key)
    if found is None:
        found = _PLACED[key] = _place_all(painter, layout, placer, tiers)
        while len(_PLACED) > 32:
            del _PLACED[next(iter(_PLACED))]
    placed, left, taken = dict(found[0]), list(found[1]), found[2]
    placer.taken[:] = taken
    if not drop:  # over a road or a shape rather than another name
        for loc in left:
            name = layout.board.locations[loc].name
            size = layout.label_size
            spots = around(layout.point(loc), _reach(layout), text_box(painter, name, size),
                           far=(layout.radius, layout.radius + size, layout.radius + 2 * size))
            spots = [r for r in spots if placer.bounds.contains(r)] or spots
            words = [r for r, _ in placed.values()]
            spot = min(spots, key=lambda r: (len(r.inflate(NAME_GAP, 0).collidelistall(words)),
                                             len(r.collidelistall(placer.taken))))
            placed[loc] = (placer.take(spot), layout.label_size)
        left = []
    return placed, left


_PLACED: dict[tuple[object, ...], tuple[Placed, list[str], list[pygame.Rect]]] = {}
"""Names placed for the last few maps and obstacles: a blink redraws without placing again."""


def _place_all(painter: Painter, layout: MapLayout, placer: Placer, tiers: dict[str, int]
               ) -> tuple[Placed, list[str], list[pygame.Rect]]:
    crowded = _crowded_first(layout, sorted(tiers))
    order = sorted(crowded, key=lambda loc: tiers[loc])

    def missed(left: Sequence[str]) -> list[int]:  # fewer of the first tiers left out wins
        return [sum(1 for loc in left if tiers[loc] == tier) for tier in range(5)]

    best: tuple[Placed, list[str], list[pygame.Rect]] | None = None
    for _ in range(3):
        trial = Placer(placer.bounds, list(placer.taken))
        placed, left = _try_labels(painter, layout, trial, order)
        if best is None or missed(left) < missed(best[1]):
            best = (placed, left, trial.taken)
        if not left:
            break
        order = [*left, *(loc for loc in order if loc not in left)]
    assert best is not None
    return best


def _try_labels(painter: Painter, layout: MapLayout, placer: Placer, order: Sequence[str]
                ) -> tuple[Placed, list[str]]:
    sizes = range(layout.label_size, MIN_TEXT - 1, -1) if layout.zoomed else (layout.label_size,)
    placed: Placed = {}
    left: list[str] = []
    for loc in order:
        name = layout.board.locations[loc].name
        point = layout.point(loc)
        near = [p for other, p in layout.points.items()
                if other != loc and math.dist(p, point) < 4 * layout.label_size + 40]
        for size in sizes:
            spots = around(point, _reach(layout), text_box(painter, name, size),
                           far=(layout.radius, layout.radius + size))
            spot = next((spot for spot in spots if placer.bounds.contains(spot)
                         and spot.inflate(NAME_GAP, 0).collidelist(placer.taken) == -1
                         and _nearest_is_own(spot, point, near, size // 4,
                                             _reach(layout) + size)), None)
            if spot is not None:
                placer.take(spot.inflate(NAME_GAP, 0))
                placed[loc] = (spot, size)
                break
        else:
            left.append(loc)
    return placed, left


def _nearest_is_own(rect: pygame.Rect, own: Point, others: Sequence[Point],
                    slack: int, within: float) -> bool:
    """A name is not further (``slack`` aside) from its own location than from any other, so
    it is not read as theirs, nor further than ``within`` from it, so it is read as a name."""
    def gap(p: Point) -> float:
        dx = max(rect.left - p[0], 0, p[0] - rect.right)
        dy = max(rect.top - p[1], 0, p[1] - rect.bottom)
        return math.hypot(dx, dy)
    mine = gap(own)
    return mine <= within and all(gap(p) + slack >= mine for p in others)




def draw_labels(canvas: Canvas, placed: Placed, board: Board) -> None:
    """Each location's name, on a dark patch so roads do not cross it."""
    for loc_id, (rect, size) in placed.items():
        canvas.fill(LAND, rect.inflate(2, -2), radius=3)
        canvas.text(board.locations[loc_id].name, rect.topleft, size=size, colour=LABEL)


def draw_map(canvas: Canvas, layout: MapLayout) -> None:
    """Roads, locations and names: the board as printed, with nothing on it."""
    canvas.fill(LAND, layout.map_rect, radius=layout.radius)
    draw_roads(canvas, layout)
    for loc in layout.board.locations.values():
        draw_location(canvas, layout, loc)
    draw_labels(canvas, place_labels(canvas.painter, layout, drop=False)[0], layout.board)


# --------------------------------------------------------------------------- the public board


@dataclass(frozen=True)
class Plan:
    """Where the words and counters of a board go, none covering another."""

    tag: tuple[pygame.Rect, str, int] | None
    badges: list[Badge]
    disks: list[tuple[str, pygame.Rect, int]]
    labels: Placed
    left: list[str]
    """The locations shown whose name found no room (on the whole map: zoom there)."""

    def clear(self) -> bool:
        """No two of its words or counters cover each other (a counter with no free spot is
        put where it covers least)."""
        rects = [b.rect for b in self.badges] + [d[1] for d in self.disks]
        rects += [r for r, _ in self.labels.values()] + ([self.tag[0]] if self.tag else [])
        return not any(a.colliderect(b) for a, b in itertools.combinations(rects, 2))


def plan_board(painter: Painter, layout: MapLayout, public: PublicState) -> Plan:
    """The battle tag, the counts (crowded places first; on the whole map each with its name
    when that leaves room for all the counts), the disks, then the names."""
    plan = _plan(painter, layout, public, beside=not layout.zoomed)
    if layout.zoomed:
        return plan
    fixed = [b.rect for b in plan.badges] + [d[1] for d in plan.disks]
    fixed += [plan.tag[0]] if plan.tag else []
    covered = [loc for loc, (r, _) in plan.labels.items() if r.collidelist(fixed) != -1]
    plan = replace(plan, labels={loc: v for loc, v in plan.labels.items() if loc not in covered},
                   left=[*plan.left, *covered])  # a count put where it covers a name wins
    return plan if plan.clear() else _plan(painter, layout, public, beside=False)


def _plan(painter: Painter, layout: MapLayout, public: PublicState, *, beside: bool) -> Plan:
    placer = Placer(layout.map_rect, [_shape(layout, loc) for loc in layout.points
                                      if layout.map_rect.collidepoint(layout.point(loc))])
    for loc_id, stack in public.locations.items():  # counts inside castles sit on them
        for inside in stack.inside.values():
            if inside and loc_id in layout.shown:
                placer.take(_inside_rect(painter, layout, layout.point(loc_id), inside)[0])
    battle = public.battle.location if public.battle is not None else None
    tag = None
    if public.battle is not None and battle in layout.shown:
        tag = _battle_tag(painter, layout, placer, public.battle.location, public.battle.siege)
    occupied = [loc for loc, s in public.locations.items() if s.ishida or s.tokugawa]
    disks = _disk_spots(painter, layout, placer, public.disks)
    badges: list[Badge] = []
    named: Placed = {}
    for loc_id in _crowded_first(layout, [loc for loc in occupied if loc in layout.shown]):
        badges += count_badges(painter, layout, loc_id, public.locations[loc_id], placer,
                               named if beside else None,  # the name goes with the count
                               [b.rect for b in badges])
    labels, left = place_labels(painter, layout, placer=placer, occupied=occupied,
                                skip=named.keys())
    return Plan(tag, badges, disks, {**named, **labels}, left)


def _marks_key(public: PublicState) -> tuple[object, ...]:
    """What of ``public`` decides where the words go."""
    stacks = tuple(sorted((loc, s.ishida, s.tokugawa, tuple(sorted(s.inside.items())))
                          for loc, s in public.locations.items()))
    battle = (public.battle.location, public.battle.siege) if public.battle else None
    return stacks, tuple(sorted(public.disks.items(), key=str)), battle


def _measure() -> Painter:
    """A painter to measure words with (fonts are the same for every painter)."""
    global _MEASURE
    if _MEASURE is None:
        _MEASURE = Painter()
    return _MEASURE


_MEASURE: Painter | None = None
_NAMED: dict[tuple[object, ...], MapLayout] = {}
"""Zoomed views grown to name every location shown, for the last few positions."""


def draw_board(
    canvas: Canvas,
    layout: MapLayout,
    public: PublicState,
    *,
    lit: frozenset[str] = frozenset(),
    blinking: frozenset[str] = frozenset(),
    blink_on: bool = True,
    on_location: Callable[[str], None] | None = None,
    on_area: Callable[[Point], None] | None = None,
) -> MapLayout:
    """The board with what both players may see on it (never a block's identity); returns the
    layout drawn (zoomed, closer in when a name shown had no room: :meth:`MapLayout.named`).

    ``on_location``: a tap on a location shown calls it with its id. ``on_area``: the map is
    covered with touch-sized cells, a tap on one calls it with the board point at its centre
    (to zoom there); locations' own targets lie over them."""
    layout = layout.named(public)
    canvas.fill(LAND, layout.map_rect, radius=layout.radius)
    clip = canvas.surface.get_clip()
    canvas.surface.set_clip(layout.map_rect)
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
    canvas.surface.set_clip(clip)
    plan = plan_board(canvas.painter, layout, public)
    _draw_disks(canvas, plan.disks)
    for badge in plan.badges:
        badge.draw(canvas)
    for loc_id, stack in public.locations.items():
        for side, inside in stack.inside.items():
            if inside and loc_id in layout.shown:
                _draw_inside(canvas, layout, layout.point(loc_id), side, inside)
    if plan.tag is not None:
        _draw_battle_tag(canvas, *plan.tag)
    draw_labels(canvas, plan.labels, layout.board)
    if layout.strip.height:
        mapboxes.draw_off_map(canvas, layout.strip, public, layout.board.mori_box.name,
                              layout.strip_name, layout.strip_text, SIDE_INK)
    if on_area is not None:
        _area_cells(canvas, layout, on_area)
    if on_location is not None:
        for loc in layout.board.locations.values():
            if loc.id in layout.shown:
                canvas.tap_area(layout.tap_rect(loc.id), loc.name, partial(on_location, loc.id))
    return layout


def _area_cells(canvas: Canvas, layout: MapLayout, on_area: Callable[[Point], None]) -> None:
    """The map cut into cells at least a touch target square, each naming its nearest place."""
    area = layout.map_rect
    cols, rows = max(1, area.width // layout.target), max(1, area.height // layout.target)
    names = {loc.id: loc.name for loc in layout.board.locations.values()}
    verb = "Centre the map on" if layout.zoomed else "Zoom in on"
    for i, j in itertools.product(range(cols), range(rows)):
        cell = pygame.Rect(area.x + i * area.width // cols, area.y + j * area.height // rows,
                           (i + 1) * area.width // cols - i * area.width // cols,
                           (j + 1) * area.height // rows - j * area.height // rows)
        near = min(layout.points, key=lambda loc: math.dist(layout.points[loc], cell.center))
        canvas.tap_area(cell, f"{verb} {names[near]}",
                        partial(on_area, layout.to_board(cell.center)))


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


def _disk_spots(painter: Painter, layout: MapLayout, placer: Placer,
                disks: dict[str, str | None]) -> list[tuple[str, pygame.Rect, int]]:
    """Where each disk (Hideyori, Sanada) stands: a counter beside its location."""
    size = layout.badge_size
    side = text_box(painter, "H", size, bold=True)[1] + 2
    spots = []
    for disk, where in sorted(disks.items()):
        if where in layout.shown:
            centre = layout.point(where)
            order = around(centre, _reach(layout), (side, side), far=(layout.radius,))
            order = [*order[4:], *order[:4]]  # the corners first: counts sit above, names below
            spot = placer.first_free(order) or placer.least_covering(order)
            spots.append((disk, placer.take(spot), size))
    return spots


def _draw_disks(canvas: Canvas, spots: list[tuple[str, pygame.Rect, int]]) -> None:
    for disk, spot, size in spots:
        pygame.draw.circle(canvas.surface, th.INK, spot.center, spot.width // 2)
        pygame.draw.circle(canvas.surface, th.BLACK_SIDE, spot.center, spot.width // 2, width=1)
        canvas.text(DISK_LETTER.get(disk, disk[:1].upper()), spot.center, size=size,
                    colour=th.BLACK_SIDE, anchor="center", bold=True)


@dataclass(frozen=True)
class Badge:
    """A count in a side's block colour: gold with dark text, black with light text."""

    rect: pygame.Rect
    text: str
    side: Side
    size: int

    @classmethod
    def sized(cls, painter: Painter, text: str, size: int, side: Side) -> Badge:
        w, h = text_box(painter, text, size, bold=True)
        h += 2
        return cls(pygame.Rect(0, 0, max(h, w + 8), h), text, side, size)

    def draw(self, canvas: Canvas) -> None:
        gold = self.side is Side.ISHIDA
        fill, ink = (th.GOLD, th.BLACK_SIDE) if gold else (th.BLACK_SIDE, th.INK)
        canvas.fill(fill, self.rect, radius=3)
        pygame.draw.rect(canvas.surface, th.BLACK_SIDE if gold else th.INK, self.rect, width=1,
                         border_radius=3)
        canvas.text(self.text, self.rect.center, size=self.size, colour=ink, anchor="center",
                    bold=True)


def badge_size(layout: MapLayout) -> int:
    return layout.badge_size


def count_badges(painter: Painter, layout: MapLayout, loc_id: str, stack: Stack,
                 placer: Placer | None = None, named: Placed | None = None,
                 counts_placed: Sequence[pygame.Rect] = ()) -> list[Badge]:
    """How many blocks of each side stand at a location, gold left of black: just above it, or
    the first free spot round it. ``named``: the first free spot that leaves the location's
    name room beside it, the name placed there too (when there is such a spot). Where nothing
    round it is free, further out; a count never goes over another (``counts_placed``)."""
    counts = [(s, n) for s, n in ((Side.ISHIDA, stack.ishida), (Side.TOKUGAWA, stack.tokugawa))
              if n]
    if not counts:
        return []
    badges = [Badge.sized(painter, str(n), layout.badge_size, s) for s, n in counts]
    group = pygame.Rect(0, 0, sum(b.rect.width for b in badges) + 2 * (len(badges) - 1),
                        badges[0].rect.height)
    spots = around(layout.point(loc_id), _reach(layout) - 1, group.size,
                   far=(layout.radius, layout.radius + group.height))
    spots = [spots[1], *spots[0:1], *spots[2:]]  # above first, where the blocks stand
    spot: pygame.Rect | None = spots[0] if placer is None else None
    if placer is not None and named is not None:
        for free in (r for r in spots[:12] if placer.free(r)):  # the ring next to it
            trial = Placer(placer.bounds, [*placer.taken, free])
            found = _try_labels(painter, layout, trial, [loc_id])[0]
            if found:
                placer.taken[:] = trial.taken
                named.update(found)
                spot = free
                break
    if spot is None:
        assert placer is not None
        further = around(layout.point(loc_id), _reach(layout) - 1, group.size,
                         far=tuple(layout.radius + k * group.height for k in (2, 3, 4)))
        clear = [r for r in [*spots, *further] if r.collidelist(counts_placed) == -1]
        spot = placer.take(placer.first_free(spots) or placer.first_free(further)
                           or placer.least_covering(clear or spots))
    x = spot.x
    out = []
    for badge in badges:
        out.append(replace(badge, rect=badge.rect.move(x, spot.y)))
        x += badge.rect.width + 2
    return out


def _inside_rect(painter: Painter, layout: MapLayout, centre: Point,
                 n: int) -> tuple[pygame.Rect, int]:
    """Where the count of blocks inside a castle goes (on the castle square), and its size."""
    size = max(layout.badge_size, round(layout.radius * 1.6))
    h = text_box(painter, str(n), size, bold=True)[1]
    inner = pygame.Rect(0, 0, max(h + 2, round(layout.radius * 1.5)),
                        max(h + 2, round(layout.radius * 1.5)))
    inner.center = centre
    return inner, size


def _draw_inside(canvas: Canvas, layout: MapLayout, centre: Point, side: Side, n: int) -> None:
    """Blocks inside the castle (8.9): their count on the castle square itself."""
    inner, size = _inside_rect(canvas.painter, layout, centre, n)
    fill, ink = (th.GOLD, th.BLACK_SIDE) if side is Side.ISHIDA else (th.BLACK_SIDE, th.INK)
    canvas.fill(fill, inner)
    pygame.draw.rect(canvas.surface, th.INK, inner, width=1)
    canvas.text(str(n), centre, size=size, colour=ink, anchor="center", bold=True)


def _battle_tag(painter: Painter, layout: MapLayout, placer: Placer, loc_id: str,
                siege: bool) -> tuple[pygame.Rect, str, int]:
    """The tag naming the combat in progress, beside its location."""
    text = "SIEGE" if siege else "BATTLE"
    size = layout.label_size
    w, h = text_box(painter, text, size, bold=True)
    spots = around(layout.point(loc_id), layout.radius + max(7, layout.radius // 2) + 2,
                   (w + 8, h + 2), far=(layout.radius,))
    spots = [*spots[2:4], *spots[6:], *spots[:2], *spots[4:6]]  # beside, then above
    tag = placer.take(placer.first_free(spots) or placer.least_covering(spots))
    return tag, text, size


def _draw_battle_tag(canvas: Canvas, tag: pygame.Rect, text: str, size: int) -> None:
    canvas.fill(th.DANGER, tag, radius=4)
    canvas.text(text, tag.center, size=size, colour=th.INK, anchor="center", bold=True)


# --------------------------------------------------------------------------- the key

KEY_TITLE = "Key to the map"
KEY = (
    "Square: a castle, gold if Ishida's at the start, blue if Tokugawa's; a ring round it in "
    "the colour of the side holding it now",
    "Red circle: a Resource Location, ringed in the colour of the side controlling it",
    "Red circle with a gold or blue centre: a side's capital",
    "White diamond beside a place: a recruitment location",
    "Thick sand-coloured line: a highway; thin grey line: a road",
    "Gold number: Ishida's blocks there; black number: Tokugawa's; a number on a castle: "
    "the blocks inside it",
    "H and S: the Hideyori and Sanada disks",
    "Green glow: where the blocks in hand may go; red cross: a combat to fight; blinking "
    "orange ring: the table differs there",
)
"""What the map's shapes and marks mean: a page opened by "Key" (the whole map has no room to
spare for a legend in words a player reads from a chair)."""
KEY_RULES = ("4.3", "4.2", "7.2")
