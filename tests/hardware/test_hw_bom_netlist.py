"""The build guide (hardware/README.md), the bill of materials (hardware/bom.yaml) and the hub's
netlist (hardware/tools/hub_schematic.py) agree: every part of the netlist is bought, as often
as five hubs and 72 antennas need it, and nothing is bought for the netlist that is not in it;
the parts the guide names exist; the totals the guide quotes are bom.py's; no net is driven by
two outputs; every IC has its bypass capacitor; the protections the guide promises are parts."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import bom
import hub_schematic as hs

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
HUBS, ANTENNAS, PER_HUB = 5, 72, 16

# Data-sheet facts, kept here rather than read from the netlist: which pins of each chip drive
# their net push-pull. The Pico's GPIOs are outputs except the three it reads.
OUTPUT_PINS = {
    "74HC125": re.compile(r"^\dY$"),
    "74AHCT125": re.compile(r"^\dY$"),
    "74HC154": re.compile(r"^Y"),
    "74HC4067": re.compile(r"^Z$"),
    "Pololu D24V10F3": re.compile(r"^VOUT$"),
    "AMS1117-3.3": re.compile(r"^OUT$"),
}
PICO_INPUTS = {"MISO", "BUSY", "RAIL_SENSE"}


def _readme() -> str:
    return (HARDWARE / "README.md").read_text(encoding="utf-8")


def _pins(part: hs.Part) -> list[tuple[str, str]]:
    """(pin, net), a "1A,2A" or "1Y,2Y" entry split into its pins."""
    return [(pin, net) for names, net in part.left + part.right for pin in names.split(",")]


def test_every_netlist_part_is_bought_as_often_as_the_table_needs_it() -> None:
    parts = {p.ref: p for p in hs.PARTS}
    bought: dict[frozenset[str], int] = defaultdict(int)
    for stage in bom.load().stages:
        for item in stage.items:
            net = getattr(item, "net", ())
            if net:
                unknown = set(net) - set(parts)
                assert not unknown, f"{item.part}: not in the netlist: {sorted(unknown)}"
                bought[frozenset(net)] += item.qty
    covered = [ref for group in bought for ref in group]
    assert sorted(covered) == sorted(parts), "each netlist part on exactly one kind of BOM line"
    for group, qty in bought.items():
        per_hub = sum(len(hs.refs(parts[r])) for r in group)
        if all(parts[r].per_reader for r in group):
            assert qty == ANTENNAS * per_hub // PER_HUB, (sorted(group), qty)
        else:
            assert not any(parts[r].per_reader for r in group), sorted(group)
            assert qty == HUBS * per_hub, (sorted(group), qty)


def test_no_net_is_driven_by_two_outputs() -> None:
    drivers: dict[str, list[str]] = defaultdict(list)
    for part in hs.PARTS:
        for pin, net in _pins(part):
            pattern = OUTPUT_PINS.get(part.value)
            drives = (pin.startswith("GP") and net not in PICO_INPUTS if part.ref == "U1"
                      else pattern is not None and pattern.match(pin) is not None)
            if drives and net not in ("NC", "GND"):
                drivers[net].append(f"{part.ref}.{pin}")
    assert len(drivers) >= 10  # the table above does find the outputs
    joined = {net: who for net, who in drivers.items() if len(who) > 1}
    assert joined == {}


def test_every_ic_has_a_bypass_capacitor_at_its_supply_pin() -> None:
    for ic in (p for p in hs.PARTS if p.ref.startswith("U")):
        supply = {net for pin, net in _pins(ic) if pin in ("VCC", "VSYS", "VIN")}
        assert len(supply) == 1, ic.ref
        caps = [c for c in hs.PARTS if c.ref.startswith("C")
                and {net for _, net in _pins(c)} == {*supply, "GND"}
                and re.search(rf"\b{ic.ref}'s\b", c.note)]
        assert caps, f"{ic.ref} ({ic.value}) has no bypass capacitor at {supply}"


def test_every_reader_connector_has_its_own_fuse_and_capacitors() -> None:
    nets = hs.nets()
    fuses = [p for p in hs.PARTS if p.ref.startswith("F") and getattr(p, "per_reader", False)]
    assert [f.ref for f in fuses] == ["F2..F17"] and len(hs.refs(fuses[0])) == PER_HUB
    assert {pin for pin in nets["5V_n"] if pin.startswith("F")} == {"F2..F17.2"}
    assert "+5V" not in {net for p in hs.PARTS if p.ref.startswith(("J2", "J10", "M"))
                         for _, net in _pins(p)}  # 5 V reaches a reader only through its PTC
    for net in ("5V_n", "+3V3_READERS"):
        assert any(p.per_reader and p.ref.startswith("C") and p.ref.endswith("..C25" if net
                   == "5V_n" else "..C45") for p in hs.PARTS), net


def test_usb_cannot_feed_the_modules_and_the_pico_senses_the_rail() -> None:
    nets = hs.nets()
    assert "U1.VSYS" not in nets["+5V"]
    assert sorted(nets["VSYS"]) == ["C7.+", "D4.K", "U1.VSYS"]  # the rail reaches VSYS via D4
    assert "D4.A" in nets["+5V"]
    assert f"U1.GP{hs.RAIL_SENSE_GP}" in nets["RAIL_SENSE"] and hs.RAIL_SENSE_GP == 26
    assert {"R5.2", "R6.1"} <= set(nets["RAIL_SENSE"])  # a divider: 5 V -> 2.5 V
    # the chips that drive the modules die with the rail: nothing powers a module backwards
    for ref in ("U2", "U4", "R1"):
        part = next(p for p in hs.PARTS if p.ref == ref)
        assert "+3V3_READERS" in {net for _, net in _pins(part)}, ref


def test_a_wrong_adapter_meets_the_guard_before_anything_else() -> None:
    nets = hs.nets()
    assert sorted(nets["5V_IN"]) == ["F1.1", "J1.+"]
    assert sorted(nets["5V_FUSED"]) == ["F1.2", "Q1.D"]  # the fuse, then the reverse guard
    assert sorted(nets["GUARD_S"]) == ["D2.K", "Q1.S", "Q2.S", "Q3.E", "R3.1"]
    assert "Q2.D" in nets["+5V"] and "D1.K" in nets["+5V"]  # the cut-off, then the clamp
    values = {p.ref: p.value for p in hs.PARTS}
    assert "P-FET" in values["Q1"] and "P-FET" in values["Q2"] and "TVS" in values["D1"]


def test_the_parts_the_guide_names_are_in_the_netlist_and_the_other_way() -> None:
    readme = _readme()
    known = {ref for p in hs.PARTS for ref in hs.refs(p)}
    named = set(re.findall(r"(?<![\w-])(?:[JFCURDQ]\d+)\b", readme))
    assert named and named <= known, sorted(named - known)
    listed = readme.split("**Parts on the schematic**", 1)[1].split("\n\n", 1)[0]
    for part in hs.PARTS:
        assert re.search(rf"\b{re.escape(part.ref)}\b", listed), part.ref


def test_the_totals_the_guide_quotes_are_the_tools() -> None:
    readme = _readme()
    data = bom.load()
    heading = next(line for line in readme.splitlines() if line.startswith("## Stage 1 first"))
    assert heading.endswith(bom.about(data.stages[0].total))
    whole = re.findall(r"the whole table costs (about \$[\d,]+)", readme)
    assert whole == [bom.about(sum(s.total for s in data.stages))] * len(whole) and whole
    assert "Raspberry Pi 5, 4 GB" in {i.part for s in data.stages for i in s.items}
    pi = next(i for s in data.stages for i in s.items if i.part == "Raspberry Pi 5, 4 GB")
    assert 70 <= pi.each <= 90  # 2026 price


def test_the_bill_buys_what_a_hobbyist_needs_to_finish() -> None:
    parts = " ".join(item.part for stage in bom.load().stages for item in stage.items)
    for needed in ("module-end adapter", "crimp tool", "placement sheet", "spare PN5180",
                   "PTC fuse 0.5 A", "TVS", "Schottky", "100 nF", "multimeter"):
        assert needed in parts, needed
