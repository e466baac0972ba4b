"""Builds the real hub on the board (MicroPython only): pins, SPI, PN5180s, LEDs, USB serial.

This is the one module that imports ``machine``, and only inside functions, so the rest of the
firmware (and this file) still imports under CPython for the tests.
"""

from sekihub.chipselect import DecodedBus, NoMux, PinLines, RfMux
from sekihub.drivers import Clock, Leds, ModuleLines, Port, RailSense
from sekihub.hub import Antenna, Hub
from sekihub.leds import NeoPixelLeds
from sekihub.pn5180 import PN5180


class MachineClock(Clock):
    """``time.ticks_*`` (wrap-safe differences)."""

    def __init__(self):
        import time

        self.time = time

    def ticks_ms(self):
        return self.time.ticks_ms()

    def ticks_us(self):
        return self.time.ticks_us()

    def ticks_diff(self, a, b):
        return self.time.ticks_diff(a, b)

    def sleep_ms(self, ms):
        self.time.sleep_ms(ms)

    def sleep_us(self, us):
        self.time.sleep_us(us)


class UsbSerialPort(Port):
    """The USB CDC serial port MicroPython's REPL uses (``sys.stdin``/``sys.stdout``).

    Reads never block (``select.poll``). A write goes out only if the port reports room;
    otherwise it raises OSError and the hub counts the frame as dropped (protocol 3.6).
    The host never sends Ctrl-C (0x03), so ``mpremote`` can still interrupt the hub to flash it.
    """

    def __init__(self, check_room=True):
        import select
        import sys

        self.check_room = check_room
        self.stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
        self.stdout = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout
        self.poll_in = select.poll()
        self.poll_in.register(sys.stdin, select.POLLIN)
        self.poll_out = select.poll()
        self.poll_out.register(sys.stdout, select.POLLOUT)

    def read(self):
        data = b""
        while len(data) < 256 and self.poll_in.poll(0):
            chunk = self.stdin.read(1)
            if not chunk:
                break
            data += chunk
        return data

    def write(self, data):
        if self.check_room and not self.poll_out.poll(0):
            raise OSError(11, "USB serial full")
        self.stdout.write(data)


RESET_LOW_MS = 1  # the PN5180 needs RST low for 10 us at least
BOOT_MS = 5  # ... and about 2.5 ms after it to boot


class BoardModuleLines(ModuleLines):
    """The readers' shared RST pin, the decoder's strobe and address pins, SPI and LED data.

    ``hold_low`` takes the decoder's strobe, the address lines (or a lone reader's own NSS),
    RST, SCK, MOSI and LED data low; SPI is released, and set up again by ``release``. The
    strobe goes low too: the decoder runs from the readers' 3.3 V, which is down with the rail,
    and a high input would feed it through its protection diodes (hardware/README.md 4.3)."""

    shared_reset = True

    def __init__(self, clock, rst, strobe, low, led, spi, spi_pins, baud, nss=None):
        self.clock = clock
        self.rst = rst
        self.strobe = strobe  # the decoder's enable, or None
        self.low = low  # the decoder's address pins, or a lone reader's NSS
        self.nss = nss  # a lone reader's NSS: high again on release
        self.led = led
        self.spi = spi
        self.spi_pins = spi_pins  # (sck, mosi, miso) pin numbers
        self.baud = baud

    def pulse_reset(self):
        self.rst.value(0)
        self.clock.sleep_ms(RESET_LOW_MS)
        self.rst.value(1)
        self.clock.sleep_ms(BOOT_MS)

    def hold_low(self):
        from machine import Pin

        if self.strobe is not None:
            self.strobe.value(0)
        for pin in self.low:
            pin.value(0)
        self.rst.value(0)
        if self.led is not None:
            self.led.value(0)
        self.spi.deinit()
        for n in self.spi_pins[:2]:
            Pin(n, Pin.OUT, value=0)

    def release(self):
        from machine import Pin

        sck, mosi, miso = self.spi_pins
        self.spi.init(baudrate=self.baud, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi),
                      miso=Pin(miso))
        if self.nss is not None:
            self.nss.value(1)
        self.rst.value(1)
        self.clock.sleep_ms(BOOT_MS)


RAIL_DIVIDER_DEFAULT = 2.0  # 10 k over 10 k: 5 V at the rail reads 2.5 V at the pin
ADC_VOLTS = 3.3  # the ADC's full scale (the Pico's 3.3 V reference; the ESP32 at 11 dB)


class AdcRail(RailSense):
    """The module rail through a divider on an ADC pin: the mean of a few samples."""

    def __init__(self, adc, divider, samples=4):
        self.adc = adc
        self.divider = divider
        self.samples = samples

    def volts(self):
        total = 0
        for _ in range(self.samples):
            if hasattr(self.adc, "read_uv"):  # the ESP32's calibrated reading
                total += self.adc.read_uv() / 1000000
            else:
                total += self.adc.read_u16() * ADC_VOLTS / 65535
        return total / self.samples * self.divider


def rail_sense(cfg, pins):
    """An AdcRail on ``PINS[...]["rail"]``, or the no-sense default when it is None."""
    if pins.get("rail") is None:
        return RailSense()
    from machine import ADC, Pin

    if cfg.BOARD == "esp32":
        adc = ADC(Pin(pins["rail"]), atten=ADC.ATTN_11DB)
    else:
        adc = ADC(Pin(pins["rail"]))
    return AdcRail(adc, getattr(cfg, "RAIL_DIVIDER", RAIL_DIVIDER_DEFAULT))


def unique_hub_id():
    import machine

    raw = machine.unique_id()
    return "hub-" + "".join(f"{b:02x}" for b in raw)


SPI_BAUD_MIN = 100000
SPI_BAUD_MAX = 7000000  # the PN5180's limit
SPI_BAUD_DEFAULT = 1000000  # safe on the guide's ribbons (hardware/README.md 4.1)


def spi_baud(cfg):
    """``cfg.SPI_BAUD`` (the default if unset); ValueError naming the setting if out of range."""
    baud = getattr(cfg, "SPI_BAUD", SPI_BAUD_DEFAULT)
    if not isinstance(baud, int) or not SPI_BAUD_MIN <= baud <= SPI_BAUD_MAX:
        raise ValueError(f"hub_config.SPI_BAUD={baud!r}: use {SPI_BAUD_MIN}..{SPI_BAUD_MAX} Hz")
    return baud


def build(cfg):
    """A Hub from the settings module ``hub_config`` (see that file for every setting)."""
    from machine import SPI, Pin

    pins = cfg.PINS[cfg.BOARD]
    clock = MachineClock()
    baud = spi_baud(cfg)
    spi = SPI(pins["spi_id"], baudrate=baud, polarity=0, phase=0,
              sck=Pin(pins["sck"]), mosi=Pin(pins["mosi"]), miso=Pin(pins["miso"]))
    reset = Pin(pins["rst"], Pin.OUT, value=1)

    nss = None
    if cfg.READERS == 1 and pins.get("nss") is not None:
        nss = Pin(pins["nss"], Pin.OUT, value=1)
        strobe, address = None, [nss]
        lines = [PinLines(nss, Pin(pins["busy"], Pin.IN))]
    else:
        strobe = Pin(pins["strobe"], Pin.OUT, value=1)
        address = [Pin(n, Pin.OUT, value=0) for n in pins["address"]]
        bus = DecodedBus(address, strobe, Pin(pins["busy"], Pin.IN))
        lines = [bus.lines(i) for i in range(cfg.READERS)]
    led_pin = Pin(pins["leds"], Pin.OUT, value=0) if pins.get("leds") is not None else None
    modules = BoardModuleLines(clock, reset, strobe, address, led_pin, spi,
                               (pins["sck"], pins["mosi"], pins["miso"]), baud, nss)
    modules.pulse_reset()  # one pulse resets every reader on the shared RST line
    readers = [PN5180(spi, lines[i], clock, name=f"PN5180#{i}") for i in range(cfg.READERS)]

    if cfg.ANTENNAS is None:
        antennas = [Antenna(r) for r in readers]
    else:
        inhibit = pins.get("rf_mux_inhibit")
        mux = RfMux([Pin(n, Pin.OUT, value=0) for n in pins["rf_mux"]],
                    enable=None if inhibit is None else Pin(inhibit, Pin.OUT, value=1),
                    clock=clock)
        antennas = [Antenna(readers[r], ch, mux if ch is not None else NoMux())
                    for r, ch in cfg.ANTENNAS]

    leds = Leds(0)
    if led_pin is not None:
        import neopixel

        strip = neopixel.NeoPixel(led_pin, len(antennas))
        leds = NeoPixelLeds(strip, len(antennas), cfg.LED_MAX_LEVEL)

    hub_id = cfg.HUB_ID or unique_hub_id()
    port = UsbSerialPort(getattr(cfg, "USB_CHECK_ROOM", True))
    return Hub(hub_id, antennas, port, clock, leds, rate_hz=cfg.RATE_HZ,
               max_rate_hz=cfg.MAX_RATE_HZ, modules=modules, rail=rail_sense(cfg, pins))


def main(cfg):
    """Run forever; on an unexpected error, report it and restart the board after 2 s."""
    import machine

    hub = None
    try:
        hub = build(cfg)
        hub.run()
    except KeyboardInterrupt:
        raise  # mpremote / Thonny stopping the program to flash it
    except Exception as exc:
        # not printed: stdout is the protocol stream; the host sees this FAULT instead
        if hub is not None:
            from sekihub.drivers import ReaderFault

            hub.send_fault(None, ReaderFault("MEMORY" if isinstance(exc, MemoryError) else "BUS",
                                             "hub restarting after " + type(exc).__name__))
        else:  # the settings are wrong (e.g. SPI_BAUD): say so on the port, then retry
            import sys

            from sekihub.wire import clean_words, encode

            fields = ["HUB", "CONFIG"]
            fields.extend(clean_words(type(exc).__name__ + " " + str(exc)).split(" "))
            sys.stdout.write(encode("FAULT", 0, fields).decode())
        import time

        time.sleep_ms(2000)
        machine.reset()
