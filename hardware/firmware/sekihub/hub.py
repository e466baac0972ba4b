"""The hub: scan every antenna in turn, report snapshots and faults, obey the host.

Everything here talks to hardware only through ``drivers`` objects, so it runs unchanged under
CPython with fakes (tests/hardware). ``Hub.step()`` does one small piece of work and returns;
``Hub.run()`` loops over it forever. Nothing in it raises on bad input: every host line gets an
ACK or a NAK (or, if not even its sequence number can be read, is counted and dropped), and a
reader that misbehaves is reported with FAULT and retried once a second.

A reader that hangs is brought back by a pulse on the readers' shared RST line, and while
the modules' rail is down nothing is driven into them (``power.py``).

From protocol 1.3 (after the host's first ``FOCUS``) the hub reads the focused antennas first
and does quick reads (``focus.py``), each snapshot's last part saying the read's time and kind.
"""

from sekihub import FIRMWARE_VERSION
from sekihub.drivers import AntennaSelect, Leds, ModuleLines, RailSense, ReaderFault
from sekihub.focus import FULL, WATCH, FocusOrder, read_kind
from sekihub.iso15693 import uid_hex
from sekihub.power import POWER_REPEAT_MS, RailWatch, ResetGate, power_words
from sekihub.slots import SlotClock
from sekihub.wire import (
    LED_MODES,
    MAX_RATE_HZ,
    PROTOCOL_VERSION,
    LineReader,
    WireError,
    antenna_name,
    clean_words,
    encode,
    is_token,
    parse_antenna,
    parse_focus,
    parse_line,
    parse_rate,
    parse_schedule,
    parse_sync,
    read_fields,
    snapshot_parts,
)

BEAT_AFTER_MS = 1000
FAULT_REPEAT_MS = 1000
BLINK_HALF_PERIOD_MS = 250  # BLINK: 2 Hz
FAST_HALF_PERIOD_MS = 62  # FAST: 8 Hz
WATCH_GUESS_MS = 10  # a first watch read (one masked probe, about 8 ms at 250 us/instr)
SELFTEST_MS = 12  # one antenna's self-test (reset, identity, field on, a probe), estimated

DEFAULT_COLOURS = {"ON": (0, 255, 0), "BLINK": (255, 160, 0), "FAST": (255, 0, 0)}


class Antenna:
    """One scan position: a reader and (for an RF-multiplexed reader) its channel."""

    def __init__(self, reader, channel=None, selector=None):
        self.reader = reader
        self.channel = channel
        self.selector = selector if selector is not None else AntennaSelect()
        self.present = set()  # UIDs (ints) last reported
        self.fault = None  # the ReaderFault while faulted
        self.fault_sent_ms = None
        self.retry_ms = None
        self.collided_ms = None  # when an unbroken run of RF collisions began
        self.collisions = 0  # RF collisions that cost this antenna a scan, ever
        self.scan_ms = 0  # how long its last inventory took (the schedule's fit check)
        self.full_ms = 0  # how long its last full read took
        self.quick_ms = 0  # ... its last quick read
        self.watch_ms = 0  # ... its last watch read
        self.quick_run = 0  # quick reads since its last full one
        self.found_new = False  # its last read found a tag the one before had not listed
        self.worked = False  # it has read once: a reader that then stops answering is hung


class Hub:
    """The firmware's logic. ``port``, ``clock``, ``leds``, the readers, ``modules`` (the lines
    shared with the reader modules, RST among them) and ``rail`` (the modules' supply) are
    drivers."""

    def __init__(self, hub_id, antennas, port, clock, leds=None, rate_hz=10,
                 max_rate_hz=MAX_RATE_HZ, colours=None, firmware=FIRMWARE_VERSION,
                 modules=None, rail=None):
        self.hub_id = hub_id
        self.antennas = antennas
        self.port = port
        self.clock = clock
        self.leds = leds if leds is not None else Leds(0)
        self.rate_hz = rate_hz
        self.max_rate_hz = max_rate_hz
        self.colours = colours if colours is not None else DEFAULT_COLOURS
        self.firmware = firmware
        self.seq = 0
        self.lines = LineReader()
        self.rejected = 0  # host lines dropped without a reply (no readable sequence number)
        self.dropped = 0  # frames the port could not take
        self.led_modes = ["OFF"] * len(antennas)
        self.led_shown = [None] * len(antennas)
        self.selftest_pending = False
        self.selftest_todo = []  # antennas still to self-test (each waits for its slot)
        self.next_antenna = 0
        self.cycle_start_ms = None
        self.last_sent_ms = None
        self.was_connected = None
        self.started = False
        self.schedule = None  # a SlotClock once the host sent SCHED (protocol 1.1, 1.2)
        self.scanning = False  # inside an inventory: a SYNC read now is stale
        self.syncs_late = 0  # SYNCs read too late to time slots by (acknowledged, not used)
        self.focused = False  # a FOCUS came since the last HELLO: 1.3 reads (5.2)
        self.focus = []  # the focused antennas, in the host's order
        self.focus_full = set()  # those marked '!': always read in full
        self.want = []  # UIDs of the blocks in hand: focused antennas are watched for them
        self.order = FocusOrder(len(antennas), clock)
        self.modules = modules if modules is not None else ModuleLines()
        self.rail = rail if rail is not None else RailSense()
        self.rail_watch = RailWatch()
        self.power_sent_ms = None
        self.resets = ResetGate(clock)
        self.hard_resets = 0

    # ------------------------------------------------------------------ sending

    def now(self):
        return self.clock.ticks_ms()

    def since(self, then):
        return self.clock.ticks_diff(self.now(), then)

    def send(self, kind, fields=()):
        """Frame and write one line; the sequence number advances even if the port drops it."""
        line = encode(kind, self.seq, fields)
        self.seq = (self.seq + 1) & 0xFFFF
        self.last_sent_ms = self.now()
        try:
            self.port.write(line)
        except Exception:  # a full or closed port drops the frame, never blocks
            self.dropped += 1

    def send_hello(self):
        self.focused = False  # a host that has not sent FOCUS since expects 1.2 snapshots
        self.set_focus([], set())
        self.send("HELLO", ("hub=" + self.hub_id, "fw=" + self.firmware,
                            "proto=" + PROTOCOL_VERSION, f"antennas={len(self.antennas)}",
                            f"rate={self.rate_hz}"))

    def send_fault(self, index, fault):
        where = "HUB" if index is None else antenna_name(index)
        code = fault.code if is_token(fault.code) else "BUS"
        detail = clean_words(fault.detail)
        self.send("FAULT", [where, code] + (detail.split(" ") if detail else []))

    def send_snapshot(self, index, uids, read_ms=None, full=True):
        """The snapshot's parts; after FOCUS (1.3) the last one says ``ms=`` and ``read=``."""
        parts = snapshot_parts([uid_hex(u) for u in uids])
        if parts is None:
            fault = ReaderFault("OVERFLOW", f"{len(uids)} tags, more than a SNAP holds")
            self.send_fault(index, fault)
            return
        for n, field in enumerate(parts):
            fields = [antenna_name(index), f"{n + 1}/{len(parts)}", field]
            if self.focused and read_ms is not None and n + 1 == len(parts):
                fields.extend(read_fields(read_ms, full))
            self.send("SNAP", fields)

    # ------------------------------------------------------------------ main loop

    def start(self):
        """Reset every reader (reporting faults) and announce the hub."""
        self.started = True
        self.send_hello()
        if self.check_rail():
            return  # the readers are set up once the rail is back
        self.init_readers()
        self.apply_leds(force=True)

    def init_readers(self):
        """Set every reader up (after power-up or RST); one that fails is marked faulted,
        reported (FAULT) for each of its antennas on its next scan, and retried then."""
        done = []
        for ant in self.antennas:
            if ant.reader in done:
                continue
            done.append(ant.reader)
            fault = None
            try:
                ant.reader.reset()
            except Exception as exc:
                fault = _as_fault(exc)
            for other in self.antennas:
                if other.reader is ant.reader and (fault is not None or other.fault is not None):
                    other.fault = fault or other.fault
                    other.retry_ms = None  # tried again at its next scan, not a second later

    def step(self):
        """One slice of work: host input, LEDs, at most one antenna scan, heartbeat."""
        if not self.started:
            self.start()
        self.check_connection()
        self.service_host()
        if self.check_rail():
            self.selftest_pending = False
            self.selftest_todo = []
        else:
            self.work()
        if self.last_sent_ms is None or self.since(self.last_sent_ms) >= BEAT_AFTER_MS:
            self.send("BEAT")

    def work(self):
        """LEDs, then a self-test or at most one antenna scan."""
        self.apply_leds()
        if self.selftest_pending:
            self.selftest_pending = False
            self.selftest_todo = list(range(len(self.antennas)))
        if self.selftest_todo:
            self.run_selftest()
        elif self.scan_due():
            self.scan_next()

    def check_rail(self):
        """Whether the module rail is down (see ``power.py``): on the way down every output
        to the modules goes low; while down ``FAULT HUB POWER`` goes once a second (and a
        SELFTEST fails every antenna); on the way up the readers are reset and set up again."""
        volts = self.rail.volts()
        change = self.rail_watch.update(volts)
        if change == "down":
            self.modules.hold_low()
            self.power_sent_ms = None
        elif change == "up":
            self.modules.release()
            self.modules.pulse_reset()
            self.init_readers()
            self.apply_leds(force=True)  # the LEDs lost their colours with their power
        if not self.rail_watch.down:
            return False
        if self.power_sent_ms is None or self.since(self.power_sent_ms) >= POWER_REPEAT_MS:
            self.power_sent_ms = self.now()
            self.send_fault(None, ReaderFault("POWER", power_words(volts)))
        if self.selftest_pending or self.selftest_todo:
            for index in range(len(self.antennas)):
                self.send_test(index, "FAIL", "POWER " + power_words(volts))
        return True

    def run(self):
        while True:
            self.step()
            if not self.scan_due():
                self.clock.sleep_ms(1)

    def check_connection(self):
        """HELLO again when the host opens the port, if the port can tell (DTR)."""
        connected = getattr(self.port, "connected", None)
        if connected is None:
            return
        now = bool(connected())
        if now and self.was_connected is False:
            self.send_hello()
        self.was_connected = now

    # ------------------------------------------------------------------ scanning

    def scheduled(self):
        return self.schedule is not None and self.schedule.synced

    def read_kind(self, index):
        """Antenna ``index``'s next read: ``FULL`` always before FOCUS and while the focus is
        empty (nothing in hand: every read must see blocks leave), else by 5.2 (``read_kind``
        of focus.py)."""
        return read_kind(self.antennas[index], self.focused and bool(self.focus),
                         index in self.focus, index in self.focus_full, bool(self.want))

    def expected_ms(self):
        """Each antenna's next read time as its last read of the same kind took (0: unknown):
        a stack read in full before the focus must not be judged by that read when it is
        next only watched, or it would never fit its window."""
        out = []
        for i, a in enumerate(self.antennas):
            kind = self.read_kind(i)
            if kind == FULL:
                out.append(a.full_ms or a.scan_ms)
            elif kind == WATCH:
                out.append(a.watch_ms or WATCH_GUESS_MS)
            else:  # a focused one's first quick read is tried: its time is then known
                out.append(a.quick_ms or (1 if i in self.focus else a.scan_ms))
        return out

    def scan_due(self):
        if self.scheduled():
            return self.schedule.pick(self.expected_ms()) is not None
        if self.focus:
            return self.order.pick(1000 // self.rate_hz) is not None
        if self.next_antenna > 0 or self.cycle_start_ms is None:
            return True
        return self.since(self.cycle_start_ms) >= 1000 // self.rate_hz

    def scan_next(self):
        if self.scheduled():
            index = self.schedule.pick(self.expected_ms())
            if index is not None:
                self.scan_antenna(index)
                self.schedule.done(index)
            return
        if self.focus:
            index = self.order.pick(1000 // self.rate_hz)
            if index is not None:
                self.order.take(index)
                self.scan_antenna(index)
            return
        index = self.next_antenna
        if index == 0:
            self.cycle_start_ms = self.now()
        self.next_antenna = (index + 1) % len(self.antennas)
        self.scan_antenna(index)

    def scan_antenna(self, index):
        ant = self.antennas[index]
        if ant.fault is not None and ant.retry_ms is not None \
                and self.since(ant.retry_ms) < FAULT_REPEAT_MS:
            return  # a faulted reader is retried once a second, not every cycle
        try:
            if ant.fault is not None:
                ant.retry_ms = self.now()
                ant.reader.reset()
            ant.selector.select(ant.channel)
            kind = self.read_kind(index)
            full, watched = kind == FULL, kind == WATCH
            quiet = () if full else sorted(ant.present)
            started = self.now()
            self.scanning = True
            try:
                if watched:
                    result = ant.reader.watch([u for u in self.want if u not in ant.present])
                else:
                    result = ant.reader.inventory(self.service_host, quiet)
            finally:
                self.service_host()  # whatever came in during the inventory is read as stale
                self.scanning = False
            ant.scan_ms = self.since(started)
            ant.worked = True
            self.resets.read_ok(index)
        except Exception as exc:  # any driver failure becomes a FAULT
            fault = _as_fault(exc)
            if fault.code == "RF_COLLISION":
                self.note_collision(index, fault)
            else:
                self.note_fault(index, fault)
            return
        ant.fault = None
        ant.fault_sent_ms = None
        ant.retry_ms = None
        ant.collided_ms = None
        found = set(result.uids)
        ant.found_new = bool(found - ant.present) or (watched and not result.complete)
        full = full and result.complete
        if not full:
            # a quick read lists the tags it told to stay quiet; a partial read keeps what was
            # there (it never drops a tag): either way a listed tag may have left, read=quick
            found |= ant.present
        if full:
            ant.quick_run = 0
            ant.full_ms = ant.scan_ms
        elif watched:  # a watch read does not count towards the every-fourth full one
            ant.watch_ms = ant.scan_ms
        else:
            ant.quick_run += 1
            ant.quick_ms = ant.scan_ms
        ant.present = found
        self.send_snapshot(index, found, ant.scan_ms, full)

    def note_collision(self, index, fault):
        """Another reader's field kept this one off even after the driver's quick retries.

        Not a fault yet: the antenna skips this cycle's snapshot (the host keeps its tags) and
        is tried again next cycle, not a second later. Only when it has collided for
        ``FAULT_REPEAT_MS`` without a break is it reported (``FAULT Axx RF_COLLISION``, once a
        second): persistent cross-talk the builder should see in diagnostics.
        """
        ant = self.antennas[index]
        ant.collisions += 1
        if ant.collided_ms is None:
            ant.collided_ms = self.now()
            return
        if self.since(ant.collided_ms) < FAULT_REPEAT_MS:
            return
        if ant.fault_sent_ms is None or self.since(ant.fault_sent_ms) >= FAULT_REPEAT_MS:
            ant.fault_sent_ms = self.now()
            self.send_fault(index, ReaderFault(
                "RF_COLLISION", f"{ant.collisions} scans lost to a neighbouring field"))

    def note_fault(self, index, fault):
        ant = self.antennas[index]
        ant.fault = fault
        if ant.retry_ms is None:
            ant.retry_ms = self.now()
        if ant.fault_sent_ms is None or self.since(ant.fault_sent_ms) >= FAULT_REPEAT_MS:
            ant.fault_sent_ms = self.now()
            self.send_fault(index, fault)
        if fault.code == "NO_READER" and ant.worked and self.modules.shared_reset \
                and self.resets.allowed():
            self.hard_reset(index, fault)

    def hard_reset(self, index, fault):
        """A reader that worked hangs (BUSY stuck, or no answer): pulse the shared RST, set
        every reader up again, say so, scan on (``power.py``)."""
        self.resets.used(index)
        self.hard_resets += 1
        self.modules.pulse_reset()
        self.init_readers()
        self.send_fault(None, ReaderFault(
            "RESET", f"every reader reset through RST: {antenna_name(index)} {fault.detail}"))

    def run_selftest(self):
        """One TEST line per antenna: the chip answers (identity read from its EEPROM), its field
        comes on, and whether any tag answered a probe. A few ms per antenna, so 16 antennas
        report well within the protocol's 2 s; host commands are read between antennas.

        With a slot table, an antenna's self-test switches its field on only inside its own
        slot's window (as a scan would), so it never meets a neighbour's slot: the antennas
        whose slot is not now wait for it (all are done within one cycle)."""
        for index in list(self.selftest_todo):
            if self.scheduled() and not self.schedule.fits(index, SELFTEST_MS):
                continue
            self.selftest_todo.remove(index)
            self.test_antenna(index)
            self.service_host()
        if not self.selftest_todo:
            self.next_antenna = 0
            self.cycle_start_ms = None

    def test_antenna(self, index):
        """Self-test one antenna and send its TEST line."""
        ant = self.antennas[index]
        try:
            ant.reader.reset()
            ident = ant.reader.identify()
            ant.selector.select(ant.channel)
            answered = ant.reader.check_field()
        except Exception as exc:  # a failing reader is the test's answer
            fault = _as_fault(exc)
            self.send_test(index, "FAIL", fault.code + " " + fault.detail)
        else:
            tags = "yes" if answered else "no"
            self.send_test(index, "PASS", f"{ident} field=ok tags={tags}")

    def send_test(self, index, outcome, text):
        fields = [antenna_name(index), outcome]
        fields.extend(clean_words(text).split(" "))
        self.send("TEST", fields)

    # ------------------------------------------------------------------ host commands

    def service_host(self):
        """Read whatever the host sent and carry out every complete command line."""
        try:
            data = self.port.read()
        except Exception:  # a port error reads as no input
            data = b""
        if not data:
            return
        for line in self.lines.feed(data):
            self.handle_line(line)

    def handle_line(self, line):
        try:
            parsed = parse_line(line)
            if parsed is None:
                return
            seq, kind, fields = parsed
            try:
                self.execute(seq, kind, fields)
            except WireError as err:
                self.send("NAK", (str(seq), err.reason))
        except WireError as err:
            if err.command_seq is None:
                self.rejected += 1
            else:
                self.send("NAK", (str(err.command_seq), err.reason))
        except Exception:  # never crash on input
            self.rejected += 1

    def execute(self, seq, kind, fields):
        ack = (str(seq),)
        if kind == "PING":
            if len(fields) != 1 or not is_token(fields[0]):
                raise WireError("BAD_FRAME")
            self.send("PONG", (fields[0],))
            self.send("ACK", ack)
        elif kind == "WHO":
            _arity(fields, 0)
            self.send("ACK", ack)
            self.send_hello()
        elif kind == "RATE":
            _arity(fields, 1)
            self.rate_hz = parse_rate(fields[0], self.max_rate_hz)
            if self.schedule is not None:
                self.schedule.set_rate(self.rate_hz)
            self.send("ACK", ack)
        elif kind == "SCHED":
            count, lengths, guard, slots = parse_schedule(fields, len(self.antennas))
            old = self.schedule
            self.schedule = SlotClock(self.clock, count, lengths, guard, slots)
            self.schedule.set_focus(self.focus)
            if old is not None and old.synced:  # a new table mid-run keeps the slot clock
                self.schedule.follow(old)
            self.schedule.set_rate(self.rate_hz)
            self.send("ACK", ack)
        elif kind == "SYNC":
            if self.schedule is None:
                raise WireError("BAD_VALUE")  # no SCHED yet (the hub was reset): nothing to time
            slot, offset = parse_sync(fields, self.schedule.count)
            if self.scanning:
                self.syncs_late += 1  # it waited an unknown part of an inventory in the buffer
            else:
                self.schedule.sync(slot, offset)
            self.send("ACK", ack)
        elif kind == "FOCUS":
            order, full, want = parse_focus(fields, len(self.antennas))
            self.focused = True
            self.set_focus(order, full, want)
            self.send("ACK", ack)
        elif kind == "LED":
            _arity(fields, 2)
            mode = fields[1]
            targets = (range(len(self.antennas)) if fields[0] == "ALL"
                       else [parse_antenna(fields[0], len(self.antennas))])
            if mode not in LED_MODES:
                raise WireError("BAD_VALUE")
            for index in targets:
                self.led_modes[index] = mode
            self.apply_leds()
            self.send("ACK", ack)
        elif kind == "SELFTEST":
            _arity(fields, 0)
            self.send("ACK", ack)
            self.selftest_pending = True
        else:
            raise WireError("UNKNOWN_COMMAND")

    def set_focus(self, order, full, want=()):
        self.focus = order
        self.focus_full = full
        self.want = list(want)
        self.order.set(order)
        if self.schedule is not None:
            self.schedule.set_focus(order)

    # ------------------------------------------------------------------ LEDs

    def apply_leds(self, force=False):
        now = self.now()
        changed = False
        for index in range(min(len(self.led_modes), self.leds.count)):
            mode = self.led_modes[index]
            lit = mode == "ON"
            if mode == "BLINK":
                lit = (now // BLINK_HALF_PERIOD_MS) % 2 == 0
            elif mode == "FAST":
                lit = (now // FAST_HALF_PERIOD_MS) % 2 == 0
            rgb = self.colours.get(mode, (255, 255, 255)) if lit else (0, 0, 0)
            if force or rgb != self.led_shown[index]:
                self.leds.set(index, rgb)
                self.led_shown[index] = rgb
                changed = True
        if changed:
            self.leds.show()


def _arity(fields, n):
    if len(fields) != n:
        raise WireError("BAD_FRAME")


def _as_fault(exc):
    if isinstance(exc, ReaderFault):
        return exc
    return ReaderFault("BUS", f"{type(exc).__name__} {exc}")
