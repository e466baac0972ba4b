"""The real PN5180 driver, run against an emulated chip with ISO 15693 tags in its field."""

from __future__ import annotations

import pytest
from hw_fakes import FakeClock, FakePin, FakePN5180
from hypothesis import given, settings
from hypothesis import strategies as st
from sekihub import iso15693
from sekihub.chipselect import DecodedBus, PinLines
from sekihub.drivers import ReaderFault
from sekihub.pn5180 import PN5180


def reader(fake: FakePN5180) -> PN5180:
    return PN5180(fake, fake, FakeClock(), name="PN5180")


def test_iso15693_crc_is_the_x25_crc() -> None:
    assert iso15693.crc16(b"123456789") == 0x906E  # CRC-16/X-25 check value (ISO/IEC 13239)
    framed = iso15693.with_crc(b"\x26\x01\x00")
    assert iso15693.crc16(framed) == 0x0F47  # the residue of a frame with its CRC appended


def test_inventory_request_layout() -> None:
    assert iso15693.inventory_request() == b"\x06\x01\x00"
    assert iso15693.inventory_request(one_slot=True) == b"\x26\x01\x00"
    assert iso15693.inventory_request(0xA5, 4) == b"\x06\x01\x04\x05"
    assert iso15693.inventory_request(0x3A5, 12) == b"\x06\x01\x0c\xa5\x03"
    with pytest.raises(ValueError):
        iso15693.inventory_request(0, 64)


def test_uid_text_round_trip() -> None:
    uid = 0xE004015012345678
    assert iso15693.uid_hex(uid) == "E004015012345678"
    assert iso15693.uid_from_hex("E004015012345678") == uid


def test_empty_field_costs_one_probe_and_no_round() -> None:
    fake = FakePN5180()
    result = reader(fake).inventory()
    assert result.uids == set() and result.complete
    assert (fake.probes, fake.rounds) == (1, 0)
    assert not fake.rf_on


def test_one_tag() -> None:
    fake = FakePN5180([0xE004015000000001])
    result = reader(fake).inventory()
    assert result.uids == {0xE004015000000001}
    assert fake.rounds == 1


def test_a_dozen_tags_with_colliding_slots_are_all_found() -> None:
    # serial-numbered tags: the low nibbles collide in pairs and threes
    tags = {0xE004015000001000 + n * 0x10 + (n % 3) for n in range(14)}
    fake = FakePN5180(tags)
    result = reader(fake).inventory()
    assert result.uids == tags
    assert result.complete
    assert fake.rounds > 1  # collisions needed mask recursion
    assert not fake.rf_on


def test_tags_sharing_their_low_32_bits_are_resolved() -> None:
    tags = {0xE004010000000000 | (n << 40) | 0xABCD1234 for n in range(5)}
    result = reader(FakePN5180(tags)).inventory()
    assert result.uids == tags and result.complete


def test_answers_that_keep_their_crc_are_checked_and_accepted() -> None:
    tags = {0xE004015000000001 + 16 * n for n in range(5)}
    fake = FakePN5180(tags)
    fake.keep_crc = True
    assert reader(fake).inventory().uids == tags
    frame = iso15693.with_crc(b"\x00\x00" + (0xE004015000000001).to_bytes(8, "little"))
    assert iso15693.parse_inventory_response(frame) == 0xE004015000000001
    assert iso15693.parse_inventory_response(frame[:-1] + b"\x00") is None


def test_a_damaged_answer_is_asked_again() -> None:
    fake = FakePN5180([0xE004015000000001, 0xE004015000000002])
    fake.garble = 1
    result = reader(fake).inventory()
    assert result.uids == {0xE004015000000001, 0xE004015000000002}


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=2**64 - 1), max_size=40))
def test_inventory_finds_exactly_the_tags_in_the_field(tags: set[int]) -> None:
    fake = FakePN5180(tags)
    result = reader(fake).inventory()
    assert result.uids == tags
    assert result.complete
    assert not fake.rf_on


def test_more_tags_than_the_round_budget_is_reported_incomplete() -> None:
    tags = {n << 4 for n in range(1000)}  # needs ~270 rounds, the budget is 48
    fake = FakePN5180(tags)
    result = reader(fake).inventory()
    assert not result.complete
    assert result.uids <= tags


def test_identify_reads_the_firmware_version() -> None:
    assert reader(FakePN5180()).identify() == "PN5180 fw 4.1"


def test_stuck_busy_is_no_reader() -> None:
    fake = FakePN5180()
    fake.dead = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "NO_READER"


def test_missing_chip_is_no_reader() -> None:
    fake = FakePN5180()
    fake.absent = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).reset()
    assert err.value.code == "NO_READER"


def test_field_failure_is_an_antenna_fault_and_the_field_is_left_off() -> None:
    fake = FakePN5180([1])
    fake.rf_fails = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "ANTENNA"
    assert not fake.rf_on


def test_over_temperature_is_reported() -> None:
    fake = FakePN5180([1])
    fake.overheat = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "OVERHEAT"


def test_reset_pulses_the_reset_line() -> None:
    pin = FakePin(1)
    fake = FakePN5180()
    PN5180(fake, fake, FakeClock(), reset_pin=pin).reset()
    assert pin.history == [0, 1]


def test_decoded_bus_drives_one_nss_at_a_time_and_reads_that_busy() -> None:
    address = [FakePin() for _ in range(4)]
    strobe, busy = FakePin(), FakePin()
    bus = DecodedBus(address, strobe, busy)
    lines = bus.lines(11)
    lines.select()
    assert [p.level for p in address] == [1, 1, 0, 1] and strobe.level == 0
    lines.deselect()
    assert strobe.level == 1
    busy.level = 1
    assert bus.lines(3).busy()
    assert [p.level for p in address] == [1, 1, 0, 0]
    with pytest.raises(ValueError):
        bus.lines(16)


def test_pin_lines() -> None:
    nss, busy = FakePin(), FakePin()
    lines = PinLines(nss, busy)
    assert nss.level == 1
    lines.select()
    assert nss.level == 0
    assert not lines.busy()
