"""A virtual reader hub that speaks the real protocol on a pseudo-terminal.

The bridge opens :attr:`VirtualHub.path` (or the stable symlink :attr:`VirtualHub.link`, the way a
udev rule gives real hubs a stable name) with pyserial exactly as it opens a USB hub. It answers
commands, and can be told to misbehave: flicker, cross-talk, garbage bytes, corrupted or
truncated frames, sequence gaps, reader faults, silence, and being unplugged and plugged in again
(a new pty, a new path, the symlink follows, sequence numbers restart at 0 as after a power
cycle). It announces protocol 1.3 and takes ``FOCUS`` (docs/protocol.md 5.2): once it has had
one since its ``HELLO``, every snapshot's last part says the read's time and kind (``ms=``,
``read=``).

**Plain** (the default, fast for tests): every ``1/rate_hz`` s the hub sends one ``SNAP`` per
antenna at once (the focused ones first), every read full and untimed (``read=full`` without
``ms=``: it takes no time); ``SCHED`` and ``SYNC`` are acknowledged and ignored.

**Time model** (``time_model=True``, what the benchmarks use): the hub reads one antenna at a
time, as a real hub drives one field at a time, each read lasting what the one computed model
says (:func:`firmware_bridge.airtime.read_ms` for a full read, :func:`~firmware_bridge.airtime.
quick_read_ms` for a quick one, :func:`~firmware_bridge.airtime.watch_read_ms` for a watch, at
``instr_us`` per SPI instruction), and sends its ``SNAP``
when the read ends. It keeps the schedule the host sends (``SCHED``/``SYNC``, 5.1: a field is
on only inside its slot's window; a ``SYNC`` that arrives during a read is not used, as on the
firmware) and, once focused, reads the focused antennas first and does quick reads by the rules
of 5.2 (:mod:`firmware_bridge.simslots` keeps the order). A read lists the tags in the field
when its field came on: a tag set down during a read is seen by the next one, and one lifted
during a read is still listed by it (it had answered). The time the hub takes between reads
(sending the SNAP, reading the host's lines: the only time a ``SYNC`` can be used while it reads
back to back) is ``gap_ms``, an estimate, 0 unless given. Not modelled: RF collisions between
neighbours, a ``SELFTEST`` keeping to the slots (its ``TEST`` lines come at once).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import protocol as p
from firmware_bridge.airtime import quick_read_ms, read_ms, watch_read_ms
from firmware_bridge.simslots import FreeRun, SlotClock

log = logging.getLogger(__name__)

FrameObserver = Callable[[str, int, p.Message, float], None]
"""Called as (hub id, seq, message, time on the hub's clock: monotonic unless a test gave another)
after each frame the hub wrote."""


@dataclass
class Mischief:
    """What the hub does wrong, set from the console or a test. Probabilities are per frame/tag."""

    flicker: float = 0.0
    """Chance that a present tag is missing from a snapshot (a missed inventory)."""
    flicker_run: int = 1
    """The most consecutive snapshots a flickering tag is missing from."""
    crosstalk: dict[int, int] = field(default_factory=dict)
    """antenna -> neighbour antenna that also reports its tags."""
    crosstalk_chance: float = 1.0
    corrupt_frames: int = 0
    truncate_frames: int = 0
    skip_sequence: int = 0
    duplicate_frames: int = 0
    """Send each of the next N frames twice (a USB stack repeating a packet)."""
    garbage_bytes: int = 0
    faults: dict[int, str] = field(default_factory=dict)
    silent: bool = False


CATCH_UP_MS = 1000.0
"""A time-model hub whose thread was kept from running this long (a loaded machine) starts its
next read now rather than replay the reads it missed."""

TICK_MS = 1e-6
"""Times closer than this are one moment (the hub's times go through seconds and back)."""

QUICK_RUN = 3
"""A read is full after this many quick ones in a row (docs/protocol.md 5.2)."""
WATCH_GUESS_MS = 10.0
"""What a first watch read is taken to need when judging whether it fits a window (one
masked probe: about 8 ms at 250 us per SPI instruction, computed); the firmware's twin is
``sekihub.hub.WATCH_GUESS_MS``."""


@dataclass
class Read:
    """A time-model read in progress: the antenna, field on and off (hub ms), what it lists."""

    antenna: int
    start: float
    end: float
    uids: set[str]
    full: bool
    fault: str | None = None

    @property
    def ms(self) -> float:
        return self.end - self.start


class VirtualHub:
    """One simulated hub on its own pseudo-terminal. ``clock`` (monotonic seconds) is the
    hub's clock: the time model's slots and reads run on it (tests inject one and drive
    :meth:`service` themselves)."""

    def __init__(
        self,
        hub_id: str,
        antennas: int = 16,
        rate_hz: int = 10,
        link: Path | None = None,
        firmware: str = "sim-1.0",
        seed: int | None = None,
        on_frame: FrameObserver | None = None,
        time_model: bool = False,
        instr_us: float = 250.0,
        clock: Callable[[], float] = time.monotonic,
        gap_ms: float = 0.0,
    ) -> None:
        self.hub_id = hub_id
        self.antennas = antennas
        self.rate_hz = rate_hz
        self.link = link
        self.firmware = firmware
        self.on_frame = on_frame
        self.mischief = Mischief()
        self.protocol = (p.PROTOCOL_MAJOR, p.PROTOCOL_MINOR)
        self.dropouts = 0
        self._missed: dict[tuple[int, str], int] = {}
        self.leds: dict[int, p.LedMode] = {}
        self.commands_received: list[p.HostCommand] = []
        self.frames_dropped = 0
        self._tags: dict[int, set[str]] = {a: set() for a in range(antennas)}
        self._overheard: dict[int, list[tuple[VirtualHub, int]]] = {}
        self._odds: dict[str, float] = {}
        """uid -> chance an inventory reads it (1 unless set: see readmodel.py, a model)."""
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._seq = 0
        self._sent: int | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self.path: str | None = None
        self._splitter = p.LineSplitter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self.time_model = time_model
        self.instr_us = instr_us
        self.clock = clock
        self.gap_ms = gap_ms
        """Time model: how long the hub takes between two reads (sending the SNAP, reading the
        host's lines), not part of the air-time model; a SYNC that arrives then is used."""
        self.reads: deque[Read] = deque(maxlen=4096)
        """Time model: every read finished so far (for tests; cleared at will)."""
        self.syncs_late = 0
        """SYNCs that arrived during a read and were not used (as on the firmware)."""
        self._next_scan: float | None = None
        self._reset_reading()

    def _reset_reading(self) -> None:
        """What a reset forgets: the schedule, the focus, the reads' history."""
        self.focus: p.Focus | None = None
        """The last FOCUS since HELLO (None: none yet, so no 1.3 reporting)."""
        self.slots: SlotClock | None = None
        self._free = FreeRun(self.antennas, self.rate_hz)
        self._reading: Read | None = None
        self._free_at = float("-inf")
        """(hub ms) When the hub is done with the last read's SNAP (``gap_ms`` after it)."""
        self._listed: dict[int, set[str]] = {}
        self._quick_run: dict[int, int] = {}
        self._newcomer: dict[int, bool] = {}
        self._last_ms = [0.0] * self.antennas
        self._kind_ms: dict[tuple[int, str], float] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def port(self) -> str:
        """The name to open: the stable symlink if there is one, else the pty path."""
        if self.link is not None:
            return str(self.link)
        if self.path is None:
            raise RuntimeError(f"hub {self.hub_id} is unplugged")
        return self.path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def sent_seq(self) -> int | None:
        """The sequence number of the last frame written whole to the line (None: none since
        it was plugged in)."""
        with self._lock:
            return self._sent

    def start(self, thread: bool = True) -> VirtualHub:
        """Plug the hub in and run it; ``thread`` False: plugged in, but driven by the caller's
        :meth:`service` calls (tests with an injected clock)."""
        self._plug()
        if thread:
            self._thread = threading.Thread(target=self._run, name=f"sim-{self.hub_id}",
                                            daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self._unplug_locked()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> VirtualHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self) -> None:
        """Pull the USB cable: the pty disappears, the bridge's reads fail."""
        with self._lock:
            self._unplug_locked()

    def replug(self) -> None:
        """Plug it back in: a fresh pty (new path), a rebooted hub (seq 0, LEDs off, HELLO)."""
        with self._lock:
            self._unplug_locked()
            self._plug()
        os.write(self._wake_w, b"x")

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        self._seq, self._sent = 0, None
        self.leds.clear()
        self._reset_reading()
        self._splitter = p.LineSplitter()
        if self.link is not None:
            tmp = self.link.with_name(f".{self.link.name}.tmp")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self.path)
            os.replace(tmp, self.link)
        self._send(self._hello())

    def _unplug_locked(self) -> None:
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self.path = None

    # ------------------------------------------------------------------ the table

    def place(self, antenna: int, uid: str) -> None:
        with self._lock:
            self._tags[antenna].add(uid)

    def remove(self, antenna: int, uid: str) -> None:
        with self._lock:
            self._tags[antenna].discard(uid)

    def remove_everywhere(self, uid: str) -> None:
        with self._lock:
            for tags in self._tags.values():
                tags.discard(uid)
            self._odds.pop(uid, None)

    def set_read_chance(self, uid: str, chance: float) -> None:
        """Each inventory reads ``uid`` with this probability (a stack at the edge of range)."""
        with self._lock:
            self._odds[uid] = chance

    def tags(self, antenna: int) -> set[str]:
        with self._lock:
            return set(self._tags[antenna])

    def overhear(self, antenna: int, source: VirtualHub, source_antenna: int) -> None:
        """Cross-talk across hubs: ``antenna`` also reports the tags on ``source``'s antenna
        (with the mischief's ``crosstalk_chance`` per scan), as a neighbour's field would."""
        with self._lock:
            self._overheard.setdefault(antenna, []).append((source, source_antenna))

    def clear_crosstalk(self) -> None:
        with self._lock:
            self.mischief.crosstalk.clear()
            self._overheard.clear()

    def write_raw(self, data: bytes) -> bool:
        """Write arbitrary bytes on the line, between frames (for fuzzing)."""
        with self._lock:
            return self._write(data)

    def send(self, message: p.Message) -> None:
        """Send one frame now, with the next sequence number (e.g. a hub-level FAULT)."""
        with self._lock:
            self._send(message)

    def inject_garbage(self, count: int) -> None:
        with self._lock:
            self.mischief.garbage_bytes += count

    # ------------------------------------------------------------------ the hub's loop

    def _run(self) -> None:
        while not self._stop.is_set():
            due = self.service()
            timeout = max(0.0, due - self.clock())
            fds = [self._wake_r] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], timeout)
            except (OSError, ValueError):  # the master was closed under us by unplug()
                ready = []
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
            master = self._master
            if master is not None and master in ready:
                self._read_commands(master)

    def service(self, now: float | None = None) -> float:
        """Do what is due at ``now`` (default: the hub's clock): a plain hub's scan, a time-model
        hub's reads that ended (their SNAPs) and the next read started. Returns when the next
        thing is due, on the same clock. The hub's own thread calls it; a test driving a hub
        started without one calls it with its own clock's times."""
        now = self.clock() if now is None else now
        if not self.time_model:
            with self._lock:
                return self._service_plain(now)
        foreign = self._foreign_tags()
        with self._lock:
            return self._service_timed(now * 1000.0, foreign) / 1000.0

    def _service_plain(self, now: float) -> float:
        period = 1.0 / self.rate_hz
        if self._next_scan is None:
            self._next_scan = now
        if now >= self._next_scan:
            self._scan()
            self._next_scan = max(self._next_scan + period, now - period)
        return self._next_scan

    def command(self, message: p.HostCommand, seq: int = 0) -> None:
        """Take ``message`` as if the host had sent it (for tests driving a hub)."""
        with self._lock:
            self._command(p.encode(message, seq).rstrip(b"\n"))

    def _read_commands(self, master: int) -> None:
        try:
            data = os.read(master, 4096)
        except OSError:
            return
        with self._lock:
            for line in self._splitter.feed(data):
                self._command(line)

    def _command(self, line: bytes) -> None:
        try:
            frame = p.decode_line(line)
        except p.ProtocolError as exc:
            if exc.reason != "empty":
                fields = line.split(b" ")
                seq = fields[1].decode() if len(fields) > 1 and fields[1].isdigit() else "0"
                why = "BAD_CHECKSUM" if exc.reason == "bad_checksum" else "BAD_FRAME"
                self._send(p.Nak(int(seq) % p.SEQ_MODULO, why))
            return
        msg = frame.message
        known: tuple[type, ...] = (p.Ping, p.Who, p.SetRate, p.SetLed, p.SelfTest)
        if self.protocol >= (1, 1):  # a 1.0 hub does not know the schedule's commands
            known += (p.Schedule, p.Sync)
        if self.protocol >= (1, 3):
            known += (p.Focus,)
        if not isinstance(msg, p.HostCommand) or not isinstance(msg, known):
            self._send(p.Nak(frame.seq, "UNKNOWN_COMMAND"))
            return
        self.commands_received.append(msg)
        if ((isinstance(msg, p.SetLed) and msg.antenna is not None
             and msg.antenna >= self.antennas)
                or (isinstance(msg, p.Focus) and any(a >= self.antennas for a in msg.antennas))):
            self._send(p.Nak(frame.seq, "BAD_ANTENNA"))
            return
        if isinstance(msg, p.Sync) and (self.slots is None or msg.slot >= self.slots.count):
            self._send(p.Nak(frame.seq, "BAD_VALUE"))  # no SCHED since the reset: nothing to time
            return
        if isinstance(msg, p.Schedule) and (
                len(msg.slots) != self.antennas
                or (msg.per_slot and self.protocol < p.PER_SLOT_LENGTHS)):  # 1.1: one length
            self._send(p.Nak(frame.seq, "BAD_VALUE"))
            return
        self._send(p.Ack(frame.seq))
        match msg:
            case p.Ping(token):
                self._send(p.Pong(token))
            case p.Who():
                self._send(self._hello())
            case p.SetRate(hz):
                self.rate_hz = hz
                self._free.rate_hz = hz
                if self.slots is not None:
                    self.slots.set_rate(hz)
            case p.Schedule():
                self._schedule(msg)
            case p.Sync(slot, offset):
                self._sync(slot, offset)
            case p.Focus(antennas):
                self.focus = msg
                self._free.refocus(antennas)
                if self.slots is not None:
                    self.slots.refocus(antennas)
            case p.SetLed(None, mode):
                self.leds = {a: mode for a in range(self.antennas)}
            case p.SetLed(antenna, mode) if antenna is not None:
                self.leds[antenna] = mode
            case p.SelfTest():
                for a in range(self.antennas):
                    fault = self.mischief.faults.get(a)
                    self._send(p.TestResult(a, fault is None, fault or ""))

    def _schedule(self, schedule: p.Schedule) -> None:
        """A new slot table; mid-run it keeps the current cycle's start (5.1)."""
        old, now = self.slots, self.clock() * 1000.0
        self.slots = SlotClock(schedule)
        if old is not None and old.synced:
            self.slots.follow(now, old)
        self.slots.set_rate(self.rate_hz)
        self.slots.refocus(self.focus.antennas if self.focus else ())

    def _sync(self, slot: int, offset: int) -> None:
        """Time the slots from now; not if a read is under way (the line waited in the buffer
        for an unknown part of it, 5.1), as the firmware does."""
        assert self.slots is not None
        now = self.clock() * 1000.0
        if self.time_model and self._reading is not None and self._reading.end > now:
            self.syncs_late += 1
            return
        self.slots.sync(now, slot, offset)

    def _hello(self) -> p.Hello:
        return p.Hello(self.hub_id, self.firmware, self.protocol, self.antennas, self.rate_hz)

    def _flickered(self, antenna: int, uids: set[str]) -> list[str]:
        """The tags an inventory reports, some missed when flicker is on."""
        chance, run = self.mischief.flicker, self.mischief.flicker_run
        if chance <= 0:
            self._missed.clear()
            return list(uids)
        reported = []
        for uid in uids:
            key = (antenna, uid)
            missed = self._missed.get(key, 0)
            if missed < run and self._random.random() < chance:
                self._missed[key] = missed + 1
                self.dropouts += 1
            else:
                self._missed.pop(key, None)
                reported.append(uid)
        return reported

    def _foreign_tags(self) -> dict[int, set[str]]:
        """What each antenna overhears from other hubs; read without holding our own lock, so
        two hubs overhearing each other cannot deadlock."""
        with self._lock:
            sources = {a: list(s) for a, s in self._overheard.items()}
        heard: dict[int, set[str]] = {}
        for antenna, pairs in sources.items():
            for hub, source in pairs:
                heard.setdefault(antenna, set()).update(hub.tags(source))
        return heard

    def _scan(self) -> None:
        foreign = self._foreign_tags()
        with self._lock:
            if self._master is None or self.mischief.silent:
                return
            mischief = self.mischief
            seen = {a: set(tags) for a, tags in self._tags.items()}
            for source, neighbour in mischief.crosstalk.items():
                if self._random.random() < mischief.crosstalk_chance and neighbour in seen:
                    seen[neighbour] |= self._tags.get(source, set())
            for neighbour, heard in foreign.items():
                if self._random.random() < mischief.crosstalk_chance and neighbour in seen:
                    seen[neighbour] |= heard
            focused = self.focus.antennas if self.focus else ()
            for antenna in [*focused, *(a for a in range(self.antennas) if a not in focused)]:
                if antenna in mischief.faults:
                    self._send(p.Fault(antenna, mischief.faults[antenna]))
                    continue
                uids = [u for u in self._flickered(antenna, seen[antenna])
                        if self._random.random() < self._odds.get(u, 1.0)]
                # untimed: its reads take no time, so it says only their kind (4.2)
                for part in p.snapshot_frames(antenna, uids, None,
                                              True if self.focus else None):
                    self._send(part)

    # ------------------------------------------------------------------ the time model

    def _service_timed(self, now: float, foreign: dict[int, set[str]]) -> float:
        """(hub ms) Finish the reads that ended by ``now``, each next one starting where the
        last ended; start the one due now; return when the next thing is due."""
        if self._master is None:  # unplugged: no power, no reads
            self._reading = None
            return now + 50.0
        t = now
        while True:
            read = self._reading
            if read is not None:
                if read.end > now + TICK_MS:
                    return read.end
                self._reading = None
                self._finish(read)
                self._free_at = read.end + self.gap_ms
                t = max(read.end, now - CATCH_UP_MS)
            if self._free_at > t + TICK_MS:  # still sending the last SNAP
                if self._free_at > now + TICK_MS:
                    return self._free_at
                t = self._free_at
            slots = self.slots if self.slots is not None and self.slots.synced else None
            index = slots.pick(t, self._expected_ms()) if slots else self._free.pick(t)
            if index is None:
                wake = slots.wake_at(t) if slots else self._free.wake_at(t)
                if wake > now + TICK_MS:
                    return wake
                t = wake
                continue
            self._reading = read = self._begin(index, t, foreign)
            if slots:
                slots.done(index)
            else:
                self._free.done(index, read.ms)

    def _begin(self, antenna: int, t: float, foreign: dict[int, set[str]]) -> Read:
        """Switch ``antenna``'s field on at ``t``: what it will list, and for how long (the
        air-time model), full or quick by the rules of docs/protocol.md 5.2."""
        fault = self.mischief.faults.get(antenna)
        if fault is not None:
            return Read(antenna, t, t + read_ms(0, self.instr_us), set(), True, fault)
        seen = self._seen(antenna, foreign)
        listed = self._listed.get(antenna, set())
        focus = self.focus
        kind = self._kind(antenna)
        full, watched = kind == "full", kind == "watch"
        if full:
            uids, ms = seen, read_ms(len(seen), self.instr_us)
        elif watched:
            assert focus is not None
            wanted = [u for u in focus.want if u not in listed]
            found = seen & set(wanted)
            uids = listed | found
            ms = watch_read_ms(len(wanted), len(found), self.instr_us, len(listed))
        else:
            new = seen - listed
            uids, ms = listed | new, quick_read_ms(len(listed), len(new), self.instr_us)
        self._newcomer[antenna] = bool(uids - listed)
        if not watched:  # a watch read does not count towards the fourth-read rule
            self._quick_run[antenna] = 0 if full else self._quick_run.get(antenna, 0) + 1
        self._listed[antenna] = uids
        self._last_ms[antenna] = ms
        self._kind_ms[(antenna, kind)] = ms
        return Read(antenna, t, t + ms, uids, full)

    def _kind(self, antenna: int) -> str:
        """The kind of ``antenna``'s next read by the rules of docs/protocol.md 5.2 (the twin
        of ``sekihub.focus.read_kind``): ``full``, ``watch`` (the focus names blocks in hand)
        or ``quick``."""
        focus = self.focus
        if (focus is None or not focus.antennas or not self._listed.get(antenna)
                or self._newcomer.get(antenna, False)):
            return "full"
        if focus.want and antenna in focus.antennas and antenna not in focus.full:
            return "watch"
        full = antenna in focus.full or self._quick_run.get(antenna, 0) >= QUICK_RUN
        return "full" if full else "quick"

    def _expected_ms(self) -> list[float]:
        """Each antenna's next read as its last read of that kind took (as the firmware
        judges whether it fits a window); a kind not read yet: its last read, or for a watch
        a guess of one probe (``WATCH_GUESS_MS``)."""
        out = []
        for antenna in range(self.antennas):
            kind = self._kind(antenna)
            last = self._kind_ms.get((antenna, kind))
            if last is None:  # a focused one's first quick read is tried, as on the firmware
                focused = self.focus is not None and antenna in self.focus.antennas
                last = (WATCH_GUESS_MS if kind == "watch" else 1.0 if focused and kind == "quick"
                        else self._last_ms[antenna])
            out.append(last)
        return out

    def _seen(self, antenna: int, foreign: dict[int, set[str]]) -> set[str]:
        """The tags an inventory of ``antenna`` hears now: its own, a neighbour's through
        cross-talk, less those flicker or a stack's read chance miss."""
        mischief = self.mischief
        seen = set(self._tags[antenna])
        for source, neighbour in mischief.crosstalk.items():
            if neighbour == antenna and self._random.random() < mischief.crosstalk_chance:
                seen |= self._tags.get(source, set())
        if antenna in foreign and self._random.random() < mischief.crosstalk_chance:
            seen |= foreign[antenna]
        return {u for u in self._flickered(antenna, seen)
                if self._random.random() < self._odds.get(u, 1.0)}

    def _finish(self, read: Read) -> None:
        """The read's field goes off: its SNAP (or FAULT) goes out."""
        self.reads.append(read)
        if read.fault is not None:
            self._send(p.Fault(read.antenna, read.fault))
            return
        report = self.focus is not None
        for part in p.snapshot_frames(read.antenna, sorted(read.uids),
                                      round(read.ms) if report else None,
                                      read.full if report else None):
            self._send(part)

    # ------------------------------------------------------------------ writing

    def _send(self, message: p.Message) -> None:
        """Encode and write one frame (called with the lock held), applying the mischief."""
        mischief = self.mischief
        if mischief.silent:  # a hung hub says nothing at all
            return
        if mischief.skip_sequence:
            self._seq = (self._seq + mischief.skip_sequence) % p.SEQ_MODULO
            mischief.skip_sequence = 0
        seq = self._seq
        self._seq = (self._seq + 1) % p.SEQ_MODULO
        line = p.encode(message, seq)
        if mischief.garbage_bytes:
            garbage = bytes(self._random.randrange(256) for _ in range(mischief.garbage_bytes))
            mischief.garbage_bytes = 0
            self._write(garbage)
        if mischief.corrupt_frames:
            mischief.corrupt_frames -= 1
            i = self._random.randrange(len(line) - 1)
            flipped = line[i] ^ (1 << self._random.randrange(7))
            line = line[:i] + bytes([flipped]) + line[i + 1 :]
        elif mischief.truncate_frames:
            mischief.truncate_frames -= 1
            line = line[: self._random.randrange(1, len(line) - 1)] + b"\n"
        if mischief.duplicate_frames:
            mischief.duplicate_frames -= 1
            self._write(line)
        if self._write(line):
            self._sent = seq
            if self.on_frame is not None:
                self.on_frame(self.hub_id, seq, message, self.clock())

    def _write(self, data: bytes) -> bool:
        master = self._master
        if master is None:
            return False
        view = memoryview(data)
        deadline = time.monotonic() + 0.05
        while view:
            try:
                n = os.write(master, view)
                view = view[n:]
            except BlockingIOError:
                if len(view) == len(data) or time.monotonic() > deadline:
                    self.frames_dropped += 1  # nobody reads: drop, as a USB hub would
                    return False
                select.select([], [master], [], 0.01)
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EBADF):
                    return False
                raise
        return True
