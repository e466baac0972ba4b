"""Fuzzing the decoder: over a million random and mutated bytes, nothing but ProtocolError."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.simtable import SimulatedTable

FUZZ_BYTES = 1_000_000

SEEDS = [
    p.encode(p.Hello("hub-1", "0.1.0", (1, 0), 16, 20), 0),
    p.encode(p.Snapshot(3, ("E004015012345678", "E00401501234ABCD")), 17),
    p.encode(p.Snapshot(5, tuple(f"E0040150{n:08X}" for n in range(24)), 2, 3), 65535),
    p.encode(p.Snapshot(0, ()), 1),
    p.encode(p.Fault(7, "NO_READER", "spi timeout"), 2),
    p.encode(p.Fault(None, "OVERHEAT"), 3),
    p.encode(p.Beat(), 4),
    p.encode(p.Ack(9), 5),
    p.encode(p.Nak(9, "BAD_VALUE"), 6),
    p.encode(p.TestResult(1, False, "NO_READER"), 7),
    p.encode(p.SetLed(None, p.LedMode.BLINK), 8),
    p.encode(p.SetRate(20), 9),
    p.encode(p.Ping("abc"), 10),
]


def _resign(line: bytes) -> bytes:
    """Give a mutated body a correct checksum, so the field parsers get exercised too."""
    body = line.rstrip(b"\n").rpartition(b" *")[0] or line.rstrip(b"\n")
    return body + b" *%04X\n" % p.crc16(body)


def _mutate(rng: random.Random, line: bytes) -> bytes:
    data = bytearray(line)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        i = rng.randrange(len(data)) if data else 0
        if op == 0 and data:
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            data.insert(i, rng.randrange(256))
        elif op == 2 and data:
            del data[i]
        elif op == 3:
            data.insert(i, rng.choice(b" ,*/=-A0E9\n\r\x00\xff"))
        elif op == 4 and data:
            j = rng.randrange(len(data))
            data[i:i] = data[min(i, j) : max(i, j)]
        else:
            data[i:i] = rng.choice(SEEDS)
    out = bytes(data)
    return _resign(out) if rng.random() < 0.5 else out


def fuzz_stream(rng: random.Random, size: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total < size:
        kind = rng.random()
        if kind < 0.2:
            chunk = os.urandom(rng.randint(1, 800)) if rng.random() < 0.5 else bytes(
                rng.randrange(256) for _ in range(rng.randint(1, 100)))
        elif kind < 0.3:
            chunk = rng.choice(SEEDS)
        else:
            chunk = _mutate(rng, rng.choice(SEEDS))
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _decode_all(stream: bytes, rng: random.Random) -> tuple[int, int]:
    splitter = p.LineSplitter()
    good = bad = 0
    i = 0
    while i < len(stream):
        n = rng.randint(1, 600)
        for line in splitter.feed(stream[i : i + n]):
            try:
                p.decode_line(line)
                good += 1
            except p.ProtocolError as exc:
                assert exc.reason in p.REJECT_REASONS
                bad += 1
        i += n
    return good, bad


def test_a_million_random_and_mutated_bytes_never_raise_anything_else() -> None:
    rng = random.Random(20261122)
    stream = fuzz_stream(rng, FUZZ_BYTES)
    assert len(stream) >= FUZZ_BYTES
    good, bad = _decode_all(stream, rng)
    assert good > 100 and bad > 1000  # both paths were really exercised


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=700))
def test_decode_line_only_raises_protocol_errors(line: bytes) -> None:
    try:
        frame = p.decode_line(line)
    except p.ProtocolError as exc:
        assert exc.reason in p.REJECT_REASONS
    else:
        assert p.decode_line(p.encode(frame.message, frame.seq)).message == frame.message


@settings(max_examples=1000, deadline=None)
@given(st.binary(min_size=1, max_size=200))
def test_signed_garbage_only_raises_protocol_errors(body: bytes) -> None:
    line = body.replace(b"\n", b"") + b" *%04X\n" % p.crc16(body.replace(b"\n", b""))
    try:
        p.decode_line(line)
    except p.ProtocolError as exc:
        assert exc.reason in p.REJECT_REASONS


def test_a_fuzzed_stream_over_a_real_pty_leaves_the_bridge_tracking(tmp_path: Path) -> None:
    directory = tmp_path
    rng = random.Random(7)
    stream = fuzz_stream(rng, 300_000)
    with (
        SimulatedTable.create(directory / "sim", hubs=1, antennas=64, rate_hz=50, seed=3) as t,
        Bridge(t.ports, wiring=t.wiring, registry=t.registry) as bridge,
    ):
        bridge.wait_for(lambda b: bool(b.hubs()), 5)
        hub = t.hubs["hub-1"]
        for i in range(0, len(stream), 4096):
            hub.write_raw(stream[i : i + 4096])
            time.sleep(0.001)
        t.put("I01", "gifu")
        bridge.wait_for(lambda b: b.placements().get("I01") == "gifu", 10)
        stats = bridge.hubs()["hub-1"].stats
        assert sum(stats.rejected.values()) > 100
        assert bridge.hubs()["hub-1"].connected
