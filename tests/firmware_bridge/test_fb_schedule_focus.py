"""Issue 17: slot lengths from the read times the hubs measure (protocol 1.3), and slots sized
for the focused antennas' quick reads while the host has a focus (docs/protocol.md 5.2)."""

from __future__ import annotations

from pathlib import Path

from fb_helpers import WAIT_S

from companion.core.table import game_table
from firmware_bridge import protocol as p
from firmware_bridge.airtime import quick_read_ms, read_ms
from firmware_bridge.bridge import Bridge
from firmware_bridge.schedule import (
    BACKGROUND_MS,
    ReadTimes,
    Spot,
    antenna_spots,
    hub_speed,
    measured_read_times,
    needed_slot_ms,
    plan_schedule,
)
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.simulator import VirtualHub
from firmware_bridge.wiring import AntennaKey

A, B, C = AntennaKey("hub-1", 0), AntennaKey("hub-1", 1), AntennaKey("hub-1", 2)


def _full(n: int) -> float:
    return 10.0 + 20.0 * n


def _quick(known: int, new: int) -> float:
    return 10.0 + 2.0 * known + 20.0 * new


# ------------------------------------------------------------------ measured read times


def test_too_few_timed_reads_leave_the_model_standing() -> None:
    assert measured_read_times([40] * 7, full_reads=2, quick_reads=5) is None
    assert measured_read_times([40] * 8, full_reads=2, quick_reads=6) == ReadTimes(40.0, 40.0)


def test_measured_times_are_a_high_percentile_of_each_kind_not_the_outlier() -> None:
    quick = [30 + n % 5 for n in range(29)] + [400]  # a read stalled by a busy port
    full = [200 + n for n in range(10)]
    times = measured_read_times(quick + full, full_reads=10, quick_reads=30)
    assert times is not None
    assert 32 <= times.quick_ms <= 34  # the quick reads' p90, the outlier left out
    assert 205 <= times.full_ms <= 209  # the full reads' p90, not the stalled 400
    assert measured_read_times([5000] * 10, 10, 0) == ReadTimes(p.MAX_SLOT_MS, p.MAX_SLOT_MS)


def test_measured_times_win_over_the_model_slower_or_faster() -> None:
    tables = {"hub-1": (0, 0, 1)}
    counts = {A: 3, B: 0, C: 1}
    model = needed_slot_ms(tables, counts, 2, read=_full, quick=_quick)
    assert model == (90, 40)  # 70 + 10 + 4 guard; 30 + 4
    slow = needed_slot_ms(tables, counts, 2, read=_full, quick=_quick,
                          measured={A: ReadTimes(150.0, 40.0)})
    fast = needed_slot_ms(tables, counts, 2, read=_full, quick=_quick,
                          measured={A: ReadTimes(20.0, 15.0), C: ReadTimes(12.0, 12.0)})
    assert slow == (170, 40) and fast == (40, 20)  # one or two timed: no hub speed yet


def test_a_hub_timed_slower_than_the_model_scales_a_stack_that_just_grew() -> None:
    """Three antennas timed at twice the model: the hub reads at half the model's speed, so a
    stack that grew from 0 to 6 tags since its reads were timed (7 ms) needs twice the model's
    130 ms at once, not the 7 ms of its empty reads."""
    d = AntennaKey("hub-1", 3)
    counts = {A: 2, B: 1, C: 0, d: 6}
    measured = {A: ReadTimes(100.0, 30.0), B: ReadTimes(60.0, 25.0), C: ReadTimes(20.0, 20.0),
                d: ReadTimes(7.0, 7.0)}
    assert hub_speed(counts, measured, _full) == {"hub-1": 2.0}  # 2.0, 2.0, 2.0, 0.05
    assert hub_speed(counts, {A: measured[A], B: measured[B]}, _full) == {}
    lengths = needed_slot_ms({"hub-1": (0, 0, 0, 1)}, counts, 2, read=_full, quick=_quick,
                             measured=measured)
    assert lengths == (190, 270)  # 100 + 60 + 20 + 4; 2 x 130 + 4


# ------------------------------------------------------------------ focus


def test_a_focused_slot_holds_its_focused_quick_reads_and_a_little_background() -> None:
    """hub-1: slot 0 a tall stack (A, 8 tags, not focused) and a focused stack (B, 3 tags);
    slot 1 an empty focused antenna (C) and a stack a hand may lift (D, 2 tags, '!');
    hub-2: slot 0 nothing focused, a 5-stack (read only if it fits: the slot keeps the
    background allowance). Each focused read also sends its SNAP (SNAP_MS)."""
    d, e = AntennaKey("hub-1", 3), AntennaKey("hub-2", 0)
    tables = {"hub-1": (0, 0, 1, 1), "hub-2": (0,)}
    counts = {A: 8, B: 3, C: 0, d: 2, e: 5}
    unfocused = needed_slot_ms(tables, counts, 2, guard_ms=2, read=_full, quick=_quick)
    assert unfocused == (250, 70)  # every stack's full read: 170 + 70 + 4, 10 + 50 + 4
    focused = needed_slot_ms(tables, counts, 2, guard_ms=2, read=_full, quick=_quick,
                             focus={B, C, d}, focus_full={d})
    # slot 0: B's quick read 16 + 2 + background 10 + 4 on hub-1; hub-2: background 10 + 4
    # slot 1: C empty (a full read, 10) + D in full (50) + 2 x 2 + 4; no background
    assert focused == (35, 70)
    assert BACKGROUND_MS == 10
    # a hub below protocol 1.3 takes no FOCUS: it still reads every antenna in full in turn
    # (hub-2: its 5-stack 110 + 4, rounded to 5 ms)
    assert needed_slot_ms(tables, counts, 2, guard_ms=2, read=_full, quick=_quick,
                          focus={B, C, d}, focus_full={d}, unfocused_hubs={"hub-2"}) == (115, 70)
    assert needed_slot_ms(tables, counts, 2, guard_ms=2, read=_full, quick=_quick,
                          focus={B, C, d}, focus_full={d}, unfocused_hubs={"hub-1"}) == (245, 65)


def test_crowded_position_focused_revisit_at_250_us_per_instruction() -> None:
    """The crowded mid-game position (hardware/tools/scan_budget.py) on Sekigahara's default
    wiring, a block lifted from Kyoto's stack (8 -> 7), its origin and the places a road away
    lit: the focused antennas come round at most every 250 ms at 250 us per SPI instruction
    (computed), where sizing every slot for every stack's full read took over a second."""
    wiring = game_table("sekigahara").default_wiring()
    assert wiring is not None
    table = {AntennaKey(h, int(a[1:])): z for h, ants in wiring.hubs.items()
             for a, z in ants.items()}
    plan = plan_schedule(table, antenna_spots(game_table("sekigahara")))
    crowded = {"osaka": 14, "edo": 12, "kyoto": 7, "gifu": 6, "kiyosu": 5, "aizu": 5,
               "kanazawa": 4, "sendai": 3, "ueda": 2}
    counts = {k: crowded.get(z, 0) for k, z in table.items()}
    tables = {h: plan.for_hub(h, 16).slots for h in wiring.hubs}
    focus = {k for k, z in table.items()
             if z in ("kyoto", "osaka", "sawayama", "minakuchi", "ayabe")}

    def full(n: int) -> float:
        return read_ms(n, 250.0)

    def quick(known: int, new: int) -> float:
        return quick_read_ms(known, new, 250.0)

    before = needed_slot_ms(tables, counts, plan.count, read=full, quick=quick)
    after = needed_slot_ms(tables, counts, plan.count, read=full, quick=quick, focus=focus)
    assert sum(before) > 1000
    assert sum(after) <= 250


# ------------------------------------------------------------------ the bridge


def _lengths(hub: VirtualHub) -> tuple[int, ...]:
    sent = [c for c in hub.commands_received if isinstance(c, p.Schedule)]
    if not sent:
        return ()
    period = sent[-1].period_ms
    return period if isinstance(period, tuple) else (period,) * sent[-1].count


def test_the_bridge_sizes_slots_from_measured_reads_and_for_the_focus_at_once(
        tmp_path: Path) -> None:
    """Reads the hub timed (1.3) stretch the slot past the model; a focus shrinks it at once,
    although the calm spell before a slot shrinks is a minute here."""
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=50,
                               seed=11) as table:
        wiring = table.wiring.table()
        spots = {zone: Spot(200.0 * i, 0, 50)
                 for i, zone in enumerate(sorted(set(wiring.values())))}
        plan = plan_schedule(wiring, spots)  # no neighbours: one slot
        slow = AntennaKey("hub-1", 1)
        tables = {h: plan.for_hub(h, 32).slots for h in ("hub-1", "hub-2")}
        model = needed_slot_ms(tables, {}, 1)
        timed = needed_slot_ms(tables, {}, 1, measured={slow: ReadTimes(400.0, 400.0)})
        focused = needed_slot_ms(tables, {}, 1, focus={AntennaKey("hub-1", 0)},
                                 measured={slow: ReadTimes(400.0, 400.0)})
        assert focused[0] < model[0] < timed[0] - 300
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry, schedule=plan,
                    slot_shrink_s=60.0) as bridge:
            hub = table.hubs["hub-1"]
            bridge.wait_for(lambda br: "hub-1" in br.hubs() and br.hubs()["hub-1"].scheduled,
                            WAIT_S)
            for _ in range(10):  # the hub says this antenna's reads take 400 ms
                bridge.hub_snapshot("hub-1", slow.antenna, frozenset(), bridge.clock(),
                                    p.ReadReport(400, True))
            bridge.wait_for(lambda br: _lengths(hub) == timed, WAIT_S)
            grown = max(_lengths(hub))
            bridge.set_destinations([wiring[AntennaKey("hub-1", 0)]])
            assert bridge.focus() == {AntennaKey("hub-1", 0)}
            bridge._resize_slots()
            bridge.wait_for(lambda br: _lengths(hub) != timed, WAIT_S)
            shrunk = max(_lengths(hub))
            sent = len(hub.commands_received)
            bridge._resize_slots()  # the same focus, the same needs: no SCHED again
            later = hub.commands_received  # the second SYNC from now was written after it
            bridge.wait_for(lambda br: sum(isinstance(c, p.Sync) for c in later[sent:]) >= 2,
                            WAIT_S)
            resent = [c for c in later[sent:] if isinstance(c, p.Schedule)]
            in_force = bridge.schedule()
    assert grown == timed[0] and shrunk == focused[0] < 30  # an empty read and a little more
    assert in_force is not None and in_force.slot_ms == focused and resent == []
