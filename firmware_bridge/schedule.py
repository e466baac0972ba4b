"""The scan schedule: which antennas may switch their field on in which time slot.

Two PN5180 antennas closer than a few millimetres (edge to edge) couple: while one has its
field on, the other's RF_ON collision check fails. A hub only ever drives one of its own
antennas at a time, but hubs run side by side. So the host works out, from where each antenna
lies (:func:`placement_geometry`, the placement sheet's layout) and the wiring map (which hub
and antenna reads each zone), which antenna pairs are **neighbours** (:func:`neighbour_pairs`),
and colours that graph (:func:`plan_schedule`): neighbours, on one hub or on two, never get
the same slot. Each hub is then given its slot table (``SCHED``, protocol 1.1, see
docs/protocol.md section 5.1) and kept in step with ``SYNC``.

The slot lengths follow the stacks the hubs read (:func:`needed_slot_ms`, :class:`SlotSizer`,
:class:`SlotLengths`): each slot must hold the reads of the antennas every hub has in it, timed
with the one per-read model of :mod:`firmware_bridge.airtime` (computed) until the hubs report
how long their reads take (protocol 1.3, :func:`measured_read_times`). While the host has a
focus (docs/protocol.md 5.2) a slot holds its focused antennas' reads, mostly quick, and a
little background, so the antennas that matter come round often. From protocol 1.2 every
slot has its own length (slot k as long as slot k's busiest hub needs); a 1.1 hub takes one
length for every slot, so while one is scheduled every hub gets the longest
(:meth:`ScanSchedule.uniform`): all hubs must agree where each slot begins.

Everything here is pure: geometry, wiring and tag counts in, a :class:`ScanSchedule` and a slot
length out (the game's layout is read through :class:`~companion.core.table.GameTable`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from companion.core.datafiles import DataFileError
from companion.core.table import GameTable
from firmware_bridge import protocol as p
from firmware_bridge.airtime import quick_read_ms, read_ms
from firmware_bridge.wiring import AntennaKey
from firmware_bridge.zones import active_table

__all__ = ["NoLayout", "ReadTimes", "ScanSchedule", "SlotLengths", "SlotSizer", "Spot",
           "antenna_spots", "clamp_period", "colour", "hub_speed", "measured_read_times",
           "needed_period_ms", "needed_slot_ms", "neighbour_pairs", "plan_schedule",
           "quick_read_ms", "read_ms"]

NEIGHBOUR_MM = 10.0
"""Antennas closer than this edge to edge are neighbours (48 pairs on Sekigahara's layout, 21 of
them the modules of one tray or box)."""
SLOT_MS = 50
"""Default slot length: a few empty antennas (about 6 ms each, computed) or one short stack."""
GUARD_MS = 2
"""Default guard at each end of a slot; two hubs may be up to 2 x guard apart (docs/protocol.md
5.1 computes the drift budget)."""

PERIOD_STEP_MS = 10
"""Adaptive slot lengths are whole multiples of this (fewer re-sent SCHEDs)."""
FOCUS_STEP_MS = 5
"""... and of this while the host has a focus: a focused slot's every ms is revisit time."""
SHRINK_AFTER_S = 10.0
"""A slot shrinks only after the stacks needed less for this long (hysteresis)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one antenna lies: centre and diameter, in mm, on ``sheet`` (the map, or the tray
    templates beside it: antennas on different sheets are never neighbours)."""

    x: float
    y: float
    diameter: float
    sheet: str = "map"


Spots = Mapping[str, Spot | Sequence[Spot]]
"""Zone -> where its antenna lies, or its antennas' spots in wiring order (a tray of modules)."""


class NoLayout(ValueError):
    """The served game's antenna layout cannot be had: no scan schedule can be planned."""


@dataclass(frozen=True, slots=True)
class NeighbourPair:
    """Two antennas whose loops are ``gap_mm`` apart edge to edge (negative: they overlap)."""

    a: AntennaKey
    b: AntennaKey
    gap_mm: float

    @property
    def across_hubs(self) -> bool:
        return self.a.hub != self.b.hub


@dataclass(frozen=True)
class ScanSchedule:
    """Slot of every placed antenna, ``count`` slots, and the neighbour pairs it keeps apart.

    Every slot lasts ``period_ms``, unless ``lengths`` gives each its own (protocol 1.2; then
    ``period_ms`` is the longest of them). Build those with :meth:`with_lengths`."""

    count: int
    slots: dict[AntennaKey, int]
    pairs: tuple[NeighbourPair, ...]
    period_ms: int = SLOT_MS
    guard_ms: int = GUARD_MS
    lengths: tuple[int, ...] = ()
    _by_key: dict[AntennaKey, list[tuple[AntennaKey, float]]] = field(
        default_factory=dict, repr=False, compare=False)

    @property
    def slot_ms(self) -> tuple[int, ...]:
        """The length of each slot (ms), slot 0's first."""
        return self.lengths or (self.period_ms,) * self.count

    @property
    def per_slot(self) -> bool:
        """Whether the slots have different lengths (only protocol 1.2 hubs can keep them)."""
        return bool(self.lengths)

    @property
    def cycle_ms(self) -> int:
        return sum(self.slot_ms)

    def with_lengths(self, lengths: Sequence[int]) -> ScanSchedule:
        """This schedule with slot ``k`` lasting ``lengths[k]`` ms (all equal: one length)."""
        if len(lengths) != self.count:
            raise ValueError(f"{len(lengths)} slot lengths for {self.count} slots")
        if len(set(lengths)) == 1:
            return dataclasses.replace(self, period_ms=lengths[0], lengths=())
        return dataclasses.replace(self, period_ms=max(lengths), lengths=tuple(lengths))

    def uniform(self) -> ScanSchedule:
        """Every slot as long as the longest: what a protocol 1.1 hub can keep."""
        return dataclasses.replace(self, lengths=())

    def position(self, ms: int) -> tuple[int, int]:
        """``(slot, ms into it)`` of a slot clock ``ms`` after the start of a cycle."""
        within = ms % self.cycle_ms
        for slot, length in enumerate(self.slot_ms):
            if within < length:
                return slot, within
            within -= length
        raise AssertionError("unreachable: within < cycle")

    def neighbours_of(self, key: AntennaKey) -> list[tuple[AntennaKey, float]]:
        """The antennas neighbouring ``key`` and their gaps (mm), closest first."""
        if not self._by_key:
            for pair in self.pairs:
                self._by_key.setdefault(pair.a, []).append((pair.b, pair.gap_mm))
                self._by_key.setdefault(pair.b, []).append((pair.a, pair.gap_mm))
            for near in self._by_key.values():
                near.sort(key=lambda item: (item[1], item[0]))
        return list(self._by_key.get(key, []))

    def for_hub(self, hub: str, antennas: int) -> p.Schedule:
        """The ``SCHED`` for ``hub`` with ``antennas`` antennas: every antenna gets a slot.

        An antenna the wiring map does not place (a spare channel) has no known neighbours: it
        goes to the slot where this hub has least to do, so it costs the least time.
        """
        table = [self.slots.get(AntennaKey(hub, a)) for a in range(antennas)]
        load = [sum(1 for s in table if s == k) for k in range(self.count)]
        slots = []
        for s in table:
            if s is None:
                s = min(range(self.count), key=lambda k: (load[k], k))
                load[s] += 1
            slots.append(s)
        period: int | tuple[int, ...] = self.lengths or self.period_ms
        return p.Schedule(self.count, period, self.guard_ms, tuple(slots))


def _placed(table: Mapping[AntennaKey, str], spots: Spots) -> dict[AntennaKey, Spot]:
    """Each antenna's spot: the n-th antenna of a zone (in hub and antenna order) on the zone's
    n-th module (its last, if the wiring gives the zone more antennas than the layout)."""
    placed: dict[AntennaKey, Spot] = {}
    seen: dict[str, int] = {}
    for key in sorted(table):
        zone = table[key]
        if zone not in spots:
            continue
        here = spots[zone]
        modules = (here,) if isinstance(here, Spot) else tuple(here)
        n = seen[zone] = seen.get(zone, -1) + 1
        placed[key] = modules[min(n, len(modules) - 1)]
    return placed


def neighbour_pairs(
    table: Mapping[AntennaKey, str], spots: Spots, threshold_mm: float = NEIGHBOUR_MM
) -> list[NeighbourPair]:
    """Every pair of antennas closer than ``threshold_mm`` edge to edge.

    ``table`` is the wiring (antenna -> zone), ``spots`` where each zone's antennas lie.
    Antennas that share one zone (a tray covered by several modules side by side) are neighbours
    (gap 0); antennas on different sheets are not; a zone without a spot is left out (it cannot
    be placed).
    """
    placed = _placed(table, spots)
    pairs = []
    for a, b in itertools.combinations(sorted(placed), 2):
        sa, sb = placed[a], placed[b]
        if table[a] == table[b]:
            gap = 0.0
        elif sa.sheet != sb.sheet:
            continue
        else:
            gap = math.dist((sa.x, sa.y), (sb.x, sb.y)) - (sa.diameter + sb.diameter) / 2
        if gap < threshold_mm:
            pairs.append(NeighbourPair(a, b, round(gap, 2)))
    return pairs


def colour(nodes: list[AntennaKey], pairs: list[NeighbourPair]) -> dict[AntennaKey, int]:
    """Slots for ``nodes`` so that no pair shares one (DSatur greedy colouring: the node with the
    most differently coloured neighbours first, then the most neighbours, then by name; each
    takes the lowest free slot). Deterministic."""
    adjacent: dict[AntennaKey, set[AntennaKey]] = {n: set() for n in nodes}
    for pair in pairs:
        adjacent.setdefault(pair.a, set()).add(pair.b)
        adjacent.setdefault(pair.b, set()).add(pair.a)
    slots: dict[AntennaKey, int] = {}
    todo = set(adjacent)
    while todo:
        def rank(n: AntennaKey) -> tuple[int, int, tuple[str, int]]:
            seen = {slots[m] for m in adjacent[n] if m in slots}
            return (-len(seen), -len(adjacent[n]), (n.hub, n.antenna))
        node = min(todo, key=rank)
        taken = {slots[m] for m in adjacent[node] if m in slots}
        slots[node] = next(k for k in itertools.count() if k not in taken)
        todo.remove(node)
    return slots


def plan_schedule(
    table: Mapping[AntennaKey, str], spots: Spots,
    threshold_mm: float = NEIGHBOUR_MM, period_ms: int = SLOT_MS, guard_ms: int = GUARD_MS,
) -> ScanSchedule:
    """The schedule for the wiring ``table`` over the antenna ``spots``."""
    pairs = neighbour_pairs(table, spots, threshold_mm)
    slots = colour(sorted(table), pairs)
    count = max(slots.values(), default=0) + 1
    if count > p.MAX_SLOTS:
        raise ValueError(f"the antennas need {count} slots, a schedule has at most {p.MAX_SLOTS}")
    return ScanSchedule(count, slots, tuple(pairs), period_ms, guard_ms)


def antenna_spots(table: GameTable | None = None) -> dict[str, tuple[Spot, ...]]:
    """Zone -> its antennas' spots, from the served game's antenna layout (its package data,
    :meth:`~companion.core.table.GameTable.antenna_layout`). :class:`NoLayout`, saying why,
    when the game has none or its file is broken."""
    game = table or active_table()
    try:
        layout = game.antenna_layout()
    except (DataFileError, OSError) as exc:
        raise NoLayout(f"the antenna layout of {game.name} cannot be read: {exc}") from exc
    if layout is None:
        raise NoLayout(f"{game.name} has no antenna layout (no placement sheet)")
    return {zone: tuple(Spot(s.x, s.y, s.diameter, s.sheet) for s in spots)
            for zone, spots in layout.zones.items()}


# --------------------------------------------------------------------------- slot length


def clamp_period(ms: float, guard_ms: int = GUARD_MS, step_ms: int = PERIOD_STEP_MS) -> int:
    """``ms`` rounded up to a multiple of ``step_ms`` and kept inside the protocol's limits
    (``MIN_SLOT_MS``..``MAX_SLOT_MS``, and long enough for its two guards)."""
    rounded = math.ceil(ms / step_ms - 1e-9) * step_ms
    return max(p.MIN_SLOT_MS, 2 * guard_ms + 1, min(p.MAX_SLOT_MS, rounded))


MEASURED_MIN_READS = 8
"""Reads an antenna's hub must have timed before its measured times replace the model."""
MEASURED_PERCENTILE = 0.9
"""The share of an antenna's recent reads (of one kind) its slot must hold: a high percentile,
so that one read slowed by a retry or a busy USB port does not stretch the slot."""
SPEED_BOUNDS = (0.5, 4.0)
"""A hub's measured speed against the model (:func:`hub_speed`) is taken within these."""
SPEED_MIN_ANTENNAS = 3
"""... once this many of its antennas have timed reads."""
SNAP_MS = 2.0
"""A hub's time between two focused reads, sending the first one's SNAP (estimated)."""
BACKGROUND_MS = 10
"""While the host has a focus (docs/protocol.md 5.2): what a slot keeps, beyond its focused
antennas' reads, for the hub's other antennas there (an empty one's read is 6-8 ms,
computed). The hub reads one of them only when its last read fits in what is left, so a stack
there that nobody may touch now waits until the focus changes (a move's few seconds)."""


@dataclass(frozen=True, slots=True)
class ReadTimes:
    """How long one antenna's reads take on its hub (ms): a full read, and a quick read that
    finds nothing new (protocol 1.3: known tags re-quieted, only newcomers asked for)."""

    full_ms: float
    quick_ms: float


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank ``share`` percentile of ``ordered`` (ascending, not empty)."""
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered) - 1e-9)))
    return float(ordered[rank - 1])


def measured_read_times(
    reads_ms: Sequence[int], full_reads: int, quick_reads: int,
    min_reads: int = MEASURED_MIN_READS, share: float = MEASURED_PERCENTILE,
) -> ReadTimes | None:
    """An antenna's read times from what its hub measured (protocol 1.3: the last reads'
    ``ms=``, and how many of its reads were full and quick), or None while it has fewer than
    ``min_reads``: then the model stands.

    The hub does not say which of the recent times were quick, but a quick read never takes
    longer than a full one of the same stack: of the ``reads_ms`` sorted, the fastest share
    ``quick / (full + quick)`` are taken as the quick ones. Each kind's time is the ``share``
    percentile of its own reads (an outlier, a retry or a stalled port, does not count), kept
    under the protocol's longest slot. With no full read counted, both are the quick time; with
    no quick one, both the full time.
    """
    if len(reads_ms) < min_reads:
        return None
    ordered = sorted(min(max(0, ms), p.MAX_SLOT_MS) for ms in reads_ms)
    quick_share = quick_reads / max(1, full_reads + quick_reads)
    if full_reads == 0 or quick_reads == 0:
        quick = full = _percentile(ordered, share)
    else:
        quick = _percentile(ordered, share * quick_share)
        full = _percentile(ordered, quick_share + share * (1.0 - quick_share))
    return ReadTimes(float(full), float(quick))


def hub_speed(
    counts: Mapping[AntennaKey, int], measured: Mapping[AntennaKey, ReadTimes],
    read: Callable[[int], float] = read_ms,
) -> dict[str, float]:
    """How much slower (> 1) or faster than the model each hub reads: the median over its
    timed antennas of measured / modelled full read for the tags each holds now, kept within
    :data:`SPEED_BOUNDS`; only for a hub with :data:`SPEED_MIN_ANTENNAS` timed (one slow
    antenna, or a stack that changed since its reads were timed, is one of several)."""
    ratios: dict[str, list[float]] = {}
    for key, timed in measured.items():
        model = read(counts.get(key, 0))
        if model > 0:
            ratios.setdefault(key.hub, []).append(timed.full_ms / model)
    low, high = SPEED_BOUNDS
    return {hub: min(high, max(low, statistics.median(r))) for hub, r in ratios.items()
            if len(r) >= SPEED_MIN_ANTENNAS}


def needed_slot_ms(
    tables: Mapping[str, Sequence[int]], counts: Mapping[AntennaKey, int], count: int,
    guard_ms: int = GUARD_MS, read: Callable[[int], float] = read_ms,
    *, quick: Callable[[int, int], float] = quick_read_ms,
    focus: Collection[AntennaKey] = frozenset(),
    focus_full: Collection[AntennaKey] = frozenset(),
    measured: Mapping[AntennaKey, ReadTimes] | None = None,
    unfocused_hubs: Collection[str] = frozenset(),
    watch: int = 0,
    watch_read: Callable[[int], float] | None = None,
) -> tuple[int, ...]:
    """How long each of the ``count`` slots must be for every hub's reads, from the tag counts
    its antennas last saw (protocol 1.2: per-slot lengths).

    ``tables`` is each hub's slot table (``ScanSchedule.for_hub(...).slots``), ``counts`` the
    tags each antenna read (absent: 0). A hub reads a slot's antennas one after another, so
    slot ``k`` on a hub needs the sum of their reads plus a guard at each end; slot ``k`` must
    be as long as the longest of those over the hubs, rounded up by :func:`clamp_period` (a
    slot no hub has an antenna in gets its two guards, rounded up).

    Read times come from the model, ``read(n)`` for a full read of ``n`` tags and
    ``quick(known, new)`` for a quick one (:mod:`firmware_bridge.airtime`, computed), until the
    hubs have timed their reads (``measured``, :func:`measured_read_times`). Then an antenna's
    read takes what its hub measured; once the hub's speed is known (:func:`hub_speed`), at
    least the model scaled to it, which is also what an antenna not timed yet takes: a stack
    that just grew would otherwise be given the time of the smaller one it was, until enough of
    its new reads were timed.

    Without a ``focus`` every read counts as full. While the host has one (docs/protocol.md
    5.2), a hub reads a slot's focused antennas first and its others only in what is left, so
    slot ``k`` on a hub that has focused antennas in it holds their reads and
    :data:`BACKGROUND_MS` for the rest: a full read for those in ``focus_full`` (a stack a hand
    may lift from) and for an empty one, a watch read (``watch_read(watch)``) while the focus
    names ``watch`` blocks in hand, else a quick read that finds nothing new. A hub with no
    focused antenna in slot ``k`` gets :data:`BACKGROUND_MS`: while focused, a hub starts an
    unfocused read only if it fits what is left of the window (5.2). Every focused read also
    costs :data:`SNAP_MS`. Focused slots are rounded up to :data:`FOCUS_STEP_MS` only: each ms
    is the focused antennas' revisit. A focused read that finds a block put down, or the full
    read just after it, may overrun its window: a neighbour's collision check and retry absorb
    it (5.1), and the slot is not kept long for the rare read. The ``unfocused_hubs`` (below
    protocol 1.3: no FOCUS) read every antenna in full in turn, focus or not: their slots hold
    that, as without a focus.
    """
    known = measured or {}
    focused = set(focus)
    speed = hub_speed(counts, known, read)

    def times(key: AntennaKey) -> ReadTimes:
        n = counts.get(key, 0)
        ratio = speed.get(key.hub, 1.0)
        model = ReadTimes(read(n) * ratio, (quick(n, 0) if n else read(n)) * ratio)
        timed = known.get(key)
        if timed is None:
            return model
        if key.hub not in speed:
            return timed
        return ReadTimes(max(timed.full_ms, model.full_ms), max(timed.quick_ms, model.quick_ms))

    def focused_ms(key: AntennaKey) -> float:
        t = times(key)
        if key in focus_full or not counts.get(key, 0):
            return t.full_ms
        if watch and watch_read is not None:  # watched for the blocks in hand: their probes
            return watch_read(watch) * speed.get(key.hub, 1.0)
        return t.quick_ms

    longest = [0.0] * count
    for hub, slots in tables.items():
        keys: list[list[AntennaKey]] = [[] for _ in range(count)]
        for antenna, slot in enumerate(slots):
            keys[slot].append(AntennaKey(hub, antenna))
        for slot, here in enumerate(keys):
            if not focused or hub in unfocused_hubs:
                need = sum(times(k).full_ms for k in here)
            elif mine := [k for k in here if k in focused]:
                need = (sum(focused_ms(k) + SNAP_MS for k in mine)
                        + (BACKGROUND_MS if len(mine) < len(here) else 0))
            else:  # only unfocused ones: each starts only if its last read fits (5.2)
                need = BACKGROUND_MS if here else 0.0
            longest[slot] = max(longest[slot], need)
    step = FOCUS_STEP_MS if focused else PERIOD_STEP_MS
    return tuple(clamp_period(ms + 2 * guard_ms, guard_ms, step) for ms in longest)


def needed_period_ms(
    tables: Mapping[str, Sequence[int]], counts: Mapping[AntennaKey, int],
    guard_ms: int = GUARD_MS, read: Callable[[int], float] = read_ms,
) -> int:
    """The one slot length every hub's reads fit in (protocol 1.1: every slot this long): the
    longest of :func:`needed_slot_ms`."""
    count = max((s + 1 for slots in tables.values() for s in slots), default=1)
    return max(needed_slot_ms(tables, counts, count, guard_ms, read))


@dataclass(frozen=True, slots=True)
class SlotSizer:
    """The slot length now, and since when (and by how much at most) the stacks have needed
    less: the hysteresis. :meth:`update` is pure: it returns the next state.

    A slot grows at once when the stacks need more (a read would overrun its slot). It shrinks
    only once they have needed less without a break for ``shrink_after_s``, and then to the most
    they needed in that time, so one short lull does not make the next tall stack overrun.
    """

    period_ms: int = SLOT_MS
    smaller_since: float | None = None
    smaller_peak_ms: int = 0
    shrink_after_s: float = SHRINK_AFTER_S

    def update(self, needed_ms: int, now: float) -> SlotSizer:
        """The state after the stacks were found to need ``needed_ms`` at ``now`` (seconds)."""
        if needed_ms >= self.period_ms:
            return dataclasses.replace(self, period_ms=needed_ms, smaller_since=None,
                                       smaller_peak_ms=0)
        since = now if self.smaller_since is None else self.smaller_since
        peak = max(self.smaller_peak_ms, needed_ms)
        if now - since >= self.shrink_after_s:
            return dataclasses.replace(self, period_ms=peak, smaller_since=None,
                                       smaller_peak_ms=0)
        return dataclasses.replace(self, smaller_since=since, smaller_peak_ms=peak)


@dataclass(frozen=True, slots=True)
class SlotLengths:
    """One :class:`SlotSizer` per slot: each slot grows at once and shrinks after its own calm
    spell (the same hysteresis, slot by slot). :meth:`update` is pure."""

    sizers: tuple[SlotSizer, ...]

    @classmethod
    def start(cls, lengths: Sequence[int], shrink_after_s: float = SHRINK_AFTER_S) -> SlotLengths:
        return cls(tuple(SlotSizer(n, shrink_after_s=shrink_after_s) for n in lengths))

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(s.period_ms for s in self.sizers)

    def update(self, needed_ms: Sequence[int], now: float) -> SlotLengths:
        """The state after the stacks were found to need ``needed_ms[k]`` in slot ``k``."""
        if len(needed_ms) != len(self.sizers):
            raise ValueError(f"{len(needed_ms)} needs for {len(self.sizers)} slots")
        return SlotLengths(tuple(s.update(n, now)
                                 for s, n in zip(self.sizers, needed_ms, strict=True)))
