"""Scan-time and read-range budget for the hub, computed (not measured) from the standards.

    .venv/bin/python hardware/tools/scan_budget.py [--instr-us 120] [--block-mm 10]

prints the tables quoted in hardware/README.md:

1. ISO/IEC 15693 air time of every piece of an inventory (ISO/IEC 15693-2 coding and frame
   timing, ISO/IEC 15693-3 t1/t2/t3), for the high data rate, 1-of-4 coding, one subcarrier.
2. Time per antenna for n tags: the firmware's own inventory algorithm
   (sekihub.inventory.run_inventory) runs over random UIDs against a timing model of the chip
   (the bridge's per-read model, firmware_bridge/airtime.py, run by airtime.py beside this file),
   so the number of rounds and slots is the real one; air time is exact per the standard, the
   "hub" column adds an *estimated* cost per PN5180 SPI instruction in MicroPython and the
   firmware's fixed waits (see --instr-us: measure yours and re-run).
3. A full sweep of the board for a mid-game position with the default wiring (5 hubs in
   parallel; each hub scans its antennas one after another).
4. The on-axis field of a circular loop against stack height.

Nothing here touches hardware; everything is arithmetic you can check by hand.
"""

from __future__ import annotations

import argparse
import math
import sys

from airtime import firmware_antenna_time as antenna_time  # beside this file

from firmware_bridge.airtime import (  # noqa: F401 - the model's pieces, re-exported for the tests
    FIELD_ON_INSTR,
    INSTR_US,
    SYMBOL_2BITS,
    T1,
    T1_MAX,
    T2,
    T3,
    VCD_EOF,
    VCD_SOF,
    VICC_BIT,
    VICC_EOF,
    VICC_SOF,
    Budget,
    TimingChip,
    request_us,
    response_us,
)

# a mid-game position: 96 blocks, tall stacks included
SCENARIO = {
    "osaka": 14, "edo": 12, "kyoto": 8, "gifu": 6, "kiyosu": 5, "aizu": 5, "kanazawa": 4,
    "sendai": 3, "ueda": 2, "ishida_recruitment": 8, "tokugawa_recruitment": 8, "mori_box": 5,
    "casualties": 10, "ishida_deployment": 3, "tokugawa_deployment": 3,
}


def sweep(instr_us: float) -> list[tuple[str, int, int, float, float]]:
    """Per hub of the default wiring: (hub, antennas, tags, air ms, hub ms) for SCENARIO."""
    import placement_sheet  # beside this file

    from companion.games.sekigahara.components import default_board

    lay = placement_sheet.layout(default_board())
    cache: dict[int, tuple[float, float]] = {}
    rows = []
    for h in sorted(lay.hub_positions):
        members = [m for m in lay.marks if m.hub == h]
        air = hub = 0.0
        tags = 0
        for m in members:
            n = placement_sheet.share(SCENARIO.get(m.zone, 0), m.channel, m.channels)
            tags += n
            if n not in cache:
                a, t, _, _ = antenna_time(n, instr_us, trials=60)
                cache[n] = (a, t)
            air += cache[n][0]
            hub += cache[n][1]
        rows.append((lay.hub_id(h), len(members), tags, air, hub))
    return rows


def loop_field(ni: float, diameter_mm: float, z_mm: float) -> float:
    """On-axis H (A/m) of a circular loop: N*I*a^2 / (2 (a^2 + z^2)^1.5)."""
    a = diameter_mm / 2000
    z = z_mm / 1000
    return ni * a * a / (2 * math.pow(a * a + z * z, 1.5))


def max_height_mm(ni: float, diameter_mm: float, h_min: float) -> float:
    z = 0.0
    while loop_field(ni, diameter_mm, z) >= h_min and z < 500:
        z += 1
    return z - 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instr-us", type=float, default=INSTR_US,
                        help="estimated MicroPython cost of one PN5180 instruction (us)")
    parser.add_argument("--block-mm", type=float, default=10.0, help="block thickness")
    parser.add_argument("--base-mm", type=float, default=3.0,
                        help="map + cover between antenna and the first tag")
    args = parser.parse_args(argv)

    print("1. ISO/IEC 15693 air time (fc = 13.56 MHz, high rate, 1-of-4, one subcarrier)")
    print(f"   reader symbol (2 bits)  1024/fc = {SYMBOL_2BITS:7.2f} us   -> 26.48 kbit/s")
    print(f"   reader SOF / EOF                 {VCD_SOF:7.2f} / {VCD_EOF:.2f} us")
    print(f"   tag bit                  512/fc = {VICC_BIT:7.2f} us   -> 26.48 kbit/s")
    print(f"   tag SOF / EOF                    {VICC_SOF:7.2f} / {VICC_EOF:.2f} us")
    print(f"   t1 {T1:.1f} us, t2 {T2:.1f} us, t3 = t1max + tSOF {T3:.1f} us")
    print(f"   INVENTORY request, no mask (5 bytes with CRC) {request_us(0):8.1f} us")
    print(f"   INVENTORY response (12 bytes with CRC)        {response_us():8.1f} us")
    slot_tag = T1 + response_us() + T2 + VCD_EOF
    slot_empty = T3 + VCD_EOF
    print(f"   slot with an answer  t1 + response + t2 + EOF {slot_tag:8.1f} us")
    print(f"   empty slot           t3 + EOF                 {slot_empty:8.1f} us")
    print(f"   16 empty slots after a request                {request_us(0) + 16 * slot_empty:8.1f}"
          " us")
    print(f"   empty antenna: one 1-slot probe               {request_us(0) + T3:8.1f} us")
    print()
    print(f"2. Time per antenna (mean of random UIDs; hub = air + {args.instr_us:.0f} us per SPI"
          " instruction + fixed waits, an estimate)")
    print("   tags  rounds  answered slots   air ms   hub ms")
    for n in (0, 1, 2, 4, 8, 12, 16, 24, 32):
        air, hub, rounds, answered = antenna_time(n, args.instr_us)
        print(f"   {n:4d}  {rounds:6.2f}  {answered:14.2f}  {air:7.1f}  {hub:7.1f}")
    print()
    print("3. Full sweep, mid-game position (96 blocks), default wiring, hubs in parallel")
    print("   hub    antennas  tags   air ms   hub ms")
    rows = sweep(args.instr_us)
    for hub_id, n_ant, tags, air, hub in rows:
        print(f"   {hub_id:6s} {n_ant:8d}  {tags:4d}  {air:7.1f}  {hub:7.1f}")
    slowest = max(r[4] for r in rows)
    print(f"   board sweep = slowest hub: {slowest:.0f} ms (about {1000 / slowest:.1f} sweeps/s)")
    print()
    print("4. Read range: on-axis field of a circular loop, H = NI a^2 / (2 (a^2 + z^2)^1.5)")
    print(f"   blocks {args.block_mm:g} mm thick, first tag {args.base_mm:g} mm above the antenna;"
          " ISO 15693 Hmin = 0.15 A/m, x2 margin = 0.30 A/m")
    print("   antenna  NI (A-turns)  max height @0.15 / @0.30   blocks @0.15 / @0.30")
    for d in (38, 50, 90):
        for ni in (0.5, 1.0):
            z1 = max_height_mm(ni, d, 0.15)
            z2 = max_height_mm(ni, d, 0.30)
            b1 = max(0, int((z1 - args.base_mm) // args.block_mm) + 1)
            b2 = max(0, int((z2 - args.base_mm) // args.block_mm) + 1)
            print(f"   {d:4d} mm  {ni:12.1f}  {z1:9.0f} / {z2:3.0f} mm   {b1:10d} / {b2}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
