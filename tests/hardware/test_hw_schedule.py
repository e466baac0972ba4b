"""Two hubs side by side (issue 10, neighbouring fields): the firmware's hub code under CPython,
each hub on its own fake clock, their emulated chips sharing one field model (a chip's RF_ON
fails while a neighbour on the other hub has its field on). The slot table comes from the
host's schedule (firmware_bridge.schedule) and reaches the hubs as protocol frames."""

from __future__ import annotations

import pytest
from hw_fakes import FakeClock, FakePN5180, FakePort, field_on_at
from sekihub.hub import Antenna, Hub
from sekihub.pn5180 import PN5180

from firmware_bridge import protocol as p
from firmware_bridge.schedule import Spot, plan_schedule
from firmware_bridge.wiring import AntennaKey

ANTENNAS = 4
# hub-1 A00 sits 3 mm from hub-2 A00, hub-1 A01 2 mm from hub-2 A02; the rest far apart
SPOTS = {
    "h1a0": Spot(100, 100, 50), "h2a0": Spot(153, 100, 50),
    "h1a1": Spot(100, 300, 50), "h2a2": Spot(152, 300, 50),
    "h1a2": Spot(100, 500, 50), "h1a3": Spot(100, 700, 50),
    "h2a1": Spot(400, 100, 50), "h2a3": Spot(400, 700, 50),
}
WIRING = {AntennaKey(f"hub-{h}", a): f"h{h}a{a}" for h in (1, 2) for a in range(ANTENNAS)}
NEIGHBOURS = [((0, 0), (1, 0)), ((0, 1), (1, 2))]  # (hub index, antenna) pairs


class Side:
    def __init__(self, name: str, clock: FakeClock) -> None:
        self.clock = clock
        self.port = FakePort()
        self.chips = [FakePN5180(clock, {0xE004015000000100 + 16 * i + t for t in range(3)})
                      for i in range(ANTENNAS)]
        antennas = [Antenna(PN5180(c, c, clock, name=f"PN5180#{i}"))
                    for i, c in enumerate(self.chips)]
        self.hub = Hub(name, antennas, self.port, clock, rate_hz=50)
        self.seq = 0

    def command(self, message: p.Message) -> None:
        self.port.inbox += p.encode(message, self.seq)
        self.seq += 1

    def messages(self) -> list[p.Message]:
        return [p.decode_line(line).message for line in self.port.take_lines()]


class Table:
    """Two hubs; always the one whose clock is behind runs next, so when a chip switches its
    field on, the other hub's field history up to that moment is known."""

    def __init__(self, skew_us: int = 0) -> None:
        self.sides = [Side("hub-1", FakeClock()), Side("hub-2", FakeClock())]
        self.sides[1].clock.us = skew_us  # hub-2's clock reads ahead of true time by skew
        self.skew = [0, skew_us]
        for (ha, aa), (hb, ab) in NEIGHBOURS:
            self._couple(ha, aa, hb, ab)
            self._couple(hb, ab, ha, aa)

    def _couple(self, h: int, a: int, other_h: int, other_a: int) -> None:
        other = self.sides[other_h].chips[other_a]
        shift = self.skew[other_h] - self.skew[h]
        self.sides[h].chips[a].neighbour_field = lambda now: field_on_at(other, now + shift)

    def true_us(self, h: int) -> int:
        return self.sides[h].clock.us - self.skew[h]

    def run(self, ms: int) -> None:
        for side in self.sides:
            side.hub.start()
        while min(self.true_us(h) for h in (0, 1)) < ms * 1000:
            h = min((0, 1), key=self.true_us)
            side = self.sides[h]
            before = side.clock.us
            side.hub.step()
            if side.clock.us == before:
                side.clock.sleep_us(500)  # the run loop's idle sleep

    def overlaps(self) -> int:
        """Microseconds neighbours on the two hubs had their fields on together (true time)."""
        total = 0
        for (ha, aa), (hb, ab) in NEIGHBOURS:
            for on_a, off_a in self.sides[ha].chips[aa].field_log:
                for on_b, off_b in self.sides[hb].chips[ab].field_log:
                    a0, a1 = on_a - self.skew[ha], (off_a or on_a) - self.skew[ha]
                    b0, b1 = on_b - self.skew[hb], (off_b or on_b) - self.skew[hb]
                    total += max(0, min(a1, b1) - max(a0, b0))
        return total

    def collisions(self) -> int:
        return sum(c.rf_collisions for side in self.sides for c in side.chips)

    def schedule(self) -> None:
        plan = plan_schedule(WIRING, SPOTS, period_ms=100)  # a 3-tag read fits (about 52 ms)
        for side in self.sides:
            side.command(plan.for_hub(side.hub.hub_id, ANTENNAS))
            side.command(p.Sync(0, 0))  # sent to both at true time 0


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
