"""A new SCHED mid-run (the host resizing its slots) keeps the hub's slot clock: the new
table's cycle starts where the current cycle began, as the host re-bases its own clock
(docs/protocol.md 5.1), so no SYNC is needed to stay in step."""

from __future__ import annotations

from hw_fakes import FakeClock, FakePN5180, FakePort
from sekihub.hub import Antenna, Hub
from sekihub.pn5180 import PN5180

from firmware_bridge import protocol as p


def _hub(clock: FakeClock, port: FakePort) -> Hub:
    chips = [FakePN5180(clock) for _ in range(4)]
    antennas = [Antenna(PN5180(c, c, clock)) for c in chips]
    hub = Hub("hub-1", antennas, port, clock, rate_hz=50)
    hub.start()
    return hub


def _send(hub: Hub, port: FakePort, message: p.Message, seq: int) -> None:
    port.inbox += p.encode(message, seq)
    hub.service_host()


def host_position(since_epoch_ms: int, count: int, period: int) -> tuple[int, int]:
    """(slot, ms into it) of a host slot clock ``since_epoch_ms`` after its epoch."""
    within = since_epoch_ms % (count * period)
    return within // period, within % period


def test_a_new_slot_length_mid_run_stays_in_step_without_a_sync() -> None:
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    _send(hub, port, p.Schedule(2, 100, 2, (0, 1, 0, 1)), 1)
    _send(hub, port, p.Sync(0, 0), 2)  # host epoch = now
    clock.advance_ms(250)  # cycle 1 (200 ms long), 50 ms into slot 0
    _send(hub, port, p.Schedule(2, 60, 2, (0, 1, 0, 1)), 3)
    assert hub.scheduled()  # still timed: no fall back to unscheduled scanning
    # the host re-based its epoch to the start of its current cycle: 200 ms
    base = clock.us
    for later in (0, 30, 75, 119, 120, 333, 1000):
        clock.us = base + later * 1000
        _, slot, into = hub.schedule.position()
        assert (slot, into) == host_position(250 + later - 200, 2, 60)
    clock.us = base + 10_000_000  # 10 s on: had the hub kept the old anchor without re-basing ...
    _, slot, into = hub.schedule.position()
    assert (slot, into) != host_position(10_250, 2, 60)  # ... (this is what it would say)
    assert (slot, into) == host_position(10_050, 2, 60)

def test_a_sched_before_any_sync_still_waits_for_one() -> None:
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    _send(hub, port, p.Schedule(2, 100, 2, (0, 1, 0, 1)), 1)
    _send(hub, port, p.Schedule(2, 60, 2, (0, 1, 0, 1)), 2)
    assert not hub.scheduled()
