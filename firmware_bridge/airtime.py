"""The one per-read time model: how long a hub takes to read an antenna with n tags.

Computed, not measured. ISO/IEC 15693-2/-3 air time (high data rate, 1-of-4 coding, one
subcarrier) of every frame and slot, and the hub's inventory algorithm run over random UIDs
against a timing model of the chip (:class:`TimingChip`), so the number of rounds and slots is
the real one. "air" is the standard's time; "hub" adds an *estimated* cost per PN5180 SPI
instruction in MicroPython (``instr_us``) and the driver's fixed waits.

The inventory (:func:`inventory`) and the driver's waits (``FIELD_SETTLE_US`` ...) are CPython
twins of the firmware's ``sekihub.inventory.run_inventory`` and ``sekihub.pn5180`` constants,
kept here so the model ships with the bridge (the firmware is not part of the package);
``tests/hardware/test_hw_airtime.py`` runs the model with the firmware's own inventory too and
requires the same figures, and the same constants.

Everything that needs a read's duration takes it from here: the host's adaptive scan slot
(:mod:`firmware_bridge.schedule`), ``hardware/tools/scan_budget.py`` (the tables in
hardware/README.md) and ``benchmarks/schedule_cost.py``. :func:`read_ms` is the figure they
share.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass

INSTR_US = 120.0
"""Estimated MicroPython cost of one PN5180 SPI instruction (us): measure yours."""

FC = 13.56e6  # carrier, Hz

# The hub driver's fixed waits (hardware/firmware/sekihub/pn5180.py; the test keeps them equal)
FIELD_SETTLE_US = 1500  # a tag is ready 1 ms after the field comes on
POLL_US = 50  # between IRQ_STATUS reads while waiting on the air
SOF_DEADLINE_US = 560  # after the reader's EOF: t1 max + the tag's SOF
T2_US = 310  # after a tag's answer, wait this long before the next EOF

# The inventory's limits and slot kinds (hardware/firmware/sekihub/inventory.py)
EMPTY, TAG, GARBLED = 0, 1, 2
MAX_MASK_LEN = 60
MAX_PROBES = 24
MAX_ROUNDS = 48


def us(cycles: float) -> float:
    """Carrier cycles -> microseconds."""
    return cycles / FC * 1e6


# ISO/IEC 15693-2: reader -> tag, 1-out-of-4 coding: 2 bits per 1024/fc symbol (26.48 kbit/s)
SYMBOL_2BITS = us(1024)  # 75.52 us
VCD_SOF = us(1024)  # 75.52 us
VCD_EOF = us(512)  # 37.76 us
# tag -> reader, high data rate, one subcarrier (fc/32): one bit per 512/fc (26.48 kbit/s)
VICC_BIT = us(512)  # 37.76 us
VICC_SOF = us(768 + 768 + 512)  # unmodulated 56.64 + 24 pulses 56.64 + logic 1 37.76 = 151.04
VICC_EOF = VICC_SOF  # logic 0 + 24 pulses + unmodulated, mirrored = 151.04
# ISO/IEC 15693-3 timing
T1 = us(4352)  # tag answers this long after the reader's EOF (nominal 320.9 us)
T1_MAX = us(4384)  # 323.3 us
T2 = us(4192)  # reader waits at least this after a tag's EOF before its next EOF (309.2 us)
T3 = T1_MAX + VICC_SOF  # no answer: reader may send the next EOF after t1max + tSOF (474.3 us)

RESPONSE_BYTES = 12  # flags, DSFID, UID(8), CRC(2)
FIELD_ON_INSTR = 6  # LOAD_RF_CONFIG, IRQ clear, RF_ON, IRQ read, TX_CONFIG read, RF_OFF


def request_us(mask_len: int) -> float:
    """Air time of an INVENTORY request: SOF, flags, cmd, mask length, mask, CRC, EOF."""
    n_bytes = 3 + (mask_len + 7) // 8 + 2
    return VCD_SOF + n_bytes * 8 / 2 * SYMBOL_2BITS + VCD_EOF


def response_us() -> float:
    return VICC_SOF + RESPONSE_BYTES * 8 * VICC_BIT + VICC_EOF


def slot_of(uid: int, mask_len: int) -> int:
    """The slot (0-15) a tag answers in during a 16-slot round with a ``mask_len``-bit mask."""
    return (uid >> mask_len) & 0xF


def matches(uid: int, mask_value: int, mask_len: int) -> bool:
    """The tag's low ``mask_len`` UID bits equal the mask."""
    m = (1 << mask_len) - 1
    return (uid & m) == (mask_value & m)


@dataclass
class Budget:
    """Time accounting for one antenna; ``air`` per the standard, ``hub`` as the firmware runs."""

    instr_us: float
    air: float = 0.0
    hub: float = 0.0
    rounds: int = 0
    answered_slots: int = 0
    empty_slots: int = 0

    def instr(self, n: int) -> None:
        self.hub += n * self.instr_us


Slot = tuple[int, int | None]


class TimingChip:
    """A chip for the inventory that accounts time instead of talking SPI."""

    def __init__(self, tags: set[int], budget: Budget) -> None:
        self.tags = tags
        self.b = budget
        self.quiet: set[int] = set()

    def _slot(self, uids: list[int], first: bool) -> Slot:
        b = self.b
        if not first:  # the EOF that opens this slot: TX_CONFIG, IRQ clear, Idle, Transceive, send
            b.air += VCD_EOF
            b.instr(5)
            b.hub += VCD_EOF
        if not uids:
            b.empty_slots += 1
            b.air += T3
            b.hub += SOF_DEADLINE_US + VCD_EOF
            polls = SOF_DEADLINE_US // (POLL_US + self.b.instr_us) + 1
            b.instr(int(polls) + 1)  # TX IRQ, then IRQ polls until the deadline
            return EMPTY, None
        b.answered_slots += 1
        b.air += T1 + response_us() + T2
        # TX IRQ, the SOF, a sleep through most of the answer, then IRQ polls until it is in
        b.hub += T1 + response_us() + T2_US + POLL_US
        b.instr(6)  # TX IRQ, SOF poll(s), RX IRQ, RX_STATUS, READ_DATA
        return (GARBLED, None) if len(uids) > 1 else (TAG, uids[0])

    def stay_quiet(self, uid: int) -> None:
        b = self.b
        air = VCD_SOF + 12 * 8 / 2 * SYMBOL_2BITS + VCD_EOF  # flags, cmd, UID, CRC
        b.air += air
        b.hub += air
        b.instr(6)  # TX_CONFIG, IRQ clear, Idle, Transceive, SEND_DATA, TX IRQ
        self.quiet.add(uid)

    def probe(self) -> Slot:
        b = self.b
        b.air += request_us(0)
        b.instr(5)
        b.hub += request_us(0)
        return self._slot(list(self.tags - self.quiet), True)

    def probe_for(self, mask_value: int, mask_len: int) -> Slot:
        """A one-slot INVENTORY with a mask: only the tags whose low UID bits match answer."""
        b = self.b
        b.air += request_us(mask_len)
        b.instr(5)
        b.hub += request_us(mask_len)
        return self._slot([u for u in self.tags - self.quiet if matches(u, mask_value, mask_len)],
                          True)

    def inventory_round(self, mask_value: int, mask_len: int) -> list[Slot]:
        b = self.b
        b.rounds += 1
        b.air += request_us(mask_len)
        b.instr(5)
        b.hub += request_us(mask_len)
        by_slot: dict[int, list[int]] = {}
        for uid in self.tags - self.quiet:
            if matches(uid, mask_value, mask_len):
                by_slot.setdefault(slot_of(uid, mask_len), []).append(uid)
        return [self._slot(by_slot.get(s, []), s == 0) for s in range(16)]


def inventory(chip: TimingChip) -> set[int]:
    """Every UID in range, asked the way the hub asks (``sekihub.inventory.run_inventory``):
    a one-slot probe; a lone tag is quieted and the probe repeated; several tags start 16-slot
    rounds, a garbled slot asked again with the mask extended by its 4 bits, every tag heard
    quieted; until a probe hears nobody (or the probes or rounds run out)."""
    uids: set[int] = set()
    rounds = probes = 0
    kind, uid = chip.probe()
    while kind != EMPTY and probes < MAX_PROBES and rounds < MAX_ROUNDS:
        if kind == TAG and uid is not None:
            uids.add(uid)
            chip.stay_quiet(uid)
        else:
            used, ok = _rounds(chip, uids, MAX_ROUNDS - rounds)
            rounds += used
            if not ok:
                return uids
        kind, uid = chip.probe()
        probes += 1
    return uids


def _rounds(chip: TimingChip, uids: set[int], budget: int) -> tuple[int, bool]:
    """16-slot rounds from an empty mask until no slot is left to split: (rounds used, whether
    the budget lasted)."""
    pending = [(0, 0)]
    used = 0
    while pending:
        if used >= budget:
            return used, False
        value, length = pending.pop()
        results = chip.inventory_round(value, length)
        used += 1
        for slot, (kind, uid) in enumerate(results):
            if (kind == TAG and uid is not None and matches(uid, value, length)
                    and slot_of(uid, length) == slot):
                uids.add(uid)
                chip.stay_quiet(uid)
            elif kind != EMPTY and length + 4 <= MAX_MASK_LEN:
                pending.append((value | (slot << length), length + 4))
    return used, True


Inventory = Callable[[TimingChip], Collection[int]]
"""Runs an inventory on a chip and returns the UIDs found."""

QuickInventory = Callable[[TimingChip, list[int]], Collection[int]]
"""Runs a quick read on a chip: quiets the listed UIDs, then an inventory; the UIDs found."""


def antenna_time(n_tags: int, instr_us: float, trials: int = 200, seed: int = 1,
                 run: Inventory = inventory, known: int = 0,
                 quick: QuickInventory | None = None) -> tuple[float, float, float, float]:
    """Mean (air ms, hub ms, rounds, answered slots) for an antenna seeing ``n_tags`` tags.

    UIDs are drawn like real ICODE tags of one reel: a fixed E0 04 01 prefix and a random
    serial, so the low bits the slots use are well mixed. ``run`` is the inventory (the
    firmware's own one in the tests).

    ``known`` > 0 times a **quick read** (protocol 1.3): that many more tags are in the field
    and known from the last read; each is told to stay quiet (addressed STAY QUIET, no answer)
    before the inventory, which then finds only the ``n_tags`` newcomers. ``quick`` (the
    firmware's own quick read in the tests) does both, given the known UIDs in order.
    """
    rng = random.Random(seed)
    air = hub = rounds = answered = 0.0
    for _ in range(trials):
        tags = {0xE004010000000000 | rng.getrandbits(40) for _ in range(n_tags + known)}
        quiet = set(sorted(tags)[:known])
        b = Budget(instr_us)
        b.hub += FIELD_SETTLE_US + FIELD_ON_INSTR * instr_us
        b.air += 1000.0  # ISO 15693: tags may need 1 ms of field before the first request
        chip = TimingChip(tags, b)
        if quick is not None:
            found = quick(chip, sorted(quiet))
        else:
            for uid in sorted(quiet):
                chip.stay_quiet(uid)
            found = run(chip)
        if set(found) != tags - quiet:
            raise AssertionError(f"the inventory found {len(found)} of {n_tags} tags")
        air += b.air
        hub += b.hub
        rounds += b.rounds
        answered += b.answered_slots
    return air / trials / 1000, hub / trials / 1000, rounds / trials, answered / trials


@functools.cache
def read_ms(n_tags: int, instr_us: float = INSTR_US) -> float:
    """Hub time (ms, computed) of one antenna's full read with ``n_tags`` tags: field on,
    inventory, field off. The mean of 40 random UID sets (seeded: the same every run)."""
    return antenna_time(max(0, n_tags), instr_us, trials=40)[1]


@functools.cache
def quick_read_ms(known: int, new: int = 0, instr_us: float = INSTR_US) -> float:
    """Hub time (ms, computed) of a quick read (protocol 1.3): field on, ``known`` tags told to
    stay quiet, an inventory that finds the ``new`` ones (none: one unanswered probe), field
    off. The mean of 40 random UID sets (seeded)."""
    return antenna_time(max(0, new), instr_us, trials=40, known=max(0, known))[1]


WANT_MASK_BITS = 24  # protocol.WANT_MASK_BITS (the firmware's twin: sekihub.focus)


def watch(chip: TimingChip, wanted: Collection[int]) -> set[int]:
    """A watch read (protocol 1.3, docs/protocol.md 5.2): one masked one-slot probe per wanted
    tag; the tags that answered cleanly (``sekihub.inventory.run_watch``)."""
    found = set()
    for uid in wanted:
        kind, heard = chip.probe_for(uid, WANT_MASK_BITS)
        if kind == TAG and heard is not None:
            found.add(heard)
    return found


@functools.cache
def watch_read_ms(wanted: int, found: int = 0, instr_us: float = INSTR_US, stack: int = 3
                  ) -> float:
    """Hub time (ms, computed) of a watch read: field on, one masked probe for each of the
    ``wanted`` tags, ``found`` of which are there, field off; whatever else stands on the
    antenna (``stack`` tags) stays silent. The mean of 40 random UID sets (seeded)."""
    rng = random.Random(1)
    total = 0.0
    trials = 40
    for _ in range(trials):
        others = {0xE004010000000000 | rng.getrandbits(40) for _ in range(stack)}
        want = [0xE004010000000000 | rng.getrandbits(40) for _ in range(wanted)]
        b = Budget(instr_us)
        b.hub += FIELD_SETTLE_US + FIELD_ON_INSTR * instr_us
        chip = TimingChip(others | set(want[:found]), b)
        got = watch(chip, want)
        if got != set(want[:found]) - others and got != set(want[:found]):
            raise AssertionError("a watch read found the wrong tags")
        total += b.hub
    return total / trials / 1000
