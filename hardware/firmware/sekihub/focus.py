"""Protocol 1.3 focus and quick reads (docs/protocol.md 5.2): which antenna a hub without a
slot schedule reads next, and whether an antenna's next read is full or quick.

The host names the antennas that matter now (``FOCUS``: the destinations it lit for a block in
hand, its origin, the stacks a hand may lift from). Without a schedule the hub reads every
focused antenna, then the others in turn for up to ``OTHERS_MS`` (at least one), then the
focused ones again. With a schedule, ``slots.SlotClock`` puts them first in their windows.

A quick read tells the tags listed last time to stay quiet and looks only for newcomers; a
watch read asks only for the blocks in hand; ``read_kind`` says which kind each read is.
"""

OTHERS_MS = 60  # the others' share of a round, after the focused antennas
ROUND_MIN_MS = 20  # focused rounds start at most 50 times a second (protocol MAX_RATE_HZ)
QUICK_RUN_MAX = 3  # after this many quick reads in a row, a full one


FULL, WATCH, QUICK = "full", "watch", "quick"


def read_kind(ant, focus_on, focused, marked, watching):
    """The kind of antenna ``ant``'s next read (docs/protocol.md 5.2). ``focus_on``: a FOCUS
    naming antennas is in force (else, nothing in hand: every read is full); ``focused``: this
    antenna is one of them, ``marked`` with ``!``; ``watching``: the focus names blocks in hand.

    Full when the last read listed no tag or found a newcomer; a watched antenna (focused, not
    marked, blocks named) is otherwise watched; any other is full when marked or after three
    quick reads in a row, else quick."""
    if not focus_on or not ant.present or ant.found_new:
        return FULL
    if focused and watching and not marked:
        return WATCH
    return FULL if marked or ant.quick_run >= QUICK_RUN_MAX else QUICK


class FocusOrder:
    """The unscheduled read order while some antennas are focused (``count`` antennas)."""

    def __init__(self, count, clock):
        self.count = count
        self.clock = clock
        self.focus = []
        self.todo = []  # focused antennas still to read this round
        self.round_ms = None  # when this round's focused reads began
        self.others_ms = None  # when this round's first other antenna was read
        self.others_read = 0
        self.next_other = 0  # round robin over the others, across rounds
        self.cycle_ms = None  # when the others' current pass began (the RATE ceiling)

    def _since(self, then):
        return self.clock.ticks_diff(self.clock.ticks_ms(), then)

    def set(self, focus):
        """A new ``FOCUS``: a round of the new focused antennas starts now."""
        self.focus = list(focus)
        self.todo = list(focus)
        self.round_ms = self.clock.ticks_ms()
        self.others_ms = None
        self.others_read = 0

    def _other(self, period_ms):
        for index in range(self.next_other, self.count):
            if index not in self.focus:
                return index
        if self.cycle_ms is not None and self._since(self.cycle_ms) < period_ms:
            return None  # every other antenna was read this cycle: RATE says wait
        for index in range(self.count):
            if index not in self.focus:
                return index
        return None

    def pick(self, period_ms):
        """The antenna to read now, or None (nothing due). ``period_ms``: 1000 / RATE, the
        shortest time for a pass over the others."""
        if self.todo:
            return self.todo[0]
        if self.others_read == 0 or self._since(self.others_ms) < OTHERS_MS:
            index = self._other(period_ms)
            if index is not None:
                return index
        if self.focus and (self.round_ms is None or self._since(self.round_ms) >= ROUND_MIN_MS):
            return self.focus[0]
        return None

    def take(self, index):
        """``index`` (what ``pick`` gave) is being read now."""
        now = self.clock.ticks_ms()
        if self.todo and self.todo[0] == index:
            self.todo.pop(0)
        elif index not in self.focus:
            if self.others_ms is None:
                self.others_ms = now
            self.others_read += 1
            if self.cycle_ms is None or index < self.next_other:
                self.cycle_ms = now
            self.next_other = index + 1
        else:  # a new round
            self.round_ms = now
            self.todo = self.focus[1:]
            self.others_ms = None
            self.others_read = 0
