"""Antenna placement sheet and default wiring, generated from the board data.

    .venv/bin/python hardware/tools/placement_sheet.py --out sheet.svg \\
        [--wiring wiring.default.yaml] [--antenna-mm 50] [--hub-size 16]

writes an SVG exactly 34 x 22 inches (the printed map, 1:1) with one mark per location (a
crosshair on the location's centre, a circle the size of its antenna where the antenna goes, the
name and the hub/antenna that serves it), marks for the Recruitment Boxes and the Mori box, and
1:1 templates for the trays and card pads that sit beside the map. Print it at 100 % (no "fit to
page"), check the two scale bars with a ruler, and lay it on the base board under the map.

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

BOX_ANTENNA_MM = 90.0  # a Recruitment Box / the Mori box holds blocks side by side

# zones the board data does not print: id -> (label, antenna diameter in mm)
OFF_MAP_ZONES: dict[str, tuple[str, float]] = {
    "ishida_deployment": ("Ishida deployment tray", 90.0),
    "tokugawa_deployment": ("Tokugawa deployment tray", 90.0),
    "casualties": ("Casualty tray", 110.0),
    "ishida_cards": ("Ishida card pad", 70.0),
    "tokugawa_cards": ("Tokugawa card pad", 70.0),
    "registration": ("Registration pad", 50.0),
}


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

    @property
    def offset(self) -> float:
        return math.dist(self.target, self.centre)


@dataclass
class Layout:
    marks: list[Mark]
    antenna_mm: float
    hub_size: int
    hub_positions: dict[int, tuple[float, float]] = field(default_factory=dict)

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


def _free_spot(placed: list[Mark], diameter: float, margin: float = 8.0) -> tuple[float, float]:
    """The point of the sheet farthest from every placed antenna (for an off-map template)."""
    best, best_clearance = (margin + diameter / 2, SHEET_H_MM - margin - diameter / 2), -1e9
    r = diameter / 2
    step = 5.0
    y = margin + r
    while y <= SHEET_H_MM - margin - r:
        x = margin + r
        while x <= SHEET_W_MM - margin - r:
            # + 8 mm: room for the labels under each circle
            clearance = min(math.dist((x, y), m.centre) - m.diameter / 2 - r - 8 for m in placed)
            if clearance > best_clearance + 1e-9:
                best, best_clearance = (x, y), clearance
            x += step
        y += step
    return best


def layout(board: Board, antenna_mm: float = 50.0, hub_size: int = 16, gap: float = 3.0,
           max_offset: float = 8.0) -> Layout:
    """Place one antenna per location and zone and assign hubs and antenna numbers."""
    marks: list[Mark] = []
    for loc in board.locations.values():
        at = px_to_mm(board, loc.xy)
        marks.append(Mark(loc.id, loc.name, "location", at, at, antenna_mm))
    for box in board.boxes.values():
        at = px_to_mm(board, box.xy)
        marks.append(Mark(box.id, box.name, "box", at, at, BOX_ANTENNA_MM))
    for m in marks:
        m.centre = _inside(m, *m.centre, max_offset)
    _separate(marks, gap, max_offset)
    _shrink(marks, gap)
    # keep the scale bars (bottom left) and the caption (top centre) clear of templates
    reserved = [Mark("", "", "reserved", c, c, d) for c, d in
                (((75.0, SHEET_H_MM - 25.0), 125.0), ((SHEET_W_MM / 2, 0.0), 40.0))]
    for zone, (label, size) in OFF_MAP_ZONES.items():
        at = _free_spot(marks + reserved, size)
        marks.append(Mark(zone, label, "off-map", at, at, size))

    on_map = sorted((m for m in marks if m.kind != "off-map"), key=lambda m: m.target[0])
    off_map = [m for m in marks if m.kind == "off-map"]
    hubs: list[list[Mark]] = [on_map[i : i + hub_size] for i in range(0, len(on_map), hub_size)]
    for m in off_map:
        if len(hubs[-1]) >= hub_size:
            hubs.append([])
        hubs[-1].append(m)
    result = Layout(marks, antenna_mm, hub_size)
    for h, members in enumerate(hubs, start=1):
        # number within a hub top to bottom, then left to right: short daisy-chained LED runs
        members.sort(key=lambda m: (m.kind == "off-map", round(m.target[1] / 80), m.target[0]))
        for a, m in enumerate(members):
            m.hub, m.antenna = h, a
        placed = [m for m in members if m.kind != "off-map"] or members
        result.hub_positions[h] = (
            sum(m.centre[0] for m in placed) / len(placed),
            sum(m.centre[1] for m in placed) / len(placed),
        )
    return result


# --------------------------------------------------------------------------- outputs


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


def render_svg(result: Layout) -> str:
    """The sheet as SVG text; user units are millimetres."""
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SHEET_W_IN:g}in" '
        f'height="{SHEET_H_IN:g}in" viewBox="0 0 {_f(SHEET_W_MM)} {_f(SHEET_H_MM)}">',
        "<title>Sekigahara table companion: antenna placement sheet (print at 100 %)</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="white" stroke="black" '
        'stroke-width="0.5"/>',
        '<g font-family="sans-serif" fill="none" stroke="black">',
    ]
    colours = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98", "#b9770e", "#117a65"]
    for m in result.marks:
        colour = colours[(m.hub - 1) % len(colours)]
        cx, cy = m.centre
        tx, ty = m.target
        r = m.diameter / 2
        dash = ' stroke-dasharray="4 2"' if m.kind == "off-map" else ""
        out.append(f'<g class="mark" id="mark-{escape(m.zone)}" data-zone="{escape(m.zone)}" '
                   f'data-hub="{result.hub_id(m.hub)}" data-antenna="A{m.antenna:02d}" '
                   f'data-diameter-mm="{_f(m.diameter)}">')
        out.append(f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" stroke="{colour}" '
                   f'stroke-width="0.6"{dash}/>')
        out.append(f'<path d="M {_f(tx - 6)} {_f(ty)} H {_f(tx + 6)} M {_f(tx)} {_f(ty - 6)} '
                   f'V {_f(ty + 6)}" stroke-width="0.3"/>')
        if m.offset > 0.5:
            out.append(f'<path d="M {_f(tx)} {_f(ty)} L {_f(cx)} {_f(cy)}" stroke-width="0.2" '
                       'stroke-dasharray="1 1"/>')
        label = m.label if m.kind != "off-map" else f"{m.label} (beside the map)"
        lines = [label, f"{result.hub_id(m.hub)} A{m.antenna:02d}"]
        if m.diameter < result.antenna_mm - 0.5 and m.kind == "location":
            lines.append(f"antenna {m.diameter:.0f} mm")
        for i, text in enumerate(lines):
            out.append(f'<text x="{_f(cx)}" y="{_f(cy + r + 4 + i * 3.6)}" font-size="3.2" '
                       f'text-anchor="middle" fill="black" stroke="none">{escape(text)}</text>')
        out.append("</g>")
    for h, (hx, hy) in result.hub_positions.items():
        out.append(f'<g class="hub"><rect x="{_f(hx - 12)}" y="{_f(hy - 8)}" width="24" '
                   'height="16" stroke="gray" stroke-width="0.4" stroke-dasharray="2 1"/>'
                   f'<text x="{_f(hx)}" y="{_f(hy + 1.5)}" font-size="4" text-anchor="middle" '
                   f'fill="gray" stroke="none">{result.hub_id(h)}</text></g>')
    # scale bars: check them with a ruler after printing
    x0, y0 = 20.0, SHEET_H_MM - 30
    out.append(f'<g class="scale"><path d="M {_f(x0)} {_f(y0)} h 100 M {_f(x0)} {_f(y0 - 3)} v 6 '
               f'M {_f(x0 + 100)} {_f(y0 - 3)} v 6" stroke-width="0.4"/>'
               f'<text x="{_f(x0)}" y="{_f(y0 - 5)}" font-size="4" fill="black" stroke="none">'
               "100 mm</text>"
               f'<path d="M {_f(x0)} {_f(y0 + 12)} h {_f(4 * MM_PER_IN)} M {_f(x0)} '
               f'{_f(y0 + 9)} v 6 M {_f(x0 + 4 * MM_PER_IN)} {_f(y0 + 9)} v 6" '
               'stroke-width="0.4"/>'
               f'<text x="{_f(x0)}" y="{_f(y0 + 20)}" font-size="4" fill="black" stroke="none">'
               "4 in - print at 100 %: both bars must measure true</text></g>")
    out.append(f'<text x="{_f(SHEET_W_MM / 2)}" y="8" font-size="4" '
               'text-anchor="middle" fill="black" stroke="none">Sekigahara antenna placement: '
               f"crosshair = location centre, circle = antenna ({result.antenna_mm:.0f} mm "
               "unless marked), dashed = tray templates beside the map</text>")
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="SVG file to write")
    parser.add_argument("--wiring", type=Path, help="also write the default wiring map (YAML)")
    parser.add_argument("--antenna-mm", type=float, default=50.0)
    parser.add_argument("--hub-size", type=int, default=16)
    parser.add_argument("--max-offset-mm", type=float, default=8.0)
    args = parser.parse_args(argv)
    result = layout(default_board(), args.antenna_mm, args.hub_size,
                    max_offset=args.max_offset_mm)
    args.out.write_text(render_svg(result), encoding="utf-8")
    if args.wiring is not None:
        args.wiring.write_text(wiring_yaml(result), encoding="utf-8")
    shrunk = [m for m in result.marks
              if m.kind == "location" and m.diameter < args.antenna_mm - 0.5]
    hubs = len(result.hub_positions)
    print(f"{args.out}: {len(result.marks)} antennas on {hubs} hubs, "
          f"{len(shrunk)} antennas shrunk to fit", file=sys.stderr)
    for m in shrunk:
        print(f"  {m.label}: {m.diameter:.0f} mm", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
