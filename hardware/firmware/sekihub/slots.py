"""Slot keeping for a scan schedule (protocol 1.1 ``SCHED`` and ``SYNC``, docs/protocol.md 5.1).

The host gives the hub a slot for each antenna, the number of slots and the length of each
(one for all in 1.1; from 1.2 each slot its own, the cycle lasting their sum). Slot times run on
the hub's own clock from the last ``SYNC`` ("slot S began OFFSET ms ago"). An antenna is scanned
only inside its slot's window: the slot less ``guard`` ms at each end, so two hubs whose clocks
are up to 2 x guard apart still never have neighbours on together.

Within its slot a hub scans that slot's antennas one after another. It starts the next one
only if its last inventory took no longer than what is left of the window. The first one of
a slot starts regardless while the slot is in its first half (a stack taller than a slot
still gets read, at the risk of the neighbour's collision check and quick retry); a hub that
only reaches the slot in its second half (its clock was just set there) waits for the next.
Antennas left over when the window closes go first the next time their slot comes round.
While the host has a focus (protocol 1.3) the slots are sized for the focused antennas'
reads: an unfocused antenna starts only if its last read fits in what is left of the window
(no first-read exception), else the next one is tried; a tall unfocused stack may thus wait
until the focus is over.

From protocol 1.3 the host may focus some antennas (``FOCUS``, docs/protocol.md 5.2): inside
each window the slot's focused antennas go first, in the order given, every time; the slot's
other antennas follow in turn (round robin over cycles) while they fit.

A new ``SCHED`` mid-run (the host resizing its slots for the stacks it sees) does not lose
sync: the new table's cycle starts where the old clock's current cycle began, which is where
the host re-bases its own slot clock when it changes the table (:meth:`SlotClock.follow`).

Wrap-safe: only ``clock.ticks_diff`` of two readings is used.
"""


class SlotClock:
    """``lengths`` is the length (ms) of each of the ``count`` slots, or one number for all."""

    def __init__(self, clock, count, lengths, guard_ms, slots):
        self.clock = clock
        self.count = count
        if isinstance(lengths, int):
            lengths = [lengths] * count
        self.lengths = list(lengths)
        self.starts = [0] * count  # ms into the cycle where each slot begins
        for k in range(1, count):
            self.starts[k] = self.starts[k - 1] + self.lengths[k - 1]
        self.cycle = self.starts[-1] + self.lengths[-1]
        self.guard_ms = guard_ms
        self.slots = slots
        self.order = [[i for i, s in enumerate(slots) if s == k] for k in range(count)]
        self.sync_at = None  # hub time of the last SYNC used
        self.sync_pos = 0  # ms into the cycle at that moment
        self.current = None  # (cycle number, slot) the queue belongs to
        self.queue = []
        self.started = 0  # antennas started in the current slot
        self.skip = 1  # scan in every skip-th cycle (the RATE ceiling)
        self.focus = []  # focused antennas, in the host's order (1.3)

    @property
    def synced(self):
        return self.sync_at is not None

    def cycle_ms(self):
        return self.cycle

    def set_rate(self, rate_hz):
        """Scan at most ``rate_hz`` cycles a second: every cycle, or every n-th one."""
        want = 1000 // rate_hz
        self.skip = max(1, (want + self.cycle - 1) // self.cycle)

    def sync(self, slot, offset_ms):
        """Slot ``slot`` began ``offset_ms`` ago."""
        self.sync_at = self.clock.ticks_ms()
        self.sync_pos = self.starts[slot] + offset_ms

    def set_focus(self, focus):
        """Read ``focus`` (antenna indices, in order) first in their slots, from now on: what is
        left of the current window is reordered too."""
        self.focus = list(focus)
        self.queue = self._focused_first(self.queue)

    def _focused_first(self, queue):
        return [i for i in self.focus if i in queue] + [i for i in queue if i not in self.focus]

    def follow(self, old):
        """Take over the timing (and the focus) of ``old`` (a synced SlotClock this one
        replaces): this table's cycle starts where ``old``'s current cycle began."""
        self.focus = list(old.focus)
        _, slot, into = old.position()
        self.sync_at = self.clock.ticks_ms()
        self.sync_pos = old.starts[slot] + into

    def position(self):
        """``(cycle number since the sync, slot, ms into the slot)`` now."""
        t = self.sync_pos + self.clock.ticks_diff(self.clock.ticks_ms(), self.sync_at)
        within = t % self.cycle
        slot = self.count - 1
        while self.starts[slot] > within:
            slot -= 1
        return t // self.cycle, slot, within - self.starts[slot]

    def fits(self, index, need_ms):
        """Whether antenna ``index`` may switch its field on now for ``need_ms`` (a self-test):
        its slot is the current one and the window has that long left (or, for a window
        shorter than ``need_ms``, it has just opened)."""
        _, slot, into = self.position()
        if slot != self.slots[index] or into < self.guard_ms:
            return False
        length = self.lengths[slot]
        need = min(need_ms, length - 2 * self.guard_ms)
        return length - self.guard_ms - into >= need

    def pick(self, scan_ms):
        """The antenna to scan now, or None (outside the window, slot done, or the next one's
        last inventory, ``scan_ms[i]`` ms, would not fit in what is left of the window)."""
        cycle, slot, into = self.position()
        key = (cycle, slot)
        if key != self.current:
            self.current = key
            self.queue = (self._focused_first(self.order[slot]) if cycle % self.skip == 0
                          else [])
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
            fresh = first and not self.started and into < length // 2
            need = scan_ms[index] or length // 2  # never read yet: assume half a slot
            if fresh or need <= left:
                return index
            if first:
                return None
            # focused (1.3): a background read longer than what is left waits for a later
            # window, and the slot's next one may fit; the slot is sized for the focus
            self.queue.pop(0)
        return None

    def done(self, index):
        """``index`` was scanned: it goes to the back of its slot's order, and a focused one to
        the back of the focus: focused ones still go first, but a window too short for all of
        them serves them in turn instead of starving the last."""
        if self.queue and self.queue[0] == index:
            self.queue.pop(0)
        order = self.order[self.slots[index]]
        if index in order:
            order.remove(index)
            order.append(index)
        if index in self.focus:
            self.focus.remove(index)
            self.focus.append(index)
        self.started += 1
