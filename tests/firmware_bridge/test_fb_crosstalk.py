"""``companion hardware crosstalk --simulate``: the matrix of zones x neighbours with the
collisions the simulated hubs report, as text and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from firmware_bridge.schedule import antenna_spots, plan_schedule
from firmware_bridge.simtable import default_wiring


def _across_pair() -> tuple[str, str]:
    """A zone and a neighbour of it on another hub, in the simulator's (default) wiring."""
    table = default_wiring(5, 16).table()
    spots = antenna_spots()
    assert spots is not None
    plan = plan_schedule(table, spots)
    pair = next(x for x in plan.pairs if x.across_hubs)
    return table[pair.a], table[pair.b]


def test_the_matrix_names_the_colliding_zone_and_its_neighbour_across_hubs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zone, neighbour = _across_pair()
    script = tmp_path / "script.txt"
    script.write_text(f"0.2 fault {zone} RF_COLLISION\n")
    code = main(["hardware", "crosstalk", "--simulate", "--sim-script", str(script),
                 "--seconds", "1.5"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[0].startswith("cross-talk matrix: ") and " 1 collided " in lines[0]
    (row,) = [line for line in lines[1:] if line.startswith(f"{zone} (")]
    count = int(row.split(f"{neighbour} (")[1].split(") ")[1].split()[0])
    assert count > 0


def test_a_quiet_table_has_no_collisions_and_json_lists_every_pair(
    capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hardware", "crosstalk", "--simulate", "--seconds", "0.5", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["source"] == "FAULT RF_COLLISION reports"
    cells = data["cells"]
    assert len(cells) == 2 * 48  # Sekigahara's 48 neighbour pairs, both ways
    assert all(c["collisions"] in (0, None) for c in cells)
    assert all((c["collisions"] is None) == (not c["across_hubs"]) for c in cells)
