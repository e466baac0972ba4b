"""The real bridge against the simulator over real pseudo-terminals: the "done means" list."""

from __future__ import annotations

import time
from pathlib import Path

from fb_helpers import WAIT_S, placed

from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from firmware_bridge.protocol import Fault, LedMode
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.simulator import VirtualHub
from firmware_bridge.tracking import PlacementChanged, StackMoved, TrackEvent
from firmware_bridge.wiring import WiringMap

UNKNOWN_UID = "E0040150DEADBEEF"


def _moves(events: list[TrackEvent]) -> list[StackMoved]:
    return [e for e in events if isinstance(e, StackMoved)]


def _wait_placed(bridge: Bridge, **where: str | None) -> None:
    bridge.wait_for(lambda b: all(placed(b, blk, z) for blk, z in where.items()), WAIT_S)


def test_normal_play_reports_stack_moves_in_the_engines_words(
    table: SimulatedTable, bridge: Bridge, events: list[TrackEvent]
) -> None:
    table.put("I01", "gifu")
    table.put("I02", "gifu")
    _wait_placed(bridge, I01="gifu", I02="gifu")
    assert StackMoved(None, "gifu", ("I01", "I02"), _moves(events)[0].at) in _moves(events)

    table.lift("I01")
    table.lift("I02")
    _wait_placed(bridge, I01=None, I02=None)
    table.put("I01", "kiso")
    table.put("I02", "kiso")
    bridge.wait_for(lambda b: any(m.origin == "gifu" for m in _moves(events)), WAIT_S)
    move = next(m for m in _moves(events) if m.origin == "gifu")
    assert (move.destination, move.block_ids) == ("kiso", ("I01", "I02"))

    table.lift("I02")
    table.put("I02", "ishida_deployment")
    table.lift("I01")
    table.put("I01", "casualties")
    bridge.wait_for(lambda b: len(_moves(events)) >= 4, WAIT_S)
    landed = {(m.origin, m.destination) for m in _moves(events)}
    assert ("kiso", "ishida_deployment") in landed
    assert ("kiso", "casualties") in landed


def test_unplug_and_replug_loses_nothing(
    table: SimulatedTable, bridge: Bridge, events: list[TrackEvent]
) -> None:
    table.put("T01", "gifu")  # hub-1
    table.put("T02", "edo")  # hub-2
    _wait_placed(bridge, T01="gifu", T02="edo")
    bridge.set_leds({"gifu": LedMode.ON})
    hub = table.hubs["hub-1"]
    bridge.wait_for(lambda b: hub.leds.get(15) == LedMode.ON, WAIT_S)

    hub.unplug()
    bridge.wait_for(lambda b: not b.hubs()["hub-1"].connected, WAIT_S)
    assert "gifu" in bridge.view().unobserved
    assert placed(bridge, "T01", "gifu"), "a lost hub's blocks are frozen, not vanished"
    table.lift("T01")  # a move made while the hub is unplugged
    table.put("T01", "edo")

    hub.replug()  # a new pty; the stable name (like a udev symlink) follows it
    bridge.wait_for(lambda b: b.hubs()["hub-1"].connected, WAIT_S)
    _wait_placed(bridge, T01="edo", T02="edo")
    bridge.wait_for(lambda b: "gifu" not in b.view().unobserved, WAIT_S)
    bridge.wait_for(lambda b: hub.leds.get(15) == LedMode.ON, WAIT_S)  # LEDs sent again
    assert bridge.hubs()["hub-1"].stats.connections == 2


def test_corrupted_and_truncated_frames_are_counted_and_cost_nothing(
    table: SimulatedTable, bridge: Bridge
) -> None:
    table.put("I05", "osaka")
    _wait_placed(bridge, I05="osaka")
    hub = table.hubs["hub-1"]
    table.execute("corrupt hub-1 40")
    table.execute("truncate hub-1 40")
    bridge.wait_for(lambda b: hub.mischief.truncate_frames == 0, WAIT_S)
    table.lift("I05")
    table.put("I05", "kyoto")
    _wait_placed(bridge, I05="kyoto")
    stats = bridge.hubs()["hub-1"].stats
    rejected = sum(stats.rejected.values()) + stats.gaps
    assert rejected >= 40, stats
    assert stats.rejected["bad_checksum"] + stats.rejected["no_checksum"] > 0
    assert bridge.hubs()["hub-1"].connected


def test_sequence_gaps_are_counted_and_tracking_goes_on(
    table: SimulatedTable, bridge: Bridge
) -> None:
    table.execute("gap hub-2 1000")
    bridge.wait_for(lambda b: b.hubs()["hub-2"].stats.frames_lost >= 1000, WAIT_S)
    table.put("T10", "edo")
    _wait_placed(bridge, T10="edo")
    assert bridge.hubs()["hub-2"].stats.gaps >= 1


def test_a_repeated_frame_is_counted_once_not_as_65535_lost(
    table: SimulatedTable, bridge: Bridge
) -> None:
    table.put("T10", "edo")
    _wait_placed(bridge, T10="edo")
    before = bridge.hubs()["hub-1"].stats.frames_lost
    table.execute("duplicate hub-1 3")
    bridge.wait_for(lambda b: b.hubs()["hub-1"].stats.duplicates >= 3 or None, WAIT_S)
    stats = bridge.hubs()["hub-1"].stats
    assert stats.frames_lost == before and stats.duplicates == 3
    table.move("edo", "kyoto")
    _wait_placed(bridge, T10="kyoto")


def test_a_flood_of_garbage_bytes(table: SimulatedTable, bridge: Bridge) -> None:
    table.put("I09", "gifu")
    _wait_placed(bridge, I09="gifu")
    for _ in range(10):
        table.execute("noise hub-1 20000")
        time.sleep(0.02)
    table.lift("I09")
    table.put("I09", "osaka")
    _wait_placed(bridge, I09="osaka")
    stats = bridge.hubs()["hub-1"].stats
    assert stats.rejected["overlong"] + stats.rejected["not_ascii"] > 0, stats
    assert bridge.hubs()["hub-1"].connected


def test_flickering_tags_do_not_move_blocks(
    table: SimulatedTable, bridge: Bridge, events: list[TrackEvent]
) -> None:
    for block, zone in (("T01", "gifu"), ("T02", "gifu"), ("T03", "osaka"), ("T04", "kyoto")):
        table.put(block, zone)
    _wait_placed(bridge, T01="gifu", T02="gifu", T03="osaka", T04="kyoto")
    events.clear()
    hub = table.hubs["hub-1"]
    hub.mischief.flicker_run = 2  # the debounce tolerates two missed inventories in a row
    hub.mischief.flicker = 0.4
    time.sleep(2.0)
    hub.mischief.flicker = 0.0
    assert hub.dropouts > 50, "the simulator really flickered"
    assert [e for e in events if isinstance(e, PlacementChanged)] == []


def test_cross_talk_keeps_blocks_where_they_are_and_flags_a_straddling_block(
    table: SimulatedTable, bridge: Bridge, events: list[TrackEvent]
) -> None:
    table.put("I03", "kyoto")
    _wait_placed(bridge, I03="kyoto")
    time.sleep(0.5)  # well settled before the neighbour starts hearing it
    table.execute("crosstalk kyoto osaka")  # osaka's antenna hears kyoto's tags too
    bridge.wait_for(lambda b: "E004015000000003" in b.view().crosstalk, WAIT_S)
    assert placed(bridge, "I03", "kyoto")
    table.put("I04", "kyoto")  # new to both antennas at once: ambiguous, not guessed
    bridge.wait_for(lambda b: "I04" in b.tracker.ambiguous, WAIT_S)
    assert bridge.placements().get("I04") is None
    table.execute("nocrosstalk")
    _wait_placed(bridge, I03="kyoto", I04="kyoto")
    assert not any(isinstance(e, PlacementChanged) and e.block_id == "I03" and e.zone != "kyoto"
                   for e in events)


def test_an_unknown_tag_is_seen_but_never_placed(table: SimulatedTable, bridge: Bridge) -> None:
    table.put(UNKNOWN_UID, "kiso")
    bridge.wait_for(lambda b: b.view().where.get(UNKNOWN_UID) == "kiso", WAIT_S)
    assert bridge.placements() == {}


def test_two_hubs_at_once(table: SimulatedTable, bridge: Bridge, events: list[TrackEvent]) -> None:
    hub_of = {zone: key.hub for key, zone in table.wiring.table().items()}
    assert hub_of["gifu"] != hub_of["edo"]
    table.put("T20", "gifu")
    table.put("T21", "edo")
    _wait_placed(bridge, T20="gifu", T21="edo")
    table.lift("T20")
    table.put("T20", "edo")  # across hubs
    bridge.wait_for(lambda b: any(m.origin == "gifu" for m in _moves(events)), WAIT_S)
    move = next(m for m in _moves(events) if m.origin == "gifu")
    assert (move.destination, move.block_ids) == ("edo", ("T20",))
    assert all(h.connected for h in bridge.hubs().values())


def test_a_reader_fault_freezes_its_location(table: SimulatedTable, bridge: Bridge) -> None:
    table.put("I30", "osaka")
    _wait_placed(bridge, I30="osaka")
    table.execute("fault osaka NO_READER")
    bridge.wait_for(lambda b: "osaka" in b.view().unobserved, WAIT_S)
    table.lift("I30")
    time.sleep(0.3)
    assert placed(bridge, "I30", "osaka"), "a dead reader does not make blocks vanish"
    table.execute("fault osaka none")
    _wait_placed(bridge, I30=None)


def test_a_silent_hub_is_pinged_then_given_up_and_resumed(
    table: SimulatedTable, bridge: Bridge
) -> None:
    table.put("T40", "edo")
    _wait_placed(bridge, T40="edo")
    table.execute("silent hub-2 on")
    bridge.wait_for(lambda b: not b.hubs()["hub-2"].connected, 8)
    assert placed(bridge, "T40", "edo")
    table.execute("silent hub-2 off")
    bridge.wait_for(lambda b: b.hubs()["hub-2"].connected and "edo" not in b.view().unobserved,
                    WAIT_S)


def test_a_hub_speaking_another_major_version_is_refused(tmp_path: Path) -> None:
    hub = VirtualHub("hub-9", antennas=4, rate_hz=50, link=tmp_path / "hub-9")
    hub.protocol = (2, 0)
    with hub, Bridge([hub.port], wiring=WiringMap(), registry=TagRegistry()) as bridge:
        refused = bridge.wait_for(lambda b: b.refused_ports(), WAIT_S)
        assert refused == {hub.port: "hub hub-9 speaks protocol 2.0, this companion speaks 1.x"}
        hub.place(0, "E004015000000001")
        time.sleep(0.2)
        assert bridge.hubs() == {} and bridge.view().unmapped == {}
        lines, problems = check_report(bridge, None)
        assert problems >= 1 and lines[0].startswith(f"refused {hub.port}")


def test_a_full_casualty_tray_arrives_in_several_parts(
    table: SimulatedTable, bridge: Bridge
) -> None:
    blocks = [f"T{n:02d}" for n in range(1, 41)]  # 40 tags: a SNAP in two parts
    for block in blocks:
        table.put(block, "casualties")
    bridge.wait_for(lambda b: all(placed(b, blk, "casualties") for blk in blocks), WAIT_S)
    table.execute("corrupt hub-2 30")  # damaged parts drop the whole set, never half of it
    hub = table.hubs["hub-2"]
    bridge.wait_for(lambda b: hub.mischief.corrupt_frames == 0, WAIT_S)
    time.sleep(0.2)
    assert all(placed(bridge, blk, "casualties") for blk in blocks)


def test_the_bridge_sets_the_scan_rate_and_reports_hub_faults(table: SimulatedTable) -> None:
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry, rate_hz=20) as bridge:
        hub = table.hubs["hub-1"]
        bridge.wait_for(lambda b: hub.rate_hz == 20, WAIT_S)
        hub.send(Fault(None, "OVERHEAT", "85 C"))
        bridge.wait_for(lambda b: b.hubs()["hub-1"].fault == "OVERHEAT 85 C", WAIT_S)
        lines, problems = check_report(bridge, None)
        assert "  hub fault: OVERHEAT 85 C" in lines and problems >= 1


def test_a_ruled_move_is_being_told_until_every_subscriber_has_it() -> None:
    """A hand that sees the table settled must not act (tap Done) before the table session was
    told the moves: ``telling`` holds from the moment the tracker rules them until the last
    subscriber returned, in whatever thread they are published."""
    wiring = WiringMap(hubs={"h": {"A00": "gifu"}})
    bridge = Bridge([], wiring=wiring, registry=TagRegistry(tags={"E004015000000001": "I01"}))
    seen: list[tuple[str, bool]] = []
    bridge.subscribe(lambda e: seen.append((type(e).__name__, bridge.telling())))
    assert not bridge.telling()
    bridge.declare("I01", "gifu", "a dead tag")
    assert ("StackMoved", True) in seen
    assert not bridge.telling()
