"""Issue 17: the scan schedule never pairs antennas drawn on different sheets. The tray
templates are printed on a sheet of their own beside the map, so a tray's loop can never lie
within millimetres of a map location's, whatever their coordinates on their own sheets; 8 such
"cross-hub neighbour" pairs (Miyazu and Kitanosho against the trays) once forced a fifth slot
on Sekigahara and were shown by ``companion hardware crosstalk``."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.core.table import game_table
from firmware_bridge.schedule import Spot, antenna_spots, neighbour_pairs, plan_schedule
from firmware_bridge.wiring import AntennaKey


def _default_table(game: str) -> dict[AntennaKey, str]:
    wiring = game_table(game).default_wiring()
    assert wiring is not None
    return {AntennaKey(hub, int(name[1:])): zone
            for hub, antennas in wiring.hubs.items() for name, zone in antennas.items()}


def _sheets(game: str) -> dict[str, set[str]]:
    return {zone: {s.sheet for s in spots}
            for zone, spots in antenna_spots(game_table(game)).items()}


@pytest.mark.parametrize("game", ["sekigahara", "tenka_meidou"])
def test_no_neighbour_pair_joins_two_sheets_in_a_games_own_data(game: str) -> None:
    table, sheets = _default_table(game), _sheets(game)
    assert all(len(s) == 1 for s in sheets.values())  # a zone's modules lie on one sheet
    pairs = plan_schedule(table, antenna_spots(game_table(game))).pairs
    crossing = [(table[x.a], table[x.b]) for x in pairs
                if sheets[table[x.a]] != sheets[table[x.b]]]
    assert crossing == []


def test_sekigahara_trays_share_a_sheet_of_their_own_and_need_no_fifth_slot() -> None:
    sheets = _sheets("sekigahara")
    trays = {"ishida_deployment", "tokugawa_deployment", "casualties", "ishida_cards",
             "tokugawa_cards", "registration"}
    assert {zone for zone, s in sheets.items() if s == {"trays"}} == trays
    plan = plan_schedule(_default_table("sekigahara"), antenna_spots(game_table("sekigahara")))
    across = [x for x in plan.pairs if x.across_hubs]
    assert plan.count == 4 and len(plan.pairs) == 48 and len(across) == 4  # map to map only
    table = _default_table("sekigahara")
    assert not any({table[x.a], table[x.b]} & trays for x in across)


def test_a_tray_drawn_over_a_map_location_on_its_own_sheet_is_no_neighbour() -> None:
    table = {AntennaKey("hub-1", 0): "miyazu", AntennaKey("hub-5", 0): "casualties"}
    same = {"miyazu": Spot(200, 118, 50), "casualties": Spot(212, 82, 50)}
    apart = {"miyazu": Spot(200, 118, 50), "casualties": Spot(212, 82, 50, sheet="trays")}
    assert len(neighbour_pairs(table, same)) == 1  # the coordinates alone overlap
    assert neighbour_pairs(table, apart) == []


def test_hardware_crosstalk_shows_no_map_location_beside_a_tray(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "crosstalk", "--simulate", "--seconds", "0.3", "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)["cells"]
    sheets = _sheets("sekigahara")
    assert cells and all(sheets[c["zone"]] == sheets[c["neighbour_zone"]] for c in cells)
    assert not any(c["zone"] in ("miyazu", "kitanosho") and c["across_hubs"] for c in cells)
