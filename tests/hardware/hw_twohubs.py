"""Two hubs side by side for the schedule tests (issue 10, neighbouring fields): the firmware's
hub code under CPython, each hub on its own fake clock, their emulated chips sharing one field
model (a chip's RF_ON fails while a neighbour on the other hub has its field on)."""

from __future__ import annotations

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

    def __init__(self, skew_us: int = 0, lengths: tuple[int, ...] | None = None) -> None:
        self.sides = [Side("hub-1", FakeClock()), Side("hub-2", FakeClock())]
        self.sides[1].clock.us = skew_us  # hub-2's clock reads ahead of true time by skew
        self.skew = [0, skew_us]
        self.plan = plan_schedule(WIRING, SPOTS, period_ms=100)  # a 3-tag read fits (~52 ms)
        if lengths is not None:  # protocol 1.2: a length per slot
            self.plan = self.plan.with_lengths(lengths)
        self.sync_epoch_us = 0  # true time of a start of cycle on the host's slot clock
        self.sync_due: list[int | None] = [None, None]  # true us of a host SYNC still to read
        self.sched_due: list[int | None] = [None, None]  # ... of a new SCHED
        for (ha, aa), (hb, ab) in NEIGHBOURS:
            self._couple(ha, aa, hb, ab)
            self._couple(hb, ab, ha, aa)

    def _couple(self, h: int, a: int, other_h: int, other_a: int) -> None:
        other = self.sides[other_h].chips[other_a]
        shift = self.skew[other_h] - self.skew[h]
        self.sides[h].chips[a].neighbour_field = lambda now: field_on_at(other, now + shift)

    def true_us(self, h: int) -> int:
        return self.sides[h].clock.us - self.skew[h]

    def start(self) -> None:
        for side in self.sides:
            if not side.hub.started:
                side.hub.start()

    def run(self, ms: int) -> None:
        """Run both hubs until true time ``ms`` (from wherever they are)."""
        self.start()
        while min(self.true_us(h) for h in (0, 1)) < ms * 1000:
            h = min((0, 1), key=self.true_us)
            side = self.sides[h]
            self._deliver_sync(h)
            before = side.clock.us
            side.hub.step()
            if side.clock.us == before:
                side.clock.sleep_us(500)  # the run loop's idle sleep

    def sync_at(self, true_ms: int) -> None:
        """The host sends both hubs a SYNC from true time ``true_ms`` on: each hub reads one
        as soon as it is between two steps, stamped with where the host's slot clock (slot 0
        at ``true_ms``) is at that moment, as the bridge stamps it when it writes."""
        self.sync_epoch_us = true_ms * 1000
        self.sync_due = [true_ms * 1000, true_ms * 1000]

    def resize_at(self, true_ms: int, lengths: tuple[int, ...]) -> None:
        """The host changes the slot lengths at true time ``true_ms``, as the bridge does: it
        re-bases its slot clock to the start of its current cycle and sends each hub the new
        SCHED, then a SYNC; each hub reads them at its first step from then on."""
        at = true_ms * 1000
        cycle_us = self.plan.cycle_ms * 1000
        self.sync_epoch_us += (at - self.sync_epoch_us) // cycle_us * cycle_us
        self.plan = self.plan.with_lengths(lengths)
        self.sched_due = [at, at]
        self.sync_due = [at, at]

    def _deliver_sync(self, h: int) -> None:
        sched = self.sched_due[h]
        if sched is not None and self.true_us(h) >= sched:
            self.sched_due[h] = None
            side = self.sides[h]
            side.command(self.plan.for_hub(side.hub.hub_id, ANTENNAS))
        due = self.sync_due[h]
        if due is None or self.true_us(h) < due:
            return
        self.sync_due[h] = None
        side = self.sides[h]
        side.command(p.Sync(*self.plan.position((self.true_us(h) - self.sync_epoch_us) // 1000)))
        side.hub.service_host()

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
        for side in self.sides:
            side.command(self.plan.for_hub(side.hub.hub_id, ANTENNAS))
            side.command(p.Sync(0, 0))  # sent to both at true time 0
