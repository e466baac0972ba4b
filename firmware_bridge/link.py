"""One open serial connection to one hub: reading, decoding, sequence checks, commands.

A :class:`HubLink` owns a pyserial port and a reader thread. It turns bytes into frames with
:mod:`firmware_bridge.protocol`, counts and logs every rejected line by reason, notices sequence
gaps, reassembles multi-part snapshots, resends unanswered commands, pings a quiet hub and gives
up on a silent or unplugged one. What it learns goes to a :class:`LinkListener` (the bridge).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import serial

from firmware_bridge import protocol as p

log = logging.getLogger(__name__)

PING_AFTER_S = 1.5
LOST_AFTER_S = 4.0
RETRY_AFTER_S = 0.3
MAX_ATTEMPTS = 4
WHO_INTERVAL_S = 0.5
DUPLICATE_WINDOW = 64  # a frame this far behind is a repeat; a hub never sends 65,000 in a burst


@dataclass
class HubStats:
    """Counters for one hub, kept across reconnections."""

    frames: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    gaps: int = 0
    frames_lost: int = 0
    duplicates: int = 0
    """Frames repeating a recent sequence number (dropped: the original was handled)."""
    partial_snapshots_dropped: int = 0
    commands_unanswered: int = 0
    connections: int = 0

    def merge(self, other: HubStats) -> None:
        self.frames.update(other.frames)
        self.rejected.update(other.rejected)
        self.gaps += other.gaps
        self.frames_lost += other.frames_lost
        self.duplicates += other.duplicates
        self.partial_snapshots_dropped += other.partial_snapshots_dropped
        self.commands_unanswered += other.commands_unanswered


class LinkListener(Protocol):
    """What a link reports to. Called from the link's reader thread."""

    def hub_hello(self, link: HubLink, hello: p.Hello, at: float) -> HubStats: ...

    def hub_snapshot(self, hub_id: str, antenna: int, uids: frozenset[str], at: float,
                     read: p.ReadReport | None = None) -> None: ...

    def hub_fault(self, hub_id: str, fault: p.Fault, at: float) -> None: ...

    def hub_test(self, hub_id: str, result: p.TestResult) -> None: ...

    def hub_lost(self, link: HubLink, reason: str) -> None: ...


@dataclass
class _Pending:
    command: p.HostCommand
    sent_at: float
    attempts: int


@dataclass
class _Partial:
    antenna: int
    parts: int
    uids: list[str]
    next_part: int
    next_seq: int


class HubLink:
    """A hub on ``port`` (a device path), read by its own thread until closed or lost."""

    def __init__(self, port: str, listener: LinkListener, *, baudrate: int = 115200,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.clock = clock
        """Seconds, monotonic: when a hub is silent (tests inject one)."""
        self.listener = listener
        self.hello: p.Hello | None = None
        self.stats = HubStats()
        self.refused: str | None = None
        self._serial: Any = serial.Serial(port, baudrate=baudrate, timeout=0.05,
                                          write_timeout=0.5, exclusive=True)
        self._splitter = p.LineSplitter()
        self._expected_seq: int | None = None
        self.handled_seq: int | None = None
        """The sequence number of the last frame read and handled (its snapshot through the
        listener), or None: what a machine's hand checks the bridge has caught up to
        (:meth:`firmware_bridge.tablelink.TableLink.rest_over`)."""
        self._partial: _Partial | None = None
        self._tx_seq = 0
        self._pending: dict[int, _Pending] = {}
        self.wired = 0
        """The antennas the wiring map gives this hub (set by the listener on ``HELLO``): their
        snapshots are read even if the ``HELLO`` announced fewer (:meth:`read_antennas`)."""
        self.set_aside: str | None = None
        """Why nothing this hub sends is used (set by the listener: another port already is
        the hub of its id); None: it is read."""
        self.refusals: dict[str, str] = {}
        """Command type -> the reason of the last NAK the hub gave it (e.g. a SCHED)."""
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        now = clock()
        self._last_valid = now
        self._last_ping = now
        self._last_who = 0.0
        self._thread = threading.Thread(target=self._run, name=f"hub-{port}", daemon=True)

    @property
    def hub_id(self) -> str | None:
        return self.hello.hub_id if self.hello else None

    @property
    def heard_at(self) -> float:
        """When the hub last sent a valid frame (on :attr:`clock`)."""
        return self._last_valid

    @property
    def read_antennas(self) -> int:
        """How many antennas' snapshots are taken: as many as the ``HELLO`` announced, or as the
        wiring map gives the hub if that is more (a ``HELLO`` that contradicts the map does not
        blind its antennas)."""
        return max(self.hello.antennas if self.hello else 0, self.wired)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> HubLink:
        self._serial.reset_input_buffer()
        self.send(p.Who())
        self._last_who = self.clock()
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2)
        self._close_port()

    def _close_port(self) -> None:
        with contextlib.suppress(OSError, serial.SerialException):
            self._serial.close()

    # ------------------------------------------------------------------ commands

    def send(self, command: p.HostCommand, attempts: int = 1) -> int | None:
        """Write ``command``; it is resent until ACKed (at most :data:`MAX_ATTEMPTS` times)."""
        with self._write_lock:
            seq = self._tx_seq
            self._tx_seq = (self._tx_seq + 1) % p.SEQ_MODULO
            try:
                self._serial.write(p.encode(command, seq))
            except (OSError, serial.SerialException, TypeError) as exc:  # TypeError: pyserial
                # closing the port in another thread (its fd is None mid-write); the reader
                # thread says the hub is lost, as for a read (:meth:`_run`)
                log.warning("%s: cannot send %s: %s", self.port, type(command).__name__, exc)
                return None
            self._pending[seq] = _Pending(command, self.clock(), attempts)
            return seq

    def _retry_commands(self, now: float) -> None:
        with self._write_lock:
            late = [(s, c) for s, c in self._pending.items() if now - c.sent_at > RETRY_AFTER_S]
            for seq, _ in late:
                del self._pending[seq]
        for _, pending in late:
            if isinstance(pending.command, p.Sync):
                continue  # its offset is stale now; the bridge sends a fresh SYNC every second
            if pending.attempts >= MAX_ATTEMPTS:
                self.stats.commands_unanswered += 1
                log.warning("%s: hub never answered %s", self.port, said(pending.command))
            else:
                self.send(pending.command, pending.attempts + 1)

    # ------------------------------------------------------------------ reading

    def _run(self) -> None:
        reason = "closed"
        try:
            read = self._reader()
            while not self._stop.is_set():
                data = read()
                now = self.clock()
                if data:
                    for line in self._splitter.feed(data):
                        self._line(line, now)
                reason = self._housekeeping(now)
                if reason:
                    break
        except (OSError, serial.SerialException, TypeError) as exc:
            reason = f"port failed: {exc}"
        finally:
            self._close_port()
            if not self._stop.is_set():
                self.listener.hub_lost(self, reason or "closed")

    def _reader(self) -> Callable[[], bytes]:
        """Read what has arrived, waiting at most 50 ms. On POSIX, select() and os.read() on the
        port's descriptor (pyserial opened and configured it): a third of pyserial's overhead
        per line, which counts at 50 scans/s on a Raspberry Pi."""
        try:
            fd = self._serial.fileno()
        except (AttributeError, OSError, serial.SerialException):
            fd = None
        if fd is None or os.name != "posix":
            return lambda: bytes(self._serial.read(self._serial.in_waiting or 1))

        def read() -> bytes:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                return b""
            data = os.read(fd, 4096)
            if not data:
                raise serial.SerialException("device disconnected (end of file)")
            return data

        return read

    def _housekeeping(self, now: float) -> str:
        silent = now - self._last_valid
        if silent > LOST_AFTER_S:
            return f"silent for {silent:.1f} s"
        if silent > PING_AFTER_S and now - self._last_ping > PING_AFTER_S:
            self._last_ping = now
            self.send(p.Ping(f"t{int(now * 1000) % 100000}"))
        if self._pending:
            self._retry_commands(now)
        return ""

    def _reject(self, reason: str, detail: str) -> None:
        self.stats.rejected[reason] += 1
        log.warning("%s: rejected frame (%s): %s", self.hub_id or self.port, reason, detail)

    def _line(self, line: bytes, now: float) -> None:
        if not line:
            self._reject("overlong", f"no newline within {p.MAX_LINE_BYTES} bytes")
            return
        try:
            frame = p.decode_line(line)
        except p.ProtocolError as exc:
            if exc.reason != "empty":
                self._reject(exc.reason, exc.detail)
            return
        try:
            self._frame(frame, now)
        finally:
            self.handled_seq = frame.seq

    def _frame(self, frame: p.Frame, now: float) -> None:
        self._last_valid = now
        msg = frame.message
        self.stats.frames[type(msg).__name__] += 1
        if not self._check_sequence(frame):
            return
        if isinstance(msg, p.Hello):
            self._hello(msg, now)
            return
        if isinstance(msg, p.Ack | p.Nak | p.Pong | p.Beat):
            self._dispatch(frame, now)
            return
        if self.set_aside is not None:
            return  # another port is this hub id's: nothing of this one is read (said once)
        if self.hello is None or self.refused:
            self._reject("before_hello", f"{type(msg).__name__} from a hub not yet identified")
            if now - self._last_who > WHO_INTERVAL_S and not self.refused:
                self._last_who = now
                self.send(p.Who())
            return
        self._dispatch(frame, now)

    def _check_sequence(self, frame: p.Frame) -> bool:
        """Count gaps; False for a repeat of a recent frame (counted, not handled twice).

        A sequence number up to ``DUPLICATE_WINDOW`` behind the expected one is a repeated
        frame, not a wrap-around after 65,535 lost ones.
        """
        expected = self._expected_seq
        if expected is None or frame.seq == expected or isinstance(frame.message, p.Hello):
            self._expected_seq = (frame.seq + 1) % p.SEQ_MODULO
            return True
        behind = (expected - frame.seq) % p.SEQ_MODULO
        if 0 < behind <= DUPLICATE_WINDOW:
            self.stats.duplicates += 1
            log.warning("%s: frame %d repeated (expected %d): ignored",
                        self.hub_id or self.port, frame.seq, expected)
            return False
        self._expected_seq = (frame.seq + 1) % p.SEQ_MODULO
        lost = (frame.seq - expected) % p.SEQ_MODULO
        self.stats.gaps += 1
        self.stats.frames_lost += lost
        log.warning("%s: sequence gap: expected %d, got %d (%d frames lost)",
                    self.hub_id or self.port, expected, frame.seq, lost)
        if self._partial is not None:
            self._drop_partial("sequence gap")
        return True

    def _hello(self, hello: p.Hello, now: float) -> None:
        if hello.protocol[0] != p.PROTOCOL_MAJOR:
            self.refused = (
                f"hub {hello.hub_id} speaks protocol {hello.protocol[0]}.{hello.protocol[1]}, "
                f"this companion speaks {p.PROTOCOL_MAJOR}.x"
            )
            log.error("%s: %s", self.port, self.refused)
            return
        self.refused = None
        previous = self.hello
        self.hello = hello
        if previous is None or previous.hub_id != hello.hub_id:
            stats = self.listener.hub_hello(self, hello, now)
            if stats is not self.stats:  # the same when the listener kept the hub it was
                stats.merge(self.stats)
                self.stats = stats
        else:
            self.listener.hub_hello(self, hello, now)

    def _drop_partial(self, why: str) -> None:
        assert self._partial is not None
        self.stats.partial_snapshots_dropped += 1
        log.warning("%s: dropped a partial snapshot of A%02d (%s)",
                    self.hub_id, self._partial.antenna, why)
        self._partial = None

    def _dispatch(self, frame: p.Frame, now: float) -> None:
        msg = frame.message
        hub = self.hello.hub_id if self.hello else self.port
        if self._partial is not None and not isinstance(msg, p.Snapshot):
            self._drop_partial(f"interrupted by {type(msg).__name__}")
        match msg:
            case p.Snapshot():
                self._snapshot(frame.seq, msg, now)
            case p.Fault():
                if msg.antenna is not None and self._unknown_antenna(msg.antenna):
                    return
                self.listener.hub_fault(hub, msg, now)
            case p.Ack(command_seq) | p.Nak(command_seq, _):
                with self._write_lock:
                    pending = self._pending.pop(command_seq, None)
                if isinstance(msg, p.Nak):
                    if pending is not None:
                        self.refusals[type(pending.command).__name__] = msg.reason
                    log.warning("%s refused %s: %s", hub,
                                said(pending.command) if pending else command_seq, msg.reason)
            case p.TestResult():
                if not self._unknown_antenna(msg.antenna):
                    self.listener.hub_test(hub, msg)
            case p.Pong() | p.Beat():
                pass
            case _:
                self._reject("wrong_direction", f"{type(msg).__name__} is a host command")

    def _unknown_antenna(self, antenna: int) -> bool:
        assert self.hello is not None
        if antenna < self.read_antennas:
            return False
        self._reject("unknown_antenna",
                     f"A{antenna:02d}, the hub announced {self.hello.antennas} antennas")
        return True

    def _snapshot(self, seq: int, snap: p.Snapshot, now: float) -> None:
        if self._unknown_antenna(snap.antenna):
            return
        hub = self.hello.hub_id if self.hello else ""
        if snap.parts == 1:
            if self._partial is not None:
                self._drop_partial("a new snapshot began")
            self.listener.hub_snapshot(hub, snap.antenna, frozenset(snap.uids), now,
                                       p.ReadReport.of(snap))
            return
        partial = self._partial
        if snap.part == 1:
            if partial is not None:
                self._drop_partial("a new snapshot began")
            self._partial = _Partial(snap.antenna, snap.parts, list(snap.uids), 2,
                                     (seq + 1) % p.SEQ_MODULO)
            return
        if (partial is None or partial.antenna != snap.antenna or partial.parts != snap.parts
                or partial.next_part != snap.part or partial.next_seq != seq):
            if partial is not None:
                self._drop_partial("parts out of order")
            else:
                self.stats.partial_snapshots_dropped += 1
            return
        partial.uids.extend(snap.uids)
        partial.next_part += 1
        partial.next_seq = (seq + 1) % p.SEQ_MODULO
        if snap.part == snap.parts:
            self._partial = None
            self.listener.hub_snapshot(hub, snap.antenna, frozenset(partial.uids), now,
                                       p.ReadReport.of(snap))



def said(command: p.HostCommand) -> str:
    """A command as the log may show it: a ``FOCUS``'s wanted tags (the blocks in hand,
    whose identities are hidden) counted, not listed."""
    if isinstance(command, p.Focus) and command.want:
        return f"Focus(antennas={command.antennas!r}, {len(command.want)} wanted tags)"
    return repr(command)
