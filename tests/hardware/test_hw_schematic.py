"""The hub schematic (hardware/hub-schematic.svg) is generated from one netlist that agrees with
the firmware's pin settings and the PN5180 module's header."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import hub_config
import hub_schematic as hs

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def test_the_committed_svg_is_what_the_tool_draws() -> None:
    assert (HARDWARE / "hub-schematic.svg").read_text() == hs.render()
    ET.fromstring(hs.render())  # well-formed


def test_the_picos_pins_are_those_of_hub_config() -> None:
    pins = hub_config.PINS["pico"]
    gpio = hs.pico_gpio()
    assert gpio["SCK"] == pins["sck"] and gpio["MOSI"] == pins["mosi"]
    assert gpio["MISO"] == pins["miso"]
    assert tuple(gpio[f"ADDR{i}"] for i in range(4)) == pins["address"]
    assert gpio["NSS_STROBE"] == pins["strobe"] and gpio["BUSY"] == pins["busy"]
    assert gpio["RST"] == pins["rst"] and gpio["LED_DATA_3V3"] == pins["leds"]
    assert gpio["RAIL_SENSE"] == (pins.get("rail") or 26) == 26  # ADC0
    divider = getattr(hub_config, "RAIL_DIVIDER", 2.0)  # R5 over R6: 10 k + 10 k
    assert divider == 2.0
    assert len(set(gpio.values())) == len(gpio)


def test_reader_connector_carries_every_module_pin_the_firmware_uses() -> None:
    modules = [p for p in hs.PARTS if p.ref.startswith("M")]
    assert [m.ref for m in modules] == ["M1..M8", "M9..M16"]
    for module, bus in zip(modules, "AB", strict=True):
        names = [pin for pin, _ in module.left + module.right]
        assert names == ["5V", "3V3", "RST", "NSS", "MOSI", "MISO", "SCK", "BUSY", "GND", "GPIO",
                         "IRQ", "AUX", "REQ"]
        used = {net.replace(f"_{bus}", "_x") for _, net in module.left + module.right} - {"NC"}
        assert used <= set(hs.RIBBON)
    for i, net in enumerate(hs.RIBBON):  # every fast signal has a ground beside it
        if net in ("SCK_x", "MOSI_x", "MISO"):
            assert "GND" in (hs.RIBBON[i - 1], hs.RIBBON[i + 1]), net


def test_every_net_joins_two_pins_and_5v_goes_through_the_fuse_and_guard() -> None:
    nets = hs.nets()
    for net, pins in nets.items():
        if net not in ("NC", "NSS0..NSS15", "BUSY0..BUSY15", "NSSn", "BUSYn"):
            assert len(pins) >= 2, net
    assert nets["5V_IN"] == ["J1.+", "F1.1"]  # the supply reaches the hub only through F1
    assert "Q2.D" in nets["+5V"] and "F2..F17.1" in nets["+5V"]
    assert "M1..M8.5V" in nets["5V_n"] and "M9..M16.5V" in nets["5V_n"]
    assert not any(pin.startswith("U1.") for pin in nets["+3V3_READERS"])  # not the Pico's 3V3


def test_each_spi_group_has_its_own_buffer_output_and_series_resistor() -> None:
    nets = hs.nets()
    for bus, conn in (("A", "J2..J9"), ("B", "J10..J17")):
        for signal in ("SCK", "MOSI"):
            pins = nets[f"{signal}_{bus}"]
            assert f"{conn}.{5 if signal == 'SCK' else 7}" in pins
            resistors = [pin for pin in pins if pin.startswith("R")]
            assert len(resistors) == 1, (signal, bus, pins)


def test_refs_expand_ranges() -> None:
    part = next(p for p in hs.PARTS if p.ref == "C10..C25")
    assert hs.refs(part) == [f"C{n}" for n in range(10, 26)]
    assert hs.refs(next(p for p in hs.PARTS if p.ref == "U1")) == ["U1"]
