"""The hub's schematic, drawn from one netlist.

    .venv/bin/python hardware/tools/hub_schematic.py [--out hardware/hub-schematic.svg]

``PARTS`` below is the source of truth: every part with its pins, and for each pin the net it
joins. The SVG is drawn from it with net labels (pins with the same label are connected), one
box per part; ``hardware/hub-schematic.svg`` is its output (a test checks the committed file is
exactly what this prints, and that the Pico's pins are those of firmware/hub_config.py).

Pico GPIO numbers come from ``hub_config.PINS["pico"]`` (the rail sense ADC pin is its
``"rail"``, GP26, through R5/R6, whose ratio is ``hub_config.RAIL_DIVIDER``); the reader
connector follows the PN5180 module's header (5V, 3V3, RST, NSS, MOSI, MISO, SCK, BUSY, GND,
GPIO, IRQ, AUX, REQ on the common hobby module: check your module's silkscreen).
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
    per_reader: bool = False
    """One per reader connector (``J2..J9`` and the like): bought per antenna, not per hub."""


def _gp(n: int) -> str:
    return f"GP{n}"


RAIL_SENSE_GP = int(PICO.get("rail") or 26)
"""ADC0: the module rail through R5/R6 (5 V -> 2.5 V). The firmware holds every output low and
reports ``FAULT HUB POWER`` while it reads the rail as down."""

A0, A1, A2, A3 = PICO["address"]
_READER_GROUPS = (("A", "J2..J9", "M1..M8", "0-7"), ("B", "J10..J17", "M9..M16", "8-15"))


def _reader_parts() -> tuple[Part, ...]:
    """Each half of the 16 readers on its own SCK/MOSI buffer output (no two outputs joined)."""
    parts: list[Part] = []
    for bus, conn, module, readers in _READER_GROUPS:
        parts.append(Part(
            conn, "reader connector x8", f"2x7 IDC to the modules of readers {readers} "
            f"(SPI group {bus}); 5 V through its own PTC",
            (("1", "5V_n"), ("3", "+3V3_READERS"), ("5", f"SCK_{bus}"), ("7", f"MOSI_{bus}"),
             ("9", "MISO"), ("11", "NSSn"), ("13", "RST")),
            (("2,4,6,8,10,14", "GND"), ("12", "BUSYn")), per_reader=True))
        parts.append(Part(
            module, "PN5180 module x8", f"readers {readers}, each on its module-end adapter "
            "(C50..C65 there); GPIO, IRQ, AUX, REQ left open",
            (("5V", "5V_n"), ("3V3", "+3V3_READERS"), ("RST", "RST"), ("NSS", "NSSn"),
             ("MOSI", f"MOSI_{bus}"), ("MISO", "MISO"), ("SCK", f"SCK_{bus}")),
            (("BUSY", "BUSYn"), ("GND", "GND"), ("GPIO", "NC"), ("IRQ", "NC"), ("AUX", "NC"),
             ("REQ", "NC")), per_reader=True))
    return tuple(parts)


PARTS: tuple[Part, ...] = (
    # --- power in: fuse, reverse-polarity and over-voltage guard, spike clamp
    Part("J1", "5 V in", "2-way screw terminal: the table's 5 V lead to this hub",
         (), (("+", "5V_IN"), ("-", "GND"))),
    Part("F1", "fuse 1.5 A", "PTC 1.5 A hold (MF-R150): a short on this hub opens here",
         (("1", "5V_IN"),), (("2", "5V_FUSED"),)),
    Part("Q1", "AOD4185 P-FET", "reverse-polarity guard: a + and - swapped supply never "
         "turns it on", (("D", "5V_FUSED"), ("G", "GUARD_G")), (("S", "GUARD_S"),)),
    Part("Q2", "AOD4185 P-FET", "over-voltage cut-off, back to back with Q1: off above "
         "about 5.7 V", (("S", "GUARD_S"), ("G", "GUARD_G")), (("D", "+5V"),)),
    Part("R2", "47 kOhm", "pulls Q1/Q2's gates low: both on at 5 V", (("1", "GUARD_G"),),
         (("2", "GND"),)),
    Part("D2", "12 V Zener (BZX79C12)", "keeps Q1/Q2's gate within 12 V of the source "
         "(a 24 V adapter)", (("K", "GUARD_S"),), (("A", "GUARD_G"),)),
    Part("Q3", "BC557 PNP", "turns Q1/Q2 off when D3 conducts: more than about 5.7 V in",
         (("E", "GUARD_S"), ("B", "OV_BASE")), (("C", "GUARD_G"),)),
    Part("R3", "10 kOhm", "holds Q3 off below the threshold", (("1", "GUARD_S"),),
         (("2", "OV_BASE"),)),
    Part("R4", "2.2 kOhm", "Q3's base current from D3", (("1", "OV_BASE"),), (("2", "OV_Z"),)),
    Part("D3", "5.1 V Zener (BZX79C5V1)", "the over-voltage threshold: 5.1 V + Q3's 0.6 V",
         (("K", "OV_Z"),), (("A", "GND"),)),
    Part("D1", "TVS SMBJ5.0A", "after the guard: clamps the short spikes it is too slow for",
         (("K", "+5V"),), (("A", "GND"),)),
    Part("C1", "1000 uF 10 V", "bulk, across the hub's 5 V (the fields switch on and off)",
         (("+", "+5V"),), (("-", "GND"),)),
    # --- the Pico: fed from the rail through D4, never feeding it; rail sense on ADC0
    Part("D4", "Schottky 1N5819", "rail into VSYS only: USB cannot feed the 16 modules",
         (("A", "+5V"),), (("K", "VSYS"),)),
    Part("C7", "10 uF", "at U1's VSYS", (("+", "VSYS"),), (("-", "GND"),)),
    Part("U1", "Raspberry Pi Pico", "USB to the Pi (data); powered on VSYS through D4",
         (("VSYS", "VSYS"), ("GND", "GND"),
          (_gp(PICO["sck"]), "SCK"), (_gp(PICO["mosi"]), "MOSI"), (_gp(PICO["miso"]), "MISO"),
          (_gp(RAIL_SENSE_GP), "RAIL_SENSE")),
         ((_gp(A0), "ADDR0"), (_gp(A1), "ADDR1"), (_gp(A2), "ADDR2"), (_gp(A3), "ADDR3"),
          (_gp(PICO["strobe"]), "NSS_STROBE"), (_gp(PICO["busy"]), "BUSY"),
          (_gp(PICO["rst"]), "RST"), (_gp(PICO["leds"]), "LED_DATA_3V3"))),
    Part("R5", "10 kOhm", "rail sense divider, top: 5 V -> 2.5 V at ADC0", (("1", "+5V"),),
         (("2", "RAIL_SENSE"),)),
    Part("R6", "10 kOhm", "rail sense divider, bottom: 0 V when the rail is down",
         (("1", "RAIL_SENSE"),), (("2", "GND"),)),
    Part("C8", "100 nF", "steadies the ADC reading", (("1", "RAIL_SENSE"),), (("2", "GND"),)),
    # --- the readers' 3.3 V: a buck, not a linear regulator (16 x VBAT + PVDD, up to 0.64 A)
    Part("U6", "Pololu D24V10F3", "3.3 V 1 A buck module: the readers' VBAT/PVDD and the "
         "logic, about 0.3 W lost at 0.64 A",
         (("VIN", "+5V"), ("GND", "GND")), (("VOUT", "+3V3_READERS"),)),
    Part("C6", "10 uF", "at U6's VIN", (("+", "+5V"),), (("-", "GND"),)),
    Part("R1", "10 kOhm", "MISO pull-up: an unselected bus reads 0xFF", (("1", "MISO"),),
         (("2", "+3V3_READERS"),)),
    # --- chip select, BUSY, SPI buffer: on the readers' 3.3 V, so they are dead with the rail
    Part("U2", "74HC154", "4-to-16 decoder: NSS of reader n on Yn; VCC from U6",
         (("A0", "ADDR0"), ("A1", "ADDR1"), ("A2", "ADDR2"), ("A3", "ADDR3"),
          ("G1", "NSS_STROBE"), ("G2", "NSS_STROBE"), ("VCC", "+3V3_READERS"), ("GND", "GND")),
         (("Y0..Y15", "NSS0..NSS15"),)),
    Part("C2", "100 nF", "at U2's VCC pin", (("1", "+3V3_READERS"),), (("2", "GND"),)),
    Part("U3", "74HC4067", "16-channel mux: BUSY of reader n on In; VCC from U6",
         (("S0", "ADDR0"), ("S1", "ADDR1"), ("S2", "ADDR2"), ("S3", "ADDR3"), ("EN", "GND"),
          ("VCC", "+3V3_READERS"), ("GND", "GND")),
         (("Z", "BUSY"), ("I0..I15", "BUSY0..BUSY15"))),
    Part("C3", "100 nF", "at U3's VCC pin", (("1", "+3V3_READERS"),), (("2", "GND"),)),
    Part("U4", "74HC125", "SPI buffer: one output per group of 8 readers for SCK and for "
         "MOSI; VCC from U6",
         (("1A,2A", "SCK"), ("3A,4A", "MOSI"), ("1OE..4OE", "GND"), ("VCC", "+3V3_READERS"),
          ("GND", "GND")),
         (("1Y", "SCK_1Y"), ("2Y", "SCK_2Y"), ("3Y", "MOSI_3Y"), ("4Y", "MOSI_4Y"))),
    Part("C4", "100 nF", "at U4's VCC pin", (("1", "+3V3_READERS"),), (("2", "GND"),)),
    Part("R7", "47 Ohm", "series, SCK to readers 0-7", (("1", "SCK_1Y"),), (("2", "SCK_A"),)),
    Part("R8", "47 Ohm", "series, SCK to readers 8-15", (("1", "SCK_2Y"),), (("2", "SCK_B"),)),
    Part("R9", "47 Ohm", "series, MOSI to readers 0-7", (("1", "MOSI_3Y"),),
         (("2", "MOSI_A"),)),
    Part("R10", "47 Ohm", "series, MOSI to readers 8-15", (("1", "MOSI_4Y"),),
         (("2", "MOSI_B"),)),
    # --- LEDs
    Part("U5", "74AHCT125", "LED data 3.3 V to 5 V; 2A-4A to GND, 2OE-4OE to +5V",
         (("1A", "LED_DATA_3V3"), ("1OE", "GND"), ("VCC", "+5V"), ("GND", "GND")),
         (("1Y", "LED_1Y"),)),
    Part("C5", "100 nF", "at U5's VCC pin", (("1", "+5V"),), (("2", "GND"),)),
    Part("R11", "330 Ohm", "series, at the LED chain's first DIN", (("1", "LED_1Y"),),
         (("2", "LED_DATA"),)),
    Part("J18", "LED out", "to the first WS2812B's DIN; chain in antenna order",
         (("DIN", "LED_DATA"), ("5V", "+5V"), ("GND", "GND")), ()),
    # --- one per reader: its own PTC and bypass capacitors
    Part("F2..F17", "PTC 0.5 A x16", "5 V of reader connector n (MF-R050): a shorted "
         "ribbon opens its own, the other readers keep reading",
         (("1", "+5V"),), (("2", "5V_n"),), per_reader=True),
    Part("C10..C25", "10 uF x16", "at reader connector n: its 5 V", (("+", "5V_n"),),
         (("-", "GND"),), per_reader=True),
    Part("C30..C45", "100 nF x16", "at reader connector n: its 3.3 V",
         (("1", "+3V3_READERS"),), (("2", "GND"),), per_reader=True),
    Part("C50..C65", "10 uF x16", "at module n, on its module-end adapter: 5V to GND",
         (("+", "5V_n"),), (("-", "GND"),), per_reader=True),
    *_reader_parts(),
)

# the reader ribbon, pin by pin: every fast signal has a ground beside it
RIBBON = ("5V_n", "GND", "+3V3_READERS", "GND", "SCK_x", "GND", "MOSI_x", "GND", "MISO",
          "GND", "NSSn", "BUSYn", "RST", "GND")
"""x is the reader's SPI group: A for readers 0-7, B for 8-15."""


def refs(part: Part) -> list[str]:
    """``C10..C25`` -> C10, C11, ... C25; a single ref is itself."""
    first, sep, last = part.ref.partition("..")
    if not sep:
        return [first]
    prefix = first.rstrip("0123456789")
    return [f"{prefix}{n}" for n in range(int(first[len(prefix):]), int(last[len(prefix):]) + 1)]


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


def part_svg(part: Part, x: float, y: float) -> tuple[list[str], float]:
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
        svg, h = part_svg(part, 45 + col * COL_W, col_y[col] + 10)
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
        "The modules' 5 V comes from the 5 V supply through F1 and the Q1/Q2 guard, never from "
        "the Pi's USB (D4). Not to scale.</text>",
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
