"""From raw snapshots to a clean view of the table: debounce, cross-talk, wiring, unknown tags.

**Debounce.** Each antenna's snapshots are filtered tag by tag: a tag counts as present once it
was in ``appear_scans`` consecutive snapshots (default 2) and as gone once it was missing from
``vanish_scans`` consecutive snapshots (default 3). A tag missing from one or two inventories
(the usual ISO 15693 flicker) thus never moves anything. The latency this adds by design is
``(appear_scans - 1)`` scan periods for a block put down and ``(vanish_scans - 1)`` periods for a
block lifted: at 20 scans/s, 50 ms and 100 ms.

**Cross-talk.** A tag confirmed on two antennas at once (a block on the edge between two
neighbouring antennas, or one antenna hearing its neighbour's tags) belongs to the antenna that
confirmed it first, so a block stays where it was when a neighbour starts hearing it. If both
confirmed it within ``crosstalk_tie_s`` of each other (a block put down straddling two
locations), it is *ambiguous* and reported, not guessed.

A tag just confirmed on one antenna while a neighbour has sighted it but not yet confirmed it is
held back (neither placed nor ambiguous) until the neighbour confirms or loses it, so a block
put down across two locations is never placed on the one that happened to be scanned first.

**The vanish rule.** A block lifted from A and put down on B is still listed by A until A has
missed it ``vanish_scans`` times (a hub doing quick reads, protocol 1.3, cannot even see it
leave until its next full read). It need not wait: a tag is where it was **confirmed last**, as
long as none of the others still listing it has heard it since and none could hear it from
there (they are not *hearing neighbours*: loops farther apart than :data:`HEARING_MM`, from
the placement sheet). Between hearing neighbours the cross-talk rule above holds (first
confirmed, or ambiguous), but the old place lets the tag go on its first full read that misses
it after another antenna heard it: a block heard elsewhere was moved, not missed by a
flickering inventory. A place also lets it go on its first full read that misses it when a
place out of its hearing confirmed it after it did, even if its own last listing reached the
bridge after that confirmation (two hubs' frames cross on the way: a block slid from a tray to
a place read by another hub can look heard at both, or ambiguous, until then). Without the
layout there are no hearing pairs and the rule is off.

**First hearing.** A hub speaking protocol 1.3 reads an antenna in full right after it found a
newcomer there (docs/protocol.md 5.2), so the second look the appear debounce waits for is
taken anyway, by the settle rule (:mod:`.tracking`). Its newcomer is confirmed at once, unless a
hearing neighbour lists or has sighted the same tag (then the two scans and the cross-talk rule
apply).

**Frozen antennas.** An antenna whose hub is lost, or whose reader reports a fault, keeps its
last confirmed tags (a block does not vanish because a reader died) and its zone is listed as
unobserved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from firmware_bridge.wiring import AntennaKey, WiringMap

HEARING_MM = 20.0
"""Loops closer than this edge to edge may hear each other's tags (a block on the edge of one
location, or a tall stack leaning over): an estimate, twice the gap at which two fields
collide (schedule.NEIGHBOUR_MM); Stage 1b of hardware/README.md measures it. Farther apart, a
tag listed by two antennas was moved between them: the vanish rule gives it to the one that
confirmed it last."""


@dataclass(frozen=True)
class DebounceConfig:
    appear_scans: int = 2
    vanish_scans: int = 3
    crosstalk_tie_s: float = 0.25

    def added_latency_ms(self, rate_hz: float) -> tuple[float, float]:
        """(put-down, lift) delay the debounce adds by design at ``rate_hz`` scans a second."""
        period = 1000.0 / rate_hz
        return (self.appear_scans - 1) * period, (self.vanish_scans - 1) * period


@dataclass
class _AntennaFilter:
    confirmed: set[str] = field(default_factory=set)
    since: dict[str, float] = field(default_factory=dict)
    streak: dict[str, int] = field(default_factory=dict)
    misses: dict[str, int] = field(default_factory=dict)
    heard: dict[str, float] = field(default_factory=dict)
    """uid -> when this antenna last really heard it (a full read listed it, or a quick read
    found it new); a quick read's re-listing of a quieted tag is not hearing it."""
    listed: frozenset[str] = frozenset()
    """What the hub's last snapshot of this antenna listed."""


@dataclass(frozen=True)
class BoardView:
    """What the readers show, after filtering. Tag uids only: identities come from tracking."""

    where: Mapping[str, str]
    """uid -> the zone it is on (mapped antennas only, ambiguous tags excluded)."""
    ambiguous: Mapping[str, tuple[str, ...]]
    """uid -> the zones it is seen on at once, when that could not be resolved."""
    crosstalk: Mapping[str, tuple[str, ...]]
    """uid -> the other zones that also hear it (resolved cross-talk, for diagnostics)."""
    unmapped: Mapping[AntennaKey, frozenset[str]]
    """Antennas not in the wiring map that see tags."""
    unobserved: frozenset[str]
    """Zones whose antenna is faulted or whose hub is lost (their tags are the last known)."""


class Observer:
    """Keeps the debounced state of every antenna and resolves each tag to one zone."""

    def __init__(self, wiring: WiringMap, debounce: DebounceConfig | None = None) -> None:
        self.debounce = debounce or DebounceConfig()
        self._zone_of = wiring.table()
        self._filters: dict[AntennaKey, _AntennaFilter] = {}
        self._frozen: dict[AntennaKey, str] = {}
        self._view: BoardView | None = None
        self._now = 0.0
        self._hearing: dict[AntennaKey, set[AntennaKey]] | None = None

    def set_hearing(self, pairs: Iterable[tuple[AntennaKey, AntennaKey]] | None) -> None:
        """The antenna pairs that may hear each other's tags (closer than :data:`HEARING_MM`);
        None: unknown, every pair may (the vanish and first-hearing rules are then off)."""
        if pairs is None:
            self._hearing = None
        else:
            hearing: dict[AntennaKey, set[AntennaKey]] = {}
            for a, b in pairs:
                hearing.setdefault(a, set()).add(b)
                hearing.setdefault(b, set()).add(a)
            self._hearing = hearing
        self._view = None

    def _may_hear(self, a: AntennaKey, b: AntennaKey) -> bool:
        if self._hearing is None:
            return True
        return b in self._hearing.get(a, ())

    def _moved_away(self, key: AntennaKey, uid: str, filt: _AntennaFilter) -> bool:
        """Whether a full read of ``key`` that misses ``uid`` means it was moved, not that the
        inventory flickered: another antenna has heard it since ``key`` last did, or one that
        cannot hear ``key``'s tags confirmed it after ``key`` did. The second holds whatever
        order the two reads reached the bridge in: frames of two hubs cross on the way, so the
        old place's last listing may be stamped after the new place's confirmation."""
        if self._hearing is None:
            return False
        last = filt.heard.get(uid, float("-inf"))
        mine = filt.since[uid]
        for other, there in self._filters.items():
            if other == key:
                continue
            if there.heard.get(uid, float("-inf")) > last:
                return True
            if (uid in there.confirmed and there.since[uid] > mine
                    and not self._may_hear(key, other)):
                return True
        return False

    def _near_sighting(self, key: AntennaKey, uid: str) -> bool:
        """Whether a hearing neighbour of ``key`` lists or has sighted ``uid`` (the layout is
        known: :meth:`set_hearing`)."""
        assert self._hearing is not None
        for other in self._hearing.get(key, ()):
            filt = self._filters.get(other)
            if filt is not None and (uid in filt.confirmed or filt.streak.get(uid)):
                return True
        return False

    def snapshot(self, key: AntennaKey, uids: frozenset[str], at: float, full: bool = True,
                 reported: bool = False) -> bool:
        """Feed one snapshot; True when the view may have changed (a tag confirmed or gone, or a
        new sighting that may hold up a neighbour's tag). A quick read (``full`` False,
        protocol 1.3) cannot say a tag left: its missing tags are not counted as misses, and
        only its newcomers were heard. ``reported``: the hub said what kind of read it was
        (1.3), so it reads in full after a newcomer (the first-hearing rule)."""
        filt = self._filters.get(key)
        if filt is None:
            filt = self._filters[key] = _AntennaFilter()
        changed = self._frozen.pop(key, None) is not None
        self._now = at
        streak, misses, confirmed = filt.streak, filt.misses, filt.confirmed
        appear, vanish = self.debounce.appear_scans, self.debounce.vanish_scans
        heard = uids if full else uids - filt.listed
        filt.listed = uids
        zone = self._zone_of.get(key)
        view = self._view
        for uid in heard:
            filt.heard[uid] = at
            if view is not None and uid in filt.confirmed and view.where.get(uid) != zone:
                changed = True  # heard here again while placed elsewhere: the vanish rule
        for uid in uids:
            n = streak.get(uid, 0) + 1
            streak[uid] = n
            if n == 1 and uid not in confirmed:
                changed = True  # a new sighting may hold up a tag confirmed next door
            if misses:
                misses.pop(uid, None)
            if uid not in confirmed and (n >= appear or (
                    reported and uid in heard and self._hearing is not None
                    and not self._near_sighting(key, uid))):
                confirmed.add(uid)
                filt.since[uid] = at
                changed = True
        if len(streak) != len(uids) and full:
            for uid in [u for u in streak if u not in uids]:
                del streak[uid]
                if uid in confirmed:
                    m = misses.get(uid, 0) + 1
                    if m >= vanish or self._moved_away(key, uid, filt):
                        confirmed.discard(uid)
                        misses.pop(uid, None)
                        del filt.since[uid]
                        filt.heard.pop(uid, None)
                        changed = True
                    else:
                        misses[uid] = m
                        streak[uid] = 0  # still confirmed, waiting out the misses
                else:
                    changed = True  # a sighting that came to nothing
        if changed:
            self._view = None
        return changed

    def freeze(self, key: AntennaKey, why: str) -> None:
        """Keep this antenna's tags as they are, and list its zone as unobserved."""
        if self._frozen.get(key) != why:
            self._frozen[key] = why
            self._view = None

    def freeze_hub(self, hub: str, why: str) -> None:
        for key in set(self._filters) | set(self._zone_of):
            if key.hub == hub:
                self.freeze(key, why)

    def frozen(self) -> Mapping[AntennaKey, str]:
        return dict(self._frozen)

    def confirmed(self, key: AntennaKey) -> frozenset[str]:
        filt = self._filters.get(key)
        return frozenset(filt.confirmed) if filt else frozenset()

    def view(self) -> BoardView:
        if self._view is None:
            self._view = self._compute()
        return self._view

    def _compute(self) -> BoardView:
        seen_at: dict[str, list[AntennaKey]] = {}
        sighted: dict[str, list[AntennaKey]] = {}
        unmapped: dict[AntennaKey, frozenset[str]] = {}
        for key, filt in self._filters.items():
            if len(filt.streak) > len(filt.confirmed):
                for u, n in filt.streak.items():
                    if n and u not in filt.confirmed:
                        sighted.setdefault(u, []).append(key)
            if not filt.confirmed:
                continue
            if key not in self._zone_of:
                unmapped[key] = frozenset(filt.confirmed)
                continue
            for uid in filt.confirmed:
                seen_at.setdefault(uid, []).append(key)
        where: dict[str, str] = {}
        ambiguous: dict[str, tuple[str, ...]] = {}
        crosstalk: dict[str, tuple[str, ...]] = {}
        tie = self.debounce.crosstalk_tie_s
        for uid, keys in seen_at.items():
            if (len(keys) == 1 and self._now - self._since(uid, keys[0]) <= tie
                    and any(self._may_hear(keys[0], k) for k in sighted.get(uid, ()))):
                continue  # just confirmed here, about to be confirmed next door: wait
            moved_to = self._last_heard(uid, keys)
            if moved_to is not None:
                where[uid] = self._zone_of[moved_to]
                continue
            choice = self._resolve(uid, keys)
            zones = sorted({self._zone_of[k] for k in keys})
            if choice is None:
                ambiguous[uid] = tuple(zones)
                continue
            where[uid] = self._zone_of[choice]
            if len(zones) > 1:
                crosstalk[uid] = tuple(z for z in zones if z != where[uid])
        unobserved = frozenset(self._zone_of[k] for k in self._frozen if k in self._zone_of)
        return BoardView(where, ambiguous, crosstalk, unmapped, unobserved)

    def _since(self, uid: str, key: AntennaKey) -> float:
        return self._filters[key].since[uid]

    def _last_heard(self, uid: str, keys: list[AntennaKey]) -> AntennaKey | None:
        """The vanish rule: of several antennas listing ``uid``, the one that confirmed it last,
        if none of the others has heard it since and none could hear it from there (None: one
        antenna, a hearing neighbour among them, the others still hearing it, or the layout
        unknown: the cross-talk rule decides)."""
        if len(keys) < 2 or self._hearing is None:
            return None
        latest = max(keys, key=lambda k: (self._filters[k].since[uid], k))
        arrived = self._filters[latest].since[uid]
        for k in keys:
            if k != latest and (self._may_hear(latest, k)
                                or self._filters[k].heard.get(uid, float("-inf")) >= arrived):
                return None
        return latest

    def _resolve(self, uid: str, keys: list[AntennaKey]) -> AntennaKey | None:
        if len(keys) == 1:
            return keys[0]
        firsts = sorted((self._filters[k].since[uid], k) for k in keys)
        if firsts[1][0] - firsts[0][0] > self.debounce.crosstalk_tie_s:
            return firsts[0][1]
        return None
