"""The board glue (sekihub.board) with a fake ``machine``: pins, SPI and the 74HC154/74HC4067
decoder are emulated, so the real wiring code addresses the right emulated PN5180.

Also: the firmware core imports under plain CPython, and the generated files in hardware/ are
what the generator makes today.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import placement_sheet as ps
import pytest
from hw_fakes import FakeClock, FakePN5180, FakePort
from sekihub import FIRMWARE_VERSION

from companion.games.sekigahara.components import default_board
from firmware_bridge import protocol as p

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


class DecoderTable:
    """Sixteen emulated PN5180s behind an emulated 74HC154 (NSS) and 74HC4067 (BUSY)."""

    def __init__(self, address: tuple[int, ...], strobe: int, busy: int, rst: int) -> None:
        self.address, self.strobe_pin, self.busy_pin, self.rst_pin = address, strobe, busy, rst
        self.levels: dict[int, int] = {}
        self.rail_volts = 5.0  # what the divider feeds the ADC pin, x2
        self.spi_on = True
        self.clock = FakeClock()
        self.chips = [FakePN5180(self.clock) for _ in range(16)]
        self.active: FakePN5180 | None = None
        self.spi_settings: dict[str, object] = {}

    def decoder_powered(self) -> bool:
        """The 74HC154 runs from the readers' 3.3 V, which the module rail feeds."""
        return self.rail_volts >= 4.0

    def addressed(self) -> FakePN5180:
        index = sum(self.levels.get(pin, 0) << bit for bit, pin in enumerate(self.address))
        return self.chips[index]

    def set(self, pin: int, level: int) -> None:
        before = self.levels.get(pin)
        self.levels[pin] = level
        if pin == self.rst_pin and level == 1 and before == 0:
            for chip in self.chips:  # the shared RST: every reader restarts
                chip.power_on_reset()
        if not self.decoder_powered() and (pin == self.strobe_pin or pin in self.address):
            if level == 1:  # through the input's protection diode into the dead 3.3 V rail
                raise AssertionError("a high level feeds the unpowered decoder")
            self.active = None
            return
        if pin == self.strobe_pin and level != before:
            if level == 0:
                self.active = self.addressed()
                self.active.select()
            elif self.active is not None:
                self.active.deselect()
                self.active = None
        elif pin in self.address and self.levels.get(self.strobe_pin, 1) == 0:
            raise AssertionError("address changed while a reader was selected")

    def get(self, pin: int) -> int:
        if pin == self.busy_pin:
            return int(self.addressed().busy())
        return self.levels.get(pin, 0)


def fake_machine(table: DecoderTable) -> types.ModuleType:
    machine = types.ModuleType("machine")

    class Pin:
        OUT, IN = 1, 0

        def __init__(self, n: int, mode: int = 0, value: int | None = None) -> None:
            self.n = n
            if value is not None:
                table.set(n, value)

        def value(self, v: int | None = None) -> int:
            if v is None:
                return table.get(self.n)
            table.set(self.n, 1 if v else 0)
            return v

    class SPI:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.init(**kwargs)

        def init(self, **kwargs: object) -> None:
            table.spi_settings = dict(kwargs)
            table.spi_on = True
            baud = kwargs["baudrate"]
            assert isinstance(baud, int)
            for chip in table.chips:
                chip.spi_hz = baud  # the emulated bus runs at the configured clock

        def deinit(self) -> None:
            table.spi_on = False

        def write(self, data: bytes) -> None:
            assert table.spi_on, "SPI used while released"
            assert table.active is not None, "SPI write with no reader selected"
            table.active.write(data)

        def readinto(self, buf: bytearray, fill: int = 0xFF) -> None:
            assert table.active is not None, "SPI read with no reader selected"
            table.active.readinto(buf, fill)

    class ADC:
        def __init__(self, pin: Pin, **kwargs: object) -> None:
            assert pin.n == 26, "the rail is read on GP26 (ADC0)"

        def read_u16(self) -> int:
            return min(65535, round(table.rail_volts / 2 / 3.3 * 65535))

    machine.Pin = Pin  # type: ignore[attr-defined]
    machine.ADC = ADC  # type: ignore[attr-defined]
    machine.SPI = SPI  # type: ignore[attr-defined]
    machine.unique_id = lambda: b"\xe6\x61\x41\x03"  # type: ignore[attr-defined]
    return machine


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> tuple[object, DecoderTable, FakePort, list[object]]:
    import hub_config
    from sekihub import board

    pins = hub_config.PINS["pico"]
    table = DecoderTable(pins["address"], pins["strobe"], pins["busy"], pins["rst"])
    monkeypatch.setitem(sys.modules, "machine", fake_machine(table))
    strips: list[object] = []

    class NeoPixel(list):  # type: ignore[type-arg]
        def __init__(self, pin: object, n: int) -> None:
            super().__init__([(0, 0, 0)] * n)
            self.writes = 0
            strips.append(self)

        def write(self) -> None:
            self.writes += 1

    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel))
    port = FakePort()
    monkeypatch.setattr(board, "UsbSerialPort", lambda check_room=True: port)

    class FastClock(board.MachineClock):
        def __init__(self) -> None:
            self.fake = table.clock

        def ticks_ms(self) -> int:
            return self.fake.ticks_ms()

        def ticks_us(self) -> int:
            return self.fake.ticks_us()

        def ticks_diff(self, a: int, b: int) -> int:
            return a - b

        def sleep_ms(self, ms: int) -> None:
            self.fake.sleep_ms(ms)

        def sleep_us(self, us: int) -> None:
            self.fake.sleep_us(us)

    monkeypatch.setattr(board, "MachineClock", FastClock)
    return board.build(hub_config), table, port, strips


def test_build_addresses_each_reader_through_the_decoder(
        built: tuple[object, DecoderTable, FakePort, list[object]]) -> None:
    hub, table, port, strips = built
    table.chips[5].tags = {0xE004015000000005}
    table.chips[12].tags = {0xE00401500000000C, 0xE00401500000001C}
    table.chips[9].dead = True
    for _ in range(16):
        hub.step()  # type: ignore[attr-defined]
    frames = [p.decode_line(line).message for line in port.take_lines()]
    assert frames[0] == p.Hello("hub-1", FIRMWARE_VERSION, (p.PROTOCOL_MAJOR, p.PROTOCOL_MINOR),
                                16, 10)
    seen = {m.antenna: set(m.uids) for m in frames if isinstance(m, p.Snapshot)}
    assert seen[5] == {"E004015000000005"}
    assert seen[12] == {"E00401500000000C", "E00401500000001C"}
    assert all(not uids for a, uids in seen.items() if a not in (5, 12))
    assert [m.antenna for m in frames if isinstance(m, p.Fault)] == [9]
    assert all(chip.requests for i, chip in enumerate(table.chips) if i != 9)
    assert len(strips) == 1


def test_a_module_rail_that_fails_holds_every_output_low_until_it_is_back(
        built: tuple[object, DecoderTable, FakePort, list[object]]) -> None:
    import hub_config

    hub, table, port, strips = built
    pins = hub_config.PINS["pico"]
    table.chips[4].tags = {0xE004015000000004}
    for _ in range(16):
        hub.step()  # type: ignore[attr-defined]
    port.take_lines()
    resets = table.chips[0].resets
    table.rail_volts = 3.1  # the 12 V adapter unplugged: USB still feeds the Pico
    for chip in table.chips:
        chip.powered = False  # any SPI or NSS into them now asserts
    writes = strips[0].writes  # type: ignore[attr-defined]
    for _ in range(50):
        hub.step()  # type: ignore[attr-defined]
        table.clock.advance_ms(50)
    faults = [m for m in (p.decode_line(x).message for x in port.take_lines())
              if isinstance(m, p.Fault)]
    assert faults and all(f.antenna is None and f.code == "POWER" for f in faults)
    assert faults[0].detail == "module rail at 3.1 V: check the 12 V supply"
    assert 2 <= len(faults) <= 3  # once a second over 2.5 s
    assert table.levels[pins["rst"]] == 0 and table.levels[pins["strobe"]] == 0
    assert all(table.levels[n] == 0 for n in (*pins["address"], pins["sck"], pins["mosi"],
                                              pins["leds"]))
    assert not table.spi_on and strips[0].writes == writes  # type: ignore[attr-defined]
    table.rail_volts = 4.4  # within the hysteresis: still down
    for chip in table.chips:
        chip.powered = True
    hub.step()  # type: ignore[attr-defined]
    assert not table.spi_on
    table.rail_volts = 5.0
    for _ in range(17):
        hub.step()  # type: ignore[attr-defined]
    assert table.spi_on and table.levels[pins["rst"]] == 1
    assert table.chips[0].resets > resets  # reset and set up again
    seen = {m.antenna: set(m.uids) for m in (p.decode_line(x).message for x in port.take_lines())
            if isinstance(m, p.Snapshot)}
    assert seen[4] == {"E004015000000004"}


def test_led_command_reaches_the_strip(
        built: tuple[object, DecoderTable, FakePort, list[object]]) -> None:
    hub, _, port, strips = built
    hub.step()  # type: ignore[attr-defined]
    port.inbox += p.encode(p.SetLed(3, p.LedMode.ON), 1)
    hub.step()  # type: ignore[attr-defined]
    strip = strips[0]
    assert strip[3] != (0, 0, 0) and max(strip[3]) <= 48  # type: ignore[index]
    assert strip[2] == (0, 0, 0)  # type: ignore[index]


def test_firmware_core_imports_without_machine() -> None:
    sys.modules.pop("machine", None)
    for name in ("sekihub", "sekihub.drivers", "sekihub.iso15693", "sekihub.inventory",
                 "sekihub.pn5180", "sekihub.chipselect", "sekihub.leds", "sekihub.wire",
                 "sekihub.hub", "sekihub.board", "hub_config"):
        importlib.import_module(name)
    assert "machine" not in sys.modules


def test_firmware_avoids_what_micropython_lacks() -> None:
    banned = {"re", "dataclasses", "enum", "pathlib", "typing", "__future__", "contextlib", "abc"}
    for path in (HARDWARE / "firmware").rglob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words and words[0] in ("import", "from"):
                assert words[1].split(".")[0] not in banned, f"{path.name}: {line.strip()}"


def test_generated_files_are_up_to_date() -> None:
    result = ps.layout(default_board())
    assert (HARDWARE / "placement-sheet.svg").read_text() == ps.render_svg(result)
    assert (HARDWARE / "tray-templates.svg").read_text() == ps.render_trays(result)


@pytest.mark.parametrize("board_name", ["pico", "esp32"])
def test_hub_config_uses_every_pin_once(board_name: str) -> None:
    import hub_config

    pins = hub_config.PINS[board_name]
    used: list[int] = []
    for key, value in pins.items():
        if key == "spi_id" or value is None:
            continue
        used.extend(value if isinstance(value, tuple) else [value])
    assert len(used) == len(set(used)), f"{board_name}: a pin is used twice"
    assert len(pins["address"]) == 4 and hub_config.READERS <= 16


def test_spi_clock_defaults_to_a_rate_long_ribbons_carry(
        built: tuple[object, DecoderTable, FakePort, list[object]]) -> None:
    _, table, _, _ = built
    assert table.spi_settings["baudrate"] == 1_000_000
    assert all(chip.spi_hz == 1_000_000 for chip in table.chips)


@pytest.mark.parametrize("baud", [0, 50_000, 8_000_000, "1MHz", 2.5e6])
def test_a_bad_spi_clock_is_refused_by_name(baud: object) -> None:
    from sekihub import board

    cfg = types.SimpleNamespace(SPI_BAUD=baud)
    with pytest.raises(ValueError, match="SPI_BAUD"):
        board.spi_baud(cfg)
    assert board.spi_baud(types.SimpleNamespace(SPI_BAUD=2_000_000)) == 2_000_000
    assert board.spi_baud(types.SimpleNamespace()) == board.SPI_BAUD_DEFAULT
