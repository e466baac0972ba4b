"""The adaptive scan slot (issue 10): the host sizes the slots from the tag counts the hubs
read, with the one per-read time model (hardware/tools/airtime.py), grows them at once, shrinks
them only after a calm spell, and re-sends SCHED to the hubs when the length changes."""

from __future__ import annotations

import time
from pathlib import Path

from fb_helpers import WAIT_S

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from firmware_bridge.schedule import (
    SLOT_MS,
    ScanSchedule,
    SlotLengths,
    SlotSizer,
    Spot,
    clamp_period,
    needed_period_ms,
    needed_slot_ms,
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


def _period(received: list[p.HostCommand]) -> int | tuple[int, ...]:
    """The slot length(s) of the last SCHED received (0 before any)."""
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
            other = table.hubs["hub-2"]  # every scheduled hub gets it (its link may lag)
            bridge.wait_for(lambda br: _period(other.commands_received) == expected, WAIT_S)
            after = hub.commands_received[hub.commands_received.index(grown) + 1:]
            bridge.wait_for(lambda br: any(isinstance(c, p.Sync) for c in after), WAIT_S)
            for block in ("I01", "I02", "I03", "I04", "I05", "I06"):
                table.lift(block)
            time.sleep(1.2)
            assert _period(hub.commands_received) == expected  # not yet
            bridge.wait_for(lambda br: _period(hub.commands_received) != expected, WAIT_S)
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


# ---------------------------------------------------------------- per-slot lengths (1.2)


def test_each_slot_is_as_long_as_its_busiest_hub_needs() -> None:
    def read(n: int) -> float:
        return 5.0 + 10.0 * n

    tables = {"hub-1": (0, 0, 1, 2), "hub-2": (1, 0, 2)}
    counts = {AntennaKey("hub-1", 0): 3, AntennaKey("hub-1", 1): 1,  # slot 0: 35 + 15 = 50
              AntennaKey("hub-1", 2): 0,  # slot 1: 5
              AntennaKey("hub-1", 3): 1,  # slot 2: 15
              AntennaKey("hub-2", 0): 6,  # slot 1: 65
              AntennaKey("hub-2", 2): 2}  # slot 2: 25; hub-2 A01 (slot 0): 5
    assert needed_slot_ms(tables, counts, 4, guard_ms=2, read=read) == (60, 70, 30, 10)
    # slot 3 has no antenna on any hub: its two guards, rounded up to 10 ms
    assert needed_period_ms(tables, counts, guard_ms=2, read=read) == 70  # the longest


def test_slot_lengths_grow_and_shrink_slot_by_slot() -> None:
    sizers = SlotLengths.start((50, 50, 50), shrink_after_s=10.0)
    sizers = sizers.update((120, 30, 50), now=0.0)
    assert sizers.lengths == (120, 50, 50)  # slot 0 grows at once; slot 1 only after a calm
    sizers = sizers.update((60, 30, 200), now=5.0)
    assert sizers.lengths == (120, 50, 200)
    sizers = sizers.update((60, 40, 70), now=10.0)
    assert sizers.lengths == (120, 40, 200)  # slot 1: 10 s calm, to its peak (40)
    sizers = sizers.update((60, 40, 70), now=15.0)
    assert sizers.lengths == (60, 40, 200)  # slot 0: 10 s calm since 5.0; slot 2 since 10.0
    sizers = sizers.update((60, 40, 70), now=20.0)
    assert sizers.lengths == (60, 40, 70)


def test_a_schedule_with_per_slot_lengths() -> None:
    wiring = {AntennaKey("hub-1", 0): "a", AntennaKey("hub-2", 0): "b",
              AntennaKey("hub-2", 1): "c"}
    plan = plan_schedule(wiring, {"a": Spot(0, 0, 50), "b": Spot(52, 0, 50),
                                  "c": Spot(500, 0, 50)})
    assert plan.count == 2 and not plan.per_slot
    per = plan.with_lengths((90, 30))
    assert per.per_slot and per.slot_ms == (90, 30) and per.cycle_ms == 120
    assert per.period_ms == 90  # the longest
    assert per.for_hub("hub-2", 2) == p.Schedule(2, (90, 30), 2, (1, 0))
    assert per.uniform().for_hub("hub-2", 2) == p.Schedule(2, 90, 2, (1, 0))
    assert per.uniform().cycle_ms == 180
    assert plan.with_lengths((70, 70)) == ScanSchedule(2, plan.slots, plan.pairs, 70)
    assert not plan.with_lengths((70, 70)).per_slot
    assert [per.position(ms) for ms in (0, 89, 90, 119, 120, 250, 215)] == [
        (0, 0), (0, 89), (1, 0), (1, 29), (0, 0), (0, 10), (1, 5)]


def _neighbour_plan(table: SimulatedTable) -> ScanSchedule:
    """hub-1 A00 and hub-2 A00 side by side (slots 0 and 1); every other antenna has no
    neighbour and shares slot 0, hub-2's four spare channels go to slot 1: on an empty board
    slot 0 needs 190 ms (32 reads on hub-1), slot 1 40 ms (computed, tools/airtime.py)."""
    wiring = table.wiring.table()
    a, b = AntennaKey("hub-1", 0), AntennaKey("hub-2", 0)
    plan = plan_schedule(wiring, {wiring[a]: Spot(0, 0, 50), wiring[b]: Spot(52, 0, 50)})
    assert (plan.count, plan.slots[a], plan.slots[b]) == (2, 0, 1)
    return plan


def test_hubs_of_protocol_1_2_get_a_length_per_slot(tmp_path: Path) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=5) as table:
        plan = _neighbour_plan(table)
        tables = {h: plan.for_hub(h, 32).slots for h in ("hub-1", "hub-2")}
        lengths = needed_slot_ms(tables, {}, plan.count)
        assert lengths[0] > lengths[1]
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                    schedule=plan, slot_shrink_s=0.5) as bridge:  # slot 1 shrinks from 50 ms
            for name in ("hub-1", "hub-2"):
                hub = table.hubs[name]
                bridge.wait_for(lambda br, h=hub: _period(h.commands_received) == lengths,
                                WAIT_S + 2)
                assert _schedules(hub.commands_received)[-1] == plan.with_lengths(
                    lengths).for_hub(name, 32)
            in_force = bridge.schedule()
            assert in_force is not None and in_force.slot_ms == lengths
            lines, _ = check_report(bridge, None)
    assert any(f"scan slots: 2 of {lengths[0]}/{lengths[1]} ms" in line for line in lines)


def test_a_1_1_hub_puts_every_hub_on_one_length_the_longest(tmp_path: Path) -> None:
    """All hubs must agree where each slot begins, and a 1.1 hub has one length for all: while
    one is scheduled, every hub gets the longest slot for every slot; when it leaves, the 1.2
    hubs go back to their per-slot lengths. A 1.1 hub is never sent a list."""
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=6) as table:
        plan = _neighbour_plan(table)
        tables = {h: plan.for_hub(h, 32).slots for h in ("hub-1", "hub-2")}
        lengths = needed_slot_ms(tables, {}, plan.count)
        new, old = table.hubs["hub-1"], table.hubs["hub-2"]
        old.protocol = (1, 1)
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                    schedule=plan, slot_shrink_s=0.5) as bridge:  # slot 1 shrinks from 50 ms
            for hub in (new, old):
                bridge.wait_for(lambda br, h=hub: _period(h.commands_received) == max(lengths),
                                WAIT_S + 2)
            in_force = bridge.schedule()
            assert in_force is not None and in_force.slot_ms == (max(lengths),) * 2
            lines, _ = check_report(bridge, None)
            assert any("(one length: protocol 1.1)" in line for line in lines)
            # the 1.2 hub says why it is held to one length
            assert any(line.startswith("hub hub-1 ") and "(one length: hub-2 speaks protocol "
                       "1.1)" in line for line in lines), lines
            time.sleep(1.2)  # another resize tick: nothing changes
            assert not any(s.per_slot for s in _schedules(old.commands_received))
            assert _period(new.commands_received) == max(lengths)
            old.unplug()  # the 1.1 hub leaves: the 1.2 hub gets its per-slot lengths back
            bridge.wait_for(lambda br: _period(new.commands_received) == lengths, WAIT_S + 2)
            assert not any(s.per_slot for s in _schedules(old.commands_received))


def test_a_1_1_hub_joining_moves_the_1_2_hubs_to_one_length(tmp_path: Path) -> None:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=8) as table:
        plan = _neighbour_plan(table)
        tables = {h: plan.for_hub(h, 32).slots for h in ("hub-1", "hub-2")}
        lengths = needed_slot_ms(tables, {}, plan.count)
        new, old = table.hubs["hub-1"], table.hubs["hub-2"]
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                    schedule=plan, slot_shrink_s=0.5) as bridge:  # slot 1 shrinks from 50 ms
            for hub in (new, old):
                bridge.wait_for(lambda br, h=hub: _period(h.commands_received) == lengths,
                                WAIT_S + 2)
            old.protocol = (1, 1)  # reflashed with 1.1 firmware, it says HELLO again
            sent = len(old.commands_received)
            old.send(p.Hello(old.hub_id, old.firmware, (1, 1), old.antennas, old.rate_hz))
            bridge.wait_for(lambda br: _period(new.commands_received) == max(lengths), WAIT_S)
            bridge.wait_for(lambda br: _period(old.commands_received) == max(lengths), WAIT_S)
            assert not any(s.per_slot for s in _schedules(old.commands_received[sent:]))
            in_force = bridge.schedule()
            assert in_force is not None and not in_force.per_slot
