"""The simulated hub's time model (docs/protocol.md 5.1, 5.2): slot windows, read times from the
air-time model, focus order, quick and full reads. Every hub here runs on an injected clock,
driven by the test (no thread, no real sleep)."""

from __future__ import annotations

import argparse
import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware_bridge import cli as bridge_cli
from firmware_bridge import protocol as p
from firmware_bridge.airtime import quick_read_ms, read_ms
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.simulator import Read, VirtualHub
from firmware_bridge.wiring import AntennaKey
from ui import cli as ui_cli

INSTR_US = 250.0


def uid(n: int) -> str:
    return f"E0040150000{n:05X}"


@dataclass
class Driven:
    """A hub started without its thread, its clock (``t``, seconds) in the test's hands."""

    t: float = 0.0
    frames: list[tuple[float, p.Message]] = field(default_factory=list)
    hub: VirtualHub = field(init=False)
    fd: int = field(init=False)

    def observe(self, _hub: str, _seq: int, message: p.Message, at: float) -> None:
        self.frames.append((at, message))

    def clock(self) -> float:
        return self.t

    def run_until(self, end: float) -> None:
        """Service the hub at exactly each time it says something is due, up to ``end`` (s)."""
        while True:
            due = self.hub.service(self.t)
            self._drain()
            if due > end:
                self.t = end
                self.hub.service(self.t)
                self._drain()
                return
            self.t = max(self.t, due)

    def _drain(self) -> None:
        try:
            while os.read(self.fd, 65536):
                pass
        except BlockingIOError:
            pass

    def send(self, command: p.HostCommand, seq: int = 1) -> None:
        self.hub.command(command, seq)
        self._drain()

    def snapshots(self, after: float = -1.0) -> list[tuple[float, p.Snapshot]]:
        return [(at, m) for at, m in self.frames if isinstance(m, p.Snapshot) and at > after]

    def replies(self) -> list[p.Message]:
        return [m for _, m in self.frames if isinstance(m, p.Ack | p.Nak | p.Hello)]


Make = Callable[..., Driven]


@pytest.fixture
def make() -> Iterator[Make]:
    made: list[Driven] = []

    def build(antennas: int = 4, rate_hz: int = 10, time_model: bool = True,
              gap_ms: float = 0.0) -> Driven:
        driven = Driven()
        driven.hub = VirtualHub("hub-1", antennas, rate_hz, time_model=time_model,
                                instr_us=INSTR_US, clock=driven.clock, on_frame=driven.observe,
                                gap_ms=gap_ms)
        driven.hub.start(thread=False)
        assert driven.hub.path is not None
        driven.fd = os.open(driven.hub.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        made.append(driven)
        return driven

    yield build
    for driven in made:
        driven.hub.stop()
        os.close(driven.fd)


def reads(driven: Driven, after: float = -1.0) -> list[Read]:
    return [r for r in driven.hub.reads if r.start >= after * 1000]


# ---------------------------------------------------------------------- protocol 1.3 basics


def test_the_hub_announces_1_3_and_refuses_to_focus_an_antenna_it_lacks(make: Make) -> None:
    d = make(antennas=4)
    hello = next(m for _, m in d.frames if isinstance(m, p.Hello))
    assert hello.protocol == (1, 3)
    d.send(p.Focus((1, 9)), seq=5)
    assert d.replies()[-1] == p.Nak(5, "BAD_ANTENNA")
    assert d.hub.focus is None
    d.send(p.Focus((3, 1), frozenset({1})), seq=6)
    assert d.replies()[-1] == p.Ack(6)
    d.send(p.Sync(0, 0), seq=7)  # no SCHED since the reset: nothing to time
    assert d.replies()[-1] == p.Nak(7, "BAD_VALUE")


@pytest.mark.parametrize("time_model", [False, True])
def test_reads_report_time_and_kind_only_after_focus(make: Make, time_model: bool) -> None:
    d = make(antennas=2, time_model=time_model)
    d.hub.place(0, uid(1))
    d.hub.place(0, uid(2))
    d.run_until(1.0)
    before = d.snapshots()
    assert before and all(s.read_ms is None and s.full is None for _, s in before)
    d.send(p.Focus((0,)))
    d.run_until(2.0)
    after = [s for _, s in d.snapshots(after=1.0) if s.antenna == 0]
    assert after and all(s.full is not None for s in after)
    if not time_model:  # plain: every read full and untimed (it takes no time)
        assert all(s.full is True and s.read_ms is None for s in after)
    else:
        assert all(s.read_ms is not None for s in after)
        assert {s.full for s in after} == {True, False}


# ---------------------------------------------------------------------- read times


def test_unscheduled_reads_are_serial_and_last_what_the_model_says(make: Make) -> None:
    d = make(antennas=4, rate_hz=50)
    heights = [0, 3, 8, 14]
    for antenna, n in enumerate(heights):
        for k in range(n):
            d.hub.place(antenna, uid(100 * antenna + k))
    d.run_until(3.0)
    done = list(d.hub.reads)
    assert len(done) > 8
    for read in done:
        assert read.full  # no FOCUS yet: every read full
        assert read.ms == pytest.approx(read_ms(heights[read.antenna], INSTR_US))
        assert len(read.uids) == heights[read.antenna]
    for a, b in itertools.pairwise(done):
        assert b.start >= a.end  # one field at a time
    cycle = sum(read_ms(n, INSTR_US) for n in heights)  # longer than 1/50 s: back to back
    assert cycle > 20
    assert all(b.start == pytest.approx(a.end) for a, b in itertools.pairwise(done))
    # each SNAP goes out when its read ends, saying what the read listed
    for read in done:
        sent = [s for at, s in d.snapshots() if at == pytest.approx(read.end / 1000)]
        assert [s.antenna for s in sent] == [read.antenna]


def test_rate_is_a_ceiling_on_cycles(make: Make) -> None:
    d = make(antennas=3, rate_hz=10)  # three empty antennas: 22 ms of reading per 100 ms
    d.run_until(1.0)
    starts = [r.start for r in d.hub.reads if r.antenna == 0]
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps and all(g == pytest.approx(100.0) for g in gaps)


def test_a_tag_set_down_during_a_read_is_listed_by_the_next(make: Make) -> None:
    d = make(antennas=1, rate_hz=50)
    for k in range(8):
        d.hub.place(0, uid(k))
    d.run_until(0.0)  # the first read has just started
    first = d.hub._reading
    assert first is not None
    d.t = (first.start + first.ms / 2) / 1000
    d.hub.place(0, uid(99))
    d.run_until(1.0)
    done = list(d.hub.reads)
    assert uid(99) not in done[0].uids
    assert uid(99) in done[1].uids


# ---------------------------------------------------------------------- the schedule


SCHEDULE = p.Schedule(3, (120, 60, 220), 2, (0, 1, 2, 0, 1, 2))
STARTS, CYCLE = (0, 120, 180), 400
EPS = 1e-6  # ms: floating point


def window_of(at_ms: float, sync_ms: float, slot: int) -> tuple[float, float] | None:
    """(window start, end) of ``slot`` containing ``at_ms``, from the SCHED's numbers alone."""
    into = (at_ms - sync_ms + EPS) % CYCLE - EPS  # just below a boundary is on it
    begin = STARTS[slot] + SCHEDULE.guard_ms
    end = STARTS[slot] + SCHEDULE.lengths[slot] - SCHEDULE.guard_ms
    if begin - EPS <= into < end:
        base = round(at_ms - into, 6)
        return base + begin, base + end
    return None


@pytest.mark.parametrize("focus", [None, p.Focus((5, 0), frozenset({5}))])
def test_a_scheduled_hub_never_reads_outside_its_slot_window(make: Make,
                                                            focus: p.Focus | None) -> None:
    d = make(antennas=6, rate_hz=50)
    for antenna, n in enumerate([3, 1, 2, 0, 1, 3]):  # each slot's stacks fit its window
        for k in range(n):
            d.hub.place(antenna, uid(100 * antenna + k))
    d.t = 0.0123
    d.send(SCHEDULE, seq=1)
    d.send(p.Sync(1, 17), seq=2)  # slot 1 began 17 ms ago
    sync_ms = d.t * 1000 - (STARTS[1] + 17)
    if focus is not None:
        d.send(focus, seq=3)
    d.run_until(5.0)
    timed = reads(d, after=d.t - 5.0 + 0.0124)
    assert {r.antenna for r in timed} == set(range(6))  # nobody starved
    per_window: dict[tuple[float, int], int] = {}
    for read in timed:
        slot = SCHEDULE.slots[read.antenna]
        window = window_of(read.start, sync_ms, slot)
        assert window is not None, f"A{read.antenna:02d} read at {read.start:.1f} ms"
        first = per_window.get((window[0], slot), 0) == 0
        per_window[(window[0], slot)] = per_window.get((window[0], slot), 0) + 1
        if not first:  # only a window's first read may overrun it (a stack too tall for it)
            assert read.end <= window[1] + EPS


def test_focused_antennas_go_first_in_every_window(make: Make) -> None:
    d = make(antennas=6, rate_hz=50)
    d.send(SCHEDULE, seq=1)
    d.send(p.Sync(0, 0), seq=2)
    d.send(p.Focus((3,)), seq=3)
    d.run_until(4.0)
    by_window: dict[float, list[int]] = {}
    for read in d.hub.reads:
        window = window_of(read.start, 0.0, 0)
        if window is not None:
            by_window.setdefault(window[0], []).append(read.antenna)
    assert len(by_window) >= 8
    assert all(order[0] == 3 for order in by_window.values())
    assert any(0 in order for order in by_window.values())  # the other one is read too


def test_unscheduled_focus_order(make: Make) -> None:
    d = make(antennas=8, rate_hz=50)
    for antenna in range(8):
        d.hub.place(antenna, uid(antenna))  # 21 ms a read: three fit in 60 ms
    d.run_until(0.5)
    d.send(p.Focus((6, 2)))
    mark = d.t
    d.run_until(2.0)
    order = [r.antenna for r in reads(d, after=mark)]
    assert order[:2] == [6, 2]
    rounds = [i for i, a in enumerate(order) if a == 6]
    assert all(order[i + 1] == 2 for i in rounds if i + 1 < len(order))
    done = reads(d, after=mark)
    between = [done[i + 2:j] for i, j in itertools.pairwise(rounds)]
    assert len(between) > 5
    for others in between:  # for up to 60 ms: the last one started before 60 ms were up
        assert others and others[-1].start - others[0].start < 60
        assert others[-1].end - others[0].start >= 60
    others = [a for a in order if a not in (6, 2)]
    assert set(others) == {0, 1, 3, 4, 5, 7}  # in turn
    assert others[:6] == sorted(others[:6], key=lambda a: (a - others[0]) % 8)


# ---------------------------------------------------------------------- quick and full


def test_quick_and_full_reads_follow_the_rules(make: Make) -> None:
    d = make(antennas=2, rate_hz=50)
    for k in range(3):
        d.hub.place(0, uid(k))
    d.run_until(0.2)
    d.send(p.Focus((0,)))
    mark = d.t
    d.run_until(1.0)
    mine = [r for r in reads(d, after=mark) if r.antenna == 0]
    kinds = [r.full for r in mine]
    # three quick reads, then a full one (a lifted block is noticed within four reads)
    first_full = kinds.index(True) if kinds[0] is False else 0
    window = kinds[first_full:first_full + 8]
    assert window == [True, False, False, False, True, False, False, False]
    for read in mine:
        expected = read_ms(3, INSTR_US) if read.full else quick_read_ms(3, 0, INSTR_US)
        assert read.ms == pytest.approx(expected)

    # a newcomer: found by a quick read (its time the model's), the next read full
    d.hub.place(0, uid(50))
    mark = d.t
    d.run_until(mark + 0.5)
    mine = [r for r in reads(d, after=mark) if r.antenna == 0]
    found = next(i for i, r in enumerate(mine) if uid(50) in r.uids)
    if not mine[found].full:
        assert mine[found].ms == pytest.approx(quick_read_ms(3, 1, INSTR_US))
    assert mine[found + 1].full

    # a tag lifted stays listed by quick reads until the next full one
    d.hub.remove(0, uid(1))
    mark = d.t
    d.run_until(mark + 0.5)
    mine = [r for r in reads(d, after=mark) if r.antenna == 0]
    full = next(i for i, r in enumerate(mine) if r.full)
    assert full <= 3
    assert all(uid(1) in r.uids for r in mine[:full])
    assert all(uid(1) not in r.uids for r in mine[full:])


def test_an_antenna_focused_with_bang_or_empty_is_always_read_in_full(make: Make) -> None:
    d = make(antennas=3, rate_hz=50)
    for k in range(4):
        d.hub.place(0, uid(k))
    d.send(p.Focus((0, 1), frozenset({0})))
    d.run_until(1.0)
    mine = [r for r in d.hub.reads if r.antenna in (0, 1)]
    assert len(mine) > 10
    assert all(r.full for r in mine)  # A00 '!', A01 empty
    sent = [s for _, s in d.snapshots() if s.antenna == 0]
    assert all(s.full is True and s.read_ms == round(read_ms(4, INSTR_US)) for s in sent)


def test_a_sync_that_arrives_during_a_read_is_not_used(make: Make) -> None:
    d = make(antennas=2, rate_hz=10)
    for k in range(8):
        d.hub.place(0, uid(k))
    d.run_until(0.0)
    assert d.hub._reading is not None
    d.send(p.Schedule(2, 100, 2, (0, 1)), seq=1)
    d.t = 0.05  # the read of A00 (about 211 ms) is under way
    d.send(p.Sync(0, 0), seq=2)
    assert d.hub.syncs_late == 1
    assert d.hub.slots is not None and not d.hub.slots.synced
    assert d.replies()[-1] == p.Ack(2)  # acknowledged all the same
    d.hub.remove_everywhere(uid(0))
    for k in range(8):
        d.hub.remove_everywhere(uid(k))
    d.run_until(0.6)
    d.run_until(0.67)  # two empty reads in a cycle of 100 ms: idle now
    assert d.hub._reading is None or d.hub._reading.end <= 670
    d.send(p.Sync(1, 10), seq=3)
    assert d.hub.syncs_late == 1 and d.hub.slots.synced
    d.run_until(2.0)
    for read in reads(d, after=0.7):  # now in the slots: A01 in 100..200 ms of each cycle
        into = (read.start - (670 - 110)) % 200
        assert (2 <= into < 98) if read.antenna == 0 else (102 <= into < 198)


def test_between_reads_the_hub_sends_and_a_sync_then_is_used(make: Make) -> None:
    d = make(antennas=2, rate_hz=10, gap_ms=3.0)
    for k in range(8):
        d.hub.place(0, uid(k))
        d.hub.place(1, uid(20 + k))
    d.run_until(1.0)
    done = list(d.hub.reads)
    assert len(done) > 3
    assert all(b.start == pytest.approx(a.end + 3.0) for a, b in itertools.pairwise(done))
    d.send(p.Schedule(2, 250, 2, (0, 1)), seq=1)
    current = d.hub._reading
    assert current is not None
    d.run_until(current.end / 1000 + 0.0005)  # the read just ended: its SNAP is going out
    assert d.hub._reading is None
    d.send(p.Sync(0, 0), seq=2)
    assert d.hub.syncs_late == 0 and d.hub.slots is not None and d.hub.slots.synced


# ---------------------------------------------------------------------- the options


def test_a_timed_table_takes_its_options_and_its_console_lists_the_reads(tmp_path: Path) -> None:
    table = SimulatedTable.create(tmp_path, hubs=2, antennas=32, time_model=True, instr_us=120.0)
    hub = table.hubs["hub-1"]
    assert all(h.time_model and h.instr_us == 120.0 for h in table.hubs.values())
    assert table.execute("reads hub-1") == "no read yet"
    zone = table.wiring.table()[AntennaKey("hub-1", 0)]
    assert table.wiring.antennas_of(zone) == [AntennaKey("hub-1", 0)]
    table.put("I07", zone)
    hub.start(thread=False)
    try:
        for now in (0.0, 0.05, 0.1):
            hub.service(now)
        listed = table.execute("reads hub-1 2").splitlines()
    finally:
        hub.stop()
    first = hub.reads[0]
    assert first.antenna == 0 and first.ms == pytest.approx(read_ms(1, 120.0))
    assert len(listed) == 2
    plain = SimulatedTable.create(tmp_path / "plain", hubs=2, antennas=32)
    assert "--time-model" in plain.execute("reads hub-1")
    shown = table.execute(f"reads hub-1 {len(hub.reads)}").splitlines()[0]
    assert shown.endswith(f"full, 1 tag, {read_ms(1, 120.0):.0f} ms") and zone in shown


@pytest.mark.parametrize("command", [["run"], ["simulate"]])
def test_the_commands_take_time_model_and_instr_us(command: list[str]) -> None:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    ui_cli.register(subparsers)
    bridge_cli.register(subparsers)
    args = parser.parse_args([*command, "--time-model", "--instr-us", "120"])
    assert args.time_model is True and args.instr_us == 120.0
    args = parser.parse_args(command)
    assert args.time_model is False and args.instr_us == 250.0
