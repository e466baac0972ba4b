"""The bill of materials (hardware/bom.yaml): the README's tables are what hardware/tools/bom.py
prints, and its hubs and readers add up to the default wiring."""

from __future__ import annotations

from pathlib import Path

import bom

from companion.core.table import game_table
from firmware_bridge.wiring import WiringMap

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def _wiring() -> WiringMap:
    shipped = game_table("sekigahara").default_wiring()
    assert shipped is not None
    return WiringMap(hubs=shipped.hubs)


def test_readme_tables_are_what_the_tool_prints() -> None:
    readme = (HARDWARE / "README.md").read_text()
    data = bom.load()
    for stage in data.stages:
        assert bom.stage_table(data, stage) in readme, stage.title
    assert bom.summary_table(data) in readme


def test_the_bom_buys_one_pico_and_decoder_per_hub_and_one_reader_per_antenna() -> None:
    wiring = _wiring()
    data = bom.load()
    assert data.count("mcu") == len(wiring.hubs) == 5
    assert data.count("decoder") == len(wiring.hubs)  # Stage 1's Pico gets its in Stage 2
    assert data.count("reader") == len(wiring.table()) == 72


def test_every_zone_is_wired_and_no_hub_has_more_than_16() -> None:
    wiring = _wiring()
    assert wiring.unmapped_zones() == []
    for antennas in wiring.hubs.values():
        assert len(antennas) <= 16
        assert all(int(name[1:]) < 16 for name in antennas)


def test_every_price_is_an_estimate_and_every_total_says_so() -> None:
    data = bom.load()
    assert "estimated" in data.price_note and "no live prices" in data.price_note
    for stage in data.stages:
        assert all(item.each > 0 and item.qty > 0 for item in stage.items)
        assert data.price_note in bom.stage_table(data, stage).splitlines()[-1]
    assert data.price_note in bom.summary_table(data).splitlines()[-1]


def test_the_whole_table_has_the_pi_screen_power_sd_card_cables_and_fuses() -> None:
    parts = " ".join(item.part for stage in bom.load().stages for item in stage.items)
    for needed in ("Raspberry Pi 5", "Touch Display 2", "27 W USB-C power supply", "microSD",
                   "fuse", "IDC", "micro-USB data cable", "5 V 6 A"):
        assert needed in parts, needed


def test_totals_by_hand() -> None:
    data = bom.load()
    assert bom.money(0.35) == "$0.35" and bom.money(1200.0) == "$1,200"
    assert bom.about(39.25) == "about $40" and bom.about(951.4) == "about $950"
    stage1 = data.stages[0]
    assert stage1.total == sum(i.qty * i.each for i in stage1.items)
