"""The bridge sends the scan schedule to protocol 1.1 hubs, leaves 1.0 hubs unscheduled (they
keep working), and names persistent cross-talk in the hardware check."""

from __future__ import annotations

from pathlib import Path

from fb_helpers import WAIT_S, placed

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from firmware_bridge.schedule import Spot, plan_schedule
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.wiring import AntennaKey


def test_a_new_hub_is_scheduled_an_old_one_keeps_working_and_crosstalk_is_named(
    tmp_path: Path,
) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=7) as table:
        old = table.hubs["hub-2"]
        old.protocol = (1, 0)
        wiring = table.wiring.table()
        a, b = AntennaKey("hub-1", 0), AntennaKey("hub-2", 0)
        spots = {wiring[a]: Spot(0, 0, 50), wiring[b]: Spot(52, 0, 50)}
        plan = plan_schedule(wiring, spots)
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                    schedule=plan, adaptive_slots=False) as bridge:  # a fixed 50 ms slot
            bridge.wait_for(lambda br: len(br.hubs()) == 2, WAIT_S)
            new = table.hubs["hub-1"]
            bridge.wait_for(lambda br: any(isinstance(c, p.Sync)
                                           for c in new.commands_received), WAIT_S)
            assert plan.for_hub("hub-1", 32) in new.commands_received
            assert not any(isinstance(c, p.Schedule | p.Sync) for c in old.commands_received)
            zone = wiring[b]  # read by the unscheduled 1.0 hub
            table.put("I01", zone)
            bridge.wait_for(lambda br: placed(br, "I01", zone), WAIT_S)
            old.mischief.faults[0] = "RF_COLLISION"
            bridge.wait_for(lambda br: br.hubs()["hub-2"].antennas[0].rf_collisions > 0, WAIT_S)
            lines, problems = check_report(bridge, None)
    text = "\n".join(lines)
    assert "unscheduled (protocol 1.0)" in text and "scan slots: 2 of 50 ms" in text
    assert problems >= 1
    (crosstalk,) = [line for line in lines if line.startswith("cross-talk:")]
    assert "hub-2/A00" in crosstalk and "hub-1/A00" in crosstalk and "another hub" in crosstalk
    assert "protocol 1.0" in crosstalk
