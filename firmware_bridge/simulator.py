"""A virtual reader hub that speaks the real protocol on a pseudo-terminal.

The bridge opens :attr:`VirtualHub.path` (or the stable symlink :attr:`VirtualHub.link`, the way a
udev rule gives real hubs a stable name) with pyserial exactly as it opens a USB hub. The hub
scans ``rate_hz`` times a second and sends one ``SNAP`` per antenna, answers commands, and can be
told to misbehave: flicker, cross-talk, garbage bytes, corrupted or truncated frames, sequence
gaps, reader faults, silence, and being unplugged and plugged in again (a new pty, a new path,
the symlink follows, sequence numbers restart at 0 as after a power cycle).
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import protocol as p

log = logging.getLogger(__name__)

FrameObserver = Callable[[str, int, p.Message, float], None]
"""Called as (hub id, seq, message, monotonic time) after each frame the hub wrote."""


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


class VirtualHub:
    """One simulated hub on its own pseudo-terminal."""

    def __init__(
        self,
        hub_id: str,
        antennas: int = 16,
        rate_hz: int = 10,
        link: Path | None = None,
        firmware: str = "sim-1.0",
        seed: int | None = None,
        on_frame: FrameObserver | None = None,
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
        self._master: int | None = None
        self._slave: int | None = None
        self.path: str | None = None
        self._splitter = p.LineSplitter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()

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

    def start(self) -> VirtualHub:
        self._plug()
        self._thread = threading.Thread(target=self._run, name=f"sim-{self.hub_id}", daemon=True)
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
        self._seq = 0
        self.leds.clear()
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
        next_scan = time.monotonic()
        while not self._stop.is_set():
            timeout = max(0.0, next_scan - time.monotonic())
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
            if time.monotonic() >= next_scan:
                self._scan()
                next_scan += 1.0 / self.rate_hz
                next_scan = max(next_scan, time.monotonic() - 1.0 / self.rate_hz)

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
        if not isinstance(msg, p.HostCommand) or not isinstance(msg, known):
            self._send(p.Nak(frame.seq, "UNKNOWN_COMMAND"))
            return
        self.commands_received.append(msg)
        if isinstance(msg, p.SetLed) and msg.antenna is not None and msg.antenna >= self.antennas:
            self._send(p.Nak(frame.seq, "BAD_ANTENNA"))
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
            case p.SetLed(None, mode):
                self.leds = {a: mode for a in range(self.antennas)}
            case p.SetLed(antenna, mode) if antenna is not None:
                self.leds[antenna] = mode
            case p.SelfTest():
                for a in range(self.antennas):
                    fault = self.mischief.faults.get(a)
                    self._send(p.TestResult(a, fault is None, fault or ""))

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
            for antenna in range(self.antennas):
                if antenna in mischief.faults:
                    self._send(p.Fault(antenna, mischief.faults[antenna]))
                    continue
                uids = [u for u in self._flickered(antenna, seen[antenna])
                        if self._random.random() < self._odds.get(u, 1.0)]
                for part in p.snapshot_frames(antenna, uids):
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
        if self._write(line) and self.on_frame is not None:
            self.on_frame(self.hub_id, seq, message, time.monotonic())

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
