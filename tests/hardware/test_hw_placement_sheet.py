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
    assert ps.main(["--out", str(out / "s.svg"), "--wiring", str(out / "w.yaml"),
                    "--trays", str(out / "t.svg")]) == 0
    return ET.parse(out / "s.svg").getroot(), out / "w.yaml"


def test_sheet_is_exactly_34_by_22_inches(sheet: tuple[ET.Element, Path]) -> None:
    root, _ = sheet
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height")) == ("34in", "22in")
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    assert (x, y) == (0, 0)
    assert w == pytest.approx(34 * 25.4) and h == pytest.approx(22 * 25.4)  # 1 unit = 1 mm


def test_one_mark_per_antenna_on_the_map_and_none_for_the_trays(
        sheet: tuple[ET.Element, Path]) -> None:
    root, _ = sheet
    board = default_board()
    marks = [g for g in root.iter(SVG + "g") if g.get("class") == "mark"]
    zones = [g.get("data-zone") for g in marks]
    assert set(zones) == set(board.locations) | set(board.boxes)  # trays: their own sheet
    keys = [(g.get("data-zone"), g.get("data-channel")) for g in marks]
    assert len(keys) == len(set(keys))
    for g in marks:
        circle = g.find(SVG + "circle")
        assert circle is not None and float(circle.get("r", "0")) > 0
        texts = [t.text for t in g.iter(SVG + "text")]
        assert f"{g.get('data-hub')} {g.get('data-antenna')}" in texts


def test_boxes_and_trays_are_several_modules_on_one_hub(layout: ps.Layout) -> None:
    zones = layout.zones()
    board = default_board()
    for box in board.boxes:
        assert len(zones[box]) == 2
    for tray in ("ishida_deployment", "tokugawa_deployment", "casualties"):
        assert len(zones[tray]) == 4
    for zone, members in zones.items():
        assert [m.channel for m in members] == list(range(len(members)))
        assert all(m.channels == len(members) for m in members)
        assert len({m.hub for m in members}) == 1, zone  # one ribbon bundle per zone
    pitch = layout.antenna_mm + ps.MODULE_GAP_MM
    tray = zones["casualties"]
    xs = sorted({round(m.centre[0], 3) for m in tray})
    ys = sorted({round(m.centre[1], 3) for m in tray})
    assert (xs[1] - xs[0], ys[1] - ys[0]) == (pytest.approx(pitch), pytest.approx(pitch))


def test_every_module_outline_is_drawn_around_its_loop(sheet: tuple[ET.Element, Path],
                                                       layout: ps.Layout) -> None:
    root, _ = sheet
    marks = [g for g in root.iter(SVG + "g") if g.get("class") == "mark"]
    for g in marks:
        rect = g.find(SVG + "rect")
        circle = g.find(SVG + "circle")
        assert rect is not None and rect.get("class") == "module" and circle is not None
        x, y, w, h = (float(rect.get(k, "0")) for k in ("x", "y", "width", "height"))
        assert sorted((w, h)) == sorted(ps.MODULE_MM)
        cx, cy = float(circle.get("cx", "0")), float(circle.get("cy", "0"))
        assert x <= cx <= x + w and y <= cy <= y + h
    # each module is turned so its board covers as few neighbours as it can
    assert len(ps.module_overlaps(layout.on_map(), layout.module_mm)) < len(
        [m for m in layout.on_map()])


def test_hub_boards_sit_clear_of_every_loop_module_and_each_other(layout: ps.Layout) -> None:
    boxes = [layout.hub_box(h) for h in layout.hub_positions]
    assert len(boxes) == 5
    for i, box in enumerate(boxes):
        x, y, w, h = box
        assert x >= 0 and x + w <= ps.SHEET_W_MM and y >= 0 and y + h <= ps.SHEET_H_MM
        for m in layout.on_map():
            assert ps._rect_circle_clear(box, m.centre, m.diameter / 2), m.zone
            assert ps._rects_clear(box, m.module_box(layout.module_mm)), m.zone
        for other in boxes[i + 1 :]:
            assert ps._rects_clear(box, other)
    for h, pos in layout.hub_positions.items():  # under the guide's ~50 cm ribbons
        assert all(math.dist(pos, m.centre) < 450 for m in layout.on_map() if m.hub == h)


def test_tray_templates_are_a_sheet_of_their_own(tmp_path: Path, layout: ps.Layout) -> None:
    root = ET.fromstring(ps.render_trays(layout))
    zones = {g.get("data-zone"): g.get("data-area-mm") for g in root.iter(SVG + "g")
             if g.get("class") == "zone"}
    assert zones == {"ishida_deployment": "110x110", "tokugawa_deployment": "110x110",
                     "casualties": "110x110", "ishida_cards": "55x55",
                     "tokugawa_cards": "55x55", "registration": "55x55"}
    marks = [g for g in root.iter(SVG + "g") if g.get("class") == "mark"]
    assert len(marks) == sum(len(m) for z, m in layout.zones().items() if z in zones)
    assert root.get("width", "").endswith("mm")


def test_location_marks_sit_on_the_map_scaled_to_the_sheet(layout: ps.Layout) -> None:
    board = default_board()
    for m in layout.marks:
        if m.kind == "location":
            px = board.locations[m.zone].xy
            assert m.target == pytest.approx((px[0] * 863.6 / 3354, px[1] * 558.8 / 2115))
            assert m.offset <= 8.0 + 1e-6


def test_antennas_never_overlap(layout: ps.Layout) -> None:
    for group in (layout.on_map(), [m for m in layout.marks if m.kind == "off-map"]):
        for a, b in itertools.combinations(group, 2):
            assert math.dist(a.centre, b.centre) >= (a.diameter + b.diameter) / 2, (a.zone,
                                                                                    b.zone)


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
    assert wiring.unmapped_zones() == []


def test_smaller_hubs_mean_more_of_them() -> None:
    result = ps.layout(default_board(), hub_size=8)
    assert len(result.hub_positions) >= math.ceil(len(result.marks) / 8)
    assert max(m.antenna for m in result.marks) == 7


def test_readme_quotes_the_sheet(layout: ps.Layout) -> None:
    import re

    readme = (Path(__file__).resolve().parents[2] / "hardware" / "README.md").read_text()
    overlaps = re.search(r"still overlap \((\d+)\s+with the defaults, computed\)", readme)
    assert overlaps is not None
    assert int(overlaps.group(1)) == len(ps.module_overlaps(layout.on_map(), layout.module_mm))
    total = re.search(r"\*\*(\d+) antennas on (\d+) hubs of 16\*\*", readme)
    assert total is not None
    assert (int(total.group(1)), int(total.group(2))) == (len(layout.marks),
                                                          len(layout.hub_positions))
