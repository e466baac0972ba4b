"""The antenna placement sheet and default wiring generated from the board data."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import placement_sheet as ps
import pytest
import yaml

from companion.games.sekigahara.components import default_board
from firmware_bridge.wiring import WiringMap

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def layout() -> ps.Layout:
    return ps.layout(default_board())


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[ET.Element, Path]:
    out = tmp_path_factory.mktemp("sheet")
    assert ps.main(["--out", str(out / "s.svg"), "--wiring", str(out / "w.yaml")]) == 0
    return ET.parse(out / "s.svg").getroot(), out / "w.yaml"


def test_sheet_is_exactly_34_by_22_inches(sheet: tuple[ET.Element, Path]) -> None:
    root, _ = sheet
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height")) == ("34in", "22in")
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    assert (x, y) == (0, 0)
    assert w == pytest.approx(34 * 25.4) and h == pytest.approx(22 * 25.4)  # 1 unit = 1 mm


def test_one_mark_per_location_box_and_zone(sheet: tuple[ET.Element, Path]) -> None:
    root, _ = sheet
    board = default_board()
    marks = [g for g in root.iter(SVG + "g") if g.get("class") == "mark"]
    zones = [g.get("data-zone") for g in marks]
    assert len(marks) >= 51
    assert set(board.locations) <= set(zones)
    assert set(board.boxes) <= set(zones)
    assert set(ps.OFF_MAP_ZONES) <= set(zones)
    assert len(zones) == len(set(zones))
    for g in marks:
        circle = g.find(SVG + "circle")
        assert circle is not None and float(circle.get("r", "0")) > 0
        texts = [t.text for t in g.iter(SVG + "text")]
        assert f"{g.get('data-hub')} {g.get('data-antenna')}" in texts


def test_location_marks_sit_on_the_map_scaled_to_the_sheet(layout: ps.Layout) -> None:
    board = default_board()
    for m in layout.marks:
        if m.kind == "location":
            px = board.locations[m.zone].xy
            assert m.target == pytest.approx((px[0] * 863.6 / 3354, px[1] * 558.8 / 2115))
            assert m.offset <= 8.0 + 1e-6


def test_antennas_never_overlap(layout: ps.Layout) -> None:
    on_map = [m for m in layout.marks if m.kind != "off-map"]
    for a, b in itertools.combinations(layout.marks, 2):
        if a in on_map or b in on_map:
            assert math.dist(a.centre, b.centre) >= (a.diameter + b.diameter) / 2, (a.zone, b.zone)


def test_wiring_matches_the_bridge_schema_and_the_sheet(sheet: tuple[ET.Element, Path],
                                                         layout: ps.Layout) -> None:
    _, wiring_file = sheet
    raw = yaml.safe_load(wiring_file.read_text())
    wiring = WiringMap.model_validate(raw)
    table = wiring.table()
    assert len(table) == len(layout.marks)
    assert all(len(antennas) <= 16 for antennas in wiring.hubs.values())
    for m in layout.marks:
        assert table[(layout.hub_id(m.hub), m.antenna)] == m.zone
    assert set(default_board().locations) <= set(table.values())


def test_smaller_hubs_mean_more_of_them() -> None:
    result = ps.layout(default_board(), hub_size=8)
    assert len(result.hub_positions) == math.ceil(len(result.marks) / 8)
    assert max(m.antenna for m in result.marks) == 7
