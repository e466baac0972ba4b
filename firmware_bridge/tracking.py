"""From observed tags to placements of known blocks, and to the engine's vocabulary.

The tracker knows which tag is which block (the :class:`TagRegistry`). Each update it works out
where every registered block is; a block seen nowhere is *in hand* (lifted, not yet put down).
Changes become events:

* :class:`PlacementChanged` - one block's zone changed (``None``: lifted). Immediate.
* :class:`StackMoved` - blocks that left one zone arrived at another ("this stack left Gifu and
  arrived at Kiso", "this block was placed on Ishida's deployment tray", "this block went to
  the casualty tray"). Emitted once every block lifted from the origin has been put down again
  (or given up as missing) *and has settled where it was put*, so a stack lifted together is
  reported together.

**The settle rule.** A hand often touches a stack down on the way (to take a better grip, to
count the road) for a fraction of a second. So a landing becomes a move only once the readers
have looked again and still see it: a **full read** of the destination (one that would have
missed a block taken away: every read of a protocol 1.2 hub, and the read a 1.3 hub does right
after it found a newcomer, docs/protocol.md 5.2) taken *after* the landing was confirmed still
lists every landed block, and the blocks have rested at least ``settle_s`` (0.3 s). Consecutive
complete reads agreeing, not a fixed wait: at five reads of the destination a second a move is
ruled about 0.3 s after it was first seen. A landing no later full read looked at (a block
declared by a correction, a reader gone quiet) settles after ``unread_settle_s`` (1 s), the old
fixed rule. Lifted again before it settles, the blocks carry their first origin on: the legs
merge into one route, Gifu -> (Kiso) -> Kuwana is one move Gifu -> Kuwana, and
Gifu -> (Kiso) -> Gifu is no move. A touch-down that two reads of the destination see, 0.3 s
apart or more, is a move: the price of ruling in under a second. Arrivals from nowhere (first
seen, or found again after going missing without an origin) are not held back.
* :class:`BlocksMissing` - blocks lifted from a zone and not put down anywhere within
  ``missing_after_s``.
* :class:`Straddled` - the blocks seen between two zones (ambiguous) changed: one set squarely
  back where it was changes no placement, but what the rules passed over must be judged again.

Unregistered tags are not placements; the reconciler reports them as discrepancies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from firmware_bridge.observation import BoardView
from firmware_bridge.registry import TagRegistry


@dataclass(frozen=True)
class PlacementChanged:
    block_id: str
    zone: str | None
    previous: str | None
    at: float


@dataclass(frozen=True)
class StackMoved:
    """``block_ids`` left ``origin`` (None: first seen) and arrived at ``destination``."""

    origin: str | None
    destination: str
    block_ids: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class BlocksMissing:
    origin: str
    block_ids: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class Straddled:
    """The blocks seen between two zones at once (ambiguous, neither lifted nor placed) are now
    ``block_ids`` (empty: none). A block set squarely back where it was tracked changes no
    placement, yet the rules must judge the table again: a move ruled while it straddled
    passed it over."""

    block_ids: tuple[str, ...]
    at: float


TrackEvent = PlacementChanged | StackMoved | BlocksMissing | Straddled


@dataclass
class _InHand:
    origin: str
    since: float


@dataclass
class _Landing:
    """A block put down at ``zone``, lifted from ``origin``, not yet settled."""

    origin: str
    zone: str
    since: float
    checked: bool = False
    """A full read of ``zone`` after ``since`` still listed the block."""


@dataclass
class Tracker:
    """Placements of registered blocks, updated from successive :class:`BoardView` s."""

    registry: TagRegistry
    missing_after_s: float = 10.0
    settle_s: float = 0.3
    """How long blocks must rest where they were put, at least, before the landing is a move
    (and a full read of the destination since must still list them)."""
    unread_settle_s: float = 1.0
    """A landing no full read looked at since settles after this long (the fixed rule)."""
    placements: dict[str, str] = field(default_factory=dict)
    """block id -> zone, for every block currently seen (or declared by a correction)."""
    in_hand: dict[str, _InHand] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    """block id -> the zone it was last seen on, once given up as missing."""
    ambiguous: dict[str, tuple[str, ...]] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)
    """block id -> zone, set by an explicit correction for a block its tag cannot report."""
    _landed: dict[str, _Landing] = field(default_factory=dict)
    """block id -> its landing, until the move is reported."""

    def update(self, view: BoardView, at: float) -> list[TrackEvent]:
        observed: dict[str, str] = {}
        tags = self.registry.tags
        for uid, zone in view.where.items():
            block = tags.get(uid)
            if block is not None:
                observed[block] = zone
        before = set(self.ambiguous)
        self.ambiguous = {
            tags[u]: zones for u, zones in view.ambiguous.items() if u in tags
        }
        for block, zone in self.declared.items():
            if block not in observed and block not in self.ambiguous:
                observed[block] = zone
        events = self._apply(observed, at)
        if set(self.ambiguous) != before:
            events.append(Straddled(tuple(sorted(self.ambiguous)), at))
        return events

    def _apply(self, observed: Mapping[str, str], at: float) -> list[TrackEvent]:
        events: list[TrackEvent] = []
        first_seen: dict[str, list[str]] = {}
        for block, zone in observed.items():
            previous = self.placements.get(block)
            if previous == zone:
                continue
            self.placements[block] = zone
            events.append(PlacementChanged(block, zone, previous, at))
            held = self.in_hand.pop(block, None)
            origin = held.origin if held else self._origin_of(block, previous)
            if origin is None and block in self.missing:
                origin = self.missing.pop(block)
            if origin is None:
                first_seen.setdefault(zone, []).append(block)
            elif origin != zone:  # lifted and put back is no move
                self._landed[block] = _Landing(origin, zone, at)
        for block in [b for b in self.placements if b not in observed]:
            if block in self.ambiguous:
                continue  # between two zones: neither lifted nor placed
            zone = self.placements.pop(block)
            self.in_hand[block] = _InHand(self._origin_of(block, zone) or zone, at)
            events.append(PlacementChanged(block, None, zone, at))
        for zone, blocks in first_seen.items():
            events.append(StackMoved(None, zone, tuple(sorted(blocks)), at))
        events.extend(self._flush(at))
        return events

    def read_in_full(self, zone: str, blocks: Iterable[str], at: float) -> list[TrackEvent]:
        """A full read of ``zone`` at ``at`` listed ``blocks``: the landings there confirmed
        before it are checked (or, for a block it did not list, unchecked again); report the
        landings that have settled."""
        listed = set(blocks)
        touched = False
        for block, landing in self._landed.items():
            if landing.zone == zone and landing.since < at:
                landing.checked = block in listed
                touched = True
        return self._flush(at) if touched else []

    def _origin_of(self, block: str, zone: str | None) -> str | None:
        """Where a block's move began: its unsettled landing's origin (the legs merge), else
        ``zone``. Pops the landing."""
        landing = self._landed.pop(block, None)
        return landing.origin if landing is not None else zone

    def tick(self, at: float) -> list[TrackEvent]:
        """Give up on blocks held too long and report settled landings; call this a few times a
        second (the bridge does, every 0.1 s)."""
        late = [b for b, h in self.in_hand.items() if at - h.since >= self.missing_after_s]
        return self.give_up(late, at)

    def give_up(self, blocks: Iterable[str], at: float) -> list[TrackEvent]:
        """Give these blocks in hand up as missing now (those still in hand), then report
        settled landings: what :meth:`tick` does once they have been held too long."""
        late = [b for b in blocks if b in self.in_hand]
        events: list[TrackEvent] = []
        by_origin: dict[str, list[str]] = {}
        for block in late:
            origin = self.in_hand.pop(block).origin
            self.missing[block] = origin
            by_origin.setdefault(origin, []).append(block)
        for origin, gone in by_origin.items():
            events.append(BlocksMissing(origin, tuple(sorted(gone)), at))
        events.extend(self._flush(at))
        return events

    def _flush(self, at: float) -> list[TrackEvent]:
        """A StackMoved for each origin none of whose lifted blocks is still in hand and all of
        whose landings have settled."""
        holding = {h.origin for h in self.in_hand.values()}
        by_origin: dict[str, list[tuple[str, _Landing]]] = {}
        for block, landing in self._landed.items():
            by_origin.setdefault(landing.origin, []).append((block, landing))
        events: list[TrackEvent] = []
        for origin, landings in by_origin.items():
            if origin in holding or not all(self._settled(ld, at) for _, ld in landings):
                continue
            by_zone: dict[str, list[str]] = {}
            for block, landing in landings:
                by_zone.setdefault(landing.zone, []).append(block)
                del self._landed[block]
            for zone, blocks in by_zone.items():
                events.append(StackMoved(origin, zone, tuple(sorted(blocks)), at))
        return events

    def _settled(self, landing: _Landing, at: float) -> bool:
        rest = at - landing.since
        return rest >= self.settle_s and (landing.checked or rest >= self.unread_settle_s)

    def unsettled(self) -> dict[str, str]:
        """block id -> the zone it was put down on, for landings not yet ruled as moves."""
        return {b: ld.zone for b, ld in self._landed.items()}

    def zone_of(self, block_id: str) -> str | None:
        return self.placements.get(block_id)
