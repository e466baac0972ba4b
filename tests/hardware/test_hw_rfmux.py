"""The cheaper build (README section 4.4): one PN5180 per hub switching 16 antenna coils
through an RF multiplexer (``sekihub.chipselect.RfMux``), run through the hub's own scan loop
against the time-modelled chip with an RF switch in front of it (``hw_fakes.FakeRfSwitch``)."""

from __future__ import annotations

import random

from hw_fakes import FakeClock, FakePN5180, FakePort, FakeRfSwitch
from sekihub.chipselect import RfMux
from sekihub.hub import Antenna, Hub
from sekihub.iso15693 import uid_hex
from sekihub.pn5180 import PN5180

from firmware_bridge import protocol as p

# tags per location for hub-1's 16 antennas: empty ones, single blocks, tall stacks
COUNTS = [0, 1, 14, 0, 3, 0, 8, 2, 0, 5, 6, 0, 1, 0, 4, 12]


def _locations(seed: int = 3) -> dict[int, set[int]]:
    rng = random.Random(seed)
    out: dict[int, set[int]] = {}
    for channel, n in enumerate(COUNTS):
        tags: set[int] = set()
        while len(tags) < n:
            tags.add(0xE004015000000000 | rng.getrandbits(32))
        out[channel] = tags
    return out


def _mux_hub(locations: dict[int, set[int]]) -> tuple[Hub, FakePort, FakeClock, FakePN5180]:
    clock = FakeClock()
    chip = FakePN5180(clock)
    chip.channels = locations
    chip.strength = {uid: random.Random(uid).choice((1.0, 1.5, 3.0, 8.0))
                     for tags in locations.values() for uid in tags}
    switch = FakeRfSwitch(chip)  # asserts the switch never moves with the field on
    mux = RfMux(switch.pins, clock=clock)
    reader = PN5180(chip, chip, clock, name="PN5180#0")
    antennas = [Antenna(reader, channel, mux) for channel in range(len(locations))]
    port = FakePort()
    return Hub("hub-1", antennas, port, clock, rate_hz=50), port, clock, chip


def _cycle(hub: Hub, clock: FakeClock) -> int:
    start = clock.us
    for _ in hub.antennas:
        hub.step()
    return clock.us - start


def _snaps(port: FakePort) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for line in port.take_lines():
        message = p.decode_line(line).message
        if isinstance(message, p.Snapshot):
            out.setdefault(message.antenna, set()).update(message.uids)
    return out


def test_one_reader_through_an_rf_mux_finds_every_locations_tags() -> None:
    locations = _locations()
    hub, port, clock, _ = _mux_hub(locations)
    hub.start()
    _cycle(hub, clock)
    seen = _snaps(port)
    assert seen == {ch: {uid_hex(t) for t in tags} for ch, tags in locations.items()}
    # a block moved from one coil to another shows on the new one only
    moved = next(iter(locations[2]))
    locations[2].discard(moved)
    locations[3].add(moved)
    clock.advance_ms(100)
    _cycle(hub, clock)
    seen = _snaps(port)
    assert uid_hex(moved) in seen[3] and uid_hex(moved) not in seen[2]


def test_the_mux_costs_its_settle_time_per_antenna_and_no_more() -> None:
    """The same tags, 16 readers (the reference build) against one reader and a mux: the mux
    adds only its 200 us settle per antenna (computed from the time model)."""
    locations = _locations()
    mux_hub, _, mux_clock, _ = _mux_hub(locations)
    mux_hub.start()
    mux_us = _cycle(mux_hub, mux_clock)

    clock = FakeClock()
    chips = []
    for tags in locations.values():
        chip = FakePN5180(clock, tags)
        chip.strength = {uid: random.Random(uid).choice((1.0, 1.5, 3.0, 8.0)) for uid in tags}
        chips.append(chip)
    antennas = [Antenna(PN5180(c, c, clock, name=f"PN5180#{i}")) for i, c in enumerate(chips)]
    hub = Hub("hub-1", antennas, FakePort(), clock, rate_hz=50)
    hub.start()
    readers_us = _cycle(hub, clock)
    settle = RfMux([], clock=None).settle_us * len(locations)
    assert abs(mux_us - readers_us - settle) < 0.05 * readers_us


def test_the_rf_mux_breaks_before_it_makes_and_waits_for_reed_relays() -> None:
    """INHIBIT high, 1 ms for the closed relay to open, the new address, INHIBIT low, 2 ms for
    the new relay to close and stop bouncing (hardware/README.md, the RF-mux option)."""
    log: list[tuple[str, int]] = []

    class Line:
        def __init__(self, name: str) -> None:
            self.name = name

        def value(self, level: int) -> None:
            log.append((self.name, level))

    class Clock:
        def sleep_us(self, us: int) -> None:
            log.append(("wait", us))

    mux = RfMux([Line("A0"), Line("A1")], enable=Line("INHIBIT"), clock=Clock())
    mux.select(2)
    assert log == [("INHIBIT", 1), ("wait", 1000), ("A0", 0), ("A1", 1), ("INHIBIT", 0),
                   ("wait", 2000)]
