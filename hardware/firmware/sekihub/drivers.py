"""The hardware interface the hub core talks to, and nothing more.

The core (``hub.py``) never touches ``machine``: it is given objects with these methods. On the
board, ``board.py`` builds the real ones (PN5180 over SPI, a GPIO decoder, WS2812 LEDs, the USB
serial port); under CPython the tests hand it fakes. Each class here documents one contract
and gives harmless defaults; real drivers subclass or simply quack alike.
"""


class ReaderFault(Exception):
    """A reader front-end that does not answer or reports an error.

    ``code`` is the protocol's fault code (docs/protocol.md 4.3): ``NO_READER`` (the chip does
    not answer), ``ANTENNA`` (field or RF error), ``BUS`` (SPI trouble), ``OVERHEAT``;
    ``detail`` is free text for a person.
    """

    def __init__(self, code, detail=""):
        super().__init__(code + (": " + detail if detail else ""))
        self.code = code
        self.detail = detail


class InventoryResult:
    """What one antenna saw: the set of tag UIDs (ints) and whether the read was complete.

    ``complete`` is False when some slot stayed garbled after every retry allowed, so a tag
    may have been missed; the hub then keeps tags it saw before instead of dropping them.
    """

    def __init__(self, uids, complete=True, rounds=0):
        self.uids = uids
        self.complete = complete
        self.rounds = rounds


class Reader:
    """One 13.56 MHz reader chip. Every method may raise ReaderFault."""

    name = "reader"

    def reset(self):
        """Hardware/soft reset and basic set-up."""

    def identify(self):
        """A short text naming the chip and its firmware, read from the chip (self-test)."""
        return self.name

    def inventory(self, poll=None, quiet=()):
        """Switch the field on, list every tag in range, switch it off: an InventoryResult.

        ``poll``, if given, is called between inventory rounds so the hub can answer the host
        while a tall stack is being read. ``quiet`` (a quick read, protocol 1.3): UIDs told to
        stay quiet first, so only the others are listed.
        """
        return InventoryResult(set())

    def check_field(self):
        """Self-test: field on (raising ReaderFault if it does not come on), one one-slot
        probe, field off. True if any tag answered. Takes a few milliseconds."""
        return bool(self.inventory().uids)

    def rf_off(self):
        """Make sure the field is off (called after faults)."""


class ModuleLines:
    """The lines the hub shares with every reader module: one RST for all of them, and all
    else it drives into them (the NSS decoder, SPI, LED data). The default does nothing and
    cannot reset: a hub given it never tries a hard reset."""

    shared_reset = False  # True: pulse_reset really resets every reader

    def pulse_reset(self):
        """RST low, then high: every reader restarts; returns once they have booted."""

    def hold_low(self):
        """The module rail is down: every output to the modules low (RST too), no reader
        selected, SPI off, so no module is fed through its inputs."""

    def release(self):
        """The rail is back: SPI on, RST high, and the readers given time to boot."""


class RailSense:
    """The voltage of the 5 V rail that feeds the reader modules and LEDs."""

    def volts(self):
        """The rail's voltage now, or None when the board cannot tell (no sense pin)."""
        return None


class AntennaSelect:
    """Routes a reader to one of its antennas (an RF multiplexer); a no-op when one-to-one."""

    def select(self, channel):
        """Connect antenna ``channel`` (an int, or None for a reader with its own antenna)."""


class Leds:
    """One RGB LED per antenna position (location lights)."""

    def __init__(self, count=0):
        self.count = count

    def set(self, index, rgb):
        """Set LED ``index`` to ``rgb`` (a tuple of three 0-255 ints); shown on ``show()``."""

    def show(self):
        """Push the colours out to the LEDs."""


class Clock:
    """Milliseconds and microseconds, MicroPython's ``time.ticks_*`` style.

    Tests inject a fake whose ``sleep_*`` just advances the count, so nothing waits.
    """

    def ticks_ms(self):
        raise NotImplementedError

    def ticks_us(self):
        raise NotImplementedError

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        raise NotImplementedError

    def sleep_us(self, us):
        raise NotImplementedError


class Port:
    """The byte stream to the host (USB CDC serial)."""

    def read(self):
        """Whatever bytes have arrived, without blocking (b"" if none)."""
        return b""

    def write(self, data):
        """Send ``data`` (bytes)."""
