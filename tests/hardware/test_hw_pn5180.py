"""The real PN5180 driver, run against an emulated chip with ISO 15693 tags in its field."""

from __future__ import annotations

import hw_fakes as hw
import pytest
from hw_fakes import FakeClock, FakePin, FakePN5180, FakeRfSwitch
from hypothesis import given, settings
from hypothesis import strategies as st
from sekihub import iso15693, pn5180
from sekihub.chipselect import DecodedBus, PinLines, RfMux
from sekihub.drivers import ReaderFault
from sekihub.inventory import EMPTY, TAG
from sekihub.pn5180 import PN5180


def reader(fake: FakePN5180) -> PN5180:
    return PN5180(fake, fake, fake.clock, name="PN5180")


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
    fake = FakePN5180(FakeClock())
    result = reader(fake).inventory()
    assert result.uids == set() and result.complete
    assert (fake.probes, fake.rounds) == (1, 0)
    assert fake.clock.us >= 1000 + hw.SOF_US + 5 * hw.BYTE_US + hw.EOF_US + hw.T3_US
    assert not fake.rf_on


def test_one_tag() -> None:
    fake = FakePN5180(FakeClock(), [0xE004015000000001])
    result = reader(fake).inventory()
    assert result.uids == {0xE004015000000001} and result.complete
    assert fake.rounds == 0  # the probe heard it alone: quieted, probed again, done


def test_a_dozen_tags_with_colliding_slots_are_all_found() -> None:
    # serial-numbered tags: the low nibbles collide in pairs and threes
    tags = {0xE004015000001000 + n * 0x10 + (n % 3) for n in range(14)}
    fake = FakePN5180(FakeClock(), tags)
    result = reader(fake).inventory()
    assert result.uids == tags
    assert result.complete
    assert fake.rounds > 1  # collisions needed mask recursion
    assert not fake.rf_on


def test_tags_sharing_their_low_32_bits_are_resolved() -> None:
    tags = {0xE004010000000000 | (n << 40) | 0xABCD1234 for n in range(5)}
    result = reader(FakePN5180(FakeClock(), tags)).inventory()
    assert result.uids == tags and result.complete


def test_answers_that_keep_their_crc_are_checked_and_accepted() -> None:
    tags = {0xE004015000000001 + 16 * n for n in range(5)}
    fake = FakePN5180(FakeClock(), tags)
    fake.keep_crc = True
    assert reader(fake).inventory().uids == tags
    frame = iso15693.with_crc(b"\x00\x00" + (0xE004015000000001).to_bytes(8, "little"))
    assert iso15693.parse_inventory_response(frame) == 0xE004015000000001
    assert iso15693.parse_inventory_response(frame[:-1] + b"\x00") is None


def test_a_damaged_answer_is_asked_again() -> None:
    fake = FakePN5180(FakeClock(), [0xE004015000000001, 0xE004015000000002])
    fake.garble = 1
    result = reader(fake).inventory()
    assert result.uids == {0xE004015000000001, 0xE004015000000002}


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=2**64 - 1), max_size=40))
def test_inventory_finds_exactly_the_tags_in_the_field(tags: set[int]) -> None:
    fake = FakePN5180(FakeClock(), tags)
    result = reader(fake).inventory()
    assert result.uids == tags
    assert result.complete
    assert not fake.rf_on


def test_more_tags_than_the_round_budget_is_reported_incomplete() -> None:
    tags = {n << 4 for n in range(1000)}  # needs ~270 rounds, the budget is 48
    fake = FakePN5180(FakeClock(), tags)
    result = reader(fake).inventory()
    assert not result.complete
    assert result.uids <= tags


def test_identify_reads_the_firmware_version() -> None:
    assert reader(FakePN5180(FakeClock())).identify() == "PN5180 fw 4.1"


def test_stuck_busy_is_no_reader() -> None:
    fake = FakePN5180(FakeClock())
    fake.dead = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "NO_READER"


def test_missing_chip_is_no_reader() -> None:
    fake = FakePN5180(FakeClock())
    fake.absent = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).reset()
    assert err.value.code == "NO_READER"


def test_field_failure_is_an_antenna_fault_and_the_field_is_left_off() -> None:
    fake = FakePN5180(FakeClock(), [1])
    fake.rf_fails = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "ANTENNA"
    assert not fake.rf_on


def test_over_temperature_is_reported() -> None:
    fake = FakePN5180(FakeClock(), [1])
    fake.overheat = True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "OVERHEAT"


def test_reset_pulses_the_reset_line() -> None:
    pin = FakePin(1)
    fake = FakePN5180(FakeClock())
    PN5180(fake, fake, fake.clock, reset_pin=pin).reset()
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


# ---------------------------------------------------------------- the time model


def test_an_inventory_takes_its_air_time() -> None:
    """One tag: field on and 1 ms settle, probe (request + t1 + answer), STAY QUIET, probe.
    The fake clock shows at least the sum of the air times, so nothing was skipped."""
    fake = FakePN5180(FakeClock(), [0xE004015000000001])
    result = reader(fake).inventory()
    assert result.uids == {0xE004015000000001} and result.complete
    request = hw.SOF_US + 5 * hw.BYTE_US + hw.EOF_US  # flags, cmd, mask length, CRC
    quiet = hw.SOF_US + 12 * hw.BYTE_US + hw.EOF_US
    floor = 1000 + request + hw.T1_US + hw.ANSWER_US + quiet + request + 475
    assert fake.clock.us >= floor
    assert fake.clock.us < floor + 6000  # and not much more: SPI and polling overheads
    assert (fake.probes, fake.rounds, fake.quieted, fake.desyncs) == (2, 0, 1, 0)


def test_sampling_the_irq_before_the_request_has_left_reads_nothing() -> None:
    """What the old driver did: a fixed 600 us after SEND_DATA returned. The request is then
    still on air (1.6 ms), no tag has answered, and the next write to SYSTEM_CONFIG cuts the
    request off: the fake must show that, or it would hide the bug again."""
    fake = FakePN5180(FakeClock(), [0xE004015000000001])
    chip = reader(fake)
    chip.field_on()
    chip.write_register(pn5180.TX_CONFIG, chip._tx_config)
    chip.clear_irq()
    chip.and_register(pn5180.SYSTEM_CONFIG, 0xFFFFFFF8)
    chip.or_register(pn5180.SYSTEM_CONFIG, 3)
    chip.send_data(iso15693.inventory_request())
    fake.clock.sleep_us(600)
    irq = chip.read_register(pn5180.IRQ_STATUS)
    assert not irq & (pn5180.IRQ_TX | pn5180.IRQ_RX_SOF_DET)
    chip.and_register(pn5180.SYSTEM_CONFIG, 0xFFFFFFF8)  # the next EOF's Idle: cuts it off
    fake.clock.sleep_us(20000)
    assert not chip.read_register(pn5180.IRQ_STATUS) & pn5180.IRQ_RX_SOF_DET
    assert fake.round is None


def test_an_eof_sent_while_a_tag_answers_puts_the_tags_out_of_step() -> None:
    fake = FakePN5180(FakeClock(), [0xE004015000000000, 0xE004015000000011])
    chip = reader(fake)
    chip.field_on()
    chip._transmit(iso15693.inventory_request())  # slot 0: the first tag starts answering
    chip._transmit(b"", eof_only=True)  # far too early: the answer takes 3.9 ms
    fake.clock.sleep_us(10000)
    assert fake.desyncs == 1
    assert not chip.read_register(pn5180.IRQ_STATUS) & pn5180.IRQ_RX


def test_requests_before_the_tags_have_power_are_not_answered() -> None:
    fake = FakePN5180(FakeClock(), [0xE004015000000001])
    chip = reader(fake)
    chip.field_on()
    assert chip.probe()[0] == TAG  # the driver waited the 1 ms power-up
    chip.rf_off()
    chip.load_rf_config(0x0D, 0x8D)
    chip.command(bytes((pn5180.RF_ON, 0)))
    chip._tx_config = chip.read_register(pn5180.TX_CONFIG)
    assert chip.probe()[0] == EMPTY  # no settle: the tag is not up yet


def test_a_weak_tag_drowned_by_a_strong_one_is_found_through_stay_quiet() -> None:
    strong, weak = 0xE004015000000003, 0xE004015000000013  # the same slot at every mask < 8
    fake = FakePN5180(FakeClock(), [strong, weak])
    fake.strength = {strong: 10.0, weak: 1.0}
    result = reader(fake).inventory()
    assert result.uids == {strong, weak} and result.complete
    assert fake.quieted == 2


def test_a_tag_that_keeps_being_drowned_leaves_the_read_incomplete() -> None:
    strong, weak = 0xE004015000000003, 0xE004015000000013
    fake = FakePN5180(FakeClock(), [strong, weak])
    fake.strength = {strong: 10.0, weak: 1.0}
    chip = reader(fake)
    chip.stay_quiet = lambda uid: chip._transmit(b"\x22\x02" + bytes(8))  # quiets nobody
    result = chip.inventory()
    assert strong in result.uids and weak not in result.uids
    assert not result.complete


def test_fifteen_tags_with_collisions_and_noise_are_all_found() -> None:
    """Done means: a 15-tag stack against the time model, collisions and noise included."""
    tags = {0xE004015000001000 + n * 0x10 + (n % 3) for n in range(15)}
    fake = FakePN5180(FakeClock(), tags)
    fake.noise = 0.1
    fake.strength = {uid: 1.0 + (i % 4) for i, uid in enumerate(sorted(tags))}
    result = reader(fake).inventory()
    assert result.uids == tags and result.complete
    assert fake.rounds > 1 and fake.desyncs == 0
    assert 40_000 < fake.clock.us < 400_000


def test_a_neighbouring_field_is_retried_at_once() -> None:
    fake = FakePN5180(FakeClock(), [0xE004015000000001])
    busy_until = 1500  # the neighbour's field goes off 1.5 ms into our attempt
    fake.neighbour_field = lambda now: now < busy_until
    chip = reader(fake)
    result = chip.inventory()
    assert result.uids == {0xE004015000000001}
    assert fake.rf_collisions >= 1 and chip.rf_collisions == fake.rf_collisions


def test_a_field_that_never_clears_is_an_rf_collision_fault() -> None:
    fake = FakePN5180(FakeClock(), [1])
    fake.neighbour_field = lambda now: True
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "RF_COLLISION"
    assert fake.rf_collisions == pn5180.RF_RETRIES + 1 and not fake.rf_on


@pytest.mark.parametrize("spi_hz", [500_000, 1_000_000, 2_000_000, 7_000_000])
def test_every_spi_clock_reads_the_same_tags(spi_hz: int) -> None:
    tags = {0xE004015000002000 + 7 * n for n in range(12)}
    fake = FakePN5180(FakeClock(), tags, spi_hz=spi_hz)
    assert reader(fake).inventory().uids == tags


def test_rf_multiplexer_channels_each_read_their_own_antenna() -> None:
    clock = FakeClock()
    fake = FakePN5180(clock)
    fake.channels = {0: {0xE004015000000001}, 1: set(), 2: {0xE004015000000002,
                                                            0xE004015000000012}}
    switch = FakeRfSwitch(fake)
    mux = RfMux(switch.pins, clock=clock)
    chip = reader(fake)
    seen = {}
    for channel in (0, 1, 2):
        mux.select(channel)
        seen[channel] = chip.inventory().uids
    assert seen == {0: {0xE004015000000001}, 1: set(),
                    2: {0xE004015000000002, 0xE004015000000012}}


@pytest.mark.parametrize("lag_us", [150, 300, 1200])
def test_a_field_that_comes_on_after_busy_drops_is_waited_for(lag_us: int) -> None:
    """BUSY falls at the end of RF_ON before the field is up (the chip's TX_RFON comes later):
    the driver polls for it instead of calling the antenna broken. A driver that reads
    IRQ_STATUS once reports ANTENNA here for every lag."""
    fake = FakePN5180(FakeClock(), {0xE004015000000001, 0xE004015000000002})
    fake.rf_on_lag_us = lag_us
    result = reader(fake).inventory()
    assert result.uids == fake.tags and result.complete  # (the fake refuses frames sent early)


def test_a_field_that_never_comes_on_is_given_up_after_2_ms() -> None:
    fake = FakePN5180(FakeClock(), [1])
    fake.rf_on_lag_us = 10**9  # never, as far as the driver is concerned
    clock = fake.clock
    r = reader(fake)
    r.load_rf_config(pn5180.RF_CONFIG_ISO15693_TX, pn5180.RF_CONFIG_ISO15693_RX)
    started = clock.us
    with pytest.raises(ReaderFault) as err:
        r.field_on()
    assert err.value.code == "ANTENNA" and "2 ms" in err.value.detail
    assert clock.us - started < 2000 + fake.LOAD_RF_CONFIG_US + fake.RF_ON_US + 1000


def test_a_chip_that_stops_answering_mid_read_is_no_reader_not_overheat() -> None:
    fake = FakePN5180(FakeClock(), [1, 2, 3])
    fake.on_round = lambda: setattr(fake, "absent", True)
    fake.tags = {0xE004015000000001 + 16 * n for n in range(3)}  # same slot: a round is needed
    with pytest.raises(ReaderFault) as err:
        reader(fake).inventory()
    assert err.value.code == "NO_READER"
