"""Hub problems (firmware_bridge/hubstatus.py) on a simulated table over real pseudo-terminals:
a hub lost, quiet, faulted, replaced or never heard, and a failed reader, each reported to the
bridge's watchers as it happens and cleared when the hub is back. Silence is judged on an
injected clock: the tests wait only for frames to cross the ptys."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_helpers import RATE_HZ, WAIT_S

from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from firmware_bridge.hubstatus import FAULT_STANDS_S, START_GRACE_S, HubProblem
from firmware_bridge.link import HubLink
from firmware_bridge.protocol import Fault, Hello, Sync, Who
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.simulator import VirtualHub
from firmware_bridge.zones import active_table, use_table

STEP_S = 0.25
"""Injected seconds per step: far below the 1.5 s a healthy hub may be quiet."""


class Clock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def watched(table: SimulatedTable, clock: Clock
            ) -> Iterator[tuple[Bridge, list[tuple[HubProblem, ...]]]]:
    seen: list[tuple[HubProblem, ...]] = []
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry, clock=clock) as bridge:
        bridge.watch_hubs(seen.append)
        bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield bridge, seen


def kinds(bridge: Bridge) -> list[tuple[str, str]]:
    return [(p.kind, p.hub) for p in bridge.hub_problems()]


def advance(bridge: Bridge, clock: Clock, seconds: float, healthy: list[str]) -> None:
    """Move the clock on in small steps; after each, wait until every ``healthy`` hub has been
    heard at the new time (one frame across its pty), as it would be in real time."""
    end = clock.now + seconds
    while clock.now < end:
        clock.now = min(end, clock.now + STEP_S)
        bridge.wait_for(lambda b: all(
            (link := b.hubs()[h].link) is not None and link.heard_at >= clock.now
            for h in healthy), WAIT_S)


def test_an_unplugged_hub_is_reported_at_once_and_cleared_when_back(
        table: SimulatedTable, watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    bridge, seen = watched
    assert bridge.hub_problems() == ()
    table.hubs["hub-2"].unplug()
    bridge.wait_for(lambda b: kinds(b) == [("lost", "hub-2")], WAIT_S)
    problem = bridge.hub_problems()[0]
    assert problem.zones == tuple(z for k, z in sorted(table.wiring.table().items())
                                  if k.hub == "hub-2")
    bridge.wait_for(lambda b: seen and seen[-1] == b.hub_problems(), WAIT_S)  # told at once
    table.hubs["hub-2"].replug()
    bridge.wait_for(lambda b: b.hub_problems() == () and seen[-1] == (), WAIT_S)
    assert not bridge.view().unobserved, "every antenna of the hub reported again"


def test_a_command_sent_as_the_port_closes_is_said_never_raised() -> None:
    """A hub unplugged while the bridge sends it a SYNC: pyserial, closing the port in the
    reader's thread, drops its fd before it marks the port closed, and a write in between
    fails with a TypeError. That killed the bridge's supervisor (no more ticks or SYNCs, the
    hub never found again); the send says it in the log and the reader reports the hub lost."""
    master, slave = os.openpty()
    link = HubLink(os.ttyname(slave), listener=None)  # type: ignore[arg-type]  # never started
    fd = link._serial.fd
    try:
        link._serial.fd = None  # pyserial part way through close() in another thread
        assert link.send(Sync(0, 0)) is None
    finally:
        link._serial.fd = fd
        link.close()
        os.close(master)
        os.close(slave)


def test_a_quiet_hub_shows_within_2_s_and_clears_when_it_speaks(
        table: SimulatedTable, clock: Clock,
        watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    bridge, _seen = watched
    table.execute("silent hub-2 on")
    start = clock.now
    while not kinds(bridge) and clock.now - start < 2.0:
        advance(bridge, clock, STEP_S, healthy=["hub-1"])
        bridge.wait_for(lambda b: True, WAIT_S)
    bridge.wait_for(lambda b: kinds(b) == [("silent", "hub-2")], WAIT_S)
    assert clock.now - start <= 2.0
    assert bridge.hubs()["hub-2"].connected, "shown before the link gives the hub up (4 s)"
    table.execute("silent hub-2 off")
    bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)


def test_a_hub_fault_stands_until_it_is_no_longer_repeated(
        table: SimulatedTable, clock: Clock,
        watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    bridge, _seen = watched
    table.hubs["hub-1"].send(Fault(None, "OVERHEAT", "85 C"))
    bridge.wait_for(lambda b: kinds(b) == [("fault", "hub-1")], WAIT_S)
    assert "is overheating" in bridge.hub_problems()[0].words()
    advance(bridge, clock, FAULT_STANDS_S - 1, healthy=["hub-1", "hub-2"])
    assert kinds(bridge) == [("fault", "hub-1")]
    advance(bridge, clock, 1.5, healthy=["hub-1", "hub-2"])
    bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)


def test_a_failed_reader_is_reported_by_its_place(
        table: SimulatedTable, watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    bridge, _seen = watched
    table.execute("fault osaka NO_READER")
    found = bridge.wait_for(lambda b: b.hub_problems(), WAIT_S)
    assert [(p.kind, p.zones) for p in found] == [("reader", ("osaka",))]
    assert found[0].words().startswith("The reader under Osaka has failed")
    table.execute("fault osaka none")
    bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)


def test_a_hub_swapped_for_one_the_wiring_map_does_not_know(
        tmp_path: Path, table: SimulatedTable,
        watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    bridge, _seen = watched
    old = table.hubs["hub-2"]
    old.unplug()
    assert old.link is not None
    with VirtualHub("hub-9", antennas=32, rate_hz=RATE_HZ, link=old.link):
        bridge.wait_for(lambda b: kinds(b) == [("replaced", "hub-2")], WAIT_S)
        assert "another hub is plugged in" in bridge.hub_problems()[0].words()
    old.replug()
    bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)


def test_a_hub_never_heard_is_missing_after_the_grace(tmp_path: Path, clock: Clock) -> None:
    table = SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=RATE_HZ)
    table.hubs["hub-1"].start()
    ports = [str(tmp_path / "sim" / "hub-1"), str(tmp_path / "sim" / "hub-2")]
    try:
        with Bridge(ports, wiring=table.wiring, registry=table.registry, clock=clock) as bridge:
            bridge.wait_for(lambda b: "hub-1" in b.hubs(), WAIT_S)
            assert bridge.hub_problems() == (), "a hub may take a moment to boot"
            advance(bridge, clock, START_GRACE_S, healthy=["hub-1"])
            bridge.wait_for(lambda b: kinds(b) == [("missing", "hub-2")], WAIT_S)
    finally:
        table.hubs["hub-1"].stop()


def test_the_words_name_the_hub_its_places_and_the_game_s_pieces() -> None:
    served = active_table()
    try:
        use_table("sekigahara")
        lost = HubProblem("lost", "hub-2", ("kiyosu", "gifu", "kofu", "ishida_deployment"))
        assert lost.words() == (
            "Hub 2 (Kiyosu, Gifu, Kōfu and 1 more) is not answering: check its USB cable. "
            "Its places keep their last blocks until it is back.")
        use_table("tenka-meidou")
        reader = HubProblem("reader", "hub-1", ("kiyosu",)).words()
        assert reader == ("The reader under Kiyosu-jō has failed: check its antenna cable. "
                          "The pawns there are kept as they were.")
        full = HubProblem("reader", "hub-1", ("kyoto",), "OVERFLOW 30 tags").words()
        assert full.startswith("The reader under Kyō (Kyoto) sees more pawns than it can "
                               "report: spread the stack out.")
    finally:
        use_table(served)


def test_a_power_fault_tells_players_to_check_the_adapter_not_the_usb_cable(
        table: SimulatedTable, watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    """FAULT HUB POWER (the module rail is down: the hub holds its outputs low) and FAULT HUB
    RESET (a hung reader was restarted) say what players can do about them."""
    bridge, _seen = watched
    table.hubs["hub-1"].send(Fault(None, "POWER", "module rail at 3.1 V: check the 12 V supply"))
    bridge.wait_for(lambda b: kinds(b) == [("fault", "hub-1")], WAIT_S)
    words = bridge.hub_problems()[0].words()
    assert "12 V adapter" in words and "USB" not in words
    table.hubs["hub-2"].send(Fault(None, "RESET", "A03 stopped answering"))
    bridge.wait_for(lambda b: ("fault", "hub-2") in kinds(b), WAIT_S)
    assert "restarted its readers" in bridge.hub_problems()[1].words()


def _hub_2_zone(table: SimulatedTable) -> tuple[str, int]:
    """A place read by hub-2 on an antenna other than its first, and that antenna."""
    return next((zone, key.antenna) for key, zone in sorted(table.wiring.table().items())
                if key.hub == "hub-2" and key.antenna > 0 and zone != "casualties")


def test_two_hubs_saying_they_are_one_are_both_shown_and_only_the_first_is_read(
        tmp_path: Path, table: SimulatedTable, clock: Clock) -> None:
    """Cloned firmware or a forged HELLO: a second port says it is hub 2. The hub read first
    stays hub 2 (never shown as lost), the other port stays open and is named in one line for
    the players, and nothing it reports is read: its empty reads of hub 2's places would
    otherwise take hub 2's blocks away, and its tags put blocks there."""
    zone, antenna = _hub_2_zone(table)
    impostor_port = str(tmp_path / "impostor")
    written: list[object] = []
    seen: list[tuple[HubProblem, ...]] = []
    with Bridge([*table.ports, impostor_port], wiring=table.wiring, registry=table.registry,
                clock=clock) as bridge:
        bridge.watch_hubs(seen.append)
        bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        table.put("T02", zone)
        bridge.wait_for(lambda b: b.placements().get("T02") == zone, WAIT_S)
        real_port = bridge.hubs()["hub-2"].port
        impostor = VirtualHub("hub-2", antennas=32, rate_hz=RATE_HZ,
                              link=tmp_path / "impostor",
                              on_frame=lambda *frame: written.append(frame[2]))
        with impostor:
            impostor.place(antenna, table.uid("T10"))
            bridge.wait_for(lambda b: kinds(b) == [("duplicate", "hub-2")], WAIT_S)
            [problem] = bridge.hub_problems()
            assert problem.words() == (
                f"Two hubs both say they are Hub 2: on {real_port} and {impostor_port}. Only "
                "the first is read: give the other its own HUB_ID (the build guide, section 8).")
            assert bridge.set_aside() == {impostor_port: "hub-2"}
            assert bridge.hubs()["hub-2"].port == real_port
            lines, _problems = check_report(bridge, None)
            assert (f"{impostor_port} also says it is hub hub-2, which is on {real_port}: it is "
                    "not read (give it its own HUB_ID in its hub_config.py)") in lines
            aside = bridge._links[impostor_port]
            bridge.wait_for(lambda b: aside.stats.frames["Snapshot"] >= 200, WAIT_S)
            assert bridge.placements().get("T02") == zone, "the impostor's empty reads unread"
            assert "T10" not in bridge.placements(), "the impostor's tags unread"
            other = next(z for k, z in sorted(table.wiring.table().items())
                         if k.hub == "hub-2" and z not in (zone, "casualties"))
            table.lift("T02")  # the real hub 2 is still read
            table.put("T02", other)
            bridge.wait_for(lambda b: b.placements().get("T02") == other, WAIT_S)
        bridge.wait_for(lambda b: b.hub_problems() == () and b.set_aside() == {}, WAIT_S)
    assert len(written) > 200
    assert not any(p.kind in ("lost", "silent") for problems in seen for p in problems)
    assert sum(1 for problems in seen if any(p.kind == "duplicate" for p in problems)) == 1, \
        "said once, while it lasts"


def test_a_hub_set_aside_becomes_the_hub_when_the_first_one_goes(
        tmp_path: Path, table: SimulatedTable, clock: Clock) -> None:
    zone, antenna = _hub_2_zone(table)
    impostor_port = str(tmp_path / "second")
    with Bridge([*table.ports, impostor_port], wiring=table.wiring, registry=table.registry,
                clock=clock) as bridge:
        bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        with VirtualHub("hub-2", antennas=32, rate_hz=RATE_HZ, link=tmp_path / "second") as second:
            second.place(antenna, table.uid("T10"))
            bridge.wait_for(lambda b: b.set_aside() == {impostor_port: "hub-2"}, WAIT_S)
            table.hubs["hub-2"].unplug()  # the first one is unplugged: the second is hub 2
            bridge.wait_for(lambda b: b.hubs()["hub-2"].port == impostor_port
                            and b.placements().get("T10") == zone, WAIT_S)
            bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)
            table.hubs["hub-2"].replug()  # now the first one is the duplicate
            bridge.wait_for(lambda b: kinds(b) == [("duplicate", "hub-2")], WAIT_S)
            assert bridge.hub_problems()[0].ports == (impostor_port, table.hubs["hub-2"].port)


def test_a_hello_announcing_fewer_antennas_than_the_wiring_map_does_not_blind_them(
        table: SimulatedTable, watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    """A forged HELLO (or a hub's config) says hub 2 has one antenna while the wiring map puts
    places on 28: the mismatch is said, and every antenna of the map is still read (its spare
    antennas, in no place of the map, are not)."""
    bridge, _seen = watched
    zone, _antenna = _hub_2_zone(table)
    hub = table.hubs["hub-2"]
    hub.send(Hello("hub-2", hub.firmware, hub.protocol, 1, hub.rate_hz))
    bridge.wait_for(lambda b: kinds(b) == [("antennas", "hub-2")], WAIT_S)
    words = bridge.hub_problems()[0].words()
    more = sum(1 for key in table.wiring.table() if key.hub == "hub-2" and key.antenna >= 1)
    assert words.startswith(f"Hub 2 says it has only 1 antenna, but the wiring map puts {more} "
                            "more places on it: they are still read.")
    table.put("T02", zone)
    bridge.wait_for(lambda b: b.placements().get("T02") == zone, WAIT_S)
    wired = 1 + max(key.antenna for key in table.wiring.table() if key.hub == "hub-2")
    assert len([k for k in bridge.antenna_tags() if k.hub == "hub-2"]) == wired
    hub.send(Hello("hub-2", hub.firmware, hub.protocol, hub.antennas, hub.rate_hz))
    bridge.wait_for(lambda b: b.hub_problems() == (), WAIT_S)


def test_a_hub_that_once_says_it_is_another_hub_is_asked_again_and_stays_itself(
        table: SimulatedTable, watched: tuple[Bridge, list[tuple[HubProblem, ...]]]) -> None:
    """Hub 2's port says HELLO as hub 1 without reconnecting (a forged or garbled line): hub 2
    is not lost, hub 1 keeps its port, and hub 2 is asked again (WHO). Only the same answer
    again (a hub re-flashed as hub 1 with its port kept open) makes it hub 1's double."""
    bridge, seen = watched
    zone, _antenna = _hub_2_zone(table)
    table.put("T02", zone)
    bridge.wait_for(lambda b: b.placements().get("T02") == zone, WAIT_S)
    hub = table.hubs["hub-2"]
    first_port = bridge.hubs()["hub-1"].port
    hub.send(Hello("hub-1", hub.firmware, hub.protocol, hub.antennas, hub.rate_hz))
    bridge.wait_for(lambda b: b.hubs()["hub-2"].stats.connections == 2, WAIT_S)  # its answer
    assert any(isinstance(c, Who) for c in hub.commands_received[1:])
    other = next(z for k, z in sorted(table.wiring.table().items())
                 if k.hub == "hub-2" and z not in (zone, "casualties"))
    table.lift("T02")
    table.put("T02", other)  # hub 2 is still read as hub 2
    bridge.wait_for(lambda b: b.placements().get("T02") == other, WAIT_S)
    assert bridge.hubs()["hub-1"].port == first_port
    assert all(problems == () for problems in seen) and bridge.hub_problems() == ()
    hub.hub_id = "hub-1"
    hub.send(Hello("hub-1", hub.firmware, hub.protocol, hub.antennas, hub.rate_hz))
    bridge.wait_for(lambda b: ("duplicate", "hub-1") in kinds(b), WAIT_S)
    assert ("lost", "hub-2") in kinds(bridge)
    assert bridge.hubs()["hub-1"].port == first_port
