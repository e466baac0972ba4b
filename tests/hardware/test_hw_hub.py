"""The hub firmware's scan loop, protocol output and command handling, under CPython.

Each antenna has the real PN5180 driver over an emulated chip (hw_fakes.FakePN5180); the clock is
fake, so nothing waits. Everything the hub writes is decoded with the host's codec
(firmware_bridge.protocol) and every command is encoded with it: both sides must agree.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hw_fakes import FakeClock, FakeLeds, FakePN5180, FakePort
from hypothesis import given, settings
from hypothesis import strategies as st
from sekihub import FIRMWARE_VERSION
from sekihub.hub import Antenna, Hub
from sekihub.iso15693 import uid_hex
from sekihub.pn5180 import PN5180

from firmware_bridge import protocol as p


class Rig:
    """A hub with ``n`` antennas, each a PN5180 over an emulated chip."""

    def __init__(self, n: int = 4, rate: int = 10) -> None:
        self.clock = FakeClock()
        self.port = FakePort()
        self.leds = FakeLeds(n)
        self.chips = [FakePN5180(self.clock) for _ in range(n)]
        antennas = [Antenna(PN5180(c, c, self.clock, name=f"PN5180#{i}"))
                    for i, c in enumerate(self.chips)]
        self.hub = Hub("hub-1", antennas, self.port, self.clock, self.leds, rate_hz=rate)
        self.host_seq = 100
        self.expected_seq = 0

    def command(self, message: p.Message) -> int:
        seq = self.host_seq
        self.port.inbox += p.encode(message, seq)
        self.host_seq += 1
        return seq

    def frames(self) -> list[p.Frame]:
        """Decode everything written since the last call; checks the sequence numbers run on."""
        out = []
        for line in self.port.take_lines():
            assert len(line) <= p.MAX_LINE_BYTES
            frame = p.decode_line(line)
            assert frame.seq == self.expected_seq
            self.expected_seq = (self.expected_seq + 1) % p.SEQ_MODULO
            out.append(frame)
        return out

    def messages(self) -> list[p.Message]:
        return [f.message for f in self.frames()]

    def cycle(self) -> list[p.Message]:
        """Let one full scan cycle run (advancing the clock to when it is due)."""
        self.clock.advance_ms(1000 // self.hub.rate_hz)
        for _ in self.hub.antennas:
            self.hub.step()
        return self.messages()


def snaps(messages: list[p.Message]) -> dict[int, set[str]]:
    return {m.antenna: set(m.uids) for m in messages if isinstance(m, p.Snapshot)}


def test_hello_on_start_announces_id_versions_antennas_and_rate() -> None:
    rig = Rig(n=5, rate=20)
    rig.hub.start()
    (hello,) = rig.messages()
    assert hello == p.Hello("hub-1", FIRMWARE_VERSION, (p.PROTOCOL_MAJOR, p.PROTOCOL_MINOR), 5, 20)


def test_one_snapshot_per_antenna_per_cycle_even_when_empty() -> None:
    rig = Rig(n=4)
    rig.chips[1].tags = {0xE004015000000001, 0xE004015000000002}
    rig.hub.start()
    rig.messages()
    for _ in range(3):
        out = rig.cycle()
        assert [m.antenna for m in out if isinstance(m, p.Snapshot)] == [0, 1, 2, 3]
        assert snaps(out) == {0: set(), 1: {"E004015000000001", "E004015000000002"},
                              2: set(), 3: set()}


def test_wire_bytes_match_the_host_encoder_exactly() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = {0xE00401500000ABCD}
    rig.hub.start()
    rig.hub.step()
    hello, snap = rig.port.take_lines()
    assert hello == p.encode(p.Hello("hub-1", FIRMWARE_VERSION, (1, 3), 1, 10), 0)
    assert snap == p.encode(p.Snapshot(0, ("E00401500000ABCD",)), 1)


def test_a_stack_of_fourteen_blocks_is_reported_whole() -> None:
    rig = Rig(n=1)
    tags = {0xE004015000001000 + n for n in range(14)}
    rig.chips[0].tags = tags
    rig.hub.start()
    assert snaps(rig.cycle())[0] == {uid_hex(t) for t in tags}


def test_more_than_24_tags_are_split_into_consecutive_parts() -> None:
    rig = Rig(n=1)
    tags = {0xE004015000002000 + 7 * n for n in range(50)}
    rig.chips[0].tags = tags
    rig.hub.start()
    rig.messages()
    rig.hub.step()
    frames = rig.frames()
    parts = [f.message for f in frames]
    assert [(m.part, m.parts) for m in parts] == [(1, 3), (2, 3), (3, 3)]
    assert [f.seq for f in frames] == [1, 2, 3]
    assert set().union(*(m.uids for m in parts)) == {uid_hex(t) for t in tags}


def test_removing_a_block_shows_in_the_next_snapshot() -> None:
    rig = Rig(n=2)
    rig.chips[0].tags = {1, 2, 3}
    rig.hub.start()
    assert snaps(rig.cycle())[0] == {uid_hex(1), uid_hex(2), uid_hex(3)}
    rig.chips[0].tags = {1, 3}
    rig.chips[1].tags = {2}
    assert snaps(rig.cycle()) == {0: {uid_hex(1), uid_hex(3)}, 1: {uid_hex(2)}}


def test_an_incomplete_inventory_never_drops_a_tag() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = {5, 6}
    rig.hub.start()
    rig.cycle()
    rig.chips[0].tags = {5}
    rig.chips[0].garble = 10**6  # every answer damaged: the inventory cannot complete
    assert snaps(rig.cycle())[0] == {uid_hex(5), uid_hex(6)}
    rig.chips[0].garble = 0
    assert snaps(rig.cycle())[0] == {uid_hex(5)}


def test_scan_rate_paces_cycles_by_the_clock() -> None:
    rig = Rig(n=2, rate=4)
    rig.hub.start()
    rig.messages()
    rig.hub.step()
    rig.hub.step()
    assert len(snaps(rig.messages())) == 2  # first cycle runs at once
    rig.clock.advance_ms(100)
    rig.hub.step()
    assert rig.messages() == []  # 250 ms between cycle starts at 4 Hz
    rig.clock.advance_ms(200)
    rig.hub.step()
    assert [type(m) for m in rig.messages()] == [p.Snapshot]


def test_rate_command_changes_the_pace_and_hello() -> None:
    rig = Rig(n=1, rate=10)
    rig.hub.start()
    rig.messages()
    seq = rig.command(p.SetRate(2))
    rig.hub.step()
    out = rig.messages()
    assert p.Ack(seq) in out
    assert rig.hub.rate_hz == 2
    seq = rig.command(p.Who())
    rig.hub.step()
    out = rig.messages()
    assert out[0] == p.Ack(seq)
    assert out[1] == p.Hello("hub-1", FIRMWARE_VERSION, (1, 3), 1, 2)


@pytest.mark.parametrize("hz", [0, 51, 999])
def test_rate_out_of_range_is_refused(hz: int) -> None:
    rig = Rig(n=1, rate=10)
    rig.hub.start()
    rig.messages()
    seq = rig.command(p.SetRate(hz))
    rig.hub.step()
    assert p.Nak(seq, "BAD_VALUE") in rig.messages()
    assert rig.hub.rate_hz == 10


def test_ping_gets_pong_and_ack() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    seq = rig.command(p.Ping("abc123"))
    rig.hub.step()
    out = rig.messages()
    assert out[:2] == [p.Pong("abc123"), p.Ack(seq)]


def test_a_command_is_answered_between_inventory_rounds() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = {0xE004015000001000 + n for n in range(30)}  # several rounds
    rig.hub.start()
    rig.messages()
    sent: list[int] = []

    def host_pings() -> None:
        if rig.chips[0].rounds == 2:
            sent.append(rig.command(p.Ping("mid")))

    rig.chips[0].on_round = host_pings
    rig.hub.step()
    kinds = [type(m) for m in rig.messages()]
    assert sent and kinds.index(p.Pong) < kinds.index(p.Snapshot)


def test_led_modes_light_steady_blink_and_fast() -> None:
    rig = Rig(n=4)
    rig.hub.start()
    rig.messages()
    acks = [rig.command(p.SetLed(0, p.LedMode.ON)), rig.command(p.SetLed(1, p.LedMode.BLINK)),
            rig.command(p.SetLed(2, p.LedMode.FAST))]
    rig.clock.us = 1_000_000  # a moment when every blinking LED is lit
    rig.hub.step()
    assert [m for m in rig.messages() if isinstance(m, p.Ack)] == [p.Ack(s) for s in acks]
    lit = [rgb != (0, 0, 0) for rgb in rig.leds.shown]
    assert lit == [True, True, True, False]
    rig.clock.us = 1_000_000 + 62_000  # FAST has gone dark, BLINK not yet
    rig.hub.step()
    assert [rgb != (0, 0, 0) for rgb in rig.leds.shown] == [True, True, False, False]
    rig.clock.us = 1_000_000 + 250_000
    rig.hub.step()
    assert rig.leds.shown[0] != (0, 0, 0) and rig.leds.shown[1] == (0, 0, 0)


def test_led_all_off() -> None:
    rig = Rig(n=3)
    rig.hub.start()
    rig.command(p.SetLed(None, p.LedMode.ON))
    rig.hub.step()
    assert all(rgb != (0, 0, 0) for rgb in rig.leds.shown)
    rig.command(p.SetLed(None, p.LedMode.OFF))
    rig.hub.step()
    assert rig.leds.shown == [(0, 0, 0)] * 3


def test_led_on_a_missing_antenna_is_refused() -> None:
    rig = Rig(n=3)
    rig.hub.start()
    rig.messages()
    seq = rig.command(p.SetLed(7, p.LedMode.ON))
    rig.hub.step()
    assert p.Nak(seq, "BAD_ANTENNA") in rig.messages()


def test_selftest_acks_then_reports_every_antenna() -> None:
    rig = Rig(n=3)
    rig.chips[1].tags = {42}
    rig.chips[2].dead = True
    rig.hub.start()
    rig.messages()
    seq = rig.command(p.SelfTest())
    rig.hub.step()
    out = rig.messages()
    assert out[0] == p.Ack(seq)
    tests = [m for m in out if isinstance(m, p.TestResult)]
    assert [(t.antenna, t.passed) for t in tests] == [(0, True), (1, True), (2, False)]
    assert "field=ok tags=yes" in tests[1].detail and "tags=no" in tests[0].detail
    assert tests[2].detail.startswith("NO_READER")


def test_selftest_of_sixteen_full_antennas_fits_in_two_seconds() -> None:
    rig = Rig(n=16)
    for i, chip in enumerate(rig.chips):
        chip.tags = {0xE004015000000000 + 64 * i + n for n in range(14)}
    rig.hub.start()
    rig.messages()
    start = rig.clock.ticks_ms()
    rig.command(p.SelfTest())
    rig.hub.step()
    tests = [m for m in rig.messages() if isinstance(m, p.TestResult)]
    assert len(tests) == 16 and all(t.passed for t in tests)
    assert rig.clock.ticks_ms() - start < 2000  # the firmware's own waits, in fake time


def test_a_dead_reader_is_a_fault_once_a_second_and_recovers() -> None:
    rig = Rig(n=2, rate=10)
    rig.chips[0].dead = True
    rig.chips[1].tags = {9}
    rig.hub.start()
    rig.messages()
    out = rig.cycle()
    faults = [m for m in out if isinstance(m, p.Fault)]
    assert faults == [p.Fault(0, "NO_READER", "PN5180#0 BUSY stayed high")]
    assert snaps(out) == {1: {uid_hex(9)}}  # the other antenna goes on
    fault_times = [rig.clock.ticks_ms()]
    while rig.clock.ticks_ms() < 3500:
        out = rig.cycle()
        assert snaps(out) == {1: {uid_hex(9)}}
        if any(isinstance(m, p.Fault) for m in out):
            fault_times.append(rig.clock.ticks_ms())
    gaps = [b - a for a, b in pairwise(fault_times)]
    assert len(gaps) >= 2 and all(1000 <= g <= 1300 for g in gaps)
    rig.chips[0].dead = False
    for _ in range(10):
        out = rig.cycle()
        if 0 in snaps(out):
            break
    assert snaps(out)[0] == set()


def test_a_reader_that_fails_at_start_is_reported() -> None:
    rig = Rig(n=1)
    rig.chips[0].absent = True
    rig.hub.start()
    rig.messages()
    rig.hub.step()
    (fault,) = rig.messages()
    assert isinstance(fault, p.Fault) and fault.code == "NO_READER" and fault.antenna == 0


def test_an_unexpected_driver_error_is_a_bus_fault() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()

    def broken(poll: object = None, quiet: object = ()) -> None:
        raise OSError(5, "EIO")

    rig.hub.antennas[0].reader.inventory = broken  # type: ignore[method-assign]
    rig.hub.step()
    (fault,) = rig.messages()
    assert isinstance(fault, p.Fault) and fault.code == "BUS" and "OSError" in fault.detail


def test_heartbeat_after_a_second_of_silence() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    rig.hub.scan_due = lambda: False  # type: ignore[method-assign]
    rig.clock.advance_ms(999)
    rig.hub.step()
    assert rig.messages() == []
    rig.clock.advance_ms(1)
    rig.hub.step()
    assert rig.messages() == [p.Beat()]


def test_hello_again_when_the_host_opens_the_port() -> None:
    rig = Rig(n=1)
    state = {"dtr": False}
    rig.port.connected = lambda: state["dtr"]  # type: ignore[attr-defined]
    rig.hub.start()
    rig.hub.scan_due = lambda: False  # type: ignore[method-assign]
    rig.hub.step()
    rig.messages()
    state["dtr"] = True
    rig.hub.step()
    assert isinstance(rig.messages()[0], p.Hello)


# --------------------------------------------------------------------------- bad input


def test_bad_checksum_is_naked_and_not_acted_on() -> None:
    rig = Rig(n=2)
    rig.hub.start()
    rig.messages()
    line = bytearray(p.encode(p.SetLed(1, p.LedMode.ON), 77))
    line[-3] = ord("0") if line[-3] != ord("0") else ord("1")  # corrupt the checksum
    rig.port.inbox += bytes(line)
    rig.hub.step()
    assert p.Nak(77, "BAD_CHECKSUM") in rig.messages()
    assert rig.hub.led_modes[1] == "OFF"


def test_unknown_command_and_wrong_arity() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    for body, reason in ((b"FROB 5 x", "UNKNOWN_COMMAND"), (b"WHO 6 extra", "BAD_FRAME"),
                         (b"LED 7 A00 PURPLE", "BAD_VALUE"), (b"PING 8", "BAD_FRAME"),
                         (b"RATE 9 fast", "BAD_VALUE"), (b"SNAP 10 A00 1/1 -", "UNKNOWN_COMMAND"),
                         (b"LED 11  A00 ON", "BAD_FRAME")):
        rig.port.inbox += body + b" *%04X\n" % p.crc16(body)
        rig.hub.step()
        seq = int(body.split(b" ")[1])
        assert p.Nak(seq, reason) in rig.messages(), body


def test_a_line_without_a_readable_sequence_number_gets_no_reply() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.hub.scan_due = lambda: False  # type: ignore[method-assign]
    rig.messages()
    rig.port.inbox += b"hello there\n\xff\xfe\n*\n"
    rig.hub.step()
    assert rig.messages() == []
    assert rig.hub.rejected == 3


def test_missing_checksum_with_a_sequence_number_is_naked() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    rig.port.inbox += b"PING 12 hello\r\n"
    rig.hub.step()
    assert p.Nak(12, "BAD_FRAME") in rig.messages()


def test_an_overlong_line_is_dropped_and_the_next_command_still_works() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    rig.port.inbox += b"X" * 700
    rig.hub.step()
    rig.port.inbox += b"Y" * 100 + b"\n"
    seq = rig.command(p.Ping("ok"))
    rig.hub.step()
    out = rig.messages()
    assert p.Pong("ok") in out and p.Ack(seq) in out
    assert rig.hub.lines.overlong == 1


def test_a_command_split_across_reads_is_reassembled() -> None:
    rig = Rig(n=1)
    rig.hub.start()
    rig.messages()
    line = p.encode(p.Ping("split"), 3)
    rig.port.inbox += line[:7]
    rig.hub.step()
    rig.port.inbox += line[7:]
    rig.hub.step()
    assert p.Pong("split") in rig.messages()


def test_a_port_that_refuses_writes_never_stops_the_hub() -> None:
    rig = Rig(n=1)

    def full(data: bytes) -> None:
        raise OSError(11, "EAGAIN")

    rig.port.write = full  # type: ignore[method-assign]
    rig.hub.start()
    rig.hub.step()
    assert rig.hub.dropped == 2 and rig.hub.seq == 2  # HELLO, SNAP: counted, seq advanced


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=80) | st.sampled_from(
    [b"\n", b"\r\n", b"PING 1 x *0000\n", b"LED 2 ALL ON", b" *", b"RATE 3 10"]), max_size=12))
def test_any_input_never_crashes_and_every_output_line_decodes(chunks: list[bytes]) -> None:
    rig = Rig(n=2)
    rig.chips[0].tags = {3, 4}
    rig.hub.start()
    for chunk in chunks:
        rig.port.inbox += chunk
        rig.hub.step()
    for frame in rig.frames():
        assert not isinstance(frame.message, p.Fault)


def test_a_weak_tag_under_a_strong_one_stays_in_every_snapshot() -> None:
    rig = Rig(n=1)
    strong, weak = 0xE004015000000003, 0xE004015000000013
    rig.chips[0].tags = {strong, weak}
    rig.chips[0].strength = {strong: 20.0, weak: 1.0}
    rig.hub.start()
    for _ in range(5):
        assert snaps(rig.cycle())[0] == {uid_hex(strong), uid_hex(weak)}


def test_a_neighbouring_hub_scanning_now_and_then_costs_a_scan_not_a_second() -> None:
    """Another hub's reader next to antenna 0 has its field on 30 ms of every 70 ms."""
    rig = Rig(n=2)
    rig.chips[0].tags = {0xE004015000000001}
    rig.chips[0].neighbour_field = lambda now: now % 70_000 < 30_000
    rig.hub.start()
    out: list[p.Message] = []
    for _ in range(20):
        out += rig.cycle()
    assert not [m for m in out if isinstance(m, p.Fault)]
    reads = [m for m in out if isinstance(m, p.Snapshot) and m.antenna == 0]
    assert len(reads) >= 12  # most cycles read it; a collided one is skipped, never frozen
    assert all(m.uids == (uid_hex(0xE004015000000001),) for m in reads)


def test_persistent_cross_talk_is_reported_and_clears() -> None:
    rig = Rig(n=1)
    rig.chips[0].tags = {0xE004015000000001}
    neighbour_on = [True]
    rig.chips[0].neighbour_field = lambda now: neighbour_on[0]
    rig.hub.start()
    out: list[p.Message] = []
    for _ in range(25):
        out += rig.cycle()
    faults = [m for m in out if isinstance(m, p.Fault)]
    assert faults and all(f.code == "RF_COLLISION" and f.antenna == 0 for f in faults)
    assert len(faults) <= 3  # once a second, not every cycle
    assert not [m for m in out if isinstance(m, p.Snapshot)]
    neighbour_on[0] = False
    assert snaps(rig.cycle())[0] == {uid_hex(0xE004015000000001)}
