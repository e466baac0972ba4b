"""The RF-multiplexer option's relay driver (hardware/rfmux-driver.svg, hardware/README.md 4.4):
for every address exactly one relay is closed, and none while INHIBIT is high. The logic
levels come from the chips' data sheets (below), the wiring from the netlist."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import hub_config
import rfmux_schematic as rf

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"

# Data-sheet facts: the level of a decoder's selected output (the other 15 are the opposite;
# an inhibited CD74HCT4514 holds all 16 low), and the input level that switches a driver on.
SELECTED_HIGH = {"CD74HCT4514": True, "74HC154": False}
DRIVER_ON_HIGH = {"ULN2803A": True}


def _closed(parts: tuple[rf.Part, ...], address: int, inhibit: bool) -> set[str]:
    """The coils energised for this address, by following the netlist's nets."""
    decoder = next(p for p in parts if p.value in SELECTED_HIGH)
    level: dict[str, bool] = {}
    for pins, nets in decoder.right:
        for i, (_, net) in enumerate(rf.expand(pins, nets)):
            if inhibit and decoder.value == "CD74HCT4514":
                level[net] = False
            else:
                level[net] = (i == address) == SELECTED_HIGH[decoder.value]
    coils: set[str] = set()
    for driver in (p for p in parts if p.value in DRIVER_ON_HIGH):
        inputs = [pair for pins, nets in driver.left if "B" in pins
                  for pair in rf.expand(pins, nets)]
        outputs = [pair for pins, nets in driver.right for pair in rf.expand(pins, nets)]
        for (_, net_in), (_, coil) in zip(inputs, outputs, strict=True):
            if level[net_in] == DRIVER_ON_HIGH[driver.value]:
                coils.add(coil)
    return coils


def test_exactly_one_relay_is_closed_for_each_address_and_none_when_inhibited() -> None:
    for address in range(16):
        assert _closed(rf.PARTS, address, inhibit=False) == {f"COIL{address}"}
        assert _closed(rf.PARTS, address, inhibit=True) == set()


def test_a_74hc154_in_its_place_would_close_fifteen_relays() -> None:
    """What older versions of the guide had: an active-low decoder into active-high drivers."""
    old = tuple(replace(p, value="74HC154") if p.value == "CD74HCT4514" else p
                for p in rf.PARTS)
    closed = _closed(old, 3, inhibit=False)
    assert len(closed) == 15 and "COIL3" not in closed


def test_the_driver_uses_the_firmwares_mux_pins_and_the_svg_is_what_the_tool_draws() -> None:
    pico = next(p for p in rf.PARTS if p.ref == "U1")
    gpio = {net: int(pin[2:]) for pin, net in pico.right}
    assert tuple(gpio[f"RFMUX_A{i}"] for i in range(4)) == hub_config.PINS["pico"]["rf_mux"]
    assert gpio["RFMUX_INH"] not in hub_config.PINS["pico"]["rf_mux"]
    assert (HARDWARE / "rfmux-driver.svg").read_text() == rf.render()
    ET.fromstring(rf.render())
