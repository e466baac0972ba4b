"""Fakes for the one truly external thing: the PN5180 chip (and the pins, clock and port).

``FakePN5180`` emulates the chip at the level the real driver sees it: SPI frames between NSS
edges, the BUSY line, registers, IRQ and RX status bits, the EEPROM, and ISO 15693 tags that
answer INVENTORY requests in the slot their UID picks. Several tags in one slot collide (RX
collision bit), exactly as on air. So the tests drive the real ``sekihub.pn5180`` driver, not a
stand-in.

The module also runs under MicroPython (tests/hardware/micropython): no __future__ import, no
typing-only imports, no bytes methods MicroPython lacks.
"""

from sekihub import pn5180 as chip
from sekihub.iso15693 import matches, slot_of, with_crc

TX_CONFIG_DEFAULT = 0x000007C8  # what LOAD_RF_CONFIG 0x0D leaves; bits 6, 7, 10 are the SOF/data


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
    """A PN5180 with ``tags`` (UID ints) in its field. Also serves as its own SPI and lines.

    Failure switches: ``dead`` (BUSY stuck high), ``absent`` (MISO floats: all 0xFF),
    ``rf_fails`` (RF_ON raises RF_ACTIVE_ERROR), ``overheat``, ``garble`` (the next N answered
    slots come back with a CRC error).
    """

    def __init__(self, tags: tuple[int, ...] | list[int] | set[int] = ()) -> None:
        self.tags = set(tags)
        self.dead = False
        self.absent = False
        self.rf_fails = False
        self.overheat = False
        self.garble = 0
        self.keep_crc = False  # hand answers over with their CRC bytes still on
        self.regs = {chip.SYSTEM_CONFIG: 0, chip.TX_CONFIG: 0, chip.RX_STATUS: 0}
        self.irq = 0
        self.rf_on = False
        self.config: tuple[int, int] | None = None
        self.selected = False
        self.frame = bytearray()
        self.reply = b""
        self.rx_data = b""
        self.round: dict[int, list[int]] | None = None
        self.slot = 0
        self.rounds = 0
        self.probes = 0
        self.requests: list[bytes] = []
        self.on_round = None  # test hook: called at the start of every 16-slot round
        self.eeprom = bytes(range(16)) + bytes((0x02, 0x00, 0x01, 0x04, 0x00, 0x00))

    # ------------------------------------------------------------------ lines + SPI

    def select(self) -> None:
        self.selected = True
        self.frame = bytearray()

    def deselect(self) -> None:
        self.selected = False
        if self.frame:
            self._execute(bytes(self.frame))
        self.frame = bytearray()

    def busy(self) -> bool:
        return self.dead

    def write(self, data: bytes) -> None:
        assert self.selected, "SPI write with NSS high"
        self.frame += data

    def readinto(self, buf: bytearray, fill: int = 0xFF) -> None:
        assert self.selected, "SPI read with NSS high"
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

    def _execute(self, f: bytes) -> None:
        if self.absent:
            return
        op = f[0]
        if op in (chip.WRITE_REGISTER, chip.WRITE_REGISTER_OR_MASK, chip.WRITE_REGISTER_AND_MASK):
            reg, value = f[1], int.from_bytes(f[2:6], "little")
            if reg == chip.IRQ_CLEAR:
                self.irq &= ~value
                return
            old = self.regs.get(reg, 0)
            self.regs[reg] = (
                value if op == chip.WRITE_REGISTER
                else old | value if op == chip.WRITE_REGISTER_OR_MASK else old & value
            )
        elif op == chip.READ_REGISTER:
            reg = f[1]
            value = self.irq if reg == chip.IRQ_STATUS else self.regs.get(reg, 0)
            self.reply = value.to_bytes(4, "little")
        elif op == chip.READ_EEPROM:
            addr, n = f[1], f[2]
            self.reply = self.eeprom[addr : addr + n]
        elif op == chip.LOAD_RF_CONFIG:
            self.config = (f[1], f[2])
            self.regs[chip.TX_CONFIG] = TX_CONFIG_DEFAULT
        elif op == chip.RF_ON:
            assert self.config == (0x0D, 0x8D), "RF_ON before the ISO 15693 RF config"
            if self.rf_fails:
                self.irq |= chip.IRQ_RF_ACTIVE_ERROR
            else:
                self.rf_on = True
                self.irq |= chip.IRQ_TX_RFON
            if self.overheat:
                self.irq |= chip.IRQ_TEMPSENS_ERROR
        elif op == chip.RF_OFF:
            self.rf_on = False
            self.round = None
        elif op == chip.SEND_DATA:
            self._send(f[2:])
        elif op == chip.READ_DATA:
            self.reply = self.rx_data
        else:
            raise AssertionError(f"unexpected instruction {op}")

    def _send(self, data: bytes) -> None:
        assert self.rf_on, "SEND_DATA with the field off"
        assert self.regs[chip.SYSTEM_CONFIG] & 7 == 3, "SEND_DATA outside Transceive"
        eof_only = self.regs[chip.TX_CONFIG] & 0x4C0 == 0
        if eof_only:
            assert not data and self.round is not None, "EOF outside an inventory round"
            self.slot += 1
            assert self.slot < 16, "more than 16 slots"
            self._answer(self.round.get(self.slot, []))
            return
        self.requests.append(bytes(data))
        flags, cmd, mask_len = data[0], data[1], data[2]
        assert cmd == 0x01 and flags & 0x06 == 0x06, "only high-rate INVENTORY is emulated"
        mask = int.from_bytes(data[3 : 3 + (mask_len + 7) // 8], "little")
        assert len(data) == 3 + (mask_len + 7) // 8, "mask field length"
        answering = [u for u in self.tags if matches(u, mask, mask_len)]
        if flags & 0x20:
            self.probes += 1
            self.round = None
            self._answer(answering)
            return
        self.rounds += 1
        if self.on_round is not None:
            self.on_round()
        self.round = {}
        for uid in answering:
            self.round.setdefault(slot_of(uid, mask_len), []).append(uid)
        self.slot = 0
        self._answer(self.round.get(0, []))

    def _answer(self, uids: list[int]) -> None:
        self.irq |= chip.IRQ_TX | chip.IRQ_IDLE
        self.rx_data = b""
        self.regs[chip.RX_STATUS] = 0
        if not uids:
            return
        self.irq |= chip.IRQ_RX_SOF_DET | chip.IRQ_RX
        if len(uids) > 1:
            self.regs[chip.RX_STATUS] = chip.RX_COLLISION_DETECTED | 10
            return
        if self.garble:
            self.garble -= 1
            self.regs[chip.RX_STATUS] = chip.RX_DATA_INTEGRITY_ERROR | 10
            return
        self.rx_data = bytes((0x00, 0x00)) + uids[0].to_bytes(8, "little")
        if self.keep_crc:
            self.rx_data = with_crc(self.rx_data)
        self.regs[chip.RX_STATUS] = len(self.rx_data)
