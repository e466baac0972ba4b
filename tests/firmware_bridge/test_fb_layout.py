"""The scan schedule comes from the served game's own antenna layout, read through its
GameTable (package data, no file paths): Tenka Meidou's antennas are its own, trays beside the
map never count as the map's neighbours, and when no schedule can be planned the bridge says
so instead of leaving the hubs silently unscheduled."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_helpers import RATE_HZ, WAIT_S

from companion.core.table import GameTable, game_table
from companion.games.sekigahara.table import SekigaharaTable
from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from firmware_bridge.schedule import NoLayout, Spot, antenna_spots, neighbour_pairs, plan_schedule
from firmware_bridge.simtable import SimulatedTable, default_wiring
from firmware_bridge.wiring import AntennaKey
from firmware_bridge.zones import active_table, use_table


class NoSheetTable(SekigaharaTable):
    """A game with no placement sheet (a new game before its sheet is drawn)."""

    def antenna_layout(self) -> None:
        return None


@pytest.fixture
def no_sheet() -> Iterator[GameTable]:
    before = active_table()
    yield use_table(NoSheetTable())
    use_table(before)


def test_each_game_has_its_own_antenna_spots() -> None:
    seki, tenka = antenna_spots(game_table("sekigahara")), antenna_spots(game_table("tenka-meidou"))
    assert set(tenka) == {p.id for p in game_table("tenka-meidou").places().values() if p.watched}
    for shared in ("kiyosu", "kyoto", "registration"):  # ids both games use
        assert tenka[shared] != seki[shared]
    assert len(seki["casualties"]) == 4 and len(seki["gifu"]) == 1  # one spot per module


@pytest.fixture
def tenka() -> Iterator[GameTable]:
    before = active_table()
    yield use_table("tenka-meidou")
    use_table(before)


def test_the_schedule_of_tenka_meidou_is_planned_from_its_layout(tenka: GameTable) -> None:
    wiring = default_wiring(5, 16).table()
    plan = plan_schedule(wiring, antenna_spots())
    # a zone's modules side by side are neighbours; different places lie apart
    assert {(wiring[x.a], wiring[x.b]) for x in plan.pairs} == {
        ("shuri", "shuri"), ("kyoto", "kyoto"), ("kiyosu", "kiyosu")}
    assert plan.count == 2


def test_antennas_on_different_sheets_are_never_neighbours() -> None:
    wiring = {AntennaKey("hub-1", 0): "gifu", AntennaKey("hub-2", 0): "casualties"}
    same = {"gifu": Spot(10, 10, 50), "casualties": Spot(20, 10, 50)}
    apart = {"gifu": Spot(10, 10, 50), "casualties": Spot(20, 10, 50, sheet="trays")}
    assert len(neighbour_pairs(wiring, same)) == 1
    assert neighbour_pairs(wiring, apart) == []


def test_each_antenna_of_a_zone_takes_its_own_module() -> None:
    wiring = {AntennaKey("hub-1", 0): "box", AntennaKey("hub-1", 1): "box",
              AntennaKey("hub-2", 0): "gifu"}
    spots = {"box": (Spot(0, 0, 50), Spot(200, 0, 50)), "gifu": Spot(255, 0, 50)}
    pairs = {(x.a, x.b): x.gap_mm for x in neighbour_pairs(wiring, spots)}
    assert pairs == {(AntennaKey("hub-1", 0), AntennaKey("hub-1", 1)): 0.0,
                     (AntennaKey("hub-1", 1), AntennaKey("hub-2", 0)): 5.0}


def test_a_game_without_a_layout_says_why(no_sheet: GameTable) -> None:
    with pytest.raises(NoLayout, match="has no antenna layout"):
        antenna_spots()


def test_hubs_left_unscheduled_are_said_to_be(
    no_sheet: GameTable, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="firmware_bridge.bridge")
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=RATE_HZ,
                               seed=7) as table, \
            Bridge(table.ports, wiring=table.wiring, registry=table.registry) as bridge:
        bridge.wait_for(lambda b: len(b.hubs()) == 2 and b.schedule_problem() is not None,
                        WAIT_S)
        lines, problems = check_report(bridge, None)
        hubs = bridge.hubs().values()
        sent = [c for hub in table.hubs.values() for c in hub.commands_received
                if isinstance(c, p.Schedule)]
    assert bridge.schedule() is None and not sent and not any(h.scheduled for h in hubs)
    (line,) = [x for x in lines if x.startswith("no scan schedule: ")]
    assert "has no antenna layout" in line and "every hub scans unscheduled" in line
    assert problems >= 1
    assert sum("unscheduled (no scan schedule)" in x for x in lines) == 2
    assert any("no scan schedule" in r.getMessage() and r.levelno == logging.ERROR
               for r in caplog.records)  # `companion run` prints errors on the console


def test_a_scheduled_table_reports_no_such_problem(tmp_path: Path) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=RATE_HZ,
                               seed=7) as table, \
            Bridge(table.ports, wiring=table.wiring, registry=table.registry) as bridge:
        bridge.wait_for(lambda b: len(b.hubs()) == 2
                        and all(h.scheduled for h in b.hubs().values()), WAIT_S)
        lines, _ = check_report(bridge, None)
    assert bridge.schedule_problem() is None
    assert not any("no scan schedule" in x or "unscheduled" in x for x in lines)
