"""The protocol codec: round trips, the documented examples, and every rejection reason."""

from __future__ import annotations

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.protocol import (
    MAX_LINE_BYTES,
    Ack,
    Beat,
    Fault,
    Hello,
    LedMode,
    LineSplitter,
    Nak,
    Ping,
    Pong,
    ProtocolError,
    Schedule,
    SelfTest,
    SetLed,
    SetRate,
    Snapshot,
    Sync,
    TestResult,
    Who,
    crc16,
    decode_line,
    encode,
    snapshot_frames,
)

MESSAGES = [
    Hello("hub-1", "0.1.0", (1, 0), 16, 20),
    Snapshot(3, ("E004015012345678", "E00401501234ABCD")),
    Snapshot(0, ()),
    Snapshot(127, ("E004015012345678",), 2, 3),
    Fault(7, "NO_READER", "spi timeout"),
    Fault(None, "OVERHEAT"),
    Beat(),
    Pong("abc"),
    Ack(65535),
    Nak(4, "BAD_VALUE"),
    TestResult(2, False, "NO_READER"),
    TestResult(2, True),
    Ping("x1"),
    Who(),
    SetRate(50),
    SetLed(None, LedMode.OFF),
    SetLed(5, LedMode.BLINK),
    SelfTest(),
]


def test_crc_test_vector() -> None:
    assert crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_round_trip(message: object) -> None:
    line = encode(message, 17)  # type: ignore[arg-type]
    frame = decode_line(line)
    assert frame.seq == 17
    assert frame.message == message


def test_documented_examples_decode() -> None:
    for line in (
        b"HELLO 0 hub=hub-1 fw=0.1.0 proto=1.0 antennas=16 rate=20 *57B3\n",
        b"SNAP 17 A03 1/1 E004015012345678,E00401501234ABCD *E5E8\n",
        b"LED 3 A05 BLINK *3D3A\r\n",
        b"FAULT 4 HUB OVERHEAT temp 85C *16B6\n",
        b"TEST 9 A02 FAIL NO_READER *D95D\n",
        b"SCHED 12 5 120,40,60,20,20 2 0,1,0,2,3,4,1,0,2,0,1,3,4,0,1,2 *3B56\n",
        b"SYNC 13 1 17 *E6FD\n",
    ):
        decode_line(line)


def test_large_snapshot_splits_into_parts() -> None:
    uids = [f"E0040150{n:08X}" for n in range(60)]
    parts = snapshot_frames(4, uids)
    assert [(p.part, p.parts) for p in parts] == [(1, 3), (2, 3), (3, 3)]
    assert sorted(u for p in parts for u in p.uids) == sorted(uids)
    assert all(len(encode(p, 65535)) <= MAX_LINE_BYTES for p in parts)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"\n", "empty"),
        (b"SNAP 1 A03 1/1 - *ZZZZ\n", "no_checksum"),
        (b"SNAP 1 A03 1/1 -\n", "no_checksum"),
        (b"SNAP 1 A03 1/1 - *0000\n", "bad_checksum"),
        (b"SNAP 1 A03 1/1 \xff *0000\n", "not_ascii"),
        (b"X" * 600 + b"\n", "overlong"),
    ],
)
def test_rejections(line: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_line(line)
    assert err.value.reason == reason


def _signed(body: str) -> bytes:
    raw = body.encode()
    return raw + b" *%04X\n" % crc16(raw)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("SNAP x A03 1/1 -", "bad_sequence"),
        ("SNAP 70000 A03 1/1 -", "bad_sequence"),
        ("JUMP 1", "unknown_type"),
        ("SNAP 1 A03 1/1 e004015012345678", "bad_field"),
        ("SNAP 1 A03 1/1 E004", "bad_field"),
        ("SNAP 1 B03 1/1 -", "bad_field"),
        ("SNAP 1 A300 1/1 -", "bad_field"),
        ("SNAP 1 A03 3/2 -", "bad_field"),
        ("SNAP 1 A03 1/1 E004015012345678,E004015012345678", "bad_field"),
        ("HELLO 0 hub=h fw=1 antennas=4", "bad_field"),
        ("HELLO 0 hub=h fw=1 proto=1.0 antennas=0", "bad_field"),
        ("RATE 1 99", "bad_field"),
        ("LED 1 A01 PURPLE", "bad_field"),
        ("ACK 1", "bad_field"),
        # SCHED, protocol 1.2 per-slot lengths (PERIOD_MS a list of COUNT lengths)
        ("SCHED 1 3 50,60 2 0,1,2", "bad_field"),  # 2 lengths for 3 slots
        ("SCHED 1 2 50,60,70 2 0,1", "bad_field"),  # 3 lengths for 2 slots
        ("SCHED 1 2 50,60, 2 0,1", "bad_field"),  # a trailing comma
        ("SCHED 1 3 50,,60 2 0,1,2", "bad_field"),  # an empty length
        ("SCHED 1 2 50,4 2 0,1", "bad_field"),  # under MIN_SLOT_MS
        ("SCHED 1 2 50,1001 2 0,1", "bad_field"),  # over MAX_SLOT_MS
        ("SCHED 1 2 50,-6 2 0,1", "bad_field"),
        ("SCHED 1 2 50,9 5 0,1", "bad_field"),  # the guards do not fit the shortest slot
        ("SCHED 1 2 50 25 0,1", "bad_field"),  # nor a uniform one
        ("SCHED 1 2 50,60 2 0,2", "bad_field"),  # antenna in slot 2 of 2
        ("SYNC 1 0 1000", "bad_field"),
    ],
)
def test_field_rejections(body: str, reason: str) -> None:
    with pytest.raises(ProtocolError) as err:
        decode_line(_signed(body))
    assert err.value.reason == reason


def test_splitter_cuts_lines_and_flags_overlong() -> None:
    splitter = LineSplitter()
    out = list(splitter.feed(b"ab\ncd"))
    assert out == [b"ab\n"]
    out = list(splitter.feed(b"e\n" + b"x" * 700))
    assert out == [b"cde\n", b""]
    out = list(splitter.feed(b"y" * 100 + b"\nok\n"))
    assert out == [b"ok\n"]


@pytest.mark.parametrize(
    "message",
    [
        Schedule(5, 50, 2, (0, 1, 2, 3, 4, 0)),
        Schedule(5, (120, 40, 5, 1000, 60), 2, (0, 1, 2, 3, 4, 0)),
        Schedule(2, (9, 10), 4, (1, 0)),
        Sync(4, 999),
    ],
)
def test_schedules_round_trip(message: Schedule | Sync) -> None:
    frame = decode_line(encode(message, 65535))
    assert frame.message == message and frame.seq == 65535


def test_equal_slot_lengths_are_one_length_on_the_wire() -> None:
    """A 1.1 hub takes one length only: a list of equal ones is that length, stored and sent."""
    sched = Schedule(3, (80, 80, 80), 2, (0, 1, 2))
    assert sched == Schedule(3, 80, 2, (0, 1, 2)) and not sched.per_slot
    assert b"SCHED 1 3 80 2 0,1,2 *" in encode(sched, 1)
    assert Schedule(1, (70,), 2, (0,)).period_ms == 70
    listed = decode_line(_signed("SCHED 1 3 80,80,80 2 0,1,2")).message
    assert listed == sched
    per_slot = Schedule(3, (80, 20, 30), 2, (0, 1, 2))
    assert per_slot.per_slot and per_slot.lengths == (80, 20, 30) and per_slot.cycle_ms == 130
    assert sched.lengths == (80, 80, 80) and sched.cycle_ms == 240


def test_a_schedule_with_the_wrong_number_of_lengths_is_not_encoded() -> None:
    with pytest.raises(ValueError, match="2 slot lengths for 3 slots"):
        encode(Schedule(3, (80, 20), 2, (0, 1, 2)), 1)


def test_the_longest_schedule_fits_in_a_line() -> None:
    """16 slots of 4-digit lengths and 128 antennas of 2-digit slots: still under 512 bytes."""
    sched = Schedule(16, tuple(1000 - k for k in range(16)), 492,
                     tuple(10 + a % 6 for a in range(128)))
    line = encode(sched, 65535)
    assert len(line) <= MAX_LINE_BYTES
    assert decode_line(line).message == sched


def test_protocol_1_3_focus_and_read_reports_round_trip() -> None:
    """FOCUS (section 5.2) and a snapshot's read time and kind (4.2) survive the wire; a
    snapshot without them is a full read of unknown time, and a malformed extra is refused."""
    for focus in (p.Focus(()), p.Focus((0, 3, 15)), p.Focus((4, 2), frozenset({2}))):
        assert p.decode_line(p.encode(focus, 7)).message == focus
    assert b" A04,A02! " in p.encode(p.Focus((4, 2), frozenset({2})), 1)
    assert p.encode(p.Focus(()), 1).startswith(b"FOCUS 1 - *")
    parts = p.snapshot_frames(2, [f"E00401{n:010X}" for n in range(30)], read_ms=81, full=False)
    assert [(s.read_ms, s.full) for s in parts] == [(None, None), (81, False)]
    decoded = [p.decode_line(p.encode(s, i)).message for i, s in enumerate(parts)]
    assert decoded == parts
    assert p.ReadReport.of(parts[-1]) == p.ReadReport(81, False)
    plain = p.decode_line(p.encode(p.Snapshot(1, ()), 3)).message
    assert isinstance(plain, p.Snapshot) and plain.proves_absence
    assert p.ReadReport.of(plain) is None
    for bad in (b"SNAP 4 A01 1/1 - ms=x", b"SNAP 4 A01 1/1 - read=half",
                b"SNAP 4 A01 1/1 - ms=1 ms=2", b"FOCUS 4 A01,A01",
                b"FOCUS 4 A01,A01!", b"FOCUS 4 B7", b"FOCUS 4 A01 E0040150000000ZZ",
                b"FOCUS 4 A01 E004015000000001,E004015000000001", b"FOCUS 4 - E004015000000001",
                b"FOCUS 4 A01 " + b",".join(b"E00401500000000%d" % n for n in range(5))):
        line = bad + b" *%04X\n" % p.crc16(bad)
        with pytest.raises(p.ProtocolError):
            p.decode_line(line)
