"""NXP PN5180 driver: the SPI host interface and an ISO/IEC 15693 inventory.

From the PN5180 data sheet (NXP, "PN5180 High-performance multi-protocol full NFC frontend",
section "Host interface"), the parts the hub uses:

* Every instruction is one SPI frame while NSS is low: a command byte and its parameters.
  The chip raises BUSY while it works; the host waits for BUSY low before the next frame.
  An instruction with a reply is followed by a second frame (NSS low, clock out N bytes).
* Instructions: WRITE_REGISTER 0x00, WRITE_REGISTER_OR_MASK 0x01, WRITE_REGISTER_AND_MASK 0x02,
  READ_REGISTER 0x04, READ_EEPROM 0x07, SEND_DATA 0x09, READ_DATA 0x0A, LOAD_RF_CONFIG 0x11,
  RF_ON 0x16, RF_OFF 0x17. Registers are 32-bit, little-endian on the wire.
* LOAD_RF_CONFIG 0x0D/0x8D selects ISO 15693 ASK100, 26 kbit/s for transmit/receive.
* To send a frame: SYSTEM_CONFIG command field to Idle (0) then Transceive (3), then SEND_DATA.
  The chip appends the CRC and frames it with SOF/EOF; received frames arrive CRC-checked
  and stripped, their length in RX_STATUS bits 0-8.
* Timing: SEND_DATA only hands the frame over; it is on air for another ``(n + 2) * 302 us``
  (IRQ_TX marks its end). A tag answers t1 (about 321 us) after that, and its answer lasts
  3.9 ms (RX_SOF_DET at its start, RX_IRQ once it is all in). The driver waits for IRQ_TX, then
  for the SOF until t1 max + tSOF (a host-side deadline, in place of the chip's timer), then for
  RX_IRQ; touching SYSTEM_CONFIG any earlier would cut the frame or the answer off.
* For the next slot of a 16-slot inventory the reader sends only an EOF: clear TX_CONFIG's
  data/SOF enables (AND mask 0xFFFFFB3F) and SEND_DATA with no bytes. LOAD_RF_CONFIG or a
  write of the saved TX_CONFIG value restores normal frames.

The driver needs only objects with MicroPython's shape: ``spi.write(buf)``,
``spi.readinto(buf, 0xFF)``; ``lines.select()``, ``lines.deselect()``, ``lines.busy()`` (see
``chipselect.py``); an optional reset pin with ``value()``; and a clock (``drivers.Clock``).
Nothing here imports ``machine``.
"""

from sekihub.drivers import Reader, ReaderFault
from sekihub.inventory import EMPTY, GARBLED, TAG, run_inventory, run_watch
from sekihub.iso15693 import inventory_request, parse_inventory_response, stay_quiet_request

# Instructions (host interface command bytes)
WRITE_REGISTER = 0x00
WRITE_REGISTER_OR_MASK = 0x01
WRITE_REGISTER_AND_MASK = 0x02
READ_REGISTER = 0x04
READ_EEPROM = 0x07
SEND_DATA = 0x09
READ_DATA = 0x0A
LOAD_RF_CONFIG = 0x11
RF_ON = 0x16
RF_OFF = 0x17

# Registers
SYSTEM_CONFIG = 0x00
IRQ_ENABLE = 0x01
IRQ_STATUS = 0x02
IRQ_CLEAR = 0x03
RX_STATUS = 0x13
TX_CONFIG = 0x18
RF_STATUS = 0x1D

# IRQ_STATUS bits
IRQ_RX = 1 << 0
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFON = 1 << 9
IRQ_RF_ACTIVE_ERROR = 1 << 10
IRQ_RX_SOF_DET = 1 << 14
IRQ_TEMPSENS_ERROR = 1 << 16
IRQ_GENERAL_ERROR = 1 << 17
IRQ_HV_ERROR = 1 << 18
IRQ_ALL = 0x000FFFFF
IRQ_FAULTS = IRQ_TEMPSENS_ERROR | IRQ_GENERAL_ERROR | IRQ_HV_ERROR

# RX_STATUS bits
RX_NUM_BYTES = 0x1FF
RX_DATA_INTEGRITY_ERROR = 1 << 16
RX_PROTOCOL_ERROR = 1 << 17
RX_COLLISION_DETECTED = 1 << 18

# EEPROM
EEPROM_PRODUCT_VERSION = 0x10  # 2 bytes product, 2 bytes firmware, 2 bytes EEPROM version

TX_EOF_ONLY_MASK = 0xFFFFFB3F
RF_CONFIG_ISO15693_TX = 0x0D
RF_CONFIG_ISO15693_RX = 0x8D

BUSY_TIMEOUT_US = 50000  # LOAD_RF_CONFIG and RF_ON are the slow ones (a few ms)
FIELD_SETTLE_US = 1500  # ISO 15693: a tag is ready 1 ms after the field comes on
POLL_US = 50  # between IRQ_STATUS reads while waiting on the air
# ISO/IEC 15693-2 air time, high data rate: a request byte is 4 symbols of 75.52 us (1-of-4)
REQUEST_BYTE_US = 302
TX_TIMEOUT_US = 20000  # the longest frame sent (STAY QUIET, 12 bytes) lasts 3.8 ms
# after the reader's EOF: a tag starts within t1 max (323.3 us) and its SOF lasts 151.0 us
SOF_DEADLINE_US = 560
ANSWER_US = 3927  # an INVENTORY answer on air: SOF 151, 12 bytes of 8 x 37.76 us, EOF 151
RESPONSE_TIMEOUT_US = 6000  # from the SOF: the answer is in by 3.8 ms, or it never comes
T2_US = 310  # ISO 15693-3 t2: after a tag's answer, wait this long before the next EOF
RF_ON_TIMEOUT_US = 2000  # after RF_ON: the field is up (TX_RFON) within this, or it is a fault
RF_RETRIES = 3  # an RF_ON refused because another field is on: try again at once, this often
RF_RETRY_US = 700  # base pause before such a retry (plus up to as much again, from the clock)


def _le32(value):
    return bytes(((value >> 0) & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF,
                  (value >> 24) & 0xFF))


class PN5180(Reader):
    """One PN5180 on a (possibly shared) SPI bus."""

    def __init__(self, spi, lines, clock, reset_pin=None, name="PN5180"):
        self.spi = spi
        self.lines = lines
        self.clock = clock
        self.reset_pin = reset_pin
        self.name = name
        self._tx_config = None
        self.rf_collisions = 0  # RF_ON refusals retried (cross-talk diagnostics)

    # ------------------------------------------------------------------ host interface

    def _wait_busy_low(self):
        start = self.clock.ticks_us()
        while self.lines.busy():
            if self.clock.ticks_diff(self.clock.ticks_us(), start) > BUSY_TIMEOUT_US:
                raise ReaderFault("NO_READER", self.name + " BUSY stayed high")
            self.clock.sleep_us(20)

    def command(self, frame, reply_len=0):
        """One instruction frame; returns the ``reply_len``-byte reply (or b"")."""
        self._wait_busy_low()
        self.lines.select()
        try:
            self.spi.write(frame)
        finally:
            self.lines.deselect()
        self._wait_busy_low()
        if not reply_len:
            return b""
        buf = bytearray(reply_len)
        self.lines.select()
        try:
            self.spi.readinto(buf, 0xFF)
        finally:
            self.lines.deselect()
        self._wait_busy_low()
        return bytes(buf)

    def write_register(self, reg, value):
        self.command(bytes((WRITE_REGISTER, reg)) + _le32(value))

    def or_register(self, reg, mask):
        self.command(bytes((WRITE_REGISTER_OR_MASK, reg)) + _le32(mask))

    def and_register(self, reg, mask):
        self.command(bytes((WRITE_REGISTER_AND_MASK, reg)) + _le32(mask))

    def read_register(self, reg):
        raw = self.command(bytes((READ_REGISTER, reg)), 4)
        return raw[0] | (raw[1] << 8) | (raw[2] << 16) | (raw[3] << 24)

    def read_eeprom(self, addr, length):
        return self.command(bytes((READ_EEPROM, addr, length)), length)

    def send_data(self, data, valid_bits=0):
        self.command(bytes((SEND_DATA, valid_bits)) + bytes(data))

    def read_data(self, length):
        return self.command(bytes((READ_DATA, 0x00)), length)

    def load_rf_config(self, tx, rx):
        self.command(bytes((LOAD_RF_CONFIG, tx, rx)))

    def clear_irq(self, mask=IRQ_ALL):
        self.write_register(IRQ_CLEAR, mask)

    # ------------------------------------------------------------------ Reader

    def reset(self):
        if self.reset_pin is not None:
            self.reset_pin.value(0)
            self.clock.sleep_us(100)
            self.reset_pin.value(1)
            self.clock.sleep_ms(3)
        self._wait_busy_low()
        self.identify()

    def identify(self):
        """``"PN5180 fw 4.1"``; ReaderFault ``NO_READER`` if the EEPROM reads all 0x00 or 0xFF."""
        raw = self.read_eeprom(EEPROM_PRODUCT_VERSION, 6)
        if raw in (b"\x00" * 6, b"\xff" * 6):
            raise ReaderFault("NO_READER", self.name + " did not answer on SPI")
        return f"{self.name} fw {raw[3]}.{raw[2]}"

    def rf_off(self):
        self.command(bytes((RF_OFF, 0x00)))

    def field_on(self):
        """ISO 15693 settings, field on, wait for the tags to power up.

        The PN5180 refuses to switch its field on while it senses another reader's field
        (RF_ACTIVE_ERROR, its collision avoidance): that is retried at once, after a short
        pause, ``RF_RETRIES`` times before ``ReaderFault("RF_COLLISION")``.

        BUSY can drop before the field is really on, so IRQ_STATUS is read until TX_RFON (or
        RF_ACTIVE_ERROR) shows, for at most ``RF_ON_TIMEOUT_US``, as NXP's NFC library and
        the reference PN5180 libraries wait for it; only then is a silent chip an antenna fault.
        """
        self.load_rf_config(RF_CONFIG_ISO15693_TX, RF_CONFIG_ISO15693_RX)
        irq = 0
        for attempt in range(RF_RETRIES + 1):
            if attempt:
                self.rf_off()
                self.rf_collisions += 1
                self.clock.sleep_us(RF_RETRY_US + (self.clock.ticks_us() % RF_RETRY_US))
            self.clear_irq()
            self.command(bytes((RF_ON, 0x00)))
            irq = self._wait_irq(IRQ_TX_RFON | IRQ_RF_ACTIVE_ERROR, RF_ON_TIMEOUT_US)
            if irq is None:
                raise ReaderFault("ANTENNA", f"{self.name} field did not come on within "
                                  f"{RF_ON_TIMEOUT_US // 1000} ms")
            if irq & IRQ_TX_RFON and not irq & IRQ_RF_ACTIVE_ERROR:
                break
        else:
            raise ReaderFault("RF_COLLISION",
                              f"{self.name} another field is on nearby (IRQ {irq:08x})")
        self._tx_config = self.read_register(TX_CONFIG)
        self.clock.sleep_us(FIELD_SETTLE_US)

    def check_field(self):
        try:
            self.field_on()
            return self.probe()[0] != EMPTY
        finally:
            self._field_off_quietly()

    def inventory(self, poll=None, quiet=()):
        try:
            self.field_on()
            return run_inventory(self, poll=poll, quiet=quiet)
        finally:
            self._field_off_quietly()

    def watch(self, wanted, poll=None):
        """A watch read: field on, a masked probe for each wanted UID, field off."""
        try:
            self.field_on()
            return run_watch(self, wanted)
        finally:
            self._field_off_quietly()

    def _field_off_quietly(self):
        """RF_OFF after an inventory; if that fails too, the first fault is the one to report."""
        try:
            self.rf_off()
        except ReaderFault:
            return False
        return True

    # ------------------------------------------------------------------ inventory primitives

    def _check_faults(self, irq):
        if irq == 0xFFFFFFFF:  # MISO floating high: the chip stopped answering (reserved bits)
            raise ReaderFault("NO_READER", self.name + " stopped answering on SPI")
        if irq & IRQ_TEMPSENS_ERROR:
            raise ReaderFault("OVERHEAT", f"{self.name} over temperature (IRQ {irq:08x})")
        if irq & IRQ_FAULTS:
            raise ReaderFault("ANTENNA", f"{self.name} IRQ_STATUS {irq:08x}")

    def _transmit(self, data, eof_only=False):
        """Send one frame and return once it has left the antenna (IRQ_TX).

        SEND_DATA returns as soon as the chip has the bytes; the frame then takes
        ``(len + 2) * 302 us`` on air (SOF, data, CRC, EOF at 26.48 kbit/s, about 1.6 ms for an
        INVENTORY). Anything the host does to the chip before IRQ_TX would cut it off.
        """
        tx = self._tx_config & TX_EOF_ONLY_MASK if eof_only else self._tx_config
        self.write_register(TX_CONFIG, tx)
        self.clear_irq()
        self.and_register(SYSTEM_CONFIG, 0xFFFFFFF8)  # Idle
        self.or_register(SYSTEM_CONFIG, 0x00000003)  # Transceive
        self.send_data(data)
        if data:
            self.clock.sleep_us((len(data) + 2) * REQUEST_BYTE_US)
        if self._wait_irq(IRQ_TX, TX_TIMEOUT_US) is None:
            raise ReaderFault("ANTENNA", self.name + " frame never left (no TX IRQ)")

    def _wait_irq(self, bits, timeout_us):
        """IRQ_STATUS once any of ``bits`` is set, or None after ``timeout_us``."""
        start = self.clock.ticks_us()
        while True:
            irq = self.read_register(IRQ_STATUS)
            self._check_faults(irq)
            if irq & bits:
                return irq
            if self.clock.ticks_diff(self.clock.ticks_us(), start) > timeout_us:
                return None
            self.clock.sleep_us(POLL_US)

    def _await_slot(self):
        """(kind, uid) for the slot being listened to."""
        kind, uid = self._listen()
        if kind != EMPTY:
            self.clock.sleep_us(T2_US)
        return kind, uid

    def _listen(self):
        """After the reader's frame has gone: a tag's SOF within t1 + tSOF, or an empty slot."""
        irq = self._wait_irq(IRQ_RX_SOF_DET | IRQ_RX, SOF_DEADLINE_US)
        if irq is None:
            return EMPTY, None
        if not irq & IRQ_RX:
            self.clock.sleep_us(ANSWER_US - 400)  # most of the answer is still on its way
            if self._wait_irq(IRQ_RX, RESPONSE_TIMEOUT_US) is None:
                return GARBLED, None
        rx = self.read_register(RX_STATUS)
        if rx & (RX_COLLISION_DETECTED | RX_DATA_INTEGRITY_ERROR | RX_PROTOCOL_ERROR):
            return GARBLED, None
        length = rx & RX_NUM_BYTES
        if length == 0 or length > 64:
            return GARBLED, None
        uid = parse_inventory_response(self.read_data(length))
        if uid is None:
            return GARBLED, None
        return TAG, uid

    def probe(self):
        self._transmit(inventory_request(one_slot=True))
        return self._await_slot()

    def probe_for(self, mask_value, mask_len):
        """A one-slot INVENTORY that only tags whose low UID bits match the mask answer."""
        self._transmit(inventory_request(mask_value, mask_len, one_slot=True))
        return self._await_slot()

    def inventory_round(self, mask_value, mask_len):
        self._transmit(inventory_request(mask_value, mask_len))
        results = []
        for slot in range(16):
            results.append(self._await_slot())
            if slot < 15:
                self._transmit(b"", eof_only=True)
        return results

    def stay_quiet(self, uid):
        """Addressed STAY QUIET: the tag stops answering inventories until the field goes off.
        It never answers this command, so the frame having left is all there is to wait for."""
        self._transmit(stay_quiet_request(uid))
