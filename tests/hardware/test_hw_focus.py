"""Protocol 1.3 on the hub (docs/protocol.md 4.2, 5.2): FOCUS, focused antennas first, quick
reads and their four full-read rules, and ``ms= read=`` on every snapshot after a FOCUS.

The hub runs the real PN5180 driver over emulated chips (hw_fakes.FakePN5180: air time, SPI
cost, tags that obey STAY QUIET); everything is encoded and decoded with the host's codec.
"""

from __future__ import annotations

from hw_fakes import FakeClock, FakePN5180, FakePort
from sekihub import wire
from sekihub.hub import Antenna, Hub
from sekihub.iso15693 import uid_hex
from sekihub.pn5180 import PN5180
from sekihub.slots import SlotClock

from firmware_bridge import protocol as p

STACK = {0xE004015000001000 + 17 * n for n in range(8)}


class Rig:
    def __init__(self, n: int = 4, rate: int = 50) -> None:
        self.clock = FakeClock()
        self.port = FakePort()
        self.chips = [FakePN5180(self.clock) for _ in range(n)]
        antennas = [Antenna(PN5180(c, c, self.clock, name=f"PN5180#{i}"))
                    for i, c in enumerate(self.chips)]
        self.hub = Hub("hub-1", antennas, self.port, self.clock, rate_hz=rate)
        self.seq = 100
        self.hub.start()
        self.port.take_lines()

    def send(self, message: p.Message) -> int:
        self.seq += 1
        self.port.inbox += p.encode(message, self.seq)
        self.hub.service_host()
        return self.seq

    def messages(self) -> list[p.Message]:
        return [p.decode_line(line).message for line in self.port.take_lines()]

    def settled(self, antenna: int = 0) -> None:
        """Read until a quick read: the first reads after FOCUS are full (the last one listed
        no tag, then every tag was a newcomer)."""
        while self.read(antenna).full:
            pass

    def read(self, antenna: int = 0) -> p.Snapshot:
        """Step until ``antenna`` reports; its snapshot (a single part)."""
        for _ in range(200):
            self.hub.step()
            self.clock.advance_ms(1)
            for m in self.messages():
                if isinstance(m, p.Snapshot) and m.antenna == antenna:
                    return m
        raise AssertionError(f"A{antenna:02d} never reported")


def hexes(uids: set[int]) -> tuple[str, ...]:
    return tuple(sorted(uid_hex(u) for u in uids))


def test_nothing_of_1_3_before_the_first_focus_and_after_a_hello() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = STACK
    assert rig.read().read_ms is None  # a 1.2 snapshot: no ms=, no read=
    seq = rig.send(p.Focus())
    assert rig.messages() == [p.Ack(seq)]
    snap = rig.read()
    assert snap.full is True and snap.read_ms is not None and snap.read_ms > 0
    rig.send(p.Who())  # a new HELLO forgets the FOCUS (docs/protocol.md 5.2)
    assert any(isinstance(m, p.Hello) and m.protocol == (1, 3) for m in rig.messages())
    assert rig.read().read_ms is None


def test_an_antenna_the_hub_lacks_is_refused_and_changes_nothing() -> None:
    rig = Rig(n=4)
    rig.port.inbox += b"FOCUS 7 A02,A04! *" + wire.hex4(wire.crc16(b"FOCUS 7 A02,A04!")).encode()
    rig.port.inbox += b"\n"
    rig.hub.service_host()
    assert rig.messages() == [p.Nak(7, "BAD_ANTENNA")]
    assert rig.read().read_ms is None  # still 1.2: the refused FOCUS was not taken
    rig.send(p.Focus((2, 1)))
    assert rig.hub.focus == [2, 1]


def test_the_hub_parses_what_the_host_encodes() -> None:
    for focus in (p.Focus(), p.Focus((3, 7, 12), frozenset({7})), p.Focus((0,), frozenset({0})),
                  p.Focus((2, 5), want=("E004015000000003", "E0040150000000A7"))):
        _, kind, fields = wire.parse_line(p.encode(focus, 5))
        order, full, want = wire.parse_focus(fields, 16)
        assert (kind, tuple(order), frozenset(full)) == ("FOCUS", focus.antennas, focus.full)
        assert tuple(uid_hex(u) for u in want) == focus.want
    line = wire.encode("SNAP", 3, ["A03", "1/1", "-", *wire.read_fields(123, False)])
    assert p.decode_line(line).message == p.Snapshot(3, (), read_ms=123, full=False)
    assert wire.read_fields(99999, True) == ["ms=60000", "read=full"]


def test_quick_reads_requiet_the_listed_tags_and_every_fourth_read_is_full() -> None:
    rig = Rig(n=1)
    chip = rig.chips[0]
    chip.tags = STACK
    rig.send(p.Focus((0,)))
    rig.messages()
    assert [rig.read().full for _ in range(2)] == [True, True]  # after no tag, after newcomers
    kinds, times = [], []
    for _ in range(8):
        before_quiet, before_rounds = chip.quieted, chip.rounds
        snap = rig.read()
        assert snap.uids == hexes(STACK)
        kinds.append(snap.full)
        times.append(snap.read_ms)
        if not snap.full:  # exactly the listed tags told to stay quiet, no 16-slot round
            assert chip.quieted - before_quiet == len(STACK)
            assert chip.rounds == before_rounds
    assert kinds == [False, False, False, True, False, False, False, True]
    full_ms = [t for t, k in zip(times, kinds, strict=True) if k]
    quick_ms = [t for t, k in zip(times, kinds, strict=True) if not k]
    assert max(quick_ms) * 2 < min(full_ms)  # the point of it


def test_the_reported_time_is_the_reads_field_time_on_the_hubs_clock() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = STACK
    rig.send(p.Focus((0,)))
    for _ in range(2):
        snap = rig.read()
        on, off = rig.chips[0].field_log[-1]
        assert snap.read_ms is not None and abs(snap.read_ms - (off - on) / 1000) <= 2


def test_a_newcomer_is_added_to_the_old_tags_and_the_next_read_is_full() -> None:
    rig = Rig(n=1)
    chip = rig.chips[0]
    chip.tags = STACK
    rig.send(p.Focus((0,)))
    rig.settled()
    newcomer = 0xE004015000009999
    chip.tags = STACK | {newcomer}
    snap = rig.read()
    assert (snap.full, snap.uids) == (False, hexes(STACK | {newcomer}))
    assert rig.read().full  # a block just put down: the full read tells it stayed


def test_a_lifted_block_stays_listed_by_quick_reads_until_the_full_one() -> None:
    rig = Rig(n=1)
    chip = rig.chips[0]
    chip.tags = STACK
    rig.send(p.Focus((0,)))
    rig.settled()
    while not rig.read().full:  # the next read is the first of three quick ones
        pass
    lifted = min(STACK)
    chip.tags = STACK - {lifted}
    seen = [rig.read() for _ in range(4)]
    assert [s.full for s in seen] == [False, False, False, True]
    assert all(s.uids == hexes(STACK) for s in seen[:3])  # quick: "may have left"
    assert seen[3].uids == hexes(STACK - {lifted})  # noticed within four reads


def test_a_stack_marked_with_bang_and_an_empty_antenna_are_always_read_in_full() -> None:
    rig = Rig(n=2)
    rig.chips[0].tags = STACK
    rig.send(p.Focus((0, 1), frozenset({0})))
    for _ in range(5):
        assert rig.read(0).full is True
        assert rig.read(1).full is True  # listed no tag last time: a quick read is the same


def test_a_read_that_runs_out_of_rounds_keeps_the_tags_and_says_quick() -> None:
    rig = Rig(n=1)
    chip = rig.chips[0]
    chip.tags = {5, 6}
    rig.send(p.Focus((0,), frozenset({0})))
    assert rig.read().full is True
    chip.tags = {5}
    chip.garble = 10**6  # every answer damaged: the inventory cannot complete
    snap = rig.read()
    assert (snap.full, set(snap.uids)) == (False, {uid_hex(5), uid_hex(6)})


def test_without_a_schedule_focused_antennas_come_first_then_others_for_60_ms() -> None:
    rig = Rig(n=10, rate=50)
    for chip in rig.chips[5:]:  # the others: five empty (6 ms a read), three stacks (40-100 ms)
        chip.tags = STACK
    rig.send(p.Focus((6, 2)))
    reads: list[tuple[int, int]] = []  # (antenna, hub ms when its read began)
    while rig.clock.us < 3_000_000:
        rig.hub.step()
        rig.clock.advance_ms(1)
        reads += [(m.antenna, rig.clock.ticks_ms() - 1 - (m.read_ms or 0))
                  for m in rig.messages() if isinstance(m, p.Snapshot)]
    antennas = [a for a, _ in reads]
    assert antennas[:2] == [6, 2]
    rounds: list[list[tuple[int, int]]] = []
    for k, (antenna, began) in enumerate(reads):
        if antenna == 6:
            assert antennas[k + 1:k + 2] in ([2], [])
            rounds.append([])
        elif antenna != 2:
            rounds[-1].append((antenna, began))
    for others in rounds[:-1]:  # then at least one other, others begun within 60 ms
        assert others and all(began - others[0][1] < 60 for _, began in others)
    assert max(len(o) for o in rounds) > 1
    assert set(antennas) == set(range(10))  # the others are all read in turn


def test_with_a_schedule_a_slots_focused_antennas_open_its_window() -> None:
    clock = FakeClock()
    slots = SlotClock(clock, 2, 100, 2, [0, 0, 0, 1, 0])
    slots.sync(0, 0)
    clock.advance_ms(3)
    slots.set_focus([4, 1])
    picked = []
    for _ in range(4):
        index = slots.pick([5] * 5)
        assert index is not None
        picked.append(index)
        slots.done(index)
    assert picked == [4, 1, 0, 2]
    clock.advance_ms(200)  # the same slot, next cycle: focused first again, others in turn
    index = slots.pick([5] * 5)
    assert index == 4


def test_a_scheduled_hub_opens_each_window_with_its_focused_antenna_and_keeps_the_focus(
) -> None:
    rig = Rig(n=4)
    for k, chip in enumerate(rig.chips):
        chip.tags = {0xE004015000000100 + k}
    rig.send(p.Schedule(2, 200, 2, (0, 0, 0, 1)))
    rig.send(p.Sync(1, 0))  # slot 0 opens in 200 ms
    rig.send(p.Focus((2,)))
    rig.send(p.Schedule(2, 200, 2, (0, 0, 0, 1)))  # the host resizing its slots mid-run
    assert rig.hub.schedule is not None and rig.hub.schedule.focus == [2]
    rig.messages()
    windows: dict[int, list[int]] = {}  # cycle -> slot 0's antennas in the order read
    while rig.clock.us < 3_000_000:
        rig.hub.step()
        rig.clock.advance_ms(1)
        cycle, slot, _ = rig.hub.schedule.position()
        for m in rig.messages():
            if isinstance(m, p.Snapshot) and m.antenna != 3:
                assert slot == 0
                windows.setdefault(cycle, []).append(m.antenna)
    assert len(windows) >= 6
    assert all(order[0] == 2 and order.count(2) == 1 for order in windows.values())
    assert {0, 1} <= {a for order in windows.values() for a in order}


def test_with_an_empty_focus_every_read_is_full() -> None:
    """Nothing in hand (``FOCUS -``): every read must see a block leave, so none is quick;
    the reads still say their time and kind."""
    rig = Rig(n=1)
    rig.chips[0].tags = STACK
    rig.send(p.Focus())
    reads = [rig.read() for _ in range(6)]
    assert all(s.full is True and s.read_ms is not None for s in reads)


def test_a_focused_antenna_is_watched_for_the_blocks_in_hand() -> None:
    """With the blocks in hand named, a focused stack is asked only for them (one masked probe
    each: the stack itself stays silent, no STAY QUIET, no round), whatever its height; the
    block put down is found, and the next read is full (the settle rule's second look)."""
    rig = Rig(n=1)
    chip = rig.chips[0]
    chip.tags = STACK
    held = 0xE004015000005A5A
    rig.send(p.Focus((0,), want=(uid_hex(held),)))
    assert [rig.read().full for _ in range(2)] == [True, True]  # after no tag, after newcomers
    before_quiet, before_rounds = chip.quieted, chip.rounds
    watched = [rig.read() for _ in range(5)]
    assert all(not s.full and s.uids == hexes(STACK) for s in watched)
    assert (chip.quieted, chip.rounds) == (before_quiet, before_rounds)
    assert max(s.read_ms or 0 for s in watched) <= 15  # one probe, not the stack's reads
    chip.tags = STACK | {held}
    found = rig.read()
    assert (found.full, found.uids) == (False, hexes(STACK | {held}))
    assert rig.read().full, "a block just put down: the next read is full"


def test_focused_tall_stacks_are_watched_in_a_short_window_and_none_is_starved() -> None:
    """Three tall stacks share one slot, read in full (about 100 ms each) before a block was
    lifted; the host then focuses them, names the block in hand and gives the slot 40 ms. Each
    is judged by its next read (a watch, one probe), not by its last full read, and a window
    too short for all three serves them in turn: every one is read again and again."""
    rig = Rig(n=4)
    for k, chip in enumerate(rig.chips[:3]):
        chip.tags = {0xE004015000000200 + 16 * k + j for j in range(6)}
    rig.send(p.Schedule(2, 200, 2, (0, 0, 0, 1)))
    rig.send(p.Sync(0, 0))
    reads: dict[int, int] = {}
    while rig.clock.us < 2_000_000:  # full reads of the stacks, as before any block is lifted
        rig.hub.step()
        rig.clock.advance_ms(1)
        rig.messages()
    held = 0xE004015000005A5A
    rig.send(p.Focus((0, 1, 2), want=(uid_hex(held),)))
    rig.send(p.Schedule(2, (20, 20), 2, (0, 0, 0, 1)))
    rig.messages()
    start = rig.clock.us
    while rig.clock.us < start + 2_000_000:
        rig.hub.step()
        rig.clock.advance_ms(1)
        for m in rig.messages():
            if isinstance(m, p.Snapshot) and m.antenna < 3 and m.full is False:
                reads[m.antenna] = reads.get(m.antenna, 0) + 1
    assert set(reads) == {0, 1, 2}, reads
    assert min(reads.values()) >= 10, reads
