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


# ---------------------------------------------------------------- per-slot lengths (1.2)


def slot_at(since_epoch_ms: int, lengths: tuple[int, ...]) -> tuple[int, int]:
    """(slot, ms into it) of a host slot clock with slots of ``lengths`` (ms)."""
    within = since_epoch_ms % sum(lengths)
    for slot, length in enumerate(lengths):
        if within < length:
            return slot, within
        within -= length
    raise AssertionError


def test_unequal_slots_follow_each_other_and_the_cycle_is_their_sum() -> None:
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    lengths = (120, 30, 75)
    _send(hub, port, p.Schedule(3, lengths, 2, (0, 1, 2, 0)), 1)
    assert p.Ack(1) in [p.decode_line(x).message for x in port.take_lines()]
    _send(hub, port, p.Sync(0, 0), 2)
    clock_ = hub.schedule
    assert clock_.cycle_ms() == 225 and clock_.lengths == [120, 30, 75]
    base = clock.us
    for later in (0, 1, 119, 120, 149, 150, 224, 225, 344, 345, 1000, 7777):
        clock.us = base + later * 1000
        cycle, slot, into = clock_.position()
        assert (slot, into) == slot_at(later, lengths), later
        assert cycle == later // 225


def test_sync_says_where_a_slot_began_whatever_the_lengths() -> None:
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    lengths = (120, 30, 75)
    _send(hub, port, p.Schedule(3, lengths, 2, (0, 1, 2, 0)), 1)
    _send(hub, port, p.Sync(2, 10), 2)  # slot 2 began 10 ms ago: 160 ms into the cycle
    base = clock.us
    for later in (0, 64, 65, 66, 185, 300):
        clock.us = base + later * 1000
        _, slot, into = hub.schedule.position()
        assert (slot, into) == slot_at(160 + later, lengths)
    _send(hub, port, p.Sync(1, 29), 3)  # a later SYNC re-times the clock
    _, slot, into = hub.schedule.position()
    assert (slot, into) == (1, 29)


def test_a_mid_run_sched_to_other_lengths_stays_in_step_with_the_host() -> None:
    """Uniform -> per-slot -> other per-slot lengths, each mid-cycle: the hub starts each new
    table's cycle where the current one began, the host re-bases its epoch there; no SYNC."""
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    table = (0, 1, 2, 0)
    _send(hub, port, p.Schedule(3, 100, 2, table), 1)
    _send(hub, port, p.Sync(0, 0), 2)  # host epoch = now (true ms 0)
    epoch, lengths = 0, (100, 100, 100)
    now = 0
    for seq, (at, new) in enumerate([(350, (140, 20, 60)), (700, (30, 200, 45)),
                                     (1234, (90, 90, 90))], start=3):
        clock.us += (at - now) * 1000
        now = at
        cycle = sum(lengths)
        epoch += (now - epoch) // cycle * cycle  # the host re-bases to its cycle's start
        _send(hub, port, p.Schedule(3, new, 2, table), seq)
        lengths = new
        assert hub.scheduled()
        for later in (0, 19, 20, 79, 80, 139, 140, 500):
            clock.us += later * 1000
            _, slot, into = hub.schedule.position()
            assert (slot, into) == slot_at(now + later - epoch, lengths), (new, later)
            clock.us -= later * 1000


def test_an_antenna_switches_its_field_on_only_inside_its_own_unequal_slot() -> None:
    """The fake chips log when their field was on: every read lies inside the window of its
    antenna's slot (slot start + guard .. slot end - guard), short slot or long."""
    clock, port = FakeClock(), FakePort()
    chips = [FakePN5180(clock, {0xE004015000000200 + 16 * i + t for t in range(i % 2)})
             for i in range(4)]
    hub = Hub("hub-1", [Antenna(PN5180(c, c, clock)) for c in chips], port, clock, rate_hz=50)
    hub.start()
    lengths, table, guard = (80, 30, 60), (0, 1, 2, 0), 2  # a 1-tag read: ~17 ms
    _send(hub, port, p.Schedule(3, lengths, guard, table), 1)
    _send(hub, port, p.Sync(0, 0), 2)
    base = clock.us
    for chip in chips:
        chip.field_log.clear()
    while clock.us - base < 2000 * 1000:
        before = clock.us
        hub.step()
        if clock.us == before:
            clock.sleep_us(500)
    starts = (0, 80, 110)
    for antenna, chip in enumerate(chips):
        assert len(chip.field_log) > 5, antenna  # read every cycle or so
        for on, off in chip.field_log:
            assert off is not None
            t_on, t_off = (on - base) / 1000 % 170, (off - base) / 1000 % 170
            slot = table[antenna]
            window = (starts[slot] + guard, starts[slot] + lengths[slot] - guard)
            assert window[0] <= t_on and t_off <= window[1], (antenna, t_on, t_off)


def test_a_malformed_per_slot_sched_is_refused_with_bad_value() -> None:
    clock, port = FakeClock(), FakePort()
    hub = _hub(clock, port)
    for seq, body in enumerate(["SCHED {} 3 80,20 2 0,1,2,0",  # 2 lengths for 3 slots
                                "SCHED {} 3 80,20,60,5 2 0,1,2,0",
                                "SCHED {} 3 80,,60 2 0,1,2,0",
                                "SCHED {} 3 80,4,60 2 0,1,2,0",  # under 5 ms
                                "SCHED {} 3 80,9,60 5 0,1,2,0"], start=1):  # guards too long
        raw = body.format(seq).encode()
        port.inbox += raw + b" *%04X\n" % p.crc16(raw)
    hub.service_host()
    naks = [m for m in (p.decode_line(x).message for x in port.take_lines())
            if isinstance(m, p.Nak)]
    assert naks == [p.Nak(seq, "BAD_VALUE") for seq in range(1, 6)]
    assert hub.schedule is None
