"""Which reader talks, and which antenna a reader drives.

Pins are anything with MicroPython's ``Pin.value()`` / ``Pin.value(v)``.

Reference wiring (one PN5180 per antenna, up to 16 per hub on one SPI bus):

* ``DecodedBus``: four address pins A0-A3 feed both a 74HC154 4-to-16 decoder and a 74HC4067
  16-channel mux. The decoder's enable (G1 and G2 tied together) is the strobe: while it is
  low, output Yn (reader n's NSS) is low. The mux's common pin returns reader n's BUSY.
  Ten GPIOs drive 16 readers: SCK, MOSI, MISO, A0-A3, strobe, BUSY, RST.
* ``PinLines``: a reader with its own NSS and BUSY pins (fine for two or three readers).

For a build with one reader and an RF antenna multiplexer, ``RfMux`` sets the mux address.
"""

from sekihub.drivers import AntennaSelect


class PinLines:
    """A reader's own NSS (active low) and BUSY pins."""

    def __init__(self, nss, busy):
        self.nss = nss
        self.busy_pin = busy
        nss.value(1)

    def select(self):
        self.nss.value(0)

    def deselect(self):
        self.nss.value(1)

    def busy(self):
        return bool(self.busy_pin.value())


class DecodedBus:
    """Shared address lines to a 74HC154 (NSS) and a 74HC4067 (BUSY)."""

    def __init__(self, address_pins, strobe, busy):
        self.address_pins = address_pins
        self.strobe = strobe
        self.busy_pin = busy
        self.current = -1
        strobe.value(1)

    def address(self, index):
        if index != self.current:
            self.strobe.value(1)  # never glitch another reader's NSS while the address moves
            for bit, pin in enumerate(self.address_pins):
                pin.value((index >> bit) & 1)
            self.current = index

    def lines(self, index):
        """The select/busy lines of reader ``index`` (0-15)."""
        if not 0 <= index < (1 << len(self.address_pins)):
            raise ValueError("reader index out of range")
        return DecodedLines(self, index)


class DecodedLines:
    def __init__(self, bus, index):
        self.bus = bus
        self.index = index

    def select(self):
        self.bus.address(self.index)
        self.bus.strobe.value(0)

    def deselect(self):
        self.bus.strobe.value(1)

    def busy(self):
        self.bus.address(self.index)
        return bool(self.bus.busy_pin.value())


class NoMux(AntennaSelect):
    """A reader with exactly one antenna."""


class RfMux(AntennaSelect):
    """An RF multiplexer's address pins (relays or an analog switch per antenna) and, if wired,
    its decoder's INHIBIT (``enable``: high opens every relay).

    Break before make: INHIBIT high, ``break_us`` for the closed relay to open, the new
    address, INHIBIT low, ``settle_us`` for the new one to close and stop bouncing. Reed relays
    need about 1 ms to open and 2 ms to close and settle (hardware/README.md, the RF-mux
    option); an analog switch far less."""

    def __init__(self, address_pins, enable=None, clock=None, settle_us=2000, break_us=1000):
        self.address_pins = address_pins
        self.enable = enable
        self.clock = clock
        self.settle_us = settle_us
        self.break_us = break_us

    def select(self, channel):
        if channel is None:
            return
        if self.enable is not None:
            self.enable.value(1)  # break before make
            if self.clock is not None:
                self.clock.sleep_us(self.break_us)
        for bit, pin in enumerate(self.address_pins):
            pin.value((channel >> bit) & 1)
        if self.enable is not None:
            self.enable.value(0)
        if self.clock is not None:
            self.clock.sleep_us(self.settle_us)
