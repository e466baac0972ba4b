"""Fakes for the one truly external thing: the PN5180 chip (and the pins, clock and port).

``FakePN5180`` emulates the chip at the level the real driver sees it: SPI frames between NSS
edges, the BUSY line, registers, IRQ and RX status bits, the EEPROM, and ISO 15693 tags that
answer INVENTORY requests in the slot their UID picks, with the time all of that takes on the
wire and on air (see the class). Several tags in one slot collide (RX collision bit), or the
strongest captures the slot, as on air. So the tests drive the real ``sekihub.pn5180`` driver,
not a stand-in, and a driver that does not wait for the air reads nothing.

The module also runs under MicroPython (tests/hardware/micropython): no __future__ import, no
typing-only imports, no bytes methods MicroPython lacks.
"""

from sekihub import pn5180 as chip
from sekihub.iso15693 import matches, slot_of, with_crc

TX_CONFIG_DEFAULT = 0x000007C8  # what LOAD_RF_CONFIG 0x0D leaves; bits 6, 7, 10 are the SOF/data

# ISO/IEC 15693-2/-3 timing at the high data rate, rounded up to whole microseconds (the clock's
# unit). Reader to tag: 1-out-of-4 coding, a 2-bit symbol every 1024/fc = 75.52 us.
SOF_US = 76  # reader SOF, 1024/fc
BYTE_US = 302  # 4 symbols
EOF_US = 38  # reader EOF, 512/fc
T1_US = 321  # a tag answers 4352/fc after the reader's EOF
T2_US = 309  # the reader's next EOF may follow an answer after 4192/fc
T3_US = 475  # ... or an empty slot after t1 max + the answer's SOF (323.3 + 151.04)
# tag to reader, one subcarrier: a bit every 512/fc = 37.76 us, SOF and EOF 151.04 us each
ANSWER_SOF_US = 151
ANSWER_US = 151 + (12 * 8 * 3776 + 99) // 100 + 151  # flags, DSFID, UID, CRC: 3927 us




class FakeClock:
    """Microsecond counter; sleeping only advances it."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_ms(self) -> int:
        return self.us // 1000

    def ticks_us(self) -> int:
        return self.us

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_ms(self, ms: int) -> None:
        self.us += ms * 1000

    def sleep_us(self, us: int) -> None:
        self.us += us

    def advance_ms(self, ms: int) -> None:
        self.us += ms * 1000


class FakePin:
    def __init__(self, level: int = 0) -> None:
        self.level = level
        self.history: list[int] = []

    def value(self, v: int | None = None) -> int:
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.history.append(self.level)
        return self.level


class FakePort:
    """The USB serial port: ``inbox`` is what the host sent, ``output`` what the hub wrote."""

    def __init__(self) -> None:
        self.inbox = b""
        self.output = bytearray()
        self.reads = 0

    def read(self) -> bytes:
        self.reads += 1
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.output += data

    def take_lines(self) -> list[bytes]:
        lines = [line + b"\n" for line in bytes(self.output).split(b"\n") if line]
        self.output.clear()
        return lines


class FakeLeds:
    def __init__(self, count: int) -> None:
        self.count = count
        self.pending = [(0, 0, 0)] * count
        self.shown = [(0, 0, 0)] * count
        self.shows = 0

    def set(self, index: int, rgb: tuple[int, int, int]) -> None:
        self.pending[index] = rgb

    def show(self) -> None:
        self.shown = list(self.pending)
        self.shows += 1


class FakePN5180:
    """A PN5180 with ``tags`` (UID ints) in its field, on the clock ``clock`` it shares with the
    driver. Also serves as its own SPI and lines.

    **Time model.** Nothing happens instantly; everything is timed on ``clock``:

    * SPI: every transfer costs ``len * 8 / spi_hz`` plus ``call_us`` (an *estimate* of one
      MicroPython SPI call); BUSY stays high for ``BUSY_US`` after an instruction (longer for
      LOAD_RF_CONFIG and RF_ON). An instruction sent while BUSY is high is a driver bug: assert.
    * Air, reader to tag (ISO/IEC 15693-2, 1-of-4, 26.48 kbit/s): SOF 75.52 us, 302.08 us per byte
      (the 2 CRC bytes included), EOF 37.76 us; an EOF-only frame is 37.76 us. IRQ_TX is set when
      the frame has left the antenna, not when SEND_DATA returns.
    * Air, tag to reader (high rate, one subcarrier): a tag answers t1 = 320.9 us after the
      reader's EOF; SOF 151.04 us, 96 bits of 37.76 us, EOF 151.04 us. RX_SOF_DET is set once the
      SOF is in, IRQ_RX and RX_STATUS once the whole answer is.
    * Tags power up ``TAG_READY_US`` (1 ms) after the field comes on and ignore requests before.
    * Slots: a tag moves to its next slot only on a whole EOF heard while it is not answering;
      an EOF sent earlier than t3 after the last one (no answer) or t2 after an answer, or a
      frame cut off by Idle, throws the tags out of step: the rest of that round is silent.
    * Collisions: tags sharing a slot garble it (RX collision bit) unless one is
      ``CAPTURE_RATIO`` times stronger than all the others together (``strength``): then the
      reader receives the strong one cleanly and never hears the weak ones (capture effect).
    * Noise: with probability ``noise`` an answer is received with a CRC error (a seeded
      generator, so runs repeat).
    * STAY QUIET (addressed) silences a tag until the field goes off.
    * ``neighbour_field(now)`` (optional): True while another reader's field is on nearby; an
      RF_ON then fails with RF_ACTIVE_ERROR (the chip's collision avoidance).
    * ``rf_on_lag_us``: the field (and IRQ TX_RFON) comes on this long after BUSY drops at the
      end of RF_ON, as on real chips where BUSY can fall first; 0 by default. A frame sent
      before the field is up is a driver bug: assert.

    Failure switches: ``dead`` (BUSY stuck high), ``absent`` (MISO floats: all 0xFF),
    ``rf_fails`` (the field never comes on), ``overheat``, ``garble`` (the next N answered
    slots come back with a CRC error), ``stuck`` (BUSY high until a reset through RST, which
    ``power_on_reset`` models), ``powered`` (False while the module rail is down: any SPI or
    pin traffic to it is a firmware bug: assert).

    ``channels`` (optional): an RF multiplexer in front of the antenna: ``{channel: tags}``;
    ``channel`` (set through ``FakeRfSwitch``) picks the antenna, and ``tags`` is its set.
    """

    BUSY_US = 8  # estimate: a register access
    LOAD_RF_CONFIG_US = 500  # estimate
    RF_ON_US = 300  # estimate: field ramp-up and collision check
    TAG_READY_US = 1000  # ISO/IEC 15693-3: a tag is ready 1 ms after the field is on
    CAPTURE_RATIO = 4.0  # estimate: 6 dB stronger wins the slot

    def __init__(self, clock, tags=(), spi_hz=1000000, call_us=25):
        self.clock = clock
        self.spi_hz = spi_hz
        self.call_us = call_us
        self.channels = None
        self._tags = set(tags)
        self.strength = {}
        self.noise = 0.0
        self.seed = 12345
        self.neighbour_field = None
        self.dead = False
        self.absent = False
        self.rf_fails = False
        self.rf_on_lag_us = 0
        self.rfon_at = None  # when a field switched on will really be on (TX_RFON)
        self.stuck = False
        self.powered = True
        self.resets = 0  # resets through RST (power_on_reset)
        self.unpowered = 0  # accesses while without power (each also asserts)
        self.overheat = False
        self.garble = 0
        self.keep_crc = False  # hand answers over with their CRC bytes still on
        self.regs = {chip.SYSTEM_CONFIG: 0, chip.TX_CONFIG: 0, chip.RX_STATUS: 0}
        self.irq = 0
        self.rf_on = False
        self.field_since = None
        self.config = None
        self.selected = False
        self.frame = bytearray()
        self.reply = b""
        self.rx_data = b""
        self.busy_until = 0
        self.tx = None  # [start, end, data or None (EOF), applied]
        self.rx = None  # [sof_at, end, uid or None, rx_status]
        self.last_eof_end = None
        self.last_answer_end = None
        self.round = None
        self.slot = 0
        self.quiet = set()
        self.rounds = 0
        self.probes = 0
        self.quieted = 0
        self.desyncs = 0
        self.rf_collisions = 0
        self.field_log = []  # [on_us, off_us or None] for every time the field came on
        self.requests = []
        self.on_round = None  # test hook: called at the start of every 16-slot round
        self.eeprom = bytes(range(16)) + bytes((0x02, 0x00, 0x01, 0x04, 0x00, 0x00))

    @property
    def tags(self):
        if self.channels is not None:
            return self.channels.get(self.channel, set())
        return self._tags

    @tags.setter
    def tags(self, value):
        self._tags = set(value)

    channel = None

    # ------------------------------------------------------------------ time

    def now(self):
        return self.clock.ticks_us()

    def _spend(self, n_bytes):
        self.clock.sleep_us(self.call_us + (n_bytes * 8 * 1000000 + self.spi_hz - 1) // self.spi_hz)

    def _random(self):
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return self.seed / 0x80000000

    def _advance(self):
        """Apply what the air did up to now: a frame that has been sent is heard by the tags."""
        if self.rfon_at is not None and self.now() >= self.rfon_at:
            self.rfon_at = None
            self.irq |= chip.IRQ_TX_RFON
        tx = self.tx
        if tx is None or tx[3] or self.now() < tx[1]:
            return
        tx[3] = True
        self.irq |= chip.IRQ_TX
        if tx[2] is None:
            self._heard_eof(tx[0], tx[1])
        else:
            self._heard_request(tx[2], tx[0], tx[1])

    def _refresh_rx(self):
        self._advance()
        rx = self.rx
        if rx is None:
            return
        now = self.now()
        if now >= rx[0]:
            self.irq |= chip.IRQ_RX_SOF_DET
        if now >= rx[1] and not self.irq & chip.IRQ_RX:
            self.irq |= chip.IRQ_RX | chip.IRQ_IDLE
            self.regs[chip.RX_STATUS] = rx[3]
            self.rx_data = rx[2] if rx[2] is not None else b""

    # ------------------------------------------------------------------ lines + SPI

    def _check_power(self):
        # counted as well: the hub turns a driver exception into a FAULT, which would hide it
        if not self.powered:
            self.unpowered += 1
        assert self.powered, "SPI or NSS driven into a module without power"

    def power_on_reset(self, boot_us=2500):
        """RST pulsed (or power back): registers, IRQs and field cleared, a stuck chip free
        again; BUSY is high for ``boot_us`` while it boots."""
        self.resets += 1
        self.stuck = False
        self.irq = 0
        self.regs = {chip.SYSTEM_CONFIG: 0, chip.TX_CONFIG: 0, chip.RX_STATUS: 0}
        if self.rf_on and self.field_log:
            self.field_log[-1][1] = self.now()
        self.rf_on = False
        self.field_since = None
        self.rfon_at = None
        self.config = None
        self.tx = self.rx = self.round = None
        self.quiet = set()
        self.reply = b""
        self.selected = False
        self.frame = bytearray()
        self.busy_until = self.now() + boot_us

    def select(self):
        self._check_power()
        self.selected = True
        self.frame = bytearray()

    def deselect(self):
        self.selected = False
        if self.frame:
            self._refresh_rx()
            assert self.dead or self.stuck or self.now() >= self.busy_until, \
                "instruction sent while BUSY"
            self._execute(bytes(self.frame))
        self.frame = bytearray()

    def busy(self):
        self.clock.sleep_us(2)  # reading a pin is not free either
        return self.dead or self.stuck or self.now() < self.busy_until

    def write(self, data):
        self._check_power()
        assert self.selected, "SPI write with NSS high"
        self._spend(len(data))
        self.frame += data

    def readinto(self, buf, fill=0xFF):
        self._check_power()
        assert self.selected, "SPI read with NSS high"
        self._spend(len(buf))
        if self.absent:
            for i in range(len(buf)):
                buf[i] = 0xFF
            return
        reply = self.reply + bytes(max(0, len(buf) - len(self.reply)))
        for i in range(len(buf)):
            buf[i] = reply[i]
        self.reply = b""
        self.frame = bytearray()  # a read frame is not an instruction

    # ------------------------------------------------------------------ instructions

    def _execute(self, f):
        if self.absent or self.stuck:
            return
        self.busy_until = self.now() + self.BUSY_US
        op = f[0]
        if op in (chip.WRITE_REGISTER, chip.WRITE_REGISTER_OR_MASK, chip.WRITE_REGISTER_AND_MASK):
            reg, value = f[1], int.from_bytes(f[2:6], "little")
            if reg == chip.IRQ_CLEAR:
                self.irq &= ~value
                return
            old = self.regs.get(reg, 0)
            new = (value if op == chip.WRITE_REGISTER
                   else old | value if op == chip.WRITE_REGISTER_OR_MASK else old & value)
            self.regs[reg] = new
            if reg == chip.SYSTEM_CONFIG and new & 7 == 0:
                self._idle()
        elif op == chip.READ_REGISTER:
            reg = f[1]
            value = self.irq if reg == chip.IRQ_STATUS else self.regs.get(reg, 0)
            self.reply = value.to_bytes(4, "little")
        elif op == chip.READ_EEPROM:
            addr, n = f[1], f[2]
            self.reply = self.eeprom[addr : addr + n]
        elif op == chip.LOAD_RF_CONFIG:
            self.busy_until = self.now() + self.LOAD_RF_CONFIG_US
            self.config = (f[1], f[2])
            self.regs[chip.TX_CONFIG] = TX_CONFIG_DEFAULT
        elif op == chip.RF_ON:
            assert self.config == (0x0D, 0x8D), "RF_ON before the ISO 15693 RF config"
            self.busy_until = self.now() + self.RF_ON_US
            foreign = self.neighbour_field is not None and self.neighbour_field(self.now())
            if foreign:
                self.rf_collisions += 1
                self.irq |= chip.IRQ_RF_ACTIVE_ERROR
            elif not self.rf_fails:
                on_at = self.busy_until + self.rf_on_lag_us
                self.rf_on = True
                self.field_since = on_at
                self.field_log.append([on_at, None])
                self.rfon_at = on_at
            if self.overheat:
                self.irq |= chip.IRQ_TEMPSENS_ERROR
        elif op == chip.RF_OFF:
            if self.rf_on and self.field_log:
                self.field_log[-1][1] = max(self.now(), self.field_log[-1][0])
            self._idle()
            self.rfon_at = None
            self.rf_on = False
            self.field_since = None
            self.round = None
            self.quiet = set()
        elif op == chip.SEND_DATA:
            self._send(f[2:])
        elif op == chip.READ_DATA:
            self.reply = self.rx_data
        else:
            raise AssertionError(f"unexpected instruction {op}")

    def _idle(self):
        """Idle cuts off a frame still being sent and stops listening."""
        tx = self.tx
        if tx is not None and not tx[3]:
            self._desync()  # the tags heard half a frame
        self.tx = None
        self.rx = None

    def _desync(self):
        if self.round is not None:
            self.desyncs += 1
        self.round = None

    def _send(self, data):
        assert self.rf_on, "SEND_DATA with the field off"
        assert self.now() >= self.field_since, "SEND_DATA before the field is really on"
        assert self.regs[chip.SYSTEM_CONFIG] & 7 == 3, "SEND_DATA outside Transceive"
        assert self.tx is None, "SEND_DATA without Idle in between"
        now = self.now()
        self.irq &= ~(chip.IRQ_TX | chip.IRQ_RX | chip.IRQ_RX_SOF_DET | chip.IRQ_IDLE)
        self.regs[chip.RX_STATUS] = 0
        self.rx_data = b""
        if self.regs[chip.TX_CONFIG] & 0x4C0 == 0:
            assert not data, "EOF-only frame with data"
            self.tx = [now, now + EOF_US, None, False]
        else:
            self.requests.append(bytes(data))
            self.tx = [now, now + SOF_US + (len(data) + 2) * BYTE_US + EOF_US, bytes(data), False]

    # ------------------------------------------------------------------ the tags

    def _ready(self, start):
        """Tags that are powered at ``start`` and not quiet."""
        if self.field_since is None or start - self.field_since < self.TAG_READY_US:
            return []
        return [u for u in self.tags if u not in self.quiet]

    def _heard_request(self, data, start, end):
        flags, cmd = data[0], data[1]
        if self.last_answer_end is not None and start < self.last_answer_end:
            self._desync()  # a tag still answering does not hear the request
            self.last_answer_end = None
            return
        self.last_answer_end = None
        self.last_eof_end = end
        if cmd == 0x02:  # STAY QUIET, addressed
            assert flags & 0x20, "STAY QUIET must be addressed"
            uid = int.from_bytes(data[2:10], "little")
            if uid in self._ready(start):
                self.quiet.add(uid)
                self.quieted += 1
            self.round = None
            return
        assert cmd == 0x01 and flags & 0x06 == 0x06, "only high-rate INVENTORY is emulated"
        mask_len = data[2]
        assert len(data) == 3 + (mask_len + 7) // 8, "mask field length"
        mask = int.from_bytes(data[3 : 3 + (mask_len + 7) // 8], "little")
        answering = [u for u in self._ready(start) if matches(u, mask, mask_len)]
        if flags & 0x20:
            self.probes += 1
            self.round = None
            self._answer(answering, end)
            return
        self.rounds += 1
        if self.on_round is not None:
            self.on_round()
        self.round = {}
        for uid in answering:
            self.round.setdefault(slot_of(uid, mask_len), []).append(uid)
        self.slot = 0
        self._answer(self.round.get(0, []), end)

    def _heard_eof(self, start, end):
        if self.round is None:
            return
        if self.last_answer_end is not None:
            early = start < self.last_answer_end + T2_US
        else:
            early = start < self.last_eof_end + T3_US
        self.last_eof_end = end
        self.last_answer_end = None
        if early:
            self._desync()
            return
        self.slot += 1
        assert self.slot < 16, "more than 16 slots"
        self._answer(self.round.get(self.slot, []), end)

    def _answer(self, uids, eof_end):
        if not uids:
            return
        sof_at = eof_end + T1_US
        end = sof_at + ANSWER_US
        self.last_answer_end = end
        strongest = max(uids, key=lambda u: self.strength.get(u, 1.0))
        others = sum(self.strength.get(u, 1.0) for u in uids) - self.strength.get(strongest, 1.0)
        if len(uids) > 1 and self.strength.get(strongest, 1.0) < self.CAPTURE_RATIO * others:
            self.rx = [sof_at + ANSWER_SOF_US, end, None, chip.RX_COLLISION_DETECTED | 10]
            return
        if self.garble or (self.noise and self._random() < self.noise):
            self.garble = max(0, self.garble - 1)
            self.rx = [sof_at + ANSWER_SOF_US, end, None, chip.RX_DATA_INTEGRITY_ERROR | 10]
            return
        data = bytes((0x00, 0x00)) + strongest.to_bytes(8, "little")
        if self.keep_crc:
            data = with_crc(data)
        self.rx = [sof_at + ANSWER_SOF_US, end, data, len(data)]


class FakeModuleLines:
    """The lines a hub shares with its ``chips``: one RST for all (``pulse_reset`` restarts
    every chip), and ``hold_low``/``release`` for a module rail that fails. ``held`` is True
    while the outputs are held low; ``log`` lists what was done, in order."""

    shared_reset = True
    RESET_US = 1000 + 5000  # RST low 1 ms, then 5 ms for the chips to boot (as board.py)

    def __init__(self, chips, clock):
        self.chips = chips
        self.clock = clock
        self.held = False
        self.log = []

    def pulse_reset(self):
        assert not self.held, "RST pulsed while the outputs are held low"
        self.log.append("reset")
        for c in self.chips:
            if c.powered:
                c.power_on_reset()
        self.clock.sleep_us(self.RESET_US)

    def hold_low(self):
        self.log.append("hold")
        self.held = True

    def release(self):
        self.log.append("release")
        self.held = False


class FakeRail:
    """The module rail's voltage, read by the hub; the chips lose power below ``BROWNOUT_V``
    (their 3.3 V regulator drops out) and come back reset."""

    BROWNOUT_V = 3.8

    def __init__(self, chips, volts=5.0):
        self.chips = chips
        self.level = volts
        self.reads = 0

    def set(self, volts):
        self.level = volts
        for c in self.chips:
            powered = volts >= self.BROWNOUT_V
            if powered and not c.powered:
                c.power_on_reset()
            c.powered = powered

    def volts(self):
        self.reads += 1
        return self.level


def field_on_at(chip_fake, at_us):
    """Whether ``chip_fake``'s field was on at ``at_us`` (a field still on counts as on)."""
    return any(on <= at_us and (off is None or at_us < off) for on, off in chip_fake.field_log)


class FakeRfSwitch:
    """An RF multiplexer's address pins in front of one ``FakePN5180`` with ``channels``: the
    address the pins carry is the antenna the chip drives."""

    def __init__(self, chip_fake, bits=4):
        self.chip = chip_fake
        self.pins = [FakePin() for _ in range(bits)]
        for bit, pin in enumerate(self.pins):
            pin.value = self._watch(pin, bit)

    def _watch(self, pin, bit):
        def value(v=None):
            if v is None:
                return pin.level
            assert not self.chip.rf_on, "RF switch moved with the field on"
            pin.level = 1 if v else 0
            self.chip.channel = sum(p.level << b for b, p in enumerate(self.pins))
            return pin.level
        return value
