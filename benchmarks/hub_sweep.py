#!/usr/bin/env python3
"""Hub scan time, computed by running the real firmware against the time-modelled PN5180.

Nothing here is measured on hardware. The hub firmware (``sekihub.hub.Hub`` with the real
``sekihub.pn5180`` driver) runs under CPython against ``tests/hardware/hw_fakes.FakePN5180``,
whose clock advances by the ISO/IEC 15693 air time (26.48 kbit/s, t1/t2/t3, SOF/EOF), the
SPI transfer time at the given clock, an *estimated* cost per MicroPython SPI call
(``--call-us``) and estimated BUSY times (see the fake's docstring). The figures are what
that model gives, "computed from the time model".

1. One antenna, by stack height: median and p99 over random UID sets (tags of one reel,
   random strengths so the capture effect occurs, ``--noise`` of the answers damaged).
2. A full-board sweep of the mid-game position of ``hardware/tools/scan_budget.py`` with the
   default wiring: each hub scans its antennas one after another, hubs run in parallel, so
   the board sweep is the slowest hub's cycle. Once as a 1.2 hub (every read full), once as a
   1.3 hub with every antenna focused (quick reads, a full one every fourth: the mean cycle).
3. Protocol 1.3 focus: the busiest hub of that position with three antennas focused (its
   tallest stack marked ``!``, a block's origin a hand may lift from again, and two
   destinations): how often a focused antenna is read again (its revisit) and how often the
   others are.

The 1.3 figures draw from their own seeded generator, so the 1.2 ones stay comparable with
runs before 1.3.

Usage: ``.venv/bin/python benchmarks/hub_sweep.py [--spi-hz 1000000] [--call-us 25]
[--noise 0.02] [--trials 40]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("hardware/firmware", "hardware/tools", "tests/hardware"):
    sys.path.insert(0, str(ROOT / sub))

import placement_sheet  # noqa: E402
from hw_fakes import FakeClock, FakePN5180, FakePort  # noqa: E402
from scan_budget import SCENARIO  # noqa: E402
from sekihub.hub import Antenna, Hub  # noqa: E402
from sekihub.pn5180 import PN5180  # noqa: E402

from companion.games.sekigahara.components import default_board  # noqa: E402
from firmware_bridge import protocol as p  # noqa: E402


def _tags(rng: random.Random, n: int) -> set[int]:
    tags: set[int] = set()
    while len(tags) < n:
        tags.add(0xE004010000000000 | rng.getrandbits(40))
    return tags


def _chip(clock: FakeClock, tags: set[int], rng: random.Random,
          args: argparse.Namespace) -> FakePN5180:
    chip = FakePN5180(clock, tags, spi_hz=args.spi_hz, call_us=args.call_us)
    chip.strength = {uid: rng.choice((1.0, 1.5, 3.0, 8.0)) for uid in tags}
    chip.noise = args.noise
    chip.seed = rng.getrandbits(30)
    return chip


def antenna_ms(n: int, args: argparse.Namespace, rng: random.Random) -> tuple[float, bool]:
    """Time of one inventory of ``n`` tags (field on to field off) and whether all were read."""
    clock = FakeClock()
    tags = _tags(rng, n)
    chip = _chip(clock, tags, rng, args)
    result = PN5180(chip, chip, clock).inventory()
    return clock.us / 1000, result.uids == tags and result.complete


def quick_ms(n: int, args: argparse.Namespace, rng: random.Random) -> float:
    """Time of a quick read (1.3) of a stack of ``n`` known tags, nothing new."""
    clock = FakeClock()
    tags = _tags(rng, n)
    chip = _chip(clock, tags, rng, args)
    PN5180(chip, chip, clock).inventory(quiet=sorted(tags))
    return clock.us / 1000


def _hub(counts: list[int], args: argparse.Namespace,
         rng: random.Random) -> tuple[Hub, FakeClock, FakePort]:
    clock = FakeClock()
    chips = [_chip(clock, _tags(rng, n), rng, args) for n in counts]
    antennas = [Antenna(PN5180(c, c, clock, name=f"PN5180#{i}")) for i, c in enumerate(chips)]
    port = FakePort()
    hub = Hub("hub-x", antennas, port, clock, rate_hz=50)
    hub.start()
    return hub, clock, port


def _focus(hub: Hub, port: FakePort, focus: p.Focus) -> None:
    port.inbox += p.encode(focus, 1)
    hub.service_host()


def quick_cycle_ms(counts: list[int], args: argparse.Namespace, rng: random.Random) -> float:
    """The mean scan cycle of a 1.3 hub with every antenna focused (quick reads) once its
    reads have settled (``FOCUS -`` would read everything in full: nothing in hand)."""
    hub, clock, port = _hub(counts, args, rng)
    _focus(hub, port, p.Focus(tuple(range(len(counts)))))
    for _ in range(2 * len(counts)):  # the first two reads of each antenna are full
        hub.step()
    start = clock.us
    for _ in range(8 * len(counts)):
        hub.step()
    return (clock.us - start) / 1000 / 8


def focus_revisits(counts: list[int], focus: p.Focus, args: argparse.Namespace,
                   rng: random.Random) -> tuple[list[float], list[float]]:
    """Revisit times (ms) of the focused antennas and of the others over 10 s of hub time."""
    hub, clock, port = _hub(counts, args, rng)
    _focus(hub, port, focus)
    last: dict[int, int] = {}
    focused: list[float] = []
    others: list[float] = []
    while clock.us < 10_000_000:
        hub.step()
        clock.sleep_us(200)
        for line in port.take_lines():
            m = p.decode_line(line).message
            if isinstance(m, p.Snapshot) and m.part == m.parts:
                if m.antenna in last and clock.us > 2_000_000:
                    gap = (clock.us - last[m.antenna]) / 1000
                    (focused if m.antenna in focus.antennas else others).append(gap)
                last[m.antenna] = clock.us
    return focused, others


def hub_cycle_ms(counts: list[int], args: argparse.Namespace, rng: random.Random) -> float:
    """One scan cycle of a hub whose antennas see ``counts`` tags (SCENARIO's stacks)."""
    clock = FakeClock()
    chips = [_chip(clock, _tags(rng, n), rng, args) for n in counts]
    antennas = [Antenna(PN5180(c, c, clock, name=f"PN5180#{i}")) for i, c in enumerate(chips)]
    hub = Hub("hub-x", antennas, FakePort(), clock, rate_hz=50)
    hub.start()
    start = clock.us
    for _ in antennas:
        hub.step()
    return (clock.us - start) / 1000


def _p99(values: list[float], q: float = 0.99) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spi-hz", type=int, default=1_000_000)
    parser.add_argument("--call-us", type=int, default=25,
                        help="estimated MicroPython cost of one SPI call (us)")
    parser.add_argument("--noise", type=float, default=0.02,
                        help="share of tag answers received damaged")
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rng13 = random.Random(args.seed + 13)
    print(f"computed from the time model (tests/hardware/hw_fakes.py), not measured: SPI "
          f"{args.spi_hz / 1e6:g} MHz, {args.call_us} us per SPI call (estimate), "
          f"noise {args.noise:g}, {args.trials} trials")
    print("1. one antenna: inventory time by stack height")
    print("   tags  median ms  p99 ms  complete and exact  quick read (1.3), median ms")
    for n in (0, 1, 2, 4, 8, 12, 15, 24):
        times, ok = [], 0
        for _ in range(args.trials):
            ms, good = antenna_ms(n, args, rng)
            times.append(ms)
            ok += good
        quick = statistics.median(quick_ms(n, args, rng13) for _ in range(args.trials))
        print(f"   {n:4d}  {statistics.median(times):9.1f}  {_p99(times):6.1f}  "
              f"{ok:8d}/{args.trials:<9d}  {quick:9.1f}")
    lay = placement_sheet.layout(default_board())
    print("2. full-board sweep, mid-game position (96 blocks), default wiring, hubs in parallel")
    print("   hub     antennas  tags  median ms  p99 ms  1.3 quick, mean ms")
    slowest: list[float] = []
    per_hub: dict[str, list[float]] = {}
    per_hub_quick: dict[str, list[float]] = {}
    busiest: list[int] = []
    for h in sorted(lay.hub_positions):
        # a tray's or box's blocks lie side by side over its modules
        counts = [placement_sheet.share(SCENARIO.get(m.zone, 0), m.channel, m.channels)
                  for m in sorted((m for m in lay.marks if m.hub == h), key=lambda m: m.antenna)]
        runs = [hub_cycle_ms(counts, args, rng) for _ in range(max(5, args.trials // 4))]
        quick = [quick_cycle_ms(counts, args, rng13) for _ in range(max(5, args.trials // 8))]
        per_hub[lay.hub_id(h)] = runs
        per_hub_quick[lay.hub_id(h)] = quick
        tags = sum(counts)
        busiest = max(busiest, counts, key=sum)
        print(f"   {lay.hub_id(h):7s} {len(counts):8d}  {tags:4d}  {statistics.median(runs):9.1f}"
              f"  {_p99(runs):6.1f}  {statistics.median(quick):9.1f}")
    slowest = [max(r[i] for r in per_hub.values()) for i in range(len(next(iter(
        per_hub.values()))))]
    median = statistics.median(slowest)
    print(f"sweep_median_ms={median:.0f} sweep_p99_ms={_p99(slowest):.0f} "
          f"sweeps_per_s={1000 / median:.2f}")
    quick_slowest = [max(r[i] for r in per_hub_quick.values())
                     for i in range(len(next(iter(per_hub_quick.values()))))]
    print(f"quick_sweep_median_ms={statistics.median(quick_slowest):.0f}"
          " (1.3, every antenna focused)")
    origin = busiest.index(max(busiest))
    lit = [i for i in range(len(busiest)) if i != origin][:2]
    print(f"3. focus on the busiest hub ({sum(busiest)} tags): stacks of {busiest[origin]}, "
          f"{busiest[lit[0]]} and {busiest[lit[1]]} tags")
    for marked in (frozenset({origin}), frozenset()):
        focus = p.Focus((origin, *lit), marked)
        focused, others = focus_revisits(busiest, focus, args, rng13)
        print(f"   FOCUS {p.encode(focus, 0).split()[2].decode():14s} "
              f"focused_revisit_ms_p50={statistics.median(focused):.0f} "
              f"focused_revisit_ms_p90={_p99(focused, 0.9):.0f} "
              f"others_revisit_ms_p50={statistics.median(others):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
