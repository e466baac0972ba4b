"""The order in which a simulated hub reads its antennas, on the hub's own clock (ms).

:class:`SlotClock` is a host-side twin of the firmware's ``sekihub.slots.SlotClock`` (the
firmware is not part of the package), keeping the scan schedule of docs/protocol.md 5.1: an
antenna's field comes on only inside the window ``[slot start + guard, slot end - guard)`` of
its slot; within a window the slot's antennas are read one after another, a further one only
if its last read fits in what is left, the first one while the window is in its first half
(an antenna never read counts as half a window); those left over go first the next time round;
a new ``SCHED`` keeps the current cycle's start (:meth:`SlotClock.follow`); ``RATE`` makes the
hub scan every n-th cycle when a cycle is shorter than ``1/rate``. It adds protocol 1.3's focus
(5.2): the slot's focused antennas are read first in each window, in the order given.

:class:`FreeRun` is the order without a schedule (before the first usable ``SYNC``): every
antenna in turn, at most ``rate`` complete cycles a second; once focused (5.2), the focused
antennas, then the others in turn for up to :data:`OTHERS_MS` (at least one, none twice), then
the focused ones again, a round starting at most ``rate`` times a second.

Unlike the firmware, time is passed in (``now``, ms on the hub's clock), so the simulator can
run a read's start exactly where the last one ended, and tests can use any clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge import protocol as p

OTHERS_MS = 60.0
"""Unscheduled, focused: how long the hub reads unfocused antennas between two rounds of the
focused ones (docs/protocol.md 5.2)."""


class SlotClock:
    """The slot table of one ``SCHED`` on the hub's clock (see the module docstring)."""

    def __init__(self, schedule: p.Schedule) -> None:
        self.count = schedule.count
        self.lengths = list(schedule.lengths)
        self.starts = [0] * self.count
        for k in range(1, self.count):
            self.starts[k] = self.starts[k - 1] + self.lengths[k - 1]
        self.cycle = self.starts[-1] + self.lengths[-1]
        self.guard_ms = schedule.guard_ms
        self.slots = list(schedule.slots)
        self.order = [[i for i, s in enumerate(self.slots) if s == k] for k in range(self.count)]
        self.focus: tuple[int, ...] = ()
        self.sync_at: float | None = None
        self.sync_pos = 0.0
        self.current: tuple[int, int] | None = None
        self.queue: list[int] = []
        self.started = 0
        self.skip = 1

    @property
    def synced(self) -> bool:
        return self.sync_at is not None

    def set_rate(self, rate_hz: int) -> None:
        want = 1000 // rate_hz
        self.skip = max(1, (want + self.cycle - 1) // self.cycle)

    def sync(self, now: float, slot: int, offset_ms: int) -> None:
        """Slot ``slot`` began ``offset_ms`` before ``now``."""
        self.sync_at = now
        self.sync_pos = self.starts[slot] + offset_ms

    def follow(self, now: float, old: SlotClock) -> None:
        """This table's cycle starts where ``old``'s current cycle began."""
        _, slot, into = old.position(now)
        self.sync_at = now
        self.sync_pos = old.starts[slot] + into

    def position(self, now: float) -> tuple[int, int, float]:
        """(cycle number since the sync, slot, ms into the slot) at ``now``."""
        assert self.sync_at is not None
        t = self.sync_pos + now - self.sync_at
        within = t % self.cycle
        slot = self.count - 1
        while self.starts[slot] > within:
            slot -= 1
        return int(t // self.cycle), slot, within - self.starts[slot]

    def window(self, now: float) -> tuple[float, float]:
        """The (start, end) of the window of the slot ``now`` is in."""
        _, slot, into = self.position(now)
        begin = now - into
        return begin + self.guard_ms, begin + self.lengths[slot] - self.guard_ms

    def refocus(self, focus: Sequence[int]) -> None:
        """Protocol 1.3: these antennas go first, in this order, from now on (what is left of
        the current window's queue too)."""
        self.focus = tuple(focus)
        self.queue = self._ordered(self.queue)

    def _ordered(self, antennas: list[int]) -> list[int]:
        first = [a for a in self.focus if a in antennas]
        return first + [a for a in antennas if a not in first]

    def pick(self, now: float, scan_ms: Sequence[float]) -> int | None:
        """The antenna to read at ``now``, or None (outside the window, slot done, or the next
        one's last read, ``scan_ms[i]`` ms, would not fit in what is left of the window)."""
        cycle, slot, into = self.position(now)
        key = (cycle, slot)
        if key != self.current:
            self.current = key
            self.queue = self._ordered(list(self.order[slot])) if cycle % self.skip == 0 else []
            self.started = 0
        if into < self.guard_ms or not self.queue:
            return None
        length = self.lengths[slot]
        left = length - self.guard_ms - into
        if left <= 0:
            return None
        while self.queue:
            index = self.queue[0]
            first = index in self.focus or not self.focus
            fresh = first and not self.started and into < length / 2
            need = scan_ms[index] or length / 2
            if fresh or need <= left:
                return index
            if first:
                return None
            self.queue.pop(0)  # focused: a background read that does not fit waits (5.2)
        return None

    def wake_at(self, now: float) -> float:
        """When :meth:`pick` may next give an antenna, if it gave none at ``now``: this
        window's opening if it is still ahead, else the next one's."""
        _, slot, into = self.position(now)
        if into < self.guard_ms:
            return now - into + self.guard_ms
        return now - into + self.lengths[slot] + self.guard_ms

    def done(self, index: int) -> None:
        """``index`` was read: it goes to the back of its slot's order, and a focused one to the
        back of the focus (a window too short for every focused read serves them in turn)."""
        if self.queue and self.queue[0] == index:
            self.queue.pop(0)
        order = self.order[self.slots[index]]
        if index in order:
            order.remove(index)
            order.append(index)
        if index in self.focus:
            self.focus = (*(a for a in self.focus if a != index), index)
        self.started += 1


class FreeRun:
    """The order of reads without a schedule (see the module docstring)."""

    def __init__(self, antennas: int, rate_hz: int) -> None:
        self.antennas = antennas
        self.rate_hz = rate_hz
        self.focus: tuple[int, ...] = ()
        self.queue: list[int] = []
        """What is left of the round's fixed part: every antenna, or the focused ones."""
        self.round_start: float | None = None
        self.others = False
        """Focused: the round is reading the other antennas in turn."""
        self.others_ms = 0.0
        self.others_read = 0
        self.next_other = 0

    def refocus(self, focus: Sequence[int]) -> None:
        """A new ``FOCUS``: a new round begins at once with it."""
        self.focus = tuple(focus)
        self.queue = []
        self.others = False
        self.round_start = None

    def _next_other(self) -> int | None:
        for step in range(self.antennas):
            a = (self.next_other + step) % self.antennas
            if a not in self.focus:
                return a
        return None

    def pick(self, now: float) -> int | None:
        if self.queue:
            return self.queue[0]
        if self.focus and self.others:
            other = self._next_other()
            unfocused = self.antennas - len(self.focus)
            if other is not None and self.others_read < unfocused and (
                    self.others_read == 0 or self.others_ms < OTHERS_MS):
                return other
        if self.round_start is not None and now < self.round_start + 1000 / self.rate_hz:
            return None
        self.round_start = now
        self.queue = list(self.focus) if self.focus else list(range(self.antennas))
        self.others = False
        return self.queue[0] if self.queue else None

    def wake_at(self, now: float) -> float:
        assert self.round_start is not None
        return self.round_start + 1000 / self.rate_hz

    def done(self, index: int, ms: float) -> None:
        if self.queue and self.queue[0] == index:
            self.queue.pop(0)
            if not self.queue and self.focus:
                self.others, self.others_ms, self.others_read = True, 0.0, 0
            return
        self.others_ms += ms
        self.others_read += 1
        self.next_other = (index + 1) % self.antennas
