"""From observed tags to placements of known blocks, and to the engine's vocabulary.

The tracker knows which tag is which block (the :class:`TagRegistry`). Each update it works out
where every registered block is; a block seen nowhere is *in hand* (lifted, not yet put down).
Changes become events:

* :class:`PlacementChanged` - one block's zone changed (``None``: lifted). Immediate.
* :class:`StackMoved` - blocks that left one zone arrived at another ("this stack left Gifu and
  arrived at Kiso", "this block was placed on Ishida's deployment tray", "this block went to
  the casualty tray"). Emitted once every block lifted from the origin has been put down again
  (or given up as missing), so a stack lifted together is reported together.
* :class:`BlocksMissing` - blocks lifted from a zone and not put down anywhere within
  ``missing_after_s``.

Unregistered tags are not placements; the reconciler reports them as discrepancies.
"""

from __future__ import annotations

from collections.abc import Mapping
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


TrackEvent = PlacementChanged | StackMoved | BlocksMissing


@dataclass
class _InHand:
    origin: str
    since: float


@dataclass
class Tracker:
    """Placements of registered blocks, updated from successive :class:`BoardView` s."""

    registry: TagRegistry
    missing_after_s: float = 10.0
    placements: dict[str, str] = field(default_factory=dict)
    """block id -> zone, for every block currently seen (or declared by a correction)."""
    in_hand: dict[str, _InHand] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    """block id -> the zone it was last seen on, once given up as missing."""
    ambiguous: dict[str, tuple[str, ...]] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)
    """block id -> zone, set by an explicit correction for a block its tag cannot report."""
    _landed: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def update(self, view: BoardView, at: float) -> list[TrackEvent]:
        observed: dict[str, str] = {}
        tags = self.registry.tags
        for uid, zone in view.where.items():
            block = tags.get(uid)
            if block is not None:
                observed[block] = zone
        self.ambiguous = {
            tags[u]: zones for u, zones in view.ambiguous.items() if u in tags
        }
        for block, zone in self.declared.items():
            if block not in observed and block not in self.ambiguous:
                observed[block] = zone
        return self._apply(observed, at)

    def _apply(self, observed: Mapping[str, str], at: float) -> list[TrackEvent]:
        events: list[TrackEvent] = []
        arrivals: dict[tuple[str | None, str], list[str]] = {}
        for block, zone in observed.items():
            previous = self.placements.get(block)
            if previous == zone:
                continue
            self.placements[block] = zone
            events.append(PlacementChanged(block, zone, previous, at))
            held = self.in_hand.pop(block, None)
            origin = held.origin if held else previous
            if origin is None and block in self.missing:
                origin = self.missing.pop(block)
            arrivals.setdefault((origin, zone), []).append(block)
        for block in [b for b in self.placements if b not in observed]:
            if block in self.ambiguous:
                continue  # between two zones: neither lifted nor placed
            origin = self.placements.pop(block)
            self.in_hand[block] = _InHand(origin, at)
            events.append(PlacementChanged(block, None, origin, at))
        for (origin, zone), blocks in arrivals.items():
            if origin == zone:
                continue  # lifted and put back: no move
            if origin is None:
                events.append(StackMoved(origin, zone, tuple(sorted(blocks)), at))
            else:
                self._landed.setdefault(origin, {}).setdefault(zone, []).extend(blocks)
        events.extend(self._flush(at))
        return events

    def tick(self, at: float) -> list[TrackEvent]:
        """Give up on blocks held too long; call this a few times a second."""
        late = [b for b, h in self.in_hand.items() if at - h.since >= self.missing_after_s]
        events: list[TrackEvent] = []
        by_origin: dict[str, list[str]] = {}
        for block in late:
            origin = self.in_hand.pop(block).origin
            self.missing[block] = origin
            by_origin.setdefault(origin, []).append(block)
        for origin, blocks in by_origin.items():
            events.append(BlocksMissing(origin, tuple(sorted(blocks)), at))
        if late:
            events.extend(self._flush(at))
        return events

    def _flush(self, at: float) -> list[TrackEvent]:
        """A StackMoved for each origin none of whose lifted blocks is still in hand."""
        holding = {h.origin for h in self.in_hand.values()}
        events: list[TrackEvent] = []
        for origin in [o for o in self._landed if o not in holding]:
            for zone, blocks in self._landed.pop(origin).items():
                events.append(StackMoved(origin, zone, tuple(sorted(blocks)), at))
        return events

    def zone_of(self, block_id: str) -> str | None:
        return self.placements.get(block_id)
