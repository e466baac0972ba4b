"""The settle rule: the same hands give the same moves at 5, 10 and 20 reads a second.

A hand is a timeline of where a stack is (a zone, or None while it is in the air). The readers
are sampled from it at the given rate, antenna after antenna as a hub scans them, through the
real Observer (debounce) and Tracker, each read a full one handed to the tracker as the bridge
does (``Tracker.read_in_full``); the bridge's 0.1 s tick is run too. Only the moves
(``StackMoved``) are compared: they are what the table session submits to the rules.

A landing is a move once a later full read still lists it and it has rested 0.3 s: a touch-down
of 0.3 s or less is never a move, a stack left a second is one at every rate. Between the two
the rate decides (a 0.5 s touch-down is a move when the readers look twice in it): the price of
ruling a move within a second rather than after a fixed second's wait (tracking.py).
"""

from __future__ import annotations

import pytest

from firmware_bridge.observation import Observer
from firmware_bridge.registry import TagRegistry
from firmware_bridge.tracking import StackMoved, Tracker, TrackEvent
from firmware_bridge.wiring import AntennaKey, WiringMap

ZONES = ("gifu", "kiso", "kuwana", "osaka")
WIRING = WiringMap(hubs={"h": {f"A{i:02d}": z for i, z in enumerate(ZONES)}})
TAGS = {"E004015000000001": "I01", "E004015000000002": "I02"}
REGISTRY = TagRegistry(tags=TAGS)

Step = tuple[float, dict[str, str | None]]
"""(duration s, block -> zone or None for in hand) - held for that long."""


def _run(hand: list[Step], rate_hz: float, settle_s: float = 0.3) -> list[tuple[str | None,
                                                                                str,
                                                                                tuple[str, ...]]]:
    observer = Observer(WIRING)
    tracker = Tracker(REGISTRY, missing_after_s=30.0, settle_s=settle_s)
    uid_of = {b: u for u, b in TAGS.items()}
    moves: list[tuple[str | None, str, tuple[str, ...]]] = []
    timeline: list[tuple[float, dict[str, str | None]]] = []
    t = 0.0
    for duration, where in hand:
        timeline.append((t, where))
        t += duration
    end = t + 3.0  # let everything settle

    def where_at(now: float) -> dict[str, str | None]:
        current = timeline[0][1]
        for start, where in timeline:
            if start <= now:
                current = where
        return current

    period = 1.0 / rate_hz
    scan_times = []
    k = 0
    while k * period < end:
        for i in range(len(ZONES)):
            scan_times.append((k * period + i * period / (2 * len(ZONES)), i))
        k += 1
    ticks = [n * 0.1 for n in range(int(end / 0.1) + 1)]
    events: list[tuple[float, int]] = [(s, i) for s, i in scan_times] + [(x, -1) for x in ticks]
    for now, antenna in sorted(events):
        if antenna < 0:
            out = tracker.tick(now)
        else:
            zone = ZONES[antenna]
            here = frozenset(uid_of[b] for b, z in where_at(now).items() if z == zone)
            observer.snapshot(AntennaKey("h", antenna), here, now)
            out = tracker.update(observer.view(), now)
            out += tracker.read_in_full(zone, [TAGS[u] for u in here], now)
        moves += [(e.origin, e.destination, e.block_ids) for e in out
                  if isinstance(e, StackMoved)]
    return moves


ONE = "I01"
START: Step = (2.0, {ONE: "gifu"})

HANDS: dict[str, tuple[list[Step], list[tuple[str | None, str, tuple[str, ...]]]]] = {
    "touch down 0.3 s on the way": (
        [START, (0.4, {ONE: None}), (0.3, {ONE: "kiso"}), (0.4, {ONE: None}),
         (2.0, {ONE: "kuwana"})],
        [(None, "gifu", ("I01",)), ("gifu", "kuwana", ("I01",))]),
    "touch down 0.2 s on the way": (
        [START, (0.3, {ONE: None}), (0.2, {ONE: "kiso"}), (0.6, {ONE: None}),
         (2.0, {ONE: "kuwana"})],
        [(None, "gifu", ("I01",)), ("gifu", "kuwana", ("I01",))]),
    "touch down and back home": (
        [START, (0.5, {ONE: None}), (0.3, {ONE: "kiso"}), (0.5, {ONE: None}),
         (2.0, {ONE: "gifu"})],
        [(None, "gifu", ("I01",))]),
    "slid straight across without lifting": (
        [START, (0.25, {ONE: "kiso"}), (2.0, {ONE: "kuwana"})],
        [(None, "gifu", ("I01",)), ("gifu", "kuwana", ("I01",))]),
    "two real moves with a pause": (
        [START, (0.5, {ONE: None}), (1.0, {ONE: "kiso"}), (0.5, {ONE: None}),
         (2.0, {ONE: "kuwana"})],
        [(None, "gifu", ("I01",)), ("gifu", "kiso", ("I01",)), ("kiso", "kuwana", ("I01",))]),
    "a stack split on the way, both end in osaka": (
        [(2.0, {"I01": "gifu", "I02": "gifu"}), (0.4, {"I01": None, "I02": None}),
         (0.3, {"I01": "kiso", "I02": None}), (0.5, {"I01": None, "I02": None}),
         (2.0, {"I01": "osaka", "I02": "osaka"})],
        [(None, "gifu", ("I01", "I02")), ("gifu", "osaka", ("I01", "I02"))]),
}


@pytest.mark.parametrize("name", sorted(HANDS))
@pytest.mark.parametrize("rate_hz", [5.0, 10.0, 20.0])
def test_the_same_hands_give_the_same_moves_at_5_10_and_20_reads_a_second(
        name: str, rate_hz: float) -> None:
    hand, expected = HANDS[name]
    assert _run(hand, rate_hz) == expected


def test_without_the_settle_rule_the_rate_decides() -> None:
    """The bug this rule fixes: with no rest at all, 10 reads/s rules a 0.3 s touch-down a
    move; so does 20 reads/s a 0.2 s one."""
    hand, _ = HANDS["touch down 0.3 s on the way"]
    assert ("gifu", "kiso", ("I01",)) in _run(hand, 10.0, settle_s=0.0)
    hand, _ = HANDS["touch down 0.2 s on the way"]
    assert ("gifu", "kiso", ("I01",)) in _run(hand, 20.0, settle_s=0.0)


def _lift_off_gifu_onto_kiso(tracker: Tracker) -> list[TrackEvent]:
    """I01 stands on Gifu (two scans), is lifted (three misses) and lands on Kiso, confirmed at
    0.6 s; the tracker's events of that last update."""
    observer = Observer(WIRING)
    gifu, kiso = AntennaKey("h", 0), AntennaKey("h", 1)
    tag = frozenset({"E004015000000001"})
    for t in (0.0, 0.1):
        observer.snapshot(gifu, tag, t)
    tracker.update(observer.view(), 0.1)
    for t in (0.2, 0.3, 0.4):
        observer.snapshot(gifu, frozenset(), t)
    tracker.update(observer.view(), 0.4)
    for t in (0.5, 0.6):
        observer.snapshot(kiso, tag, t)
    return tracker.update(observer.view(), 0.6)


def test_a_landing_settles_on_a_later_full_read_that_still_lists_it() -> None:
    """Consecutive complete reads agree: the read that confirmed the landing does not count,
    a later one that lists it does once the rest is over; a later one that misses it
    unchecks it again (the hand took it back up)."""
    tracker = Tracker(REGISTRY, settle_s=0.3)
    _lift_off_gifu_onto_kiso(tracker)
    assert tracker.read_in_full("kiso", ["I01"], 0.6) == [], "the confirming read itself"
    assert tracker.read_in_full("kiso", ["I01"], 0.7) == [], "rested 0.1 s only"
    assert tracker.tick(0.85) == []
    assert tracker.read_in_full("kiso", [], 0.88) == []  # lifted again: not checked any more
    assert tracker.tick(0.95) == []
    assert tracker.read_in_full("kiso", ["I01"], 1.0) == [StackMoved("gifu", "kiso", ("I01",),
                                                                    1.0)]


def test_a_landing_no_full_read_looked_at_is_ruled_after_the_fixed_second() -> None:
    tracker = Tracker(REGISTRY, settle_s=0.3, unread_settle_s=1.0)
    assert not [e for e in _lift_off_gifu_onto_kiso(tracker) if isinstance(e, StackMoved)]
    assert tracker.unsettled() == {"I01": "kiso"}
    assert tracker.tick(1.5) == []
    assert tracker.tick(1.6) == [StackMoved("gifu", "kiso", ("I01",), 1.6)]
    assert tracker.unsettled() == {}


def test_giving_up_named_blocks_leaves_every_other_block_in_hand() -> None:
    """``Tracker.give_up``: what a machine's hand asks for blocks it put where no antenna
    reads (``TableLink.rest_over``). Only those named are missing; a block lifted since stays
    in hand, waiting for its full missing time."""
    observer = Observer(WIRING)
    tracker = Tracker(REGISTRY, missing_after_s=30.0, settle_s=1.0)
    uid_of = {b: u for u, b in TAGS.items()}
    for now in (0.0, 0.1):  # both on Gifu (two scans to appear)
        observer.snapshot(AntennaKey("h", 0), frozenset(uid_of.values()), now)
        tracker.update(observer.view(), now)
    assert tracker.placements == {"I01": "gifu", "I02": "gifu"}
    for now in (1.0, 1.1, 1.2, 1.3):  # both lifted (debounced away)
        observer.snapshot(AntennaKey("h", 0), frozenset(), now)
        tracker.update(observer.view(), now)
    assert set(tracker.in_hand) == {"I01", "I02"}
    events = tracker.give_up(["I01", "I99"], 2.0)
    assert [(type(e).__name__, e.origin, e.block_ids) for e in events
            if not isinstance(e, StackMoved)] == [("BlocksMissing", "gifu", ("I01",))]
    assert set(tracker.in_hand) == {"I02"} and tracker.missing == {"I01": "gifu"}
    assert tracker.tick(2.1) == []  # I02 waits its 30 s
