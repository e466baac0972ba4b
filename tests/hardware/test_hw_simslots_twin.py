"""The simulator's slot keeping (firmware_bridge/simslots.py) is a host-side twin of the
firmware's (hardware/firmware/sekihub/slots.py), which the package cannot import: both must
pick the same antenna at every moment, or the time-model benchmarks would measure a hub that
does not exist."""

from __future__ import annotations

import random

import pytest
from hw_fakes import FakeClock
from sekihub.slots import SlotClock as FirmwareSlots

from firmware_bridge import protocol as p
from firmware_bridge.simslots import SlotClock as SimSlots


@pytest.mark.parametrize("seed", range(6))
def test_the_simulated_slot_clock_picks_what_the_firmwares_picks(seed: int) -> None:
    rng = random.Random(seed)
    count, antennas = rng.randint(1, 4), 16
    lengths = tuple(rng.choice((15, 20, 40, 60, 100)) for _ in range(count))
    schedule = p.Schedule(count, lengths, 2, tuple(rng.randrange(count)
                                                    for _ in range(antennas)))
    clock = FakeClock()
    firmware = FirmwareSlots(clock, count, list(schedule.lengths), 2, list(schedule.slots))
    sim = SimSlots(schedule)
    firmware.sync(0, 0)
    sim.sync(clock.ticks_ms(), 0, 0)
    focus = rng.sample(range(antennas), rng.randint(0, 5))
    firmware.set_focus(list(focus))
    sim.refocus(focus)
    scan_ms = [rng.choice((0, 1, 8, 13, 30, 80, 130)) for _ in range(antennas)]
    picked = 0
    busy_until = 0
    for now in range(0, 3000):
        if now >= busy_until:
            mine = firmware.pick(list(scan_ms))
            theirs = sim.pick(float(clock.ticks_ms()), [float(x) for x in scan_ms])
            assert mine == theirs, f"at {now} ms"
            if mine is not None:
                firmware.done(mine)
                sim.done(mine)
                picked += 1
                busy_until = now + max(1, scan_ms[mine])
        clock.advance_ms(1)
    assert picked > 10
