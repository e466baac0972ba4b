"""Builds the real hub on the board (MicroPython only): pins, SPI, PN5180s, LEDs, USB serial.

This is the one module that imports ``machine``, and only inside functions, so the rest of the
firmware (and this file) still imports under CPython for the tests.
"""

from sekihub.chipselect import DecodedBus, NoMux, PinLines, RfMux
from sekihub.drivers import Clock, Leds, Port
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
    spi = SPI(pins["spi_id"], baudrate=spi_baud(cfg), polarity=0, phase=0,
              sck=Pin(pins["sck"]), mosi=Pin(pins["mosi"]), miso=Pin(pins["miso"]))
    reset = Pin(pins["rst"], Pin.OUT, value=1)
    reset.value(0)  # one pulse resets every reader on the shared RST line
    clock.sleep_ms(1)
    reset.value(1)
    clock.sleep_ms(5)

    if cfg.READERS == 1 and pins.get("nss") is not None:
        lines = [PinLines(Pin(pins["nss"], Pin.OUT, value=1), Pin(pins["busy"], Pin.IN))]
    else:
        bus = DecodedBus([Pin(n, Pin.OUT, value=0) for n in pins["address"]],
                         Pin(pins["strobe"], Pin.OUT, value=1), Pin(pins["busy"], Pin.IN))
        lines = [bus.lines(i) for i in range(cfg.READERS)]
    readers = [PN5180(spi, lines[i], clock, name=f"PN5180#{i}") for i in range(cfg.READERS)]

    if cfg.ANTENNAS is None:
        antennas = [Antenna(r) for r in readers]
    else:
        mux = RfMux([Pin(n, Pin.OUT, value=0) for n in pins["rf_mux"]], clock=clock)
        antennas = [Antenna(readers[r], ch, mux if ch is not None else NoMux())
                    for r, ch in cfg.ANTENNAS]

    leds = Leds(0)
    if pins.get("leds") is not None:
        import neopixel

        strip = neopixel.NeoPixel(Pin(pins["leds"], Pin.OUT), len(antennas))
        leds = NeoPixelLeds(strip, len(antennas), cfg.LED_MAX_LEVEL)

    hub_id = cfg.HUB_ID or unique_hub_id()
    port = UsbSerialPort(getattr(cfg, "USB_CHECK_ROOM", True))
    return Hub(hub_id, antennas, port, clock, leds, rate_hz=cfg.RATE_HZ,
               max_rate_hz=cfg.MAX_RATE_HZ)


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
