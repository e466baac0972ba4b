"""``companion hardware bench``: does one antenna read a full stack? (Stage 1 of the build.)

With one hub and one antenna, the builder piles tagged blocks one height at a time, standing
upright (as the rules have blocks in play) and then lying face up (as deployed blocks are). At
each height the bench counts, over a few seconds of raw snapshots (before any debounce), how
often each tag was read, bottom block first (a tag's place is the height at which it first
appeared). The verdict: the antenna reads a full stack if, at the tallest height, every block
is read in at least :data:`PASS_RATE` of the scans, in each posture.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firmware_bridge.bridge import Bridge
from firmware_bridge.readmodel import Posture
from firmware_bridge.wiring import AntennaKey

PASS_RATE = 0.95
"""A block read in fewer scans than this is at the edge of range: the bridge's debounce rides
over a missed read now and then, not over a block that comes and goes."""

Say = Callable[[str], None]
Build = Callable[[Posture, int], None]
"""Set up a stack of that many blocks in that posture (a prompt at the table, or the simulator)."""


@dataclass(frozen=True)
class BenchStep:
    posture: Posture
    height: int
    scans: int
    rates: tuple[float, ...]
    """Read rate of each block, bottom first; blocks never read count 0."""

    @property
    def worst(self) -> float:
        return min(self.rates, default=1.0)

    @property
    def passed(self) -> bool:
        return self.scans > 0 and self.worst >= PASS_RATE

    def line(self) -> str:
        rates = " ".join(f"{r * 100:3.0f}" for r in self.rates)
        verdict = "ok" if self.passed else "LOW" if self.scans else "NO SCANS"
        return (f"{self.posture.value:8} {self.height:2d} high, {self.scans:3d} scans: "
                f"% read bottom->top {rates}  {verdict}")


class _Counter:
    """Raw snapshots of one antenna, counted while ``counting`` is set."""

    def __init__(self, key: AntennaKey) -> None:
        self.key = key
        self.counting = False
        self.scans = 0
        self.reads: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, key: AntennaKey, uids: frozenset[str], at: float) -> None:
        if key != self.key or not self.counting:
            return
        with self.lock:
            self.scans += 1
            self.reads.update(uids)

    def measure(self, seconds: float) -> tuple[int, Counter[str]]:
        with self.lock:
            self.scans, self.reads = 0, Counter()
        self.counting = True
        time.sleep(seconds)
        self.counting = False
        with self.lock:
            return self.scans, Counter(self.reads)


def run_bench(
    bridge: Bridge, key: AntennaKey, heights: Sequence[int], postures: Sequence[Posture],
    seconds: float, build: Build, say: Say, settle_s: float = 0.5,
) -> list[BenchStep]:
    """Measure every (posture, height); ``say`` each result as it comes."""
    counter = _Counter(key)
    stop = bridge.listen_snapshots(counter)
    steps: list[BenchStep] = []
    try:
        for posture in postures:
            order: list[str] = []
            for height in heights:
                build(posture, height)
                time.sleep(settle_s)
                scans, reads = counter.measure(seconds)
                order += sorted((u for u in reads if u not in order), key=lambda u: -reads[u])
                rates = [reads[u] / scans if scans else 0.0 for u in order[:height]]
                rates += [0.0] * (height - len(rates))  # blocks never read at all
                step = BenchStep(posture, height, scans, tuple(rates))
                steps.append(step)
                say(step.line())
    finally:
        stop()
    return steps


def verdict(steps: Sequence[BenchStep]) -> tuple[list[str], bool]:
    """One line per posture and the overall verdict: does the antenna read a full stack?"""
    lines: list[str] = []
    ok = bool(steps)
    for posture in dict.fromkeys(s.posture for s in steps):
        mine = [s for s in steps if s.posture is posture]
        top = mine[-1]
        first_low = next((s for s in mine if not s.passed), None)
        if first_low is None:
            lines.append(f"{posture.value}: PASS, every block of a {top.height}-high stack read "
                         f"in at least {PASS_RATE:.0%} of scans (worst {top.worst:.0%})")
            continue
        ok = False
        lines.append(f"{posture.value}: FAIL from {first_low.height} high: a block read in "
                     f"only {first_low.worst:.0%} of scans (need {PASS_RATE:.0%})")
    lines.append("this antenna reads a full stack: " + ("PASS" if ok else
                 "FAIL (see hardware/README.md, Stage 1: what to change before buying more)"))
    return lines, ok


def parse_heights(text: str) -> list[int]:
    """``1-12`` or ``1,2,4,8``: rising heights from 1 to 40; ValueError otherwise."""
    heights: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.strip().partition("-")
            heights += list(range(int(low), int(high or low) + 1))
    except ValueError:
        raise ValueError(
            f"heights {text!r}: give a range like 1-12 or a list like 1,4,8") from None
    if not heights or heights != sorted(set(heights)) or not 1 <= heights[0] <= heights[-1] <= 40:
        raise ValueError(f"heights {text!r}: rising, each 1..40")
    return heights
