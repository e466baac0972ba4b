"""Antenna placement sheet and default wiring, generated from the board data.

    .venv/bin/python hardware/tools/placement_sheet.py --out sheet.svg \\
        [--wiring wiring.default.yaml] [--antenna-mm 50] [--hub-size 16]
    .venv/bin/python hardware/tools/placement_sheet.py --write-data

writes an SVG exactly 34 x 22 inches (the printed map, 1:1) with one mark per antenna (a
crosshair on the location's centre, a circle the size of its antenna where the antenna goes, the
outline of the reader module around it, the name and the hub/antenna that serves it), marks for
the Recruitment Boxes and the Mori box (two modules each), and a box where each hub board goes,
clear of every antenna. ``--trays`` writes a second SVG with 1:1 templates for the trays and
pads that sit beside the map (2 x 2 modules for the deployment and casualty trays). Print both
at 100 % (no "fit to page"), check the scale bars with a ruler, and lay the sheet on the base
board under the map. ``--write-data`` writes each game's antenna layout and default wiring into
its package (game_data.py, beside this file): what the bridge's scan schedule and simulator read.

Antennas are circles of ``--antenna-mm`` centred on their location. Where two locations are
closer than that, the antennas are first nudged apart (at most ``--max-offset-mm``) and then, if
they still overlap, shrunk to fit; the sheet prints the size of every shrunk antenna.

The wiring file follows the bridge's wiring map (firmware_bridge/wiring.py):
``hubs: {hub-1: {A00: zone, ...}, ...}``. Hubs take the map in west-to-east strips so each hub's
cables stay short; the off-map zones go to the last hub.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import yaml

from companion.games.sekigahara.components import Board, default_board

SHEET_W_IN = 34.0
SHEET_H_IN = 22.0
MM_PER_IN = 25.4
SHEET_W_MM = SHEET_W_IN * MM_PER_IN
SHEET_H_MM = SHEET_H_IN * MM_PER_IN

# Zones where blocks lie side by side are covered by a grid of modules (columns, rows), one
# antenna channel each, ``antenna_mm + MODULE_GAP_MM`` apart: 2 x 1 is a 110 x 55 mm area for the
# default 50 mm loops (8 blocks of about 25 mm face up), 2 x 2 is 110 x 110 mm (16 face up).
MODULE_GAP_MM = 5.0
BOX_GRID = (2, 1)  # a Recruitment Box (up to 8 blocks a week) or the Mori box (5, face up)

# zones the board data does not print: id -> (label, module grid)
OFF_MAP_ZONES: dict[str, tuple[str, tuple[int, int]]] = {
    "ishida_deployment": ("Ishida deployment tray", (2, 2)),  # a battle's blocks, face up
    "tokugawa_deployment": ("Tokugawa deployment tray", (2, 2)),
    "casualties": ("Casualty tray", (2, 2)),  # eliminated blocks, piled
    "ishida_cards": ("Ishida card pad", (1, 1)),  # one card over one loop
    "tokugawa_cards": ("Tokugawa card pad", (1, 1)),
    "registration": ("Registration pad", (1, 1)),  # one block at a time
}

# A PN5180 module's board around its loop: width x height in mm, the loop centred on the board's
# upper square and the pin header at the lower edge. An assumption (hobby modules differ): pass
# yours with --module-mm W H (the square end holds the loop).
MODULE_MM = (55.0, 75.0)
HUB_MM = (70.0, 50.0)  # the hub board: a Pico and two DIP-24 chips on stripboard (section 4.1)
TRAY_SPACING_MM = 20.0  # between templates on the tray sheet


def share(total: int, channel: int, channels: int) -> int:
    """How many of ``total`` blocks laid side by side on a zone lie over module ``channel``."""
    return total // channels + (1 if channel < total % channels else 0)


def grid_offsets(grid: tuple[int, int], pitch: float) -> list[tuple[float, float]]:
    """Centres of a zone's modules relative to the zone's centre, row by row."""
    cols, rows = grid
    return [((c - (cols - 1) / 2) * pitch, (r - (rows - 1) / 2) * pitch)
            for r in range(rows) for c in range(cols)]


@dataclass
class Mark:
    """One antenna: what it watches, where (mm on the sheet), its size and its hub/antenna."""

    zone: str
    label: str
    kind: str  # "location", "box" or "off-map"
    target: tuple[float, float]  # the location's centre (mm)
    centre: tuple[float, float]  # the antenna's centre (mm)
    diameter: float
    hub: int = 0
    antenna: int = 0
    channel: int = 0  # which of the zone's modules (0 for a zone with one)
    channels: int = 1

    @property
    def offset(self) -> float:
        return math.dist(self.target, self.centre)

    facing: str = "down"  # where the module's pin header points: down, up, left or right

    def module_box(self, module_mm: tuple[float, float]) -> tuple[float, float, float, float]:
        """The module's board outline (x, y, w, h): the loop centred on the board's square end,
        the rest (pin header, chip) towards ``facing``."""
        w, h = module_mm
        cx, cy = self.centre
        if self.facing in ("left", "right"):
            w, h = h, w
            left = cx - h / 2 if self.facing == "right" else cx + h / 2 - w
            return (left, cy - h / 2, w, h)
        top = cy - w / 2 if self.facing == "down" else cy + w / 2 - h
        return (cx - w / 2, top, w, h)


@dataclass
class Layout:
    marks: list[Mark]
    antenna_mm: float
    hub_size: int
    hub_positions: dict[int, tuple[float, float]] = field(default_factory=dict)
    module_mm: tuple[float, float] = MODULE_MM

    def on_map(self) -> list[Mark]:
        return [m for m in self.marks if m.kind != "off-map"]

    def zones(self) -> dict[str, list[Mark]]:
        """Zone -> its antennas in channel order."""
        out: dict[str, list[Mark]] = {}
        for m in sorted(self.marks, key=lambda m: m.channel):
            out.setdefault(m.zone, []).append(m)
        return out

    def hub_box(self, hub: int) -> tuple[float, float, float, float]:
        x, y = self.hub_positions[hub]
        return (x - HUB_MM[0] / 2, y - HUB_MM[1] / 2, HUB_MM[0], HUB_MM[1])

    def hub_id(self, hub: int) -> str:
        return f"hub-{hub}"


def px_to_mm(board: Board, xy: tuple[int, int]) -> tuple[float, float]:
    """Map pixels to millimetres on the 34 x 22 inch sheet."""
    width_px, height_px = board.map_size
    return (xy[0] * SHEET_W_MM / width_px, xy[1] * SHEET_H_MM / height_px)


def _inside(m: Mark, x: float, y: float, max_offset: float) -> tuple[float, float]:
    """Keep an antenna on the sheet where its offset allows."""
    r = m.diameter / 2
    if x < r:
        x = min(r, m.target[0] + max_offset)
    elif x > SHEET_W_MM - r:
        x = max(SHEET_W_MM - r, m.target[0] - max_offset)
    if y < r:
        y = min(r, m.target[1] + max_offset)
    elif y > SHEET_H_MM - r:
        y = max(SHEET_H_MM - r, m.target[1] - max_offset)
    dx, dy = x - m.target[0], y - m.target[1]
    off = math.hypot(dx, dy)
    if off > max_offset:  # the offset limit wins over the sheet edge
        x, y = m.target[0] + dx * max_offset / off, m.target[1] + dy * max_offset / off
    return (x, y)


def _separate(marks: list[Mark], gap: float, max_offset: float, rounds: int = 400) -> None:
    """Nudge overlapping antennas apart, each at most ``max_offset`` from its target."""
    for _ in range(rounds):
        moved = False
        for i, a in enumerate(marks):
            for b in marks[i + 1 :]:
                need = (a.diameter + b.diameter) / 2 + gap
                d = math.dist(a.centre, b.centre)
                if d >= need - 1e-6:
                    continue
                if d < 1e-9:
                    ux, uy = 1.0, 0.0
                else:
                    ux, uy = (b.centre[0] - a.centre[0]) / d, (b.centre[1] - a.centre[1]) / d
                push = (need - d) / 2 + 0.01
                for m, sign in ((a, -1.0), (b, 1.0)):
                    x = m.centre[0] + sign * ux * push
                    y = m.centre[1] + sign * uy * push
                    dx, dy = x - m.target[0], y - m.target[1]
                    r = math.hypot(dx, dy)
                    if r > max_offset:
                        x = m.target[0] + dx * max_offset / r
                        y = m.target[1] + dy * max_offset / r
                    m.centre = _inside(m, x, y, max_offset)
                moved = True
        if not moved:
            return


def _shrink(marks: list[Mark], gap: float) -> None:
    """Shrink any antennas that still overlap so they fit side by side."""
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            room = math.dist(a.centre, b.centre) - gap
            if (a.diameter + b.diameter) / 2 > room:
                size = max(room, 10.0)
                a.diameter = min(a.diameter, size)
                b.diameter = min(b.diameter, size)


def _rect_circle_clear(rect: tuple[float, float, float, float], c: tuple[float, float],
                       r: float) -> bool:
    x, y, w, h = rect
    nx, ny = min(max(c[0], x), x + w), min(max(c[1], y), y + h)
    return math.hypot(c[0] - nx, c[1] - ny) >= r


def _rects_clear(a: tuple[float, float, float, float],
                 b: tuple[float, float, float, float]) -> bool:
    return (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
            or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])


def _hub_spot(marks: list[Mark], taken: list[tuple[float, float, float, float]],
              near: tuple[float, float], clearance: float = 5.0) -> tuple[float, float]:
    """The free spot nearest ``near`` for a hub board: over no antenna (loop plus
    ``clearance``) and no module or other hub (``taken``), inside the sheet."""
    w, h = HUB_MM
    best, best_d = near, math.inf
    step = 5.0
    y = h / 2 + 2
    while y <= SHEET_H_MM - h / 2 - 2:
        x = w / 2 + 2
        while x <= SHEET_W_MM - w / 2 - 2:
            d = math.dist((x, y), near)
            if d < best_d:
                rect = (x - w / 2, y - h / 2, w, h)
                if all(_rect_circle_clear(rect, m.centre, m.diameter / 2 + clearance)
                       for m in marks) and all(_rects_clear(rect, t) for t in taken):
                    best, best_d = (x, y), d
            x += step
        y += step
    return best


def _face_modules(marks: list[Mark], module_mm: tuple[float, float]) -> None:
    """Turn each module so its board covers as few other loops and boards as it can."""
    for m in marks:
        best, best_hits = m.facing, math.inf
        for facing in ("down", "up", "right", "left"):
            m.facing = facing
            rect = m.module_box(module_mm)
            hits = sum(not _rect_circle_clear(rect, o.centre, o.diameter / 2)
                       + (not _rects_clear(rect, o.module_box(module_mm)))
                       for o in marks if o is not m)
            if hits < best_hits:
                best, best_hits = facing, hits
        m.facing = best


def module_overlaps(marks: list[Mark], module_mm: tuple[float, float]) -> list[tuple[str, str]]:
    """Pairs of modules whose boards would overlap: mount one higher or use an external loop."""
    out = []
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            if not _rects_clear(a.module_box(module_mm), b.module_box(module_mm)):
                out.append((a.label, b.label))
    return out


def layout(board: Board, antenna_mm: float = 50.0, hub_size: int = 16, gap: float = 3.0,
           max_offset: float = 8.0, module_mm: tuple[float, float] = MODULE_MM) -> Layout:
    """Place one antenna per location and per module of a box or tray, assign hubs and antenna
    numbers, and find each hub board a place clear of the antennas."""
    marks: list[Mark] = []
    for loc in board.locations.values():
        at = px_to_mm(board, loc.xy)
        marks.append(Mark(loc.id, loc.name, "location", at, at, antenna_mm))
    pitch = antenna_mm + MODULE_GAP_MM
    for box in board.boxes.values():
        cx, cy = px_to_mm(board, box.xy)
        offsets = grid_offsets(BOX_GRID, pitch)
        for n, (dx, dy) in enumerate(offsets):
            at = (cx + dx, cy + dy)
            marks.append(Mark(box.id, box.name, "box", at, at, antenna_mm, channel=n,
                              channels=len(offsets)))
    for m in marks:
        m.centre = _inside(m, *m.centre, max_offset)
    _separate(marks, gap, max_offset)
    _shrink(marks, gap)
    # off-map zones: laid out in a row on their own template sheet (render_trays)
    x = 0.0
    for zone, (label, grid) in OFF_MAP_ZONES.items():
        offsets = grid_offsets(grid, pitch)
        width = grid[0] * pitch
        for n, (dx, dy) in enumerate(offsets):
            at = (x + width / 2 + dx, grid[1] * pitch / 2 + dy)
            marks.append(Mark(zone, label, "off-map", at, at, antenna_mm, channel=n,
                              channels=len(offsets)))
        x += width + TRAY_SPACING_MM

    _face_modules([m for m in marks if m.kind != "off-map"], module_mm)
    _face_modules([m for m in marks if m.kind == "off-map"], module_mm)
    # a zone's modules stay on one hub; the map in west-to-east strips, then the off-map zones
    # on the first hub from the last strip on with room for all of a zone's modules
    groups: dict[str, list[Mark]] = {}
    for m in marks:
        groups.setdefault(m.zone, []).append(m)
    on_map = sorted((g for g in groups.values() if g[0].kind != "off-map"),
                    key=lambda g: (min(m.target[0] for m in g), g[0].zone))
    hubs: list[list[Mark]] = [[]]
    for g in on_map:
        if len(hubs[-1]) + len(g) > hub_size:
            hubs.append([])
        hubs[-1].extend(g)
    first_off = len(hubs) - 1
    for g in (g for g in groups.values() if g[0].kind == "off-map"):
        if len(g) > hub_size:
            raise ValueError(f"{g[0].zone} needs {len(g)} modules, more than a hub's {hub_size}")
        room = next((h for h in hubs[first_off:] if len(h) + len(g) <= hub_size), None)
        if room is None:
            room = []
            hubs.append(room)
        room.extend(g)
    order = {zone: i for i, zone in enumerate(groups)}
    result = Layout(marks, antenna_mm, hub_size, module_mm=module_mm)
    placed_on_map = result.on_map()
    taken = [m.module_box(module_mm) for m in placed_on_map]  # hub boards keep off modules too
    for h, members in enumerate(hubs, start=1):
        # number within a hub top to bottom, then left to right: short daisy-chained LED runs
        members.sort(key=lambda m: (1, order[m.zone], m.channel, 0.0) if m.kind == "off-map"
                     else (0, round(m.target[1] / 80), m.target[0], m.channel))
        for a, m in enumerate(members):
            m.hub, m.antenna = h, a
        placed = [m for m in members if m.kind != "off-map"]
        if placed:
            near = (sum(m.centre[0] for m in placed) / len(placed),
                    sum(m.centre[1] for m in placed) / len(placed))
        else:  # a hub for the trays only: at the map's east edge, beside the trays
            near = (SHEET_W_MM, SHEET_H_MM / 2)
        result.hub_positions[h] = _hub_spot(placed_on_map, taken, near)
        taken.append(result.hub_box(h))
    return result


# ----------------------------------------------------------------------------- outputs


def wiring_map(result: Layout) -> dict[str, dict[str, dict[str, str]]]:
    """The default wiring in the bridge's wiring-map shape."""
    hubs: dict[str, dict[str, str]] = {}
    for m in sorted(result.marks, key=lambda m: (m.hub, m.antenna)):
        hubs.setdefault(result.hub_id(m.hub), {})[f"A{m.antenna:02d}"] = m.zone
    return {"hubs": hubs}


def wiring_yaml(result: Layout) -> str:
    header = (
        "# Default wiring map generated by hardware/tools/placement_sheet.py:\n"
        "# hub id -> antenna (A00..) -> location or zone. Matches the placement sheet; copy it to\n"
        "# the companion's wiring map (docs/bridge.md) and change it if you wire differently.\n"
    )
    return header + yaml.safe_dump(wiring_map(result), sort_keys=False)


def _f(v: float) -> str:
    return f"{v:.2f}"


COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#117a65"]


def _mark_svg(result: Layout, m: Mark) -> list[str]:
    """One antenna: its loop, its module's outline, the crosshair on its target and labels."""
    colour = COLOURS[(m.hub - 1) % len(COLOURS)]
    cx, cy = m.centre
    tx, ty = m.target
    r = m.diameter / 2
    mark_id = m.zone if m.channels == 1 else f"{m.zone}-{m.channel + 1}"
    out = [f'<g class="mark" id="mark-{escape(mark_id)}" data-zone="{escape(m.zone)}" '
           f'data-channel="{m.channel + 1}/{m.channels}" '
           f'data-hub="{result.hub_id(m.hub)}" data-antenna="A{m.antenna:02d}" '
           f'data-diameter-mm="{_f(m.diameter)}">']
    mx, my, mw, mh = m.module_box(result.module_mm)
    out.append(f'<rect class="module" x="{_f(mx)}" y="{_f(my)}" width="{_f(mw)}" '
               f'height="{_f(mh)}" stroke="{colour}" stroke-width="0.25" '
               'stroke-dasharray="1.5 1"/>')
    out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" stroke="{colour}" '
               'stroke-width="0.6"/>')
    out.append(f'<path d="M {_f(tx - 6)} {_f(ty)} H {_f(tx + 6)} M {_f(tx)} {_f(ty - 6)} '
               f'V {_f(ty + 6)}" stroke-width="0.3"/>')
    if m.offset > 0.5:
        out.append(f'<path d="M {_f(tx)} {_f(ty)} L {_f(cx)} {_f(cy)}" stroke-width="0.2" '
                   'stroke-dasharray="1 1"/>')
    label = m.label if m.channels == 1 else f"{m.label} {m.channel + 1}/{m.channels}"
    lines = [label, f"{result.hub_id(m.hub)} A{m.antenna:02d}"]
    if m.diameter < result.antenna_mm - 0.5:
        lines.append(f"antenna {m.diameter:.0f} mm")
    for i, text in enumerate(lines):
        out.append(f'<text x="{_f(cx)}" y="{_f(cy + r + 4 + i * 3.6)}" font-size="3.2" '
                   f'text-anchor="middle" fill="black" stroke="none">{escape(text)}</text>')
    out.append("</g>")
    return out


def _scale_bars(x0: float, y0: float) -> str:
    """A 100 mm and a 4 in bar: check them with a ruler after printing."""
    return (f'<g class="scale"><path d="M {_f(x0)} {_f(y0)} h 100 M {_f(x0)} {_f(y0 - 3)} v 6 '
            f'M {_f(x0 + 100)} {_f(y0 - 3)} v 6" stroke-width="0.4"/>'
            f'<text x="{_f(x0)}" y="{_f(y0 - 5)}" font-size="4" fill="black" stroke="none">'
            "100 mm</text>"
            f'<path d="M {_f(x0)} {_f(y0 + 12)} h {_f(4 * MM_PER_IN)} M {_f(x0)} '
            f'{_f(y0 + 9)} v 6 M {_f(x0 + 4 * MM_PER_IN)} {_f(y0 + 9)} v 6" '
            'stroke-width="0.4"/>'
            f'<text x="{_f(x0)}" y="{_f(y0 + 20)}" font-size="4" fill="black" stroke="none">'
            "4 in - print at 100 %: both bars must measure true</text></g>")


def render_svg(result: Layout) -> str:
    """The map sheet as SVG text; user units are millimetres."""
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SHEET_W_IN:g}in" '
        f'height="{SHEET_H_IN:g}in" viewBox="0 0 {_f(SHEET_W_MM)} {_f(SHEET_H_MM)}">',
        "<title>Sekigahara table companion: antenna placement sheet (print at 100 %)</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="white" stroke="black" '
        'stroke-width="0.5"/>',
        '<g font-family="sans-serif" fill="none" stroke="black">',
    ]
    for m in result.on_map():
        out.extend(_mark_svg(result, m))
    for h in result.hub_positions:
        x, y, w, hh = result.hub_box(h)
        tray_note = "" if any(m.hub == h for m in result.on_map()) else " (trays)"
        out.append(f'<g class="hub" data-hub="{result.hub_id(h)}"><rect x="{_f(x)}" '
                   f'y="{_f(y)}" width="{_f(w)}" height="{_f(hh)}" stroke="gray" '
                   'stroke-width="0.4" stroke-dasharray="2 1"/>'
                   f'<text x="{_f(x + w / 2)}" y="{_f(y + hh / 2 + 1.5)}" font-size="4" '
                   'text-anchor="middle" fill="gray" stroke="none">'
                   f"{result.hub_id(h)} board{tray_note}</text></g>")
    out.append(_scale_bars(20.0, SHEET_H_MM - 30))
    out.append(f'<text x="{_f(SHEET_W_MM / 2)}" y="8" font-size="4" '
               'text-anchor="middle" fill="black" stroke="none">Sekigahara antenna placement: '
               f"crosshair = location centre, circle = antenna ({result.antenna_mm:.0f} mm "
               "unless marked), dotted = reader module, grey = hub board; trays and pads: "
               "tray-templates.svg</text>")
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def render_trays(result: Layout) -> str:
    """1:1 templates for the zones beside the map: each module's loop and outline, and the
    zone's area (the grid of modules) to build the tray over."""
    off = [m for m in result.marks if m.kind == "off-map"]
    margin, top = 15.0, 25.0
    pitch = result.antenna_mm + MODULE_GAP_MM
    width = max(m.centre[0] for m in off) + pitch / 2 + result.module_mm[0] + 2 * margin
    height = (max(m.centre[1] for m in off) + pitch / 2 + result.module_mm[1] + top + 45.0)
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}mm" '
        f'height="{_f(height)}mm" viewBox="0 0 {_f(width)} {_f(height)}">',
        "<title>Sekigahara table companion: tray and pad templates (print at 100 %)</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="white" stroke="black" '
        'stroke-width="0.5"/>',
        '<g font-family="sans-serif" fill="none" stroke="black">',
        f'<g transform="translate({_f(margin)} {_f(top)})">',
    ]
    for zone, members in result.zones().items():
        if members[0].kind != "off-map":
            continue
        x0 = min(m.centre[0] for m in members) - pitch / 2
        y0 = min(m.centre[1] for m in members) - pitch / 2
        x1 = max(m.centre[0] for m in members) + pitch / 2
        y1 = max(m.centre[1] for m in members) + pitch / 2
        out.append(f'<g class="zone" data-zone="{escape(zone)}" '
                   f'data-area-mm="{x1 - x0:.0f}x{y1 - y0:.0f}"><rect x="{_f(x0)}" '
                   f'y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" '
                   'stroke-width="0.5"/>'
                   f'<text x="{_f(x0)}" y="{_f(y0 - 3)}" font-size="4" fill="black" '
                   f'stroke="none">{escape(members[0].label)} ({x1 - x0:.0f} x {y1 - y0:.0f} '
                   "mm)</text></g>")
        for m in members:
            out.extend(_mark_svg(result, m))
    out.append("</g>")
    out.append(_scale_bars(margin, height - 28))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="SVG file to write")
    parser.add_argument("--write-data", action="store_true",
                        help="write every game's data/antennas.yaml and data/wiring.default.yaml")
    parser.add_argument("--trays", type=Path, help="also write the tray templates (SVG)")
    parser.add_argument("--wiring", type=Path, help="also write the default wiring map (YAML)")
    parser.add_argument("--antenna-mm", type=float, default=50.0)
    parser.add_argument("--module-mm", type=float, nargs=2, default=MODULE_MM,
                        metavar=("W", "H"), help="the reader module's board (default 55 75)")
    parser.add_argument("--hub-size", type=int, default=16)
    parser.add_argument("--max-offset-mm", type=float, default=8.0)
    args = parser.parse_args(argv)
    if args.write_data:
        from game_data import write_data  # beside this file

        for path in write_data():
            print(f"wrote {path}", file=sys.stderr)
        if args.out is None:
            return 0
    if args.out is None:
        parser.error("--out is required (or --write-data)")
    result = layout(default_board(), args.antenna_mm, args.hub_size,
                    max_offset=args.max_offset_mm, module_mm=tuple(args.module_mm))
    args.out.write_text(render_svg(result), encoding="utf-8")
    if args.trays is not None:
        args.trays.write_text(render_trays(result), encoding="utf-8")
    if args.wiring is not None:
        args.wiring.write_text(wiring_yaml(result), encoding="utf-8")
    shrunk = [m for m in result.marks
              if m.kind == "location" and m.diameter < args.antenna_mm - 0.5]
    hubs = len(result.hub_positions)
    print(f"{args.out}: {len(result.marks)} antennas on {hubs} hubs, "
          f"{len(shrunk)} antennas shrunk to fit", file=sys.stderr)
    for m in shrunk:
        print(f"  {m.label}: {m.diameter:.0f} mm", file=sys.stderr)
    overlaps = module_overlaps(result.on_map(), result.module_mm)
    print(f"{len(overlaps)} pairs of module boards overlap (mount one above the other):",
          file=sys.stderr)
    for a, b in overlaps:
        print(f"  {a} / {b}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
