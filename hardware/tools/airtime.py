"""The one per-read time model: how long a hub takes to read an antenna with n tags.

Computed, not measured. ISO/IEC 15693-2/-3 air time (high data rate, 1-of-4 coding, one
subcarrier) of every frame and slot, and the firmware's own inventory algorithm
(``sekihub.inventory.run_inventory``) run over random UIDs against a timing model of the chip,
so the number of rounds and slots is the real one. "air" is the standard's time; "hub" adds an
*estimated* cost per PN5180 SPI instruction in MicroPython (``instr_us``) and the driver's
fixed waits.

Everything that needs a read's duration takes it from here: ``tools/scan_budget.py`` (the
tables in hardware/README.md), the host's adaptive scan slot (``firmware_bridge.schedule``)
and ``benchmarks/schedule_cost.py``. :func:`read_ms` is the figure they share.
"""

from __future__ import annotations

import functools
import random
import sys
from dataclasses import dataclass
from pathlib import Path

_FIRMWARE = str(Path(__file__).resolve().parents[1] / "firmware")
if _FIRMWARE not in sys.path:
    sys.path.insert(0, _FIRMWARE)

from sekihub import pn5180  # noqa: E402
from sekihub.inventory import EMPTY, GARBLED, TAG, run_inventory  # noqa: E402
from sekihub.iso15693 import matches, slot_of  # noqa: E402

INSTR_US = 120.0
"""Estimated MicroPython cost of one PN5180 SPI instruction (us): measure yours."""

FC = 13.56e6  # carrier, Hz


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


def request_us(mask_len: int) -> float:
    """Air time of an INVENTORY request: SOF, flags, cmd, mask length, mask, CRC, EOF."""
    n_bytes = 3 + (mask_len + 7) // 8 + 2
    return VCD_SOF + n_bytes * 8 / 2 * SYMBOL_2BITS + VCD_EOF


def response_us() -> float:
    return VICC_SOF + RESPONSE_BYTES * 8 * VICC_BIT + VICC_EOF


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


class TimingChip:
    """A chip model for run_inventory that accounts time instead of talking SPI."""

    def __init__(self, tags: set[int], budget: Budget) -> None:
        self.tags = tags
        self.b = budget
        self.quiet: set[int] = set()

    def _slot(self, uids: list[int], first: bool) -> tuple[int, int | None]:
        b = self.b
        if not first:  # the EOF that opens this slot: TX_CONFIG, IRQ clear, Idle, Transceive, send
            b.air += VCD_EOF
            b.instr(5)
            b.hub += VCD_EOF
        if not uids:
            b.empty_slots += 1
            b.air += T3
            b.hub += pn5180.SOF_DEADLINE_US + VCD_EOF
            polls = pn5180.SOF_DEADLINE_US // (pn5180.POLL_US + self.b.instr_us) + 1
            b.instr(int(polls) + 1)  # TX IRQ, then IRQ polls until the deadline
            return EMPTY, None
        b.answered_slots += 1
        b.air += T1 + response_us() + T2
        # TX IRQ, the SOF, a sleep through most of the answer, then IRQ polls until it is in
        b.hub += T1 + response_us() + pn5180.T2_US + pn5180.POLL_US
        b.instr(6)  # TX IRQ, SOF poll(s), RX IRQ, RX_STATUS, READ_DATA
        return (GARBLED, None) if len(uids) > 1 else (TAG, uids[0])

    def stay_quiet(self, uid: int) -> None:
        b = self.b
        air = VCD_SOF + 12 * 8 / 2 * SYMBOL_2BITS + VCD_EOF  # flags, cmd, UID, CRC
        b.air += air
        b.hub += air
        b.instr(6)  # TX_CONFIG, IRQ clear, Idle, Transceive, SEND_DATA, TX IRQ
        self.quiet.add(uid)

    def probe(self) -> tuple[int, int | None]:
        b = self.b
        b.air += request_us(0)
        b.instr(5)
        b.hub += request_us(0)
        return self._slot(list(self.tags - self.quiet), True)

    def inventory_round(self, mask_value: int, mask_len: int) -> list[tuple[int, int | None]]:
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


FIELD_ON_INSTR = 6  # LOAD_RF_CONFIG, IRQ clear, RF_ON, IRQ read, TX_CONFIG read, RF_OFF


def antenna_time(n_tags: int, instr_us: float, trials: int = 200,
                 seed: int = 1) -> tuple[float, float, float, float]:
    """Mean (air ms, hub ms, rounds, answered slots) for an antenna seeing ``n_tags`` tags.

    UIDs are drawn like real ICODE tags of one reel: a fixed E0 04 01 prefix and a random
    serial, so the low bits the slots use are well mixed.
    """
    rng = random.Random(seed)
    air = hub = rounds = answered = 0.0
    for _ in range(trials):
        tags = {0xE004010000000000 | rng.getrandbits(40) for _ in range(n_tags)}
        b = Budget(instr_us)
        b.hub += pn5180.FIELD_SETTLE_US + FIELD_ON_INSTR * instr_us
        b.air += 1000.0  # ISO 15693: tags may need 1 ms of field before the first request
        result = run_inventory(TimingChip(tags, b))
        assert result.uids == tags
        air += b.air
        hub += b.hub
        rounds += b.rounds
        answered += b.answered_slots
    return air / trials / 1000, hub / trials / 1000, rounds / trials, answered / trials


@functools.cache
def read_ms(n_tags: int, instr_us: float = INSTR_US) -> float:
    """Hub time (ms, computed) of one antenna's read with ``n_tags`` tags: field on, inventory,
    field off. The mean of 40 random UID sets (seeded: the same every run)."""
    return antenna_time(max(0, n_tags), instr_us, trials=40)[1]
