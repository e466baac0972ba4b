"""``companion hardware bench``: does one antenna read a full stack? (Stage 1 of the build.)

With one hub and one antenna, the builder piles tagged blocks one height at a time, standing
upright (as the rules have blocks in play) and then lying face up (as deployed blocks are). At
each height the bench counts, over a fixed number of **full** reads (raw snapshots before any
debounce; a protocol 1.3 hub is asked to read the antenna in full every time, and a quick read,
which does not ask known tags again, never counts), how often each tag was missed, bottom block
first (a tag's place is the height at which it first appeared).

The verdict has a stated confidence: a block is ``ok`` when the one-sided 95 % Clopper-Pearson
upper bound on its miss rate is at most :data:`MAX_MISS` (100 reads allow one miss, 59 reads
none), ``LOW`` when the lower bound is above it, ``unsure`` otherwise. The antenna reads a full
stack when every block of the tallest stack is ``ok`` in each posture.

Two more measurements come with it: the read times the hub reports (protocol 1.3 ``ms=``,
docs/protocol.md 4.2), fitted to :func:`firmware_bridge.airtime.read_ms` for the hub's time per
SPI instruction (Stage 1b), and how often a ``neighbour`` antenna hears the stack. The SPI soak
test (:func:`run_soak`) repeats the hubs' self-test, each an identity read of every reader over
SPI, and counts the errors.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from firmware_bridge import protocol as p
from firmware_bridge.airtime import read_ms
from firmware_bridge.bridge import AntennaStatus, Bridge
from firmware_bridge.readmodel import Posture
from firmware_bridge.wiring import AntennaKey

MAX_MISS = 0.05
"""A block missed in more reads than this is at the edge of range: the bridge's debounce rides
over a missed read now and then, not over a block that comes and goes."""
PASS_RATE = 1 - MAX_MISS
CONFIDENCE = 0.95
"""One-sided, for each bound on a miss rate."""
DEFAULT_READS = 100
"""Full reads per height: enough for ``ok`` with one miss (bound 4.7 %), or none in 59."""

Say = Callable[[str], None]
Build = Callable[[Posture, int], None]
"""Set up a stack of that many blocks in that posture (a prompt at the table, or the simulator)."""


def _binom_cdf(k: int, n: int, p_: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p_), exactly (n is a few hundred at most)."""
    return math.fsum(math.comb(n, i) * p_ ** i * (1 - p_) ** (n - i) for i in range(k + 1))


def miss_bounds(misses: int, reads: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Clopper-Pearson (exact binomial) one-sided bounds on a miss rate: with
    ``confidence``, the true rate is at least the first and at most the second."""
    if reads <= 0:
        return 0.0, 1.0
    alpha = 1 - confidence

    def solve(f: Callable[[float], float]) -> float:  # f rises from <0 to >0 on [0, 1]
        low, high = 0.0, 1.0
        for _ in range(60):
            mid = (low + high) / 2
            low, high = (mid, high) if f(mid) < 0 else (low, mid)
        return (low + high) / 2

    upper = 1.0 if misses >= reads else solve(lambda q: alpha - _binom_cdf(misses, reads, q))
    lower = 0.0 if misses == 0 else solve(
        lambda q: (1 - _binom_cdf(misses - 1, reads, q)) - alpha)
    return lower, upper


def block_verdict(misses: int, reads: int) -> str:
    """``ok``, ``LOW`` or ``unsure`` for a block missed ``misses`` times in ``reads``."""
    lower, upper = miss_bounds(misses, reads)
    if upper <= MAX_MISS:
        return "ok"
    return "LOW" if lower > MAX_MISS else "unsure"


@dataclass(frozen=True)
class BenchStep:
    posture: Posture
    height: int
    reads: int
    """Full reads counted (quick reads are not: they do not ask the known tags again)."""
    misses: tuple[int, ...]
    """Reads that missed each block, bottom first; a block never read missed every one."""
    read_ms: tuple[int, ...] = ()
    """The read times the hub reported (protocol 1.3), full reads only."""
    neighbour_reads: int = 0
    neighbour_heard: int = 0
    """The neighbour's reads, and those that listed a block of this stack."""

    @property
    def rates(self) -> tuple[float, ...]:
        return tuple(1 - m / self.reads if self.reads else 0.0 for m in self.misses)

    @property
    def verdicts(self) -> tuple[str, ...]:
        return tuple(block_verdict(m, self.reads) for m in self.misses)

    @property
    def worst(self) -> float:
        return min(self.rates, default=1.0)

    @property
    def passed(self) -> bool:
        return self.reads > 0 and all(v == "ok" for v in self.verdicts)

    @property
    def failed(self) -> bool:
        return self.reads == 0 or "LOW" in self.verdicts

    def line(self) -> str:
        rates = " ".join(f"{r * 100:3.0f}" for r in self.rates)
        verdict = ("NO READS" if not self.reads else "ok" if self.passed
                   else "LOW" if self.failed else "unsure")
        text = (f"{self.posture.value:8} {self.height:2d} high, {self.reads:3d} reads: "
                f"% read bottom->top {rates}  {verdict}")
        if self.read_ms:
            text += (f"; read time median {statistics.median(self.read_ms):.0f} ms, "
                     f"worst {max(self.read_ms)} ms")
        if self.neighbour_reads:
            text += (f"; the neighbour heard this stack in {self.neighbour_heard} of its "
                     f"{self.neighbour_reads} reads")
        return text


@dataclass
class _Tally:
    reads: int = 0
    quick: int = 0
    tags: Counter[str] = field(default_factory=Counter)
    read_ms: list[int] = field(default_factory=list)
    neighbour: list[frozenset[str]] = field(default_factory=list)


class _Counter:
    """Raw snapshots of one antenna (and its neighbour), counted while ``counting`` is set.

    The kind and time of each read come from the bridge's :class:`AntennaStatus`, which it
    updates before it calls the raw listeners: a read is full if ``full_reads`` went up, quick
    if ``quick_reads`` did, and full if neither did (a hub before protocol 1.3: all its reads
    are full)."""

    def __init__(self, bridge: Bridge, key: AntennaKey, neighbour: AntennaKey | None,
                 wanted: int) -> None:
        self.bridge, self.key, self.neighbour, self.wanted = bridge, key, neighbour, wanted
        self.counting = False
        self.tally = _Tally()
        self.seen: tuple[int, int] = (0, 0)
        self.lock = threading.Lock()
        self.enough = threading.Event()

    def _status(self, key: AntennaKey) -> AntennaStatus | None:
        hub = self.bridge.hubs().get(key.hub)
        return hub.antennas.get(key.antenna) if hub is not None else None

    def __call__(self, key: AntennaKey, uids: frozenset[str], at: float) -> None:
        if key == self.neighbour and self.counting:
            with self.lock:
                self.tally.neighbour.append(uids)
            return
        if key != self.key:
            return
        status = self._status(key)
        counts = (status.full_reads, status.quick_reads) if status else (0, 0)
        quick = counts[1] > self.seen[1]
        reported = counts != self.seen
        self.seen = counts
        if not self.counting:
            return
        with self.lock:
            if quick:
                self.tally.quick += 1
                return
            self.tally.reads += 1
            self.tally.tags.update(uids)
            if reported and status is not None and status.read_ms:
                self.tally.read_ms.append(status.read_ms[-1])
            if self.tally.reads >= self.wanted:
                self.enough.set()

    def measure(self, seconds: float) -> _Tally:
        """Count until ``wanted`` full reads or ``seconds``, whichever comes first."""
        with self.lock:
            self.tally = _Tally()
            self.enough.clear()
        self.counting = True
        self.enough.wait(seconds)
        self.counting = False
        with self.lock:
            return self.tally


def _focus(bridge: Bridge, key: AntennaKey, neighbour: AntennaKey | None, on: bool) -> None:
    """Ask a 1.3 hub to read the bench's antennas first and always in full (or no longer)."""
    hub = bridge.hubs().get(key.hub)
    if hub is None or hub.link is None or hub.hello.protocol < (1, 3):
        return
    antennas = tuple(k.antenna for k in (key, neighbour) if k is not None and k.hub == key.hub)
    hub.link.send(p.Focus(antennas, frozenset(antennas)) if on else p.Focus())


def run_bench(
    bridge: Bridge, key: AntennaKey, heights: Sequence[int], postures: Sequence[Posture],
    seconds: float, build: Build, say: Say, settle_s: float = 0.5,
    reads: int = DEFAULT_READS, neighbour: AntennaKey | None = None,
) -> list[BenchStep]:
    """Measure every (posture, height) over ``reads`` full reads (at most ``seconds`` each);
    ``say`` each result as it comes."""
    counter = _Counter(bridge, key, neighbour, reads)
    stop = bridge.listen_snapshots(counter)
    _focus(bridge, key, neighbour, True)
    steps: list[BenchStep] = []
    try:
        for posture in postures:
            order: list[str] = []
            for height in heights:
                build(posture, height)
                time.sleep(settle_s)
                tally = counter.measure(seconds)
                seen = tally.tags
                order += sorted((u for u in seen if u not in order), key=lambda u: -seen[u])
                stack = order[:height]
                misses = [tally.reads - seen[u] for u in stack]
                misses += [tally.reads] * (height - len(misses))  # blocks never read at all
                heard = sum(1 for uids in tally.neighbour if uids & set(stack))
                step = BenchStep(posture, height, tally.reads, tuple(misses),
                                 tuple(tally.read_ms), len(tally.neighbour), heard)
                steps.append(step)
                say(step.line())
    finally:
        stop()
        _focus(bridge, key, neighbour, False)
    return steps


def verdict(steps: Sequence[BenchStep]) -> tuple[list[str], bool]:
    """One line per posture and the overall verdict: does the antenna read a full stack?"""
    lines: list[str] = []
    ok, unsure = bool(steps), False
    for posture in dict.fromkeys(s.posture for s in steps):
        mine = [s for s in steps if s.posture is posture]
        top = mine[-1]
        first_low = next((s for s in mine if s.failed), None)
        if top.passed and first_low is None:
            lines.append(f"{posture.value}: PASS, every block of a {top.height}-high stack "
                         f"missed in at most {MAX_MISS:.0%} of reads, {CONFIDENCE:.0%} sure "
                         f"({top.reads} reads, worst block read in {top.worst:.0%})")
            continue
        ok = False
        if first_low is not None:
            lines.append(f"{posture.value}: FAIL from {first_low.height} high: a block read in "
                         f"only {first_low.worst:.0%} of {first_low.reads} reads, missed in "
                         f"more than {MAX_MISS:.0%} ({CONFIDENCE:.0%} sure)")
            continue
        unsure = True
        lines.append(f"{posture.value}: NOT SURE at {top.height} high: {top.reads} reads cannot "
                     f"tell a block read in {top.worst:.0%} from one missed in more than "
                     f"{MAX_MISS:.0%}; read more (--reads {max(2 * top.reads, 100)})")
    lines.append("this antenna reads a full stack: " + (
        "PASS" if ok else "NOT SURE (read more)" if unsure and not any(
            s.failed for s in steps) else
        "FAIL (see hardware/README.md, Stage 1: what to change before buying more)"))
    return lines, ok


def fit_instr_us(steps: Sequence[BenchStep],
                 model: Callable[[int, float], float] = read_ms) -> float | None:
    """The time per SPI instruction (us) at which the model's full-read times best match the
    reported ones (the medians at each height, summed): None without read times. The model's
    time rises with the instruction time, so bisect on the summed difference."""
    measured = [(s.height, statistics.median(s.read_ms)) for s in steps if s.read_ms]
    if not measured:
        return None

    def excess(instr_us: float) -> float:
        return sum(model(h, instr_us) - m for h, m in measured)

    low, high = 0.0, 2000.0
    if excess(low) >= 0:
        return 0.0
    if excess(high) <= 0:
        return high
    while high - low > 1.0:
        mid = round((low + high) / 2)
        low, high = (mid, high) if excess(mid) < 0 else (low, mid)
    return (low + high) / 2


@dataclass(frozen=True)
class SoakResult:
    tests: int
    errors: int
    faults: int
    """Reader faults the hub reported for the antenna during the bench and soak."""

    def lines(self, key: AntennaKey) -> list[str]:
        _, upper = miss_bounds(self.errors, self.tests)
        verdict = "PASS" if self.errors == 0 and self.faults == 0 else "FAIL"
        return [f"SPI soak on {key}: {self.tests} identity reads, {self.errors} errors, "
                f"{self.faults} reader faults; error rate under {upper:.1%} "
                f"({CONFIDENCE:.0%} sure)",
                "the SPI wiring is clean: " + (verdict if verdict == "PASS" else
                "FAIL (check the jumpers, the ground beside each signal, the bypass "
                "capacitors; hardware/README.md section 4)")]


def run_soak(bridge: Bridge, key: AntennaKey, tests: int, faults_before: int,
             say: Say) -> SoakResult:
    """Ask the hubs for ``tests`` self-tests (each reads every reader's identity over SPI) and
    count the answers for ``key`` that are not PASS."""
    errors = 0
    for i in range(tests):
        result = bridge.self_test().get(key, "no answer")
        if result != "PASS":
            errors += 1
            say(f"self-test {i + 1} of {key}: {result}")
    return SoakResult(tests, errors, reader_faults(bridge, key) - faults_before)


def reader_faults(bridge: Bridge, key: AntennaKey) -> int:
    """FAULT frames the bridge has counted for this antenna so far."""
    hub = bridge.hubs().get(key.hub)
    ant = hub.antennas.get(key.antenna) if hub is not None else None
    return ant.faults if ant is not None else 0


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
