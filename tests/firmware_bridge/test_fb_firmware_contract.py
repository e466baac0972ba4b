"""Contract test: the hub firmware's wire module (hardware/firmware/sekihub/wire.py) and the
host codec agree, frame by frame, in both directions. Skipped if the firmware is absent."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from firmware_bridge import protocol as p

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"


@pytest.fixture(scope="module")
def wire() -> ModuleType:
    if not (FIRMWARE / "sekihub" / "wire.py").exists():
        pytest.skip("the hub firmware is not in this tree")
    sys.path.insert(0, str(FIRMWARE))
    try:
        from sekihub import wire as module
    finally:
        sys.path.remove(str(FIRMWARE))
    return module


def test_hub_frames_decode_on_the_host(wire: ModuleType) -> None:
    uids = [f"E0040150{n:08X}" for n in range(30)]
    parts = wire.snapshot_parts(uids)
    frames = [
        (wire.encode("HELLO", 0, ["hub=E6614103", "fw=0.1.0", "proto=1.0", "antennas=16",
                                  "rate=10"]), p.Hello("E6614103", "0.1.0", (1, 0), 16, 10)),
        (wire.encode("SNAP", 5, ["A03", "1/2", parts[0]]),
         p.Snapshot(3, tuple(uids[:24]), 1, 2)),
        (wire.encode("SNAP", 6, ["A03", "2/2", parts[1]]),
         p.Snapshot(3, tuple(uids[24:]), 2, 2)),
        (wire.encode("SNAP", 7, ["A04", "1/1", "-"]), p.Snapshot(4, ())),
        (wire.encode("FAULT", 8, ["A05", "NO_READER", wire.clean_words("busy*stuck")]),
         p.Fault(5, "NO_READER", "busy stuck")),
        (wire.encode("BEAT", 9), p.Beat()),
        (wire.encode("ACK", 10, ["3"]), p.Ack(3)),
        (wire.encode("TEST", 11, ["A01", "PASS"]), p.TestResult(1, True)),
    ]
    for line, expected in frames:
        assert p.decode_line(line).message == expected
    assert wire.crc16(b"123456789") == p.crc16(b"123456789") == 0x29B1


def test_host_commands_parse_on_the_hub(wire: ModuleType) -> None:
    commands = [
        (p.Ping("t123"), ("PING", ["t123"])),
        (p.Who(), ("WHO", [])),
        (p.SetRate(20), ("RATE", ["20"])),
        (p.SetLed(None, p.LedMode.OFF), ("LED", ["ALL", "OFF"])),
        (p.SetLed(5, p.LedMode.BLINK), ("LED", ["A05", "BLINK"])),
        (p.SelfTest(), ("SELFTEST", [])),
    ]
    for message, (kind, fields) in commands:
        assert tuple(wire.parse_line(p.encode(message, 42))) == (42, kind, fields)


def test_schedule_commands_parse_on_the_hub(wire: ModuleType) -> None:
    sched = p.Schedule(3, 50, 2, (0, 2, 1, 0))
    seq, kind, fields = wire.parse_line(p.encode(sched, 7))
    assert (seq, kind) == (7, "SCHED")
    assert wire.parse_schedule(fields, 4) == (3, [50, 50, 50], 2, [0, 2, 1, 0])
    seq, kind, fields = wire.parse_line(p.encode(p.Sync(2, 17), 8))
    assert (seq, kind, wire.parse_sync(fields, 3)) == (8, "SYNC", (2, 17))
    assert p.decode_line(p.encode(sched, 7)).message == sched
    assert f"{p.PROTOCOL_MAJOR}.{p.PROTOCOL_MINOR}" == wire.PROTOCOL_VERSION


def test_per_slot_lengths_parse_alike_on_the_hub_and_the_host(wire: ModuleType) -> None:
    """Protocol 1.2: PERIOD_MS may be one length per slot; both sides take it, and both refuse
    the same malformed lists (the hub with NAK BAD_VALUE, the host decoder as bad_field)."""
    sched = p.Schedule(3, (120, 40, 75), 2, (0, 2, 1, 0))
    line = p.encode(sched, 9)
    assert b" 3 120,40,75 2 0,2,1,0 *" in line
    _, _, fields = wire.parse_line(line)
    assert wire.parse_schedule(fields, 4) == (3, [120, 40, 75], 2, [0, 2, 1, 0])
    assert p.decode_line(line).message == sched
    for lengths, guard in (("120,40", "2"), ("120,40,75,60", "2"), ("120,,75", "2"),
                           ("120,40,", "2"), ("120,4,75", "2"), ("120,1001,75", "2"),
                           ("120,9,75", "5"), ("120,x,75", "2")):
        fields = ["3", lengths, guard, "0,2,1,0"]
        with pytest.raises(wire.WireError) as err:
            wire.parse_schedule(fields, 4)
        assert err.value.reason == "BAD_VALUE", lengths
        body = " ".join(["SCHED", "4", *fields]).encode()
        with pytest.raises(p.ProtocolError) as bad:
            p.decode_line(body + b" *%04X\n" % p.crc16(body))
        assert bad.value.reason == "bad_field", lengths
