"""The hub's schematic, drawn from one netlist.

    .venv/bin/python hardware/tools/hub_schematic.py [--out hardware/hub-schematic.svg]

``PARTS`` below is the source of truth: every part with its pins, and for each pin the net it
joins. The SVG is drawn from it with net labels (pins with the same label are connected), one
box per part; ``hardware/hub-schematic.svg`` is its output (a test checks the committed file is
exactly what this prints, and that the Pico's pins are those of firmware/hub_config.py).

Pico GPIO numbers come from ``hub_config.PINS["pico"]``; the reader connector follows the
PN5180 module's header (5V, 3V3, RST, NSS, MOSI, MISO, SCK, BUSY, GND, GPIO, IRQ, AUX, REQ on
the common hobby module: check your module's silkscreen).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "firmware"))

import hub_config

PICO = hub_config.PINS["pico"]


@dataclass(frozen=True)
class Part:
    ref: str
    value: str
    note: str
    left: tuple[tuple[str, str], ...]  # (pin name, net), drawn on the left side
    right: tuple[tuple[str, str], ...]


def _gp(n: int) -> str:
    return f"GP{n}"


A0, A1, A2, A3 = PICO["address"]
PARTS: tuple[Part, ...] = (
    Part("J1", "5 V in", "barrel jack from the 5 V 6 A supply; F1 in the + lead",
         (), (("+", "5V_IN"), ("-", "GND"))),
    Part("F1", "fuse 1.5 A", "PTC or glass fuse + holder: the hub's 5 V rail",
         (("1", "5V_IN"),), (("2", "+5V"),)),
    Part("C1", "1000 uF 10 V", "across the hub's 5 V at the board", (("+", "+5V"),),
         (("-", "GND"),)),
    Part("U1", "Raspberry Pi Pico", "USB to the Pi (data); powered from +5V on VSYS",
         (("VSYS", "+5V"), ("GND", "GND"), ("3V3_OUT", "+3V3_PICO"),
          (_gp(PICO["sck"]), "SCK"), (_gp(PICO["mosi"]), "MOSI"), (_gp(PICO["miso"]), "MISO")),
         ((_gp(A0), "ADDR0"), (_gp(A1), "ADDR1"), (_gp(A2), "ADDR2"), (_gp(A3), "ADDR3"),
          (_gp(PICO["strobe"]), "NSS_STROBE"), (_gp(PICO["busy"]), "BUSY"),
          (_gp(PICO["rst"]), "RST"), (_gp(PICO["leds"]), "LED_DATA_3V3"))),
    Part("R1", "10 kOhm", "MISO pull-up: an unselected bus reads 0xFF", (("1", "MISO"),),
         (("2", "+3V3_PICO"),)),
    Part("U2", "74HC154", "4-to-16 decoder: NSS of reader n on Yn; VCC 3.3 V",
         (("A0", "ADDR0"), ("A1", "ADDR1"), ("A2", "ADDR2"), ("A3", "ADDR3"),
          ("G1", "NSS_STROBE"), ("G2", "NSS_STROBE"), ("VCC", "+3V3_PICO"), ("GND", "GND")),
         (("Y0..Y15", "NSS0..NSS15"),)),
    Part("U3", "74HC4067", "16-channel mux: BUSY of reader n on In; VCC 3.3 V",
         (("S0", "ADDR0"), ("S1", "ADDR1"), ("S2", "ADDR2"), ("S3", "ADDR3"), ("EN", "GND"),
          ("VCC", "+3V3_PICO"), ("GND", "GND")),
         (("Z", "BUSY"), ("I0..I15", "BUSY0..BUSY15"))),
    Part("U4", "74HC125", "SPI buffer: 2 outputs each for SCK and MOSI, 8 readers per output, "
         "47 Ohm series R at each output",
         (("1A,2A", "SCK"), ("3A,4A", "MOSI"), ("OE", "GND"), ("VCC", "+3V3_PICO"),
          ("GND", "GND")),
         (("1Y,2Y", "SCK_BUF"), ("3Y,4Y", "MOSI_BUF"))),
    Part("U5", "74AHCT125", "LED data 3.3 V to 5 V", (("1A", "LED_DATA_3V3"), ("OE", "GND"),
                                                       ("VCC", "+5V"), ("GND", "GND")),
         (("1Y", "LED_DATA"),)),
    Part("U6", "AMS1117-3.3", "the readers' 3.3 V logic supply (800 mA)",
         (("IN", "+5V"), ("GND", "GND")), (("OUT", "+3V3_READERS"),)),
    Part("J2..J17", "reader connector x16", "2x7 IDC to PN5180 module n (reader 0..15)",
         (("1", "+5V"), ("3", "+3V3_READERS"), ("5", "SCK_BUF"), ("7", "MOSI_BUF"),
          ("9", "MISO"), ("11", "NSSn"), ("13", "RST")),
         (("2,4,6,8,10,14", "GND"), ("12", "BUSYn"))),
    Part("M1..M16", "PN5180 module x16", "one per antenna; 10 uF ceramic across 5V/GND at "
         "each; GPIO, IRQ, AUX, REQ left open",
         (("5V", "+5V"), ("3V3", "+3V3_READERS"), ("RST", "RST"), ("NSS", "NSSn"),
          ("MOSI", "MOSI_BUF"), ("MISO", "MISO"), ("SCK", "SCK_BUF")),
         (("BUSY", "BUSYn"), ("GND", "GND"), ("GPIO", "NC"), ("IRQ", "NC"), ("AUX", "NC"),
          ("REQ", "NC"))),
    Part("J18", "LED out", "to the first WS2812B's DIN; chain in antenna order",
         (("DIN", "LED_DATA"), ("5V", "+5V"), ("GND", "GND")), ()),
)

# the reader ribbon, pin by pin: every fast signal has a ground beside it
RIBBON = ("+5V", "GND", "+3V3_READERS", "GND", "SCK_BUF", "GND", "MOSI_BUF", "GND", "MISO",
          "GND", "NSSn", "BUSYn", "RST", "GND")


def nets() -> dict[str, list[str]]:
    """Net -> "ref.pin" for every pin."""
    out: dict[str, list[str]] = {}
    for part in PARTS:
        for pin, net in part.left + part.right:
            out.setdefault(net, []).append(f"{part.ref}.{pin}")
    return out


def pico_gpio() -> dict[str, int]:
    """The Pico's signal pins by net, as the schematic draws them."""
    u1 = next(p for p in PARTS if p.ref == "U1")
    return {net: int(pin[2:]) for pin, net in u1.left + u1.right if pin.startswith("GP")}


PIN_H = 7.0
BOX_W = 70.0
COL_W = 190.0


def _part_svg(part: Part, x: float, y: float) -> tuple[list[str], float]:
    rows = max(len(part.left), len(part.right), 1)
    h = rows * PIN_H + 6
    out = [f'<g class="part" data-ref="{escape(part.ref)}">',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W:.1f}" height="{h:.1f}" '
           'stroke="black" fill="none" stroke-width="0.5"/>',
           f'<text x="{x + BOX_W / 2:.1f}" y="{y - 6:.1f}" font-size="4" text-anchor="middle" '
           f'font-weight="bold">{escape(part.ref)} {escape(part.value)}</text>',
           f'<text x="{x + BOX_W / 2:.1f}" y="{y - 1.5:.1f}" font-size="2.6" '
           f'text-anchor="middle">{escape(part.note)}</text>']
    for side, pins in (("left", part.left), ("right", part.right)):
        for i, (pin, net) in enumerate(pins):
            py = y + 6 + i * PIN_H
            if side == "left":
                x0, x1, tx, anchor, nx, nanchor = x - 8, x, x + 2, "start", x - 9, "end"
            else:
                x0, x1, tx, anchor = x + BOX_W, x + BOX_W + 8, x + BOX_W - 2, "end"
                nx, nanchor = x + BOX_W + 9, "start"
            out.append(f'<path d="M {x0:.1f} {py:.1f} H {x1:.1f}" stroke="black" '
                       'stroke-width="0.4"/>')
            out.append(f'<text x="{tx:.1f}" y="{py + 1.2:.1f}" font-size="3" '
                       f'text-anchor="{anchor}">{escape(pin)}</text>')
            colour = "#999999" if net == "NC" else "#1f4e9a"
            out.append(f'<text class="net" data-net="{escape(net)}" x="{nx:.1f}" '
                       f'y="{py + 1.2:.1f}" font-size="3" fill="{colour}" '
                       f'text-anchor="{nanchor}">{escape(net)}</text>')
    out.append("</g>")
    return out, h


def render() -> str:
    body: list[str] = []
    columns = 4
    col_y = [30.0] * columns
    for i, part in enumerate(PARTS):
        col = min(range(columns), key=lambda c: col_y[c]) if i >= columns else i
        svg, h = _part_svg(part, 45 + col * COL_W, col_y[col] + 10)
        body.extend(svg)
        col_y[col] += h + 24
    # the ribbon pinout
    y = max(col_y) + 10
    body.append(f'<text x="45" y="{y:.1f}" font-size="4" font-weight="bold">'
                "Reader ribbon, 2x7 IDC, pin 1 to 14 (n = the reader's number)</text>")
    for i, net in enumerate(RIBBON):
        x = 45 + i * 50
        body.append(f'<g class="ribbon-pin"><rect x="{x:.1f}" y="{y + 4:.1f}" width="46" '
                    'height="8" fill="none" stroke="black" stroke-width="0.4"/>'
                    f'<text x="{x + 23:.1f}" y="{y + 9.5:.1f}" font-size="3" '
                    f'text-anchor="middle">{i + 1}: {escape(net)}</text></g>')
    width = max(45 + columns * COL_W, 45 + len(RIBBON) * 50) + 20
    height = y + 30
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}mm" height="{height:.0f}mm" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">',
        "<title>Sekigahara reader hub: schematic (generated by hardware/tools/hub_schematic.py)"
        "</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="white"/>',
        '<g font-family="sans-serif">',
        '<text x="45" y="14" font-size="6" font-weight="bold">Reader hub (hub_config.py '
        'BOARD = "pico", READERS = 16): pins with the same blue net name are connected</text>',
        '<text x="45" y="21" font-size="3.4">All grounds joined (supply, Pico, modules, LEDs). '
        "The modules' 5 V comes from the 5 V supply through F1, never from the Pi's USB. "
        "Not to scale.</text>",
    ]
    return "\n".join([*head, *body, "</g></svg>"]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parents[1] / "hub-schematic.svg")
    args = parser.parse_args(argv)
    args.out.write_text(render(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
