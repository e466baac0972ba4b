"""Two hubs side by side (issue 10, neighbouring fields): the firmware's hub code under CPython,
each hub on its own fake clock, their emulated chips sharing one field model (a chip's RF_ON
fails while a neighbour on the other hub has its field on). The slot table comes from the
host's schedule (firmware_bridge.schedule) and reaches the hubs as protocol frames."""

from __future__ import annotations

import pytest
from hw_fakes import FakeClock
from hw_twohubs import ANTENNAS, SPOTS, WIRING, Side, Table

from firmware_bridge import protocol as p
from firmware_bridge.schedule import plan_schedule
from firmware_bridge.wiring import AntennaKey


def test_the_schedule_parts_the_neighbours_and_covers_every_antenna() -> None:
    plan = plan_schedule(WIRING, SPOTS)
    assert {(x.a, x.b) for x in plan.pairs} == {
        (AntennaKey("hub-1", 0), AntennaKey("hub-2", 0)),
        (AntennaKey("hub-1", 1), AntennaKey("hub-2", 2))}
    assert plan.count == 2
    for pair in plan.pairs:
        assert plan.slots[pair.a] != plan.slots[pair.b]
    sched = plan.for_hub("hub-1", 6)  # two spare channels, not in the wiring: slots too
    assert len(sched.slots) == 6 and all(0 <= s < plan.count for s in sched.slots)


def test_unscheduled_neighbours_on_two_hubs_collide() -> None:
    table = Table()
    table.run(1000)
    # hubs that start together switch neighbours on together (both ramp up before either
    # senses the other: fields on together), then drift into refusals of RF_ON
    assert table.overlaps() > 0 or table.collisions() > 0
    print("collisions", table.collisions(), "overlap us", table.overlaps())


@pytest.mark.parametrize("skew_us", [0, 3000, -3000])
def test_scheduled_neighbours_on_two_hubs_never_transmit_together(skew_us: int) -> None:
    """Even with the hubs' slot clocks up to 3 ms apart (guard 2 ms at each end of a slot)."""
    table = Table()
    table.schedule()
    if skew_us:  # hub-2 took its SYNC this much late (or early)
        table.sides[1].hub.start()
        table.sides[1].hub.service_host()
        table.sides[1].hub.schedule.sync_at -= skew_us // 1000
    table.run(1000)
    assert table.collisions() == 0 and table.overlaps() == 0
    for side in table.sides:
        assert side.hub.scheduled()
        seen = {m.antenna for m in side.messages() if isinstance(m, p.Snapshot)}
        assert seen == set(range(ANTENNAS))  # every antenna is still read


@pytest.mark.parametrize("skew_us", [0, 3000, -3000])
@pytest.mark.parametrize("lengths", [(250, 130), (130, 70)])
def test_per_slot_lengths_keep_neighbours_on_two_hubs_apart(
    lengths: tuple[int, int], skew_us: int
) -> None:
    """Protocol 1.2: slot 0 (hub-1's four reads, hub-2's two) longer than slot 1 (hub-2's
    two), each read about 59 ms on the fake chip (computed). Both hubs keep the same unequal
    slot boundaries, so neighbours never transmit together, with the clocks up to 3 ms apart,
    and every antenna is read; (130, 70) holds fewer reads a slot than there are: the rest
    wait for the next cycle."""
    table = Table(lengths=lengths)
    table.schedule()
    sent = [side.port.inbox.decode() for side in table.sides]
    assert all(f" 2 {lengths[0]},{lengths[1]} 2 " in line for line in sent)
    if skew_us:
        table.sides[1].hub.start()
        table.sides[1].hub.service_host()
        table.sides[1].hub.schedule.sync_at -= skew_us // 1000
    table.run(1500)
    assert table.collisions() == 0 and table.overlaps() == 0
    for side in table.sides:
        assert side.hub.schedule.lengths == list(lengths)
        seen = {m.antenna for m in side.messages() if isinstance(m, p.Snapshot)}
        assert seen == set(range(ANTENNAS))


def test_slot_lengths_changed_mid_run_keep_neighbours_apart() -> None:
    """The host resizes the slots twice (uniform 100 ms -> 250/130 -> 130/70), re-basing its
    slot clock and sending SCHED and SYNC; each hub reads them between two reads of its own,
    so for a moment one hub still runs the old table: no neighbour overlap throughout."""
    table = Table()
    table.schedule()
    table.run(730)
    table.resize_at(730, (250, 130))
    table.run(2100)
    assert table.sides[0].hub.schedule.lengths == [250, 130]
    table.resize_at(2100, (130, 70))
    table.run(3000)
    for side in table.sides:
        assert side.hub.schedule.lengths == [130, 70]
        side.messages()
    assert table.collisions() == 0 and table.overlaps() == 0
    table.run(4000)
    assert table.collisions() == 0 and table.overlaps() == 0
    for side in table.sides:
        seen = {m.antenna for m in side.messages() if isinstance(m, p.Snapshot)}
        assert seen == set(range(ANTENNAS))


@pytest.mark.parametrize("lengths", [(250, 130), (130, 70)])
def test_hubs_that_disagree_on_slot_lengths_collide(lengths: tuple[int, int]) -> None:
    """Why a 1.1 hub puts every hub on one length: were hub-2 (1.1) to run every slot at the
    longest while hub-1 (1.2) ran the per-slot lengths, their slot boundaries would part after
    the first slot and neighbours' fields meet (refused by the collision check, reads lost)."""
    table = Table(lengths=lengths)
    table.schedule()
    side = table.sides[1]
    side.port.inbox, side.seq = b"", 0
    side.command(table.plan.uniform().for_hub("hub-2", ANTENNAS))
    side.command(p.Sync(0, 0))
    table.run(5000)
    assert table.collisions() > 0


def test_a_sync_read_after_an_inventory_is_acknowledged_but_not_used() -> None:
    table = Table()
    table.schedule()
    side = table.sides[0]
    side.hub.start()
    side.hub.service_host()
    synced_at = side.hub.schedule.sync_at
    side.hub.scanning = True  # as if it arrived while an inventory ran
    side.command(p.Sync(1, 10))
    side.hub.service_host()
    assert side.hub.schedule.sync_at == synced_at and side.hub.syncs_late == 1
    assert p.Ack(side.seq - 1) in side.messages()


def test_a_bad_slot_table_is_refused() -> None:
    side = Side("hub-1", FakeClock())
    side.hub.start()
    side.command(p.Schedule(2, 50, 2, (0, 1)))  # 2 antennas listed, the hub has 4
    side.command(p.Sync(0, 0))  # no schedule to time
    side.hub.service_host()
    naks = [m for m in side.messages() if isinstance(m, p.Nak)]
    assert naks == [p.Nak(0, "BAD_VALUE"), p.Nak(1, "BAD_VALUE")]
    assert side.hub.schedule is None
