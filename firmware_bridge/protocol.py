"""The hub <-> host line protocol, version 1.2: the one encoder and decoder (docs/protocol.md).

Every frame is one ASCII line::

    TYPE SEQ FIELD FIELD ... *CRC\\n

``SEQ`` is a decimal sequence number (0..65535, wrapping, one counter per direction per hub),
``CRC`` is the CRC-16/CCITT-FALSE of every byte before the space that precedes ``*``, written as
four upper-case hex digits. The bridge and the simulator both use this module, so what the
simulator sends is byte for byte what a conforming hub sends.

:func:`decode_line` never raises anything but :class:`ProtocolError`, whose ``reason`` is one of
:data:`REJECT_REASONS`; the bridge counts and logs each rejection by that reason.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 3
MAX_LINE_BYTES = 512
"""The longest frame, newline included. A longer line is discarded up to its newline."""
MAX_UIDS_PER_FRAME = 24
"""A snapshot of more tags than this is split into parts (``SNAP seq A03 2/3 ...``)."""
MAX_PARTS = 8
SEQ_MODULO = 65536
MAX_ANTENNAS = 128
MIN_RATE_HZ = 1
MAX_RATE_HZ = 50
MAX_SLOTS = 16
"""The most slots a scan schedule (SCHED, protocol 1.1) may have."""
MIN_SLOT_MS = 5
MAX_SLOT_MS = 1000
PER_SLOT_LENGTHS = (1, 2)
"""The first protocol version whose hubs take one length per slot in ``SCHED`` (section 5.1);
an older scheduled hub only takes one length for every slot."""
FOCUS_READS = (1, 3)
"""The first protocol version whose hubs take ``FOCUS`` and then do quick reads and report
each read's time and kind on its ``SNAP`` (sections 4.2, 5.2)."""
MAX_READ_MS = 60000
MAX_WANTED = 4
"""The most tags a ``FOCUS`` asks the hubs to watch for (a stack of more is read quick)."""
WANT_MASK_BITS = 24
"""A watch for a tag asks with this many low bits of its UID: only that tag answers (two of
96 blocks sharing 24 bits is a 1 in 60,000 chance; the answer carries the whole UID anyway)."""

UID_PATTERN = re.compile(r"[0-9A-F]{16}")
_TOKEN = re.compile(r"[!-)+-~]{1,64}")  # printable ASCII without space and '*'
_HUB_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_ANTENNA = re.compile(r"A([0-9]{2,3})")
_PART = re.compile(r"([1-9])/([1-9])")

REJECT_REASONS = (
    "overlong",
    "not_ascii",
    "no_checksum",
    "bad_checksum",
    "bad_sequence",
    "unknown_type",
    "bad_field",
    "empty",
)


class ProtocolError(ValueError):
    """A line that is not a valid frame. ``reason`` is one of :data:`REJECT_REASONS`."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


# --------------------------------------------------------------------------- checksum


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): ``b"123456789"`` -> 0x29B1.

    ``binascii.crc_hqx`` is exactly this CRC when seeded with 0xFFFF, in C.
    """
    return binascii.crc_hqx(data, 0xFFFF)


# --------------------------------------------------------------------------- messages


class LedMode(StrEnum):
    """What a location's LED shows: OFF, ON (a legal destination), BLINK (a discrepancy), FAST
    (the battle site)."""

    OFF = "OFF"
    ON = "ON"
    BLINK = "BLINK"
    FAST = "FAST"


def antenna_name(index: int) -> str:
    """``3`` -> ``"A03"``."""
    return f"A{index:02d}"


# hub -> host


@dataclass(frozen=True, slots=True)
class Hello:
    """A hub announces itself: on connect, on reboot, and whenever asked with WHO."""

    hub_id: str
    firmware: str
    protocol: tuple[int, int]
    antennas: int
    rate_hz: int = 10


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The full set of tags one antenna sees now (one part of it, if ``parts`` > 1).

    From protocol 1.3, once the host has sent ``FOCUS``, the last part also says how long the
    read took on the hub's clock (``read_ms``) and whether it was a **full** read (every tag
    in the field answered: a tag not listed is not there) or a **quick** one (the tags the hub
    listed last time were told to stay quiet and only newcomers were asked for: a listed tag
    may have left). ``None``: not said (a 1.2 hub, or an earlier part), read as full."""

    antenna: int
    uids: tuple[str, ...]
    part: int = 1
    parts: int = 1
    read_ms: int | None = None
    full: bool | None = None

    @property
    def proves_absence(self) -> bool:
        """Whether a tag missing from this snapshot was really not in the field."""
        return self.full is not False


@dataclass(frozen=True, slots=True)
class ReadReport:
    """What a 1.3 hub said about one read (its snapshot's last part): how long it took on the
    hub's clock and whether it was full (see :class:`Snapshot`)."""

    ms: int | None
    full: bool

    @classmethod
    def of(cls, last_part: Snapshot) -> ReadReport | None:
        """The report on a snapshot's last part, or None for a hub that said nothing."""
        if last_part.read_ms is None and last_part.full is None:
            return None
        return cls(last_part.read_ms, last_part.proves_absence)


@dataclass(frozen=True, slots=True)
class Fault:
    """A reader fault; ``antenna`` is None for a fault of the hub itself."""

    antenna: int | None
    code: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Beat:
    """A heartbeat, sent when nothing else was sent for a second."""


@dataclass(frozen=True, slots=True)
class Pong:
    token: str


@dataclass(frozen=True, slots=True)
class Ack:
    command_seq: int


@dataclass(frozen=True, slots=True)
class Nak:
    command_seq: int
    reason: str


@dataclass(frozen=True, slots=True)
class TestResult:
    """One antenna's self-test outcome."""

    __test__ = False  # not a pytest test class, despite the name

    antenna: int
    passed: bool
    detail: str = ""


# host -> hub


@dataclass(frozen=True, slots=True)
class Ping:
    token: str


@dataclass(frozen=True, slots=True)
class Who:
    """Ask the hub to send HELLO."""


@dataclass(frozen=True, slots=True)
class SetRate:
    hz: int


@dataclass(frozen=True, slots=True)
class SetLed:
    """Set one antenna's LED, or every LED when ``antenna`` is None (``ALL``)."""

    antenna: int | None
    mode: LedMode


@dataclass(frozen=True, slots=True)
class SelfTest:
    """Ask for one TEST line per antenna."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """Scan antenna ``a`` only in slot ``slots[a]`` of a cycle of ``count`` slots, keeping
    ``guard_ms`` clear at both ends of every slot. Slot times count from the last
    :class:`Sync`.

    ``period_ms`` is one length for every slot (protocol 1.1) or, from protocol 1.2, a tuple of
    ``count`` lengths, slot 0's first; the cycle lasts their sum. A tuple whose lengths are all
    equal is the same schedule as that one number and is stored (and sent) as it, so what a
    1.1 hub can take never goes out as a list."""

    count: int
    period_ms: int | tuple[int, ...]
    guard_ms: int
    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        if isinstance(self.period_ms, tuple) and len(set(self.period_ms)) == 1:
            object.__setattr__(self, "period_ms", self.period_ms[0])

    @property
    def lengths(self) -> tuple[int, ...]:
        """The length of each slot (ms), slot 0's first."""
        if isinstance(self.period_ms, tuple):
            return self.period_ms
        return (self.period_ms,) * self.count

    @property
    def per_slot(self) -> bool:
        """Whether the slots have different lengths (only a 1.2 hub takes that)."""
        return isinstance(self.period_ms, tuple)

    @property
    def cycle_ms(self) -> int:
        return sum(self.lengths)


@dataclass(frozen=True, slots=True)
class Focus:
    """Protocol 1.3: the antennas that matter now (the legal destinations lit for a block in
    hand, its origin; the stacks a hand may lift), read first in every slot window; the others
    read after them, in what the window leaves. Those in ``full`` are always read in full (a
    stack a hand may lift from: only a full read sees a tag leave). ``want``: the tags of the
    blocks in hand (at most :data:`MAX_WANTED`): a focused antenna is then *watched* for them
    (a one-slot INVENTORY masked with each one's UID) instead of read quick. Empty: no antenna
    is preferred. Once a hub has had a ``FOCUS`` it reports every read's time and kind
    (section 5.2)."""

    antennas: tuple[int, ...] = ()
    full: frozenset[int] = frozenset()
    want: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.full <= set(self.antennas):
            raise ValueError("an antenna read in full must be focused")
        if len(self.want) > MAX_WANTED or len(set(self.want)) != len(self.want) or any(
                UID_PATTERN.fullmatch(u) is None for u in self.want):
            raise ValueError(f"FOCUS wants up to {MAX_WANTED} distinct tag uids")


@dataclass(frozen=True, slots=True)
class Sync:
    """Protocol 1.1: slot ``slot`` of the schedule began ``offset_ms`` ago (when sent), whatever
    the slots' lengths (1.2)."""

    slot: int
    offset_ms: int


HubMessage = Hello | Snapshot | Fault | Beat | Pong | Ack | Nak | TestResult
HostCommand = Ping | Who | SetRate | SetLed | SelfTest | Schedule | Sync | Focus
Message = HubMessage | HostCommand


@dataclass(frozen=True, slots=True)
class Frame:
    """A decoded frame: its sequence number and its message."""

    seq: int
    message: Message
    raw: bytes = field(default=b"", compare=False, repr=False)


# --------------------------------------------------------------------------- encoding


def _fields(message: Message) -> tuple[str, list[str]]:
    match message:
        case Hello(hub_id, firmware, (major, minor), antennas, rate):
            return "HELLO", [
                f"hub={hub_id}", f"fw={firmware}", f"proto={major}.{minor}",
                f"antennas={antennas}", f"rate={rate}",
            ]
        case Snapshot(antenna, uids, part, parts, read_ms, full):
            fields = [antenna_name(antenna), f"{part}/{parts}", ",".join(uids) or "-"]
            if read_ms is not None:
                fields.append(f"ms={read_ms}")
            if full is not None:
                fields.append("read=full" if full else "read=quick")
            return "SNAP", fields
        case Fault(antenna, code, detail):
            where = "HUB" if antenna is None else antenna_name(antenna)
            return "FAULT", [where, code, *detail.split()]
        case Beat():
            return "BEAT", []
        case Pong(token):
            return "PONG", [token]
        case Ack(command_seq):
            return "ACK", [str(command_seq)]
        case Nak(command_seq, reason):
            return "NAK", [str(command_seq), reason]
        case TestResult(antenna, passed, detail):
            return "TEST", [antenna_name(antenna), "PASS" if passed else "FAIL", *detail.split()]
        case Ping(token):
            return "PING", [token]
        case Who():
            return "WHO", []
        case SetRate(hz):
            return "RATE", [str(hz)]
        case SetLed(antenna, mode):
            return "LED", ["ALL" if antenna is None else antenna_name(antenna), mode.value]
        case SelfTest():
            return "SELFTEST", []
        case Schedule(count, period_ms, guard_ms, slots):
            if isinstance(period_ms, tuple) and len(period_ms) != count:
                raise ValueError(f"{len(period_ms)} slot lengths for {count} slots")
            lengths = (",".join(str(n) for n in period_ms) if isinstance(period_ms, tuple)
                       else str(period_ms))
            return "SCHED", [str(count), lengths, str(guard_ms),
                             ",".join(str(s) for s in slots)]
        case Sync(slot, offset_ms):
            return "SYNC", [str(slot), str(offset_ms)]
        case Focus(antennas, full, want):
            return "FOCUS", [",".join(antenna_name(a) + ("!" if a in full else "")
                                      for a in antennas) or "-", *([",".join(want)] if want
                                                                    else [])]
    raise TypeError(f"not a protocol message: {message!r}")


def encode(message: Message, seq: int) -> bytes:
    """The line for ``message`` with sequence number ``seq``, checksum and newline included."""
    kind, fields = _fields(message)
    body = " ".join([kind, str(seq % SEQ_MODULO), *fields]).encode("ascii")
    line = body + b" *%04X\n" % crc16(body)
    if len(line) > MAX_LINE_BYTES:
        raise ValueError(f"{kind} frame is {len(line)} bytes, the limit is {MAX_LINE_BYTES}")
    return line


def snapshot_frames(antenna: int, uids: list[str] | tuple[str, ...], read_ms: int | None = None,
                    full: bool | None = None) -> list[Snapshot]:
    """Split one antenna's tag set into as many SNAP parts as it needs (at least one); the
    read's time and kind (1.3) go on the last part."""
    ordered = sorted(uids)
    chunks = [
        tuple(ordered[i : i + MAX_UIDS_PER_FRAME])
        for i in range(0, len(ordered), MAX_UIDS_PER_FRAME)
    ] or [()]
    if len(chunks) > MAX_PARTS:
        raise ValueError(f"{len(ordered)} tags on one antenna is more than a snapshot can carry")
    last = len(chunks)
    return [Snapshot(antenna, chunk, i + 1, last, *((read_ms, full) if i + 1 == last else ()))
            for i, chunk in enumerate(chunks)]


# --------------------------------------------------------------------------- decoding


def _antenna(text: str) -> int:
    m = _ANTENNA.fullmatch(text)
    if m is None or int(m.group(1)) >= MAX_ANTENNAS:
        raise ProtocolError("bad_field", f"not an antenna: {text[:20]!r}")
    return int(m.group(1))


def _number(text: str, low: int, high: int, what: str) -> int:
    if not text.isdigit() or len(text) > 6 or not low <= int(text) <= high:
        raise ProtocolError("bad_field", f"{what} must be {low}..{high}, not {text[:20]!r}")
    return int(text)


def _token(text: str, what: str) -> str:
    if _TOKEN.fullmatch(text) is None:
        raise ProtocolError("bad_field", f"bad {what}: {text[:20]!r}")
    return text


def _arity(kind: str, fields: list[str], low: int, high: int | None = None) -> None:
    high = low if high is None else high
    if not low <= len(fields) <= high:
        raise ProtocolError("bad_field", f"{kind} takes {low}..{high} fields, got {len(fields)}")


def _hello(fields: list[str]) -> Hello:
    values: dict[str, str] = {}
    for item in fields:
        key, sep, value = item.partition("=")
        if not sep:
            raise ProtocolError("bad_field", f"HELLO field {item[:20]!r} is not key=value")
        values[key] = value
    for key in ("hub", "fw", "proto", "antennas"):
        if key not in values:
            raise ProtocolError("bad_field", f"HELLO lacks {key}=")
    if _HUB_ID.fullmatch(values["hub"]) is None:
        raise ProtocolError("bad_field", f"bad hub id {values['hub'][:40]!r}")
    major, dot, minor = values["proto"].partition(".")
    if not dot:
        raise ProtocolError("bad_field", f"bad protocol version {values['proto'][:20]!r}")
    return Hello(
        hub_id=values["hub"],
        firmware=_token(values["fw"], "firmware version"),
        protocol=(_number(major, 0, 999, "major"), _number(minor, 0, 999, "minor")),
        antennas=_number(values["antennas"], 1, MAX_ANTENNAS, "antennas"),
        rate_hz=_number(values.get("rate", "10"), MIN_RATE_HZ, MAX_RATE_HZ, "rate"),
    )


def _snapshot(fields: list[str]) -> Snapshot:
    _arity("SNAP", fields, 3, 5)
    read_ms: int | None = None
    full: bool | None = None
    for extra in fields[3:]:  # 1.3: ms=N read=full|quick, in any order, each at most once
        key, eq, value = extra.partition("=")
        if key == "ms" and eq and read_ms is None:
            read_ms = _number(value, 0, MAX_READ_MS, "read time")
        elif key == "read" and value in ("full", "quick") and full is None:
            full = value == "full"
        else:
            raise ProtocolError("bad_field", f"bad snapshot field {extra[:20]!r}")
    m = _PART.fullmatch(fields[1])
    if m is None or not 1 <= int(m.group(1)) <= int(m.group(2)) <= MAX_PARTS:
        raise ProtocolError("bad_field", f"bad snapshot part {fields[1][:20]!r}")
    uids: tuple[str, ...] = () if fields[2] == "-" else tuple(fields[2].split(","))
    if len(uids) > MAX_UIDS_PER_FRAME:
        raise ProtocolError("bad_field", f"{len(uids)} tags in one part")
    for uid in uids:
        if UID_PATTERN.fullmatch(uid) is None:
            raise ProtocolError("bad_field", f"bad tag uid ({len(uid)} characters)")
    if len(set(uids)) != len(uids):
        raise ProtocolError("bad_field", "a tag listed twice")
    return Snapshot(_antenna(fields[0]), uids, int(m.group(1)), int(m.group(2)), read_ms, full)


def _message(kind: str, f: list[str]) -> Message:
    if kind == "SNAP":
        return _snapshot(f)
    if kind == "HELLO":
        return _hello(f)
    if kind == "BEAT":
        _arity(kind, f, 0)
        return Beat()
    if kind == "FAULT":
        _arity(kind, f, 2, 32)
        where = None if f[0] == "HUB" else _antenna(f[0])
        return Fault(where, _token(f[1], "fault code"), " ".join(f[2:]))
    if kind in ("PONG", "PING"):
        _arity(kind, f, 1)
        token = _token(f[0], "token")
        return Pong(token) if kind == "PONG" else Ping(token)
    if kind == "ACK":
        _arity(kind, f, 1)
        return Ack(_number(f[0], 0, SEQ_MODULO - 1, "command seq"))
    if kind == "NAK":
        _arity(kind, f, 2)
        return Nak(_number(f[0], 0, SEQ_MODULO - 1, "command seq"), _token(f[1], "reason"))
    if kind == "TEST":
        _arity(kind, f, 2, 32)
        if f[1] not in ("PASS", "FAIL"):
            raise ProtocolError("bad_field", f"TEST outcome must be PASS or FAIL, not {f[1]!r}")
        return TestResult(_antenna(f[0]), f[1] == "PASS", " ".join(f[2:]))
    if kind == "WHO":
        _arity(kind, f, 0)
        return Who()
    if kind == "RATE":
        _arity(kind, f, 1)
        return SetRate(_number(f[0], MIN_RATE_HZ, MAX_RATE_HZ, "rate"))
    if kind == "LED":
        _arity(kind, f, 2)
        if f[1] not in LedMode.__members__:
            raise ProtocolError("bad_field", f"bad LED mode {f[1][:20]!r}")
        return SetLed(None if f[0] == "ALL" else _antenna(f[0]), LedMode(f[1]))
    if kind == "SELFTEST":
        _arity(kind, f, 0)
        return SelfTest()
    if kind == "SCHED":
        return _schedule(f)
    if kind == "FOCUS":
        _arity(kind, f, 1, 2)
        want = tuple(f[1].split(",")) if len(f) == 2 else ()
        if f[0] == "-":
            if want:
                raise ProtocolError("bad_field", "FOCUS wants tags but focuses no antenna")
            return Focus()
        items = f[0].split(",")
        antennas = tuple(_antenna(item.removesuffix("!")) for item in items)
        if len(items) > MAX_ANTENNAS or len(set(antennas)) != len(antennas):
            raise ProtocolError("bad_field", "FOCUS lists an antenna twice or too many")
        try:  # the wanted tags are checked where a Focus is made, for every maker
            return Focus(antennas, frozenset(a for a, i in zip(antennas, items, strict=True)
                                             if i.endswith("!")), want)
        except ValueError as exc:
            raise ProtocolError("bad_field", str(exc)) from None
    if kind == "SYNC":
        _arity(kind, f, 2)
        return Sync(_number(f[0], 0, MAX_SLOTS - 1, "slot"),
                    _number(f[1], 0, MAX_SLOT_MS - 1, "slot offset"))
    raise ProtocolError("unknown_type", f"unknown frame type {kind[:20]!r}")


def _schedule(f: list[str]) -> Schedule:
    _arity("SCHED", f, 4)
    count = _number(f[0], 1, MAX_SLOTS, "slot count")
    items = f[1].split(",")
    if len(items) > 1 and len(items) != count:  # 1.2: one length per slot
        raise ProtocolError("bad_field", f"{len(items)} slot lengths for {count} slots")
    lengths = tuple(_number(item, MIN_SLOT_MS, MAX_SLOT_MS, "slot length") for item in items)
    guard = _number(f[2], 0, (min(lengths) - 1) // 2, "guard")
    items = f[3].split(",")
    if len(items) > MAX_ANTENNAS:
        raise ProtocolError("bad_field", f"{len(items)} antennas in a schedule")
    slots = tuple(_number(item, 0, count - 1, "slot") for item in items)
    return Schedule(count, lengths if len(lengths) > 1 else lengths[0], guard, slots)


def decode_line(line: bytes) -> Frame:
    """Decode one line (``\\n`` or ``\\r\\n`` optional); raise :class:`ProtocolError` if invalid."""
    raw = line
    line = line.rstrip(b"\r\n")
    if not line:
        raise ProtocolError("empty", "empty line")
    if len(line) >= MAX_LINE_BYTES:
        raise ProtocolError("overlong", f"{len(line)} bytes")
    if not line.isascii():
        raise ProtocolError("not_ascii", "byte outside ASCII")
    body, star, checksum = line.rpartition(b" *")
    if not star or len(checksum) != 4:
        raise ProtocolError("no_checksum", "no ' *XXXX' checksum at the end")
    try:
        claimed = int(checksum, 16)
    except ValueError:
        raise ProtocolError("no_checksum", f"checksum {checksum!r} is not hex") from None
    if claimed != crc16(body):
        actual = crc16(body)
        raise ProtocolError("bad_checksum", f"checksum {claimed:04X}, line sums to {actual:04X}")
    parts = body.decode("ascii").split(" ")
    if len(parts) < 2 or not parts[1].isdigit() or len(parts[1]) > 5:
        raise ProtocolError("bad_sequence", "missing or malformed sequence number")
    seq = int(parts[1])
    if seq >= SEQ_MODULO:
        raise ProtocolError("bad_sequence", f"sequence number {seq} is above 65535")
    return Frame(seq, _message(parts[0], parts[2:]), raw)


# --------------------------------------------------------------------------- line framing


@dataclass(slots=True)
class LineSplitter:
    """Cut a byte stream into lines; a line longer than :data:`MAX_LINE_BYTES` is discarded up to
    its newline and reported once as ``b""`` in the output (the caller counts it as overlong)."""

    _buffer: bytearray = field(default_factory=bytearray)
    _discarding: bool = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Yield each complete line (newline included); ``b""`` marks a discarded overlong one."""
        self._buffer += data
        start = 0
        buf = self._buffer
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            if self._discarding:
                self._discarding = False
            elif end + 1 - start > MAX_LINE_BYTES:
                yield b""
            else:
                yield bytes(buf[start : end + 1])
            start = end + 1
        del buf[:start]
        if len(buf) >= MAX_LINE_BYTES:
            if not self._discarding:
                yield b""
            self._discarding = True
            buf.clear()


def _main(argv: list[str]) -> int:
    """``python -m firmware_bridge.protocol PING 1 hello`` prints the line with its checksum."""
    if not argv:
        print("usage: python -m firmware_bridge.protocol TYPE SEQ [FIELD ...]")
        return 2
    body = " ".join(argv).encode("ascii", "replace")
    print(f"{body.decode('ascii')} *{crc16(body):04X}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
