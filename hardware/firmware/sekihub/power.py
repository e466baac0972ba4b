"""Two watchdogs of the hub: the module rail, and readers that hang.

**The module rail.** The reader modules and LEDs run from a 5 V rail fed by the 12 V supply,
the hub's microcontroller from USB as well (through a diode). With the supply off or sagging,
outputs driven high into unpowered modules would feed them through their inputs. So while the
rail, read through a divider on an ADC pin, is below ``RAIL_LOW_V`` the hub holds every output
to the modules low and reports ``FAULT HUB POWER`` once a second; once it is back above
``RAIL_OK_V`` (the gap keeps a sagging rail from flickering the fault) the readers are reset
and set up again and scanning resumes.

**A hung reader.** A PN5180 that keeps BUSY high or stops answering on SPI comes back only
through its RST pin, which every reader of a hub shares. So when a reader that was working
stops answering, the hub pulses RST (restarting them all), sets them up again, says so
(``FAULT HUB RESET``) and scans on. At most once in ``RESET_GAP_MS``; each reset that does not
bring the reader back doubles the gap (to ``RESET_GAP_MAX_MS``), so a reader that has died for
good costs the others a few milliseconds now and then, not every second.
"""

RAIL_LOW_V = 4.3  # below this the modules' 3.3 V regulator drops out: the rail is down
RAIL_OK_V = 4.5  # ... and back above this it is up again
POWER_REPEAT_MS = 1000
RESET_GAP_MS = 10000
RESET_GAP_MAX_MS = 320000


class RailWatch:
    """The rail's state with hysteresis: ``update(volts)`` says ``"down"`` or ``"up"`` when it
    changes, else None."""

    def __init__(self):
        self.down = False

    def update(self, volts):
        if volts is None:
            return None
        if not self.down and volts < RAIL_LOW_V:
            self.down = True
            return "down"
        if self.down and volts >= RAIL_OK_V:
            self.down = False
            return "up"
        return None


def power_words(volts):
    """The free words of the POWER fault (docs/protocol.md 4.3)."""
    return f"module rail at {volts:.1f} V: check the 12 V supply"


class ResetGate:
    """When a hard reset (RST pulse) may happen: rate-limited, with a growing gap while the
    reader it was for stays dead."""

    def __init__(self, clock):
        self.clock = clock
        self.last_ms = None
        self.gap_ms = RESET_GAP_MS
        self.pending = None  # the antenna the last reset was for, until it reads again

    def allowed(self):
        return self.last_ms is None or \
            self.clock.ticks_diff(self.clock.ticks_ms(), self.last_ms) >= self.gap_ms

    def used(self, index):
        if self.pending is not None:  # the last one did not bring its reader back
            self.gap_ms = min(RESET_GAP_MAX_MS, self.gap_ms * 2)
        self.pending = index
        self.last_ms = self.clock.ticks_ms()

    def read_ok(self, index):
        if index == self.pending:
            self.pending = None
            self.gap_ms = RESET_GAP_MS
