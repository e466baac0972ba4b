"""ISO/IEC 15693 frames the hub needs: the INVENTORY request, its response, the CRC, UID text.

Pure functions on bytes, no hardware: they run the same under MicroPython and CPython.

A tag's UID is 64 bits. On air it travels least significant byte first; we print it most
significant byte first (``E0 04 01 ...`` -> ``"E004010012345678"``), the way NXP and most
readers write it. Inventory masks compare the UID's *least* significant bits.
"""

# Request flags (ISO/IEC 15693-3, 7.3.1): b2 high data rate, b3 inventory, b6 one slot.
FLAG_HIGH_RATE = 0x02
FLAG_INVENTORY = 0x04
FLAG_ONE_SLOT = 0x20
FLAG_ADDRESSED = 0x20  # the same bit as one-slot, read as "addressed" outside INVENTORY
CMD_INVENTORY = 0x01
CMD_STAY_QUIET = 0x02

RESPONSE_LENGTH = 10  # flags, DSFID, 8-byte UID (the PN5180 checks and strips the 2 CRC bytes)
CRC_RESIDUE = 0x0F47  # crc16() of a frame followed by its own CRC


def crc16(data):
    """The ISO/IEC 13239 CRC (poly 0x8408 reflected, init 0xFFFF, result inverted)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def with_crc(data):
    """``data`` followed by its CRC, least significant byte first, as sent on air."""
    crc = crc16(data)
    return bytes(data) + bytes((crc & 0xFF, crc >> 8))


def mask_bytes(mask_value, mask_len):
    """The mask field: ``mask_len`` low bits of ``mask_value``, LSB first, padded with zeros."""
    n = (mask_len + 7) // 8
    value = mask_value & ((1 << mask_len) - 1) if mask_len else 0
    return bytes((value >> (8 * i)) & 0xFF for i in range(n))


def inventory_request(mask_value=0, mask_len=0, one_slot=False):
    """The INVENTORY request without CRC (the reader chip appends it).

    16 slots (the default) lets up to 16 tags answer in one round, each in the slot named by
    the 4 UID bits just above the mask; ``one_slot`` asks every matching tag at once.
    """
    if mask_len < 0 or mask_len > (64 if one_slot else 60):
        raise ValueError("mask length out of range")
    flags = FLAG_HIGH_RATE | FLAG_INVENTORY | (FLAG_ONE_SLOT if one_slot else 0)
    return bytes((flags, CMD_INVENTORY, mask_len)) + mask_bytes(mask_value, mask_len)


def stay_quiet_request(uid):
    """STAY QUIET addressed to ``uid`` (without CRC): that tag ignores inventories until the
    field goes off (ISO/IEC 15693-3, 10.3.3). It sends no answer."""
    return bytes((FLAG_HIGH_RATE | FLAG_ADDRESSED, CMD_STAY_QUIET)) + bytes(
        (uid >> (8 * i)) & 0xFF for i in range(8))


def parse_inventory_response(frame):
    """The UID (an int) from an INVENTORY response, or None if the frame is not one.

    ``frame`` is flags, DSFID, UID (LSB first), with or without its 2 CRC bytes (a chip set up
    to keep the CRC; then it must check out). A set error flag or a wrong length means the
    frame is unusable (a collision the chip did not flag, or noise).
    """
    if len(frame) == RESPONSE_LENGTH + 2:
        if crc16(frame) != CRC_RESIDUE:
            return None
        frame = frame[:RESPONSE_LENGTH]
    if len(frame) != RESPONSE_LENGTH or frame[0] & 0x01:
        return None
    uid = 0
    for i in range(8):
        uid |= frame[2 + i] << (8 * i)
    return uid


def uid_from_hex(text):
    """``"E004010012345678"`` -> int; raises ValueError on anything else."""
    if len(text) != 16:
        raise ValueError("a UID is 16 hex digits")
    return int(text, 16)


def uid_hex(uid):
    """int -> 16 upper-case hex digits, most significant byte first."""
    digits = "0123456789ABCDEF"
    out = []
    for shift in range(60, -4, -4):
        out.append(digits[(uid >> shift) & 0xF])
    return "".join(out)


def slot_of(uid, mask_len):
    """The slot (0-15) a tag answers in during a 16-slot round with a ``mask_len``-bit mask."""
    return (uid >> mask_len) & 0xF


def matches(uid, mask_value, mask_len):
    """True if the tag's low ``mask_len`` UID bits equal the mask."""
    if mask_len == 0:
        return True
    m = (1 << mask_len) - 1
    return (uid & m) == (mask_value & m)
