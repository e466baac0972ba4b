"""Debounce, cross-talk and tracking logic, fed snapshot by snapshot (no serial needed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.observation import DebounceConfig, Observer
from firmware_bridge.registry import TagRegistry
from firmware_bridge.tracking import BlocksMissing, StackMoved, Straddled, Tracker
from firmware_bridge.wiring import AntennaKey, WiringMap

WIRING = WiringMap(hubs={"h": {"A00": "gifu", "A01": "kiso", "A02": "osaka"}})
GIFU, KISO, OSAKA = (AntennaKey("h", i) for i in range(3))
TAG = "E004015000000001"
TAG2 = "E004015000000002"
REGISTRY = TagRegistry(tags={TAG: "I01", TAG2: "I02"})


def _feed(observer: Observer, key: AntennaKey, present: bool, at: float) -> bool:
    return observer.snapshot(key, frozenset({TAG}) if present else frozenset(), at)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=200))
def test_dropouts_of_up_to_two_scans_never_unconfirm(gaps: list[int]) -> None:
    observer = Observer(WIRING)
    t = 0.0
    for present in (True, True):
        _feed(observer, GIFU, present, t)
        t += 0.05
    for gap in gaps:
        for _ in range(gap):
            _feed(observer, GIFU, False, t)
            t += 0.05
        _feed(observer, GIFU, True, t)
        t += 0.05
        assert observer.view().where == {TAG: "gifu"}


def test_debounce_latency_is_as_stated() -> None:
    config = DebounceConfig()
    observer = Observer(WIRING, config)
    seen = []
    for present, t in ((True, 0.0), (True, 0.05), (False, 0.10), (False, 0.15), (False, 0.20)):
        _feed(observer, GIFU, present, t)
        seen.append(TAG in observer.view().where)
    assert seen == [False, True, True, True, False]  # appear after 2 scans, vanish after 3
    assert config.added_latency_ms(20) == (50.0, 100.0)


def test_a_single_ghost_read_is_ignored() -> None:
    observer = Observer(WIRING)
    _feed(observer, KISO, True, 0.0)
    _feed(observer, KISO, False, 0.05)
    assert observer.view().where == {}


def test_cross_talk_keeps_the_first_antenna_and_ties_are_ambiguous() -> None:
    observer = Observer(WIRING)
    for t in (0.0, 0.05, 0.10):
        _feed(observer, GIFU, True, t)
    for t in (1.0, 1.05):
        _feed(observer, GIFU, True, t)
        _feed(observer, KISO, True, t)
    view = observer.view()
    assert view.where == {TAG: "gifu"}
    assert view.crosstalk == {TAG: ("kiso",)}

    straddle = Observer(WIRING)
    for t in (0.0, 0.05):
        straddle.snapshot(GIFU, frozenset({TAG2}), t)
        straddle.snapshot(KISO, frozenset({TAG2}), t + 0.001)
    assert straddle.view().ambiguous == {TAG2: ("gifu", "kiso")}
    assert straddle.view().where == {}


def test_a_block_confirmed_first_on_one_side_of_a_straddle_is_held_back() -> None:
    observer = Observer(WIRING)
    observer.snapshot(GIFU, frozenset({TAG}), 0.0)
    observer.snapshot(KISO, frozenset({TAG}), 0.001)
    observer.snapshot(GIFU, frozenset({TAG}), 0.05)  # confirmed on gifu, only sighted on kiso
    assert observer.view().where == {}
    observer.snapshot(KISO, frozenset({TAG}), 0.051)
    assert observer.view().ambiguous == {TAG: ("gifu", "kiso")}


def test_frozen_antennas_keep_their_tags_and_are_unobserved() -> None:
    observer = Observer(WIRING)
    _feed(observer, GIFU, True, 0.0)
    _feed(observer, GIFU, True, 0.05)
    observer.freeze_hub("h", "hub lost")
    view = observer.view()
    assert view.where == {TAG: "gifu"}
    assert view.unobserved == {"gifu", "kiso", "osaka"}


def test_unmapped_antennas_are_reported() -> None:
    observer = Observer(WIRING)
    stray = AntennaKey("h", 9)
    observer.snapshot(stray, frozenset({TAG}), 0.0)
    observer.snapshot(stray, frozenset({TAG}), 0.05)
    assert observer.view().unmapped == {stray: frozenset({TAG})}
    assert observer.view().where == {}


def _tracker_with(observer: Observer) -> Tracker:
    return Tracker(REGISTRY, missing_after_s=5.0)


def test_a_stack_lifted_together_is_reported_together() -> None:
    observer = Observer(WIRING)
    tracker = _tracker_with(observer)
    both = frozenset({TAG, TAG2})
    t = 0.0
    for _ in range(2):
        observer.snapshot(GIFU, both, t)
        t += 0.05
    events = tracker.update(observer.view(), t)
    assert StackMoved(None, "gifu", ("I01", "I02"), t) in events
    for _ in range(3):
        observer.snapshot(GIFU, frozenset(), t)
        t += 0.05
    tracker.update(observer.view(), t)
    assert set(tracker.in_hand) == {"I01", "I02"}
    observer.snapshot(KISO, frozenset({TAG}), t)
    observer.snapshot(KISO, frozenset({TAG}), t + 0.05)
    events = tracker.update(observer.view(), t + 0.05)
    assert not [e for e in events if isinstance(e, StackMoved)], "I02 is still in hand"
    observer.snapshot(KISO, both, t + 0.10)
    observer.snapshot(KISO, both, t + 0.15)
    events = tracker.update(observer.view(), t + 0.15)
    assert not [e for e in events if isinstance(e, StackMoved)], "not settled yet"
    assert tracker.read_in_full("kiso", ["I01", "I02"], t + 0.20) == [], "rested too briefly"
    settled = t + 0.15 + tracker.settle_s + 0.01
    assert tracker.tick(settled) == [StackMoved("gifu", "kiso", ("I01", "I02"), settled)]


def test_a_block_held_too_long_is_missing() -> None:
    observer = Observer(WIRING)
    tracker = _tracker_with(observer)
    for t in (0.0, 0.05):
        observer.snapshot(OSAKA, frozenset({TAG}), t)
    tracker.update(observer.view(), 0.05)
    for t in (0.1, 0.15, 0.2):
        observer.snapshot(OSAKA, frozenset(), t)
    tracker.update(observer.view(), 0.2)
    assert tracker.tick(3.0) == []
    assert tracker.tick(6.0) == [BlocksMissing("osaka", ("I01",), 6.0)]
    assert tracker.missing == {"I01": "osaka"}


def _quick_gifu_then_kiso(hearing: list[tuple[AntennaKey, AntennaKey]]) -> Observer:
    """I01 stands on Gifu; Gifu's hub reads it quick from then on (re-listing it, unheard);
    the block turns up on Kiso, read twice there."""
    observer = Observer(WIRING)
    observer.set_hearing(hearing)
    tag = frozenset({TAG})
    observer.snapshot(GIFU, tag, 0.0)
    observer.snapshot(GIFU, tag, 0.1)
    for t in (0.2, 0.3, 0.4):
        observer.snapshot(GIFU, tag, t, full=False, reported=True)  # quieted, re-listed
    observer.snapshot(KISO, tag, 0.35)
    observer.snapshot(KISO, tag, 0.45)
    return observer


def test_the_vanish_rule_gives_a_block_to_where_it_was_last_heard() -> None:
    """Gifu still lists I01 (its quick reads cannot see it leave) but cannot have heard it
    since Kiso did, and Kiso cannot hear Gifu's tags: the block is on Kiso at once."""
    observer = _quick_gifu_then_kiso(hearing=[(KISO, OSAKA)])
    assert observer.view().where == {TAG: "kiso"}
    assert observer.view().crosstalk == {}
    observer.snapshot(GIFU, frozenset({TAG}), 0.5)  # a full read of Gifu hears it after all
    assert observer.view().where == {TAG: "gifu"}, "both hear it: the cross-talk rule"
    assert observer.view().crosstalk == {TAG: ("kiso",)}


def test_between_hearing_neighbours_the_first_place_keeps_the_block() -> None:
    observer = _quick_gifu_then_kiso(hearing=[(GIFU, KISO)])
    assert observer.view().where == {TAG: "gifu"}
    assert observer.view().crosstalk == {TAG: ("kiso",)}
    unknown = _quick_gifu_then_kiso(hearing=[])
    unknown.set_hearing(None)  # no layout: no vanish rule
    assert unknown.view().where == {TAG: "gifu"}


def test_a_newcomer_a_1_3_hub_heard_is_confirmed_at_once_unless_a_neighbour_has_it() -> None:
    observer = Observer(WIRING)
    observer.set_hearing([(GIFU, KISO)])
    observer.snapshot(OSAKA, frozenset({TAG}), 0.0, full=False, reported=True)
    assert observer.view().where == {TAG: "osaka"}, "one hearing is enough from a 1.3 hub"
    observer.snapshot(GIFU, frozenset({TAG2}), 0.0)
    observer.snapshot(KISO, frozenset({TAG2}), 0.05, reported=True)
    assert TAG2 not in observer.view().where, "Gifu, a hearing neighbour, has sighted it too"
    plain = Observer(WIRING)
    plain.set_hearing([])
    plain.snapshot(OSAKA, frozenset({TAG}), 0.0)
    assert plain.view().where == {}, "a 1.2 hub's newcomer waits for its second scan"


def test_a_hearing_neighbour_lets_a_moved_block_go_on_its_first_full_miss() -> None:
    """Gifu and Kiso may hear each other's tags: Kiso's sighting alone does not move I01, but
    Gifu's next full read that misses it does (a flicker needs three misses, a move one)."""
    observer = _quick_gifu_then_kiso(hearing=[(GIFU, KISO)])
    assert observer.view().where == {TAG: "gifu"}
    observer.snapshot(GIFU, frozenset(), 0.5)
    assert observer.view().where == {TAG: "kiso"}
    alone = Observer(WIRING)
    alone.set_hearing([(GIFU, KISO)])
    for t in (0.0, 0.1, 0.2):
        alone.snapshot(GIFU, frozenset({TAG}), t)
    alone.snapshot(GIFU, frozenset(), 0.3)
    assert alone.view().where == {TAG: "gifu"}, "heard nowhere else: one miss is a flicker"


def test_a_pawn_slid_across_hubs_leaves_its_old_place_on_the_old_place_s_next_full_miss() -> None:
    """The flake of issue 17's note: a pawn slid from a reserve tray (one hub) to a place read
    by another hub. The new place's hub hears it first (protocol 1.3: confirmed at once) but
    the old place's read listing it, taken before the slide, reaches the bridge afterwards: the
    two confirmations fall within the 0.25 s tie and the old place seems to still hear it, so
    the pawn is ambiguous. The old place's next full read misses it: the places cannot hear
    each other's tags, so the pawn is where it arrived, at once (not after three misses)."""
    tray, place = AntennaKey("h1", 0), AntennaKey("h2", 0)
    observer = Observer(WiringMap(hubs={"h1": {"A00": "gifu"}, "h2": {"A00": "osaka"}}))
    observer.set_hearing([])  # the layout is known: the two are far apart
    tracker = Tracker(REGISTRY, missing_after_s=5.0, settle_s=0.3)
    tag = frozenset({TAG})
    observer.snapshot(tray, tag, 0.00)
    observer.snapshot(tray, tag, 0.05)
    tracker.update(observer.view(), 0.05)
    assert tracker.placements == {"I01": "gifu"}
    observer.snapshot(place, tag, 0.10, full=False, reported=True)  # heard new there
    observer.snapshot(tray, tag, 0.12)  # read before the slide, stamped after it
    assert observer.view().ambiguous == {TAG: ("gifu", "osaka")}
    observer.snapshot(place, tag, 0.15, full=False, reported=True)  # quieted, re-listed
    observer.snapshot(tray, frozenset(), 0.17)  # the old place's next full read misses it
    assert observer.view().ambiguous == {}
    assert observer.view().where == {TAG: "osaka"}
    tracker.update(observer.view(), 0.17)
    assert tracker.placements == {"I01": "osaka"}


def test_a_block_that_arrived_elsewhere_first_is_not_pulled_back_by_a_flicker() -> None:
    """The old place still lists a block its quick reads cannot see leave; the new place, which
    confirmed it later, missing it once in a full read is a flicker: the block stays put."""
    observer = _quick_gifu_then_kiso(hearing=[(KISO, OSAKA)])
    assert observer.view().where == {TAG: "kiso"}
    observer.snapshot(KISO, frozenset(), 0.55)
    assert observer.view().where == {TAG: "kiso"}


def test_a_block_set_squarely_back_where_it_was_tracked_is_told() -> None:
    """A pawn slid from a tray (one hub) to a place (another) is tracked there at once; the
    tray's read taken before the slide, reaching the bridge after, makes it straddle the two;
    the tray's next full read misses it, so it stands where it was tracked: no placement
    changed, but the change is told (a move ruled while it straddled was passed over by the
    rules, and a demo waited for it in vain)."""
    tray, place = AntennaKey("h1", 0), AntennaKey("h2", 0)
    observer = Observer(WiringMap(hubs={"h1": {"A00": "gifu"}, "h2": {"A00": "osaka"}}))
    observer.set_hearing([])
    tracker = Tracker(REGISTRY, missing_after_s=5.0, settle_s=0.3)
    tag = frozenset({TAG})
    observer.snapshot(tray, tag, 0.00)
    observer.snapshot(tray, tag, 0.05)
    tracker.update(observer.view(), 0.05)
    observer.snapshot(place, tag, 0.10, full=False, reported=True)
    tracker.update(observer.view(), 0.10)
    assert tracker.placements == {"I01": "osaka"}
    observer.snapshot(tray, tag, 0.12)  # read before the slide, stamped after it
    assert tracker.update(observer.view(), 0.12) == [Straddled(("I01",), 0.12)]
    assert tracker.placements == {"I01": "osaka"} and tracker.ambiguous
    observer.snapshot(tray, frozenset(), 0.17)
    assert tracker.update(observer.view(), 0.17) == [Straddled((), 0.17)]
    assert tracker.placements == {"I01": "osaka"} and not tracker.ambiguous

