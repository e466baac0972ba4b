"""The adaptive scan slot (issue 10): the host sizes the slots from the tag counts the hubs
read, with the one per-read time model (hardware/tools/airtime.py), grows them at once, shrinks
them only after a calm spell, and re-sends SCHED to the hubs when the length changes."""

from __future__ import annotations

import time
from pathlib import Path

from fb_helpers import WAIT_S

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.schedule import (
    SLOT_MS,
    SlotSizer,
    Spot,
    clamp_period,
    needed_period_ms,
    plan_schedule,
    read_ms,
)
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.wiring import AntennaKey


def test_the_read_time_comes_from_the_model_and_a_two_tag_read_outlasts_the_default_slot() -> None:
    assert 4 < read_ms(0) < 8  # one empty probe (computed: 5.6 ms)
    assert read_ms(0) < read_ms(1) < read_ms(2) < read_ms(8)
    assert read_ms(2) > SLOT_MS  # the gap issue 10 names: 50 ms is too short for two tags


def test_a_slot_must_hold_the_reads_a_hub_has_in_it_plus_its_guards() -> None:
    def read(n: int) -> float:
        return 5.0 + 10.0 * n

    tables = {"hub-1": (0, 0, 1), "hub-2": (1, 0)}
    counts = {AntennaKey("hub-1", 0): 3, AntennaKey("hub-1", 1): 1,  # slot 0: 35 + 15 = 50
              AntennaKey("hub-1", 2): 0,  # slot 1: 5
              AntennaKey("hub-2", 0): 6}  # slot 1: 65, the longest
    # hub-2 A01 (slot 0) read nothing: 5 ms
    assert needed_period_ms(tables, counts, guard_ms=2, read=read) == 70  # 65 + 4, to 10s
    counts[AntennaKey("hub-1", 1)] = 4  # hub-1 slot 0: 35 + 45 = 80, now the longest
    assert needed_period_ms(tables, counts, guard_ms=2, read=read) == 90


def test_the_period_stays_inside_the_protocol() -> None:
    assert clamp_period(0.0) == p.MIN_SLOT_MS
    assert clamp_period(51.0) == 60 and clamp_period(60.0) == 60
    assert clamp_period(50_000.0) == p.MAX_SLOT_MS
    assert clamp_period(3.0, guard_ms=6) == 13 # two guards and at least 1 ms between them
    everything = {AntennaKey("hub-1", a): 30 for a in range(16)}
    assert needed_period_ms({"hub-1": (0,) * 16}, everything) == p.MAX_SLOT_MS


def test_slots_grow_at_once_and_shrink_only_after_a_calm_spell_to_its_peak() -> None:
    sizer = SlotSizer(50, shrink_after_s=10.0)
    sizer = sizer.update(120, now=0.0)
    assert sizer.period_ms == 120  # a read would overrun: at once
    sizer = sizer.update(60, now=1.0)
    sizer = sizer.update(80, now=5.0)
    assert sizer.period_ms == 120  # smaller for 4 s only
    sizer = sizer.update(130, now=6.0)
    assert sizer.period_ms == 130 and sizer.smaller_since is None  # the calm spell is broken
    sizer = sizer.update(70, now=7.0)
    sizer = sizer.update(90, now=12.0)
    sizer = sizer.update(60, now=17.0)
    assert sizer.period_ms == 90  # 10 s calm: down to the most it needed meanwhile
    assert sizer.update(90, now=18.0).period_ms == 90


def _schedules(received: list[p.HostCommand]) -> list[p.Schedule]:
    return [c for c in received if isinstance(c, p.Schedule)]


def _period(received: list[p.HostCommand]) -> int:
    """The slot length of the last SCHED received (0 before any)."""
    sent = _schedules(received)
    return sent[-1].period_ms if sent else 0


def test_the_bridge_resizes_the_slots_for_the_stacks_and_resends_sched(tmp_path: Path) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=3) as table:
        wiring = table.wiring.table()
        spots = {zone: Spot(200.0 * i, 0, 50) for i, zone in enumerate(sorted(set(
            wiring.values())))}
        plan = plan_schedule(wiring, spots)
        assert plan.period_ms == SLOT_MS
        zone = wiring[AntennaKey("hub-1", 0)]
        for block in ("I01", "I02", "I03", "I04", "I05", "I06"):
            table.put(block, zone, spread=False)
        tables = {h: plan.for_hub(h, 32).slots for h in ("hub-1", "hub-2")}
        expected = needed_period_ms(tables, {AntennaKey("hub-1", 0): 6})
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry, schedule=plan,
                    slot_shrink_s=1.5) as bridge:
            hub = table.hubs["hub-1"]
            bridge.wait_for(lambda br: _period(hub.commands_received) == expected, WAIT_S + 2)
            grown = _schedules(hub.commands_received)[-1]
            assert grown.period_ms > needed_period_ms(tables, {}) > SLOT_MS
            assert grown.slots == plan.for_hub("hub-1", 32).slots  # only the length changed
            assert bridge.schedule() is not None and bridge.schedule().period_ms == expected
            other = _schedules(table.hubs["hub-2"].commands_received)
            assert other[-1].period_ms == expected  # every scheduled hub gets it
            after = hub.commands_received[hub.commands_received.index(grown) + 1:]
            bridge.wait_for(lambda br: any(isinstance(c, p.Sync) for c in after), WAIT_S)
            for block in ("I01", "I02", "I03", "I04", "I05", "I06"):
                table.lift(block)
            time.sleep(1.2)
            assert _period(hub.commands_received) == expected  # not yet
            bridge.wait_for(lambda br: _period(hub.commands_received) < expected, WAIT_S)
            shrunk = _period(hub.commands_received)
    assert shrunk == needed_period_ms(tables, {})


def test_a_fixed_slot_is_never_resent(tmp_path: Path) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=3) as table:
        wiring = table.wiring.table()
        spots = {zone: Spot(200.0 * i, 0, 50) for i, zone in enumerate(set(wiring.values()))}
        plan = plan_schedule(wiring, spots)
        table.put("I01", wiring[AntennaKey("hub-1", 0)], spread=False)
        table.put("I02", wiring[AntennaKey("hub-1", 0)], spread=False)
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry, schedule=plan,
                    adaptive_slots=False) as bridge:
            hub = table.hubs["hub-1"]
            bridge.wait_for(lambda br: any(isinstance(c, p.Sync)
                                           for c in hub.commands_received), WAIT_S)
            time.sleep(2.2)
    assert [s.period_ms for s in _schedules(hub.commands_received)] == [SLOT_MS]
