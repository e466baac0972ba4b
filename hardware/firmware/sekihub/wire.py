"""The hub's side of the line protocol (docs/protocol.md, version 1.3).

Frames are ASCII lines ``TYPE SEQ FIELD ... *CRC\\n``; CRC is CRC-16/CCITT-FALSE of everything
before the `` *``, four upper-case hex digits. Written for MicroPython: no ``re``, no
dataclasses, only str and bytes methods.
"""

PROTOCOL_VERSION = "1.3"
MAX_LINE_BYTES = 512
MAX_UIDS_PER_FRAME = 24
MAX_PARTS = 8
MIN_RATE_HZ = 1
MAX_RATE_HZ = 50
LED_MODES = ("OFF", "ON", "BLINK", "FAST")
MAX_SLOTS = 16
MIN_SLOT_MS = 5
MAX_SLOT_MS = 1000
MAX_READ_MS = 60000  # the largest ms= a SNAP may carry (1.3)


def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def hex4(value):
    digits = "0123456789ABCDEF"
    return "".join(digits[(value >> s) & 0xF] for s in (12, 8, 4, 0))


def encode(kind, seq, fields=()):
    """One frame as bytes, newline included."""
    parts = [kind, str(seq & 0xFFFF)]
    parts.extend(fields)  # not [..., *fields]: MicroPython has no starred list displays
    body = " ".join(parts).encode()
    return body + b" *" + hex4(crc16(body)).encode() + b"\n"


def antenna_name(index):
    return f"A{index:02d}"


def clean_words(text, limit=160):
    """Free text as protocol words: printable ASCII without ``*``, single spaces, bounded."""
    out = []
    for ch in str(text)[:limit]:
        o = ord(ch)
        out.append(ch if 0x21 <= o <= 0x7E and ch != "*" else " ")
    return " ".join("".join(out).split())


def read_fields(read_ms, full):
    """The 1.3 fields of a snapshot's last part: ``ms=N`` and ``read=full|quick``."""
    return ["ms=" + str(max(0, min(MAX_READ_MS, read_ms))), "read=full" if full else "read=quick"]


def snapshot_parts(uids):
    """Sorted UID strings cut into the SNAP parts' UID fields (``-`` for none), or None if
    more than MAX_PARTS * MAX_UIDS_PER_FRAME."""
    ordered = sorted(uids)
    if len(ordered) > MAX_PARTS * MAX_UIDS_PER_FRAME:
        return None
    if not ordered:
        return ["-"]
    return [",".join(ordered[i:i + MAX_UIDS_PER_FRAME])
            for i in range(0, len(ordered), MAX_UIDS_PER_FRAME)]


class WireError(Exception):
    """A host line the hub will not act on.

    ``reason`` is the NAK reason; ``command_seq`` the line's sequence number, or None when it
    cannot be read (then the hub answers nothing, docs/protocol.md 4.5).
    """

    def __init__(self, reason, command_seq=None):
        super().__init__(reason)
        self.reason = reason
        self.command_seq = command_seq


def _is_digits(text):
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def _is_hex4(text):
    return len(text) == 4 and all(ch in "0123456789ABCDEFabcdef" for ch in text)


def _read_seq(parts):
    if len(parts) >= 2 and _is_digits(parts[1]) and len(parts[1]) <= 5:
        seq = int(parts[1])
        if seq < 65536:
            return seq
    return None


def parse_line(line):
    """``(seq, TYPE, fields)`` from one host line (bytes, newline optional).

    Raises WireError; returns None for an empty line (ignored).
    """
    line = line.rstrip(b"\r\n")
    if not line:
        return None
    for b in line:
        if b < 0x20 or b > 0x7E:
            raise WireError("BAD_FRAME", None)
    text = line.decode()
    star = text.rfind(" *")
    body = text[:star] if star >= 0 else text
    seq = _read_seq(body.split(" "))
    if star < 0 or not _is_hex4(text[star + 2:]):
        raise WireError("BAD_FRAME", seq)
    if int(text[star + 2:], 16) != crc16(body.encode()):
        raise WireError("BAD_CHECKSUM", seq)
    parts = body.split(" ")
    if seq is None:
        raise WireError("BAD_FRAME", None)
    for p in parts:
        if not p:
            raise WireError("BAD_FRAME", seq)  # two spaces in a row
    return seq, parts[0], parts[2:]


def parse_antenna(text, count):
    """``"A03"`` -> 3 when below ``count``; WireError BAD_ANTENNA otherwise."""
    if len(text) in (3, 4) and text[0] == "A" and _is_digits(text[1:]):
        index = int(text[1:])
        if index < count:
            return index
    raise WireError("BAD_ANTENNA")


def parse_rate(text, max_rate):
    if _is_digits(text) and len(text) <= 3:
        hz = int(text)
        if MIN_RATE_HZ <= hz <= max_rate:
            return hz
    raise WireError("BAD_VALUE")


def _bounded(text, low, high):
    if _is_digits(text) and len(text) <= 6:
        value = int(text)
        if low <= value <= high:
            return value
    raise WireError("BAD_VALUE")


def parse_schedule(fields, antennas):
    """``SCHED`` fields -> ``(count, lengths, guard_ms, slots)``: the length of each slot (a
    list of ``count``) and one slot per antenna.

    ``PERIOD_MS`` is one length for every slot (1.1) or ``count`` lengths joined by ``,`` (1.2).
    WireError BAD_FRAME for the wrong number of fields, BAD_VALUE for a value out of range, a
    length list that does not have exactly ``count`` entries, a guard too long for the shortest
    slot, or a slot table that does not have exactly ``antennas`` entries.
    """
    if len(fields) != 4:
        raise WireError("BAD_FRAME")
    count = _bounded(fields[0], 1, MAX_SLOTS)
    items = fields[1].split(",")
    if len(items) != 1 and len(items) != count:
        raise WireError("BAD_VALUE")
    lengths = [_bounded(item, MIN_SLOT_MS, MAX_SLOT_MS) for item in items]
    if len(lengths) == 1:
        lengths = lengths * count
    guard = _bounded(fields[2], 0, (min(lengths) - 1) // 2)
    items = fields[3].split(",")
    if len(items) != antennas:
        raise WireError("BAD_VALUE")
    slots = [_bounded(item, 0, count - 1) for item in items]
    return count, lengths, guard, slots


def parse_sync(fields, count):
    """``SYNC`` fields -> ``(slot, offset_ms)``; the slot must exist in a schedule of ``count``."""
    if len(fields) != 2:
        raise WireError("BAD_FRAME")
    return _bounded(fields[0], 0, count - 1), _bounded(fields[1], 0, MAX_SLOT_MS - 1)


MAX_WANTED = 4  # tags a FOCUS may ask to watch for


def parse_focus(fields, antennas):
    """``FOCUS`` fields -> ``(order, full, want)``: the focused antenna indices in the order
    given, the set of those marked ``!`` (always read in full) and the UIDs (ints) of the tags
    to watch for (the blocks in hand, at most ``MAX_WANTED``). ``-`` focuses none
    (docs/protocol.md 5.2). WireError BAD_FRAME for the wrong number of fields, BAD_ANTENNA for
    an antenna the hub lacks (or a malformed name), BAD_VALUE for an antenna listed twice or a
    bad or surplus UID."""
    if not 1 <= len(fields) <= 2:
        raise WireError("BAD_FRAME")
    want = []
    if len(fields) == 2:
        for text in fields[1].split(","):
            if len(text) != 16 or any(ch not in "0123456789ABCDEF" for ch in text):
                raise WireError("BAD_VALUE")
            uid = int(text, 16)
            if uid in want:
                raise WireError("BAD_VALUE")
            want.append(uid)
        if len(want) > MAX_WANTED:
            raise WireError("BAD_VALUE")
    if fields[0] == "-":
        if want:
            raise WireError("BAD_VALUE")
        return [], set(), []
    order = []
    full = set()
    for item in fields[0].split(","):
        marked = item.endswith("!")
        index = parse_antenna(item[:-1] if marked else item, antennas)
        if index in order:
            raise WireError("BAD_VALUE")
        order.append(index)
        if marked:
            full.add(index)
    return order, full, want


def is_token(text):
    if not 1 <= len(text) <= 64:
        return False
    for ch in text:
        o = ord(ch)
        if o < 0x21 or o > 0x7E or ch == "*":
            return False
    return True


class LineReader:
    """Cuts the incoming byte stream into lines of at most MAX_LINE_BYTES.

    ``feed`` returns the complete lines; an over-long line is dropped up to its newline and
    counted in ``overlong``.
    """

    def __init__(self):
        self.buf = b""
        self.discarding = False
        self.overlong = 0

    def feed(self, data):
        lines = []
        buf = self.buf + data
        while True:
            end = buf.find(b"\n")
            if end < 0:
                break
            line, buf = buf[:end + 1], buf[end + 1:]
            if self.discarding:
                self.discarding = False
            elif len(line) > MAX_LINE_BYTES:
                self.overlong += 1
            else:
                lines.append(line)
        if len(buf) >= MAX_LINE_BYTES:
            if not self.discarding:
                self.overlong += 1
            self.discarding = True
            buf = b""
        self.buf = buf
        return lines
