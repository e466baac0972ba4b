"""The protocol codec: round trips, the documented examples, and every rejection reason."""

from __future__ import annotations

import pytest

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
    SelfTest,
    SetLed,
    SetRate,
    Snapshot,
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
