"""The bridge: every hub on the table, turned into placements of known blocks.

A supervisor thread keeps one :class:`HubLink` open per hub port (given ports, or found by USB
id), reopens a port that went away (unplug/replug loses nothing: the lost hub's locations are
frozen, not emptied), ticks the tracker and drives the LEDs. Each link's reader thread feeds
snapshots through the :class:`Observer` (debounce, cross-talk, wiring) and the
:class:`Tracker` (registry, placements, moves) under one lock, and then hands the events to
subscribers - no queue in between, so a placement is available as soon as its frame is decoded.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import serial

from firmware_bridge import protocol as p
from firmware_bridge.airtime import watch_read_ms
from firmware_bridge.corrections import CorrectionLog
from firmware_bridge.discovery import DEFAULT_USB_IDS, hub_ports
from firmware_bridge.discrepancy import MoveRules, Reconciliation, reconcile
from firmware_bridge.hubstatus import HubProblem, find_problems
from firmware_bridge.link import HubLink, HubStats
from firmware_bridge.observation import HEARING_MM, BoardView, DebounceConfig, Observer
from firmware_bridge.registry import TagRegistry
from firmware_bridge.schedule import (
    SHRINK_AFTER_S,
    ReadTimes,
    ScanSchedule,
    SlotLengths,
    antenna_spots,
    measured_read_times,
    needed_slot_ms,
    neighbour_pairs,
    plan_schedule,
)
from firmware_bridge.tracking import StackMoved, Tracker, TrackEvent
from firmware_bridge.waiting import wait_until
from firmware_bridge.wiring import AntennaKey, WiringMap

log = logging.getLogger(__name__)
T = TypeVar("T")

SYNC_EVERY_S = 1.0
"""How often every scheduled hub is sent SYNC (docs/protocol.md 5.1: the drift budget)."""


@dataclass
class AntennaStatus:
    snapshots: int = 0
    tags: int = 0
    fault: str | None = None
    test: str | None = None
    faults: int = 0
    """FAULT frames received for this antenna since the bridge started."""
    last_fault: str | None = None
    last_fault_at: float | None = None
    rf_collisions: int = 0
    """FAULT RF_COLLISION frames: persistent cross-talk with a neighbouring antenna."""
    recent: deque[float] = field(default_factory=lambda: deque(maxlen=40))
    read_ms: deque[int] = field(default_factory=lambda: deque(maxlen=40))
    """How long the hub's last reads of this antenna took, its own clock (protocol 1.3)."""
    full_reads: int = 0
    quick_reads: int = 0
    """Reads the hub called full and quick (1.3; a 1.2 hub's are all full, not counted)."""

    def read_rate(self) -> float:
        """Snapshots a second over the last few seconds (0 if fewer than two)."""
        if len(self.recent) < 2 or self.recent[-1] <= self.recent[0]:
            return 0.0
        return (len(self.recent) - 1) / (self.recent[-1] - self.recent[0])


@dataclass
class HubStatus:
    hub_id: str
    hello: p.Hello
    port: str
    connected: bool = True
    lost_reason: str = ""
    lost_at: float | None = None
    """When the hub was last lost (unplugged, hung), even if it is connected again."""
    fault: str | None = None
    """The last fault the hub reported about itself (FAULT ... HUB ...)."""
    fault_at: float | None = None
    """When it was last reported; None once the hub restarted (a new HELLO)."""
    stats: HubStats = field(default_factory=HubStats)
    antennas: dict[int, AntennaStatus] = field(default_factory=dict)
    link: HubLink | None = field(default=None, repr=False)
    scheduled: bool = False
    """The hub was sent its slot table (protocol 1.1) and is kept in step with SYNC."""
    wired: int = 0
    """The antennas the wiring map gives this hub (its highest antenna there, plus one)."""

    @property
    def read_antennas(self) -> int:
        """The antennas read, lit and self-tested: as many as the ``HELLO`` announced, or as
        the wiring map gives the hub if that is more (a ``HELLO`` contradicting the map is
        reported, :func:`~firmware_bridge.hubstatus.find_problems`, and does not blind them).
        The slot table (``SCHED``) and the ``FOCUS`` keep the announced count: the hub refuses
        a whole command naming an antenna it did not announce."""
        return max(self.hello.antennas, self.wired)

    @property
    def per_slot(self) -> bool:
        """The hub takes one length per slot (protocol 1.2)."""
        return self.hello.protocol >= p.PER_SLOT_LENGTHS


class Bridge:
    """Hubs -> observations -> placements. Use as a context manager or start()/stop()."""

    def __init__(
        self,
        ports: Sequence[str] | None = None,
        *,
        wiring: WiringMap,
        registry: TagRegistry,
        debounce: DebounceConfig | None = None,
        usb_ids: Iterable[tuple[int, int]] = DEFAULT_USB_IDS,
        rate_hz: int | None = None,
        missing_after_s: float = 10.0,
        corrections: CorrectionLog | None = None,
        settle_s: float = 0.3,
        schedule: ScanSchedule | None = None,
        auto_schedule: bool = True,
        adaptive_slots: bool = True,
        slot_shrink_s: float = SHRINK_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
        piece_clock: Callable[[], float] | None = None,
    ) -> None:
        self.ports = list(ports) if ports is not None else None
        self.usb_ids = tuple(usb_ids)
        self.wiring = wiring
        self.registry = registry
        self.rate_hz = rate_hz
        self.observer = Observer(wiring, debounce)
        self._zone_of = wiring.table()
        self.tracker = Tracker(registry, missing_after_s=missing_after_s, settle_s=settle_s)
        self.corrections = corrections or CorrectionLog()
        self.clock = clock
        """Seconds, monotonic: a hub's silence and a command's retry (tests inject one); the
        scan schedule keeps real time, as the hubs do."""
        self.piece_clock = piece_clock or clock
        """Seconds, monotonic: when pieces were seen, for the tracker (the settle rule, a
        piece given up as missing); :attr:`clock` unless a machine's hand may move it on
        (:class:`firmware_bridge.clock.TableClock`)."""
        self._started_at = clock()
        self._problems: tuple[HubProblem, ...] = ()
        self._hub_watchers: list[Callable[[tuple[HubProblem, ...]], None]] = []
        self.refused: dict[str, str] = {}
        self._hubs: dict[str, HubStatus] = {}
        self._claims: dict[str, str] = {}
        """Port -> hub id, for the ports set aside: their hub id is another port's."""
        self._doubted: set[HubLink] = set()
        """Links asked again (``WHO``) after claiming, unplugged, another port's hub id."""
        self._wired: dict[str, int] = {}
        for key in self._zone_of:
            self._wired[key.hub] = max(self._wired.get(key.hub, 0), key.antenna + 1)
        self._links: dict[str, HubLink] = {}
        self._open_failures: dict[str, str] = {}
        self._leds: dict[str, p.LedMode] = {}
        self._sent_leds: dict[AntennaKey, p.LedMode] = {}
        self._destinations: frozenset[str] = frozenset()
        """Zones lit as the legal destinations of the blocks in hand (:meth:`set_destinations`)."""
        self._focus: set[AntennaKey] = set()
        """The antennas that matter now (protocol 1.3 FOCUS): the destinations and origins."""
        self._sent_focus: dict[str, p.Focus] = {}
        self._unpublished: dict[str, int] = {}
        """Blocks of moves ruled by the tracker whose events are still on their way to the
        subscribers (how many such events each): :meth:`telling`."""
        self._want: tuple[str, ...] = ()
        """The tags of the blocks in hand (a few): the hubs watch the focus for them."""
        self._subscribers: list[Callable[[TrackEvent], None]] = []
        self._raw_listeners: list[Callable[[AntennaKey, frozenset[str], float], None]] = []
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._schedule = schedule
        """The schedule in force: what the scheduled hubs were told, and the host's slot clock."""
        self._wanted = schedule
        """The schedule with the slot lengths the stacks call for; in force unless a scheduled
        hub speaks protocol 1.1 (then every hub gets its longest slot for every slot)."""
        self._auto_schedule = auto_schedule and schedule is None
        self._no_schedule: str | None = None
        """Why no scan schedule could be planned (the hubs then scan unscheduled)."""
        self._adaptive = adaptive_slots
        self._sizer: SlotLengths | None = None
        self._slot_shrink_s = slot_shrink_s
        self._sized_focus: frozenset[AntennaKey] = frozenset()
        self._epoch = time.monotonic()
        self._last_sync = 0.0
        self._stop = threading.Event()
        self._supervisor = threading.Thread(target=self._supervise, name="bridge", daemon=True)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Bridge:
        self._started_at = self.clock()
        if self._auto_schedule:  # not in the way of the hubs, whatever the layout costs
            threading.Thread(target=self._plan, name="bridge-schedule", daemon=True).start()
        self._supervisor.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._supervisor.is_alive():
            self._supervisor.join(timeout=3)
        with self._lock:
            links = list(self._links.values())
            self._links.clear()
        for link in links:
            link.close()

    def __enter__(self) -> Bridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _supervise(self) -> None:
        while not self._stop.wait(0.1):
            self._open_ports()
            if time.monotonic() - self._last_sync >= SYNC_EVERY_S:
                self._last_sync = time.monotonic()
                self._resize_slots()
                self._sync_all()
            self.tick()
            self._check_hubs()

    def _piece_time(self, at: float) -> float:
        """``at``, a frame's time on :attr:`clock`, on :attr:`piece_clock`: the same moment
        plus however far a machine's hand has moved the pieces' time on. Every time the
        tracker is given is on the piece clock, or a block lifted before a jump would be
        held the jump longer than it was."""
        if self.piece_clock is self.clock:
            return at
        return at + (self.piece_clock() - self.clock())

    def tick(self) -> None:
        """Judge the time now: blocks held too long given up, settled landings reported (the
        supervisor does it every 0.1 s; a clock moved on is judged at once by calling it)."""
        with self._lock:
            events = self._delivering(self.tracker.tick(self.piece_clock()))
            if events:
                self._changed.notify_all()
        self._publish(events)

    def give_up(self, blocks: Iterable[str]) -> None:
        """Give these blocks in hand up as missing now, as :meth:`tick` does once they have
        been held ``missing_after_s`` (a machine's hand that put them where no antenna reads:
        :meth:`firmware_bridge.tablelink.TableLink.rest_over`)."""
        with self._lock:
            events = self._delivering(self.tracker.give_up(blocks, self.piece_clock()))
            if events:
                self._changed.notify_all()
        self._publish(events)

    def _open_ports(self) -> None:
        wanted = self.ports if self.ports is not None else [
            port.device for port in hub_ports(self.usb_ids)
        ]
        for port in wanted:
            with self._lock:
                if port in self._links or self._stop.is_set():
                    continue
            try:
                link = HubLink(port, self, clock=self.clock)
            except (OSError, serial.SerialException) as exc:
                why = "no such port" if not os.path.exists(port) else str(exc)
                with self._lock:
                    if self._open_failures.get(port) != why:
                        self._open_failures[port] = why
                        log.info("cannot open %s yet: %s", port, why)
                        self._changed.notify_all()
                continue
            with self._lock:
                self._open_failures.pop(port, None)
            with self._lock:
                self._links[port] = link
            log.info("opened %s", port)
            link.start()

    # ------------------------------------------------------------------ LinkListener

    def hub_hello(self, link: HubLink, hello: p.Hello, at: float) -> HubStats:
        with self._lock:
            status = self._hubs.get(hello.hub_id)
            holder = status.link if status is not None else None
            taken = (status is not None and status.connected and holder is not None
                     and holder is not link and holder.alive)
            serving = next((h for h in self._hubs.values() if h.link is link and h.connected
                            and h.hub_id != hello.hub_id), None)
            if taken and serving is not None and link not in self._doubted:
                # A hub read on this port says, without reconnecting, that it is another hub
                # that is on another port (a forged or garbled HELLO): it stays the hub it was
                # and is asked again; only the same answer makes it the other hub's double.
                self._doubted.add(link)
                link.hello = serving.hello
                doubted: str | None = serving.hub_id
            else:
                doubted = None
                status = self._take(link, hello, taken)
                if status is None:
                    return HubStats()
        if doubted is not None:
            log.warning("hub %s on %s said it is hub %s, which is on %s: asked again", doubted,
                        link.port, hello.hub_id, _port_of(self._hubs.get(hello.hub_id)))
            link.send(p.Who())
            return link.stats
        assert status is not None
        log.info("hub %s on %s: firmware %s, protocol %d.%d, %d antennas", hello.hub_id,
                 link.port, hello.firmware, *hello.protocol, hello.antennas)
        if hello.antennas < status.wired:
            log.warning("hub %s on %s announces %d antennas, the wiring map gives it %d: all "
                        "%d are still read", hello.hub_id, link.port, hello.antennas,
                        status.wired, status.wired)
        if self.rate_hz is not None and hello.rate_hz != self.rate_hz:
            link.send(p.SetRate(self.rate_hz))
        link.send(p.SetLed(None, p.LedMode.OFF))  # whatever an earlier session left lit
        self._send_schedule(status, link)
        self._push_leds()
        self._push_focus()
        return status.stats

    def _take(self, link: HubLink, hello: p.Hello, taken: bool) -> HubStatus | None:
        """Under the lock: ``link`` is the hub ``hello`` names from now on, or, if another port
        already is that hub (``taken``), it is set aside (None): cloned firmware or a forged
        HELLO, the first stays that hub, the other is kept open and shown, and nothing it sends
        is read."""
        self._doubted.discard(link)
        for other in self._hubs.values():  # another hub was on this port before
            if other.link is link and other.hub_id != hello.hub_id:
                other.connected, other.link = False, None
                other.lost_reason = f"{link.port} now belongs to hub {hello.hub_id}"
                self.observer.freeze_hub(other.hub_id, other.lost_reason)
        status = self._hubs.get(hello.hub_id)
        if taken:
            self._claims[link.port] = hello.hub_id
            link.set_aside = f"hub {hello.hub_id} is already on {_port_of(status)}"
            self._changed.notify_all()
            return None
        self._claims.pop(link.port, None)
        link.set_aside = None
        if status is None:
            status = self._hubs[hello.hub_id] = HubStatus(hello.hub_id, hello, link.port)
        status.hello, status.port, status.link = hello, link.port, link
        status.wired = link.wired = self._wired.get(hello.hub_id, 0)
        status.connected, status.lost_reason = True, ""
        status.fault_at = None
        status.stats.connections += 1
        self._sent_leds = {k: m for k, m in self._sent_leds.items() if k.hub != hello.hub_id}
        self._sent_focus.pop(hello.hub_id, None)
        self._changed.notify_all()
        return status

    def set_aside(self) -> dict[str, str]:
        """Port -> the hub id it claims, for the ports not read because another port already is
        that hub (shown as a ``duplicate`` hub problem until one of them is gone)."""
        with self._lock:
            return dict(self._claims)

    # ------------------------------------------------------------------ scan schedule

    def schedule(self) -> ScanSchedule | None:
        """The slot schedule, or None (none given and none worked out, or not yet)."""
        with self._lock:
            return self._schedule

    def _plan(self) -> None:
        """Work the schedule out from the served game's antenna layout and the wiring map (in
        its own thread, never in a link's reader thread), then schedule the hubs that said
        HELLO meanwhile. If it cannot be planned, the hubs scan unscheduled: that is said, in
        the log and by :meth:`schedule_problem` (``companion hardware check`` prints it)."""
        self._auto_schedule = False
        try:
            spots = antenna_spots()
            planned = plan_schedule(self._zone_of, spots)
            hearing = neighbour_pairs(self._zone_of, spots, HEARING_MM)
        except Exception as exc:  # a broken layout must not stop the hubs being read
            with self._lock:
                self._no_schedule = str(exc) or type(exc).__name__
            log.error("no scan schedule: %s; every hub scans unscheduled, so neighbouring "
                      "antennas may collide", self._no_schedule)
            return
        with self._lock:
            self._schedule = self._wanted = planned
            self.observer.set_hearing((pair.a, pair.b) for pair in hearing)
            waiting = [h for h in self._hubs.values()
                       if h.connected and h.link is not None and not h.scheduled]
        for status in waiting:
            assert status.link is not None
            self._send_schedule(status, status.link)

    def schedule_problem(self) -> str | None:
        """Why the scan schedule could not be planned, or None (planned, given, or not yet)."""
        with self._lock:
            return self._no_schedule

    def _scheduled_hubs(self) -> list[HubStatus]:
        return [h for h in self._hubs.values()
                if h.scheduled and h.connected and h.link is not None]

    def _in_force(self, hubs: Iterable[HubStatus]) -> list[tuple[HubLink, p.Schedule]]:
        """Under the lock: put the wanted schedule in force for ``hubs`` (the scheduled ones),
        with per-slot lengths only if every one of them speaks protocol 1.2 (all hubs must
        agree where each slot begins; a 1.1 hub has one length for all). If that changes the
        slot lengths, the host's slot clock is re-based to the start of its current cycle,
        where a hub's clock carries a mid-run SCHED over to (docs/protocol.md 5.1), and every
        one of ``hubs`` is to be sent its new SCHED: returned, to send outside the lock."""
        hubs = list(hubs)
        old, wanted = self._schedule, self._wanted
        if old is None or wanted is None:
            return []
        new = wanted if all(h.per_slot for h in hubs) else wanted.uniform()
        if new.slot_ms == old.slot_ms:
            self._schedule = new
            return []
        elapsed_ms = int((time.monotonic() - self._epoch) * 1000)
        self._epoch += (elapsed_ms // old.cycle_ms) * old.cycle_ms / 1000
        self._schedule = new
        log.info("scan slots %s ms -> %s ms%s", "/".join(map(str, old.slot_ms)),
                 "/".join(map(str, new.slot_ms)),
                 "" if new.per_slot or not wanted.per_slot else
                 " (one length for all: a scheduled hub speaks protocol 1.1)")
        return [(h.link, new.for_hub(h.hub_id, h.hello.antennas))
                for h in hubs if h.link is not None]

    def _send_schedule(self, status: HubStatus, link: HubLink) -> None:
        """Protocol 1.1 hubs get their slot table and a SYNC; a 1.0 hub runs unscheduled. A
        1.1 hub joining 1.2 hubs that run per-slot lengths puts every hub on one length (the
        other hubs are sent their new SCHED and a SYNC first)."""
        status.scheduled = False
        if status.hello.protocol < (1, 1):
            return
        with self._lock:
            others = [h for h in self._scheduled_hubs() if h is not status]
            sends = self._in_force([*others, status])
            schedule = self._schedule
        if schedule is None:
            return
        for other, command in sends:
            if other is not link:
                other.send(command)
                self._sync(other, schedule)
        link.send(schedule.for_hub(status.hub_id, status.hello.antennas))
        status.scheduled = True
        self._sync(link, schedule)

    def _sync(self, link: HubLink, schedule: ScanSchedule) -> None:
        """SYNC: where the host's slot clock (from the bridge's start) is right now."""
        now_ms = int((time.monotonic() - self._epoch) * 1000)
        link.send(p.Sync(*schedule.position(now_ms)))

    def _resize_slots(self) -> None:
        """Adaptive slot lengths: size each slot for the stacks the scheduled hubs last read
        (:func:`needed_slot_ms`, with hysteresis slot by slot) and, when the lengths in force
        change, send every scheduled hub its new SCHED (:meth:`_in_force`: per-slot lengths if
        every scheduled hub speaks 1.2, else the longest for every slot). Also run when the
        slots are not adaptive: a 1.1 hub that left may let the others have per-slot lengths.

        Each read takes the time its hub measured where it has timed enough (protocol 1.3),
        else the model's. While the host has a focus (:attr:`_focus`, 5.2) a slot holds its
        focused antennas' reads and a little for the rest; when the focus changes the slots
        take the new lengths at once (a block lifted must not wait out the calm spell), then
        keep the hysteresis. Call it after changing the focus to apply it now."""
        with self._lock:
            schedule = self._wanted
            hubs = self._scheduled_hubs()
            if schedule is None or not hubs:
                return
            tables = {h.hub_id: schedule.for_hub(h.hub_id, h.hello.antennas).slots for h in hubs}
            counts = {AntennaKey(h.hub_id, a): s.tags for h in hubs
                      for a, s in h.antennas.items()}
            measured = self._measured_reads(hubs)
            focus = frozenset(self._focus)
            want = self._want
            unfocused = {h.hub_id for h in hubs if h.hello.protocol < p.FOCUS_READS}
        needed: tuple[int, ...] | None = None
        if self._adaptive:
            try:
                needed = needed_slot_ms(tables, counts, schedule.count, schedule.guard_ms,
                                        focus=focus, measured=measured,
                                        unfocused_hubs=unfocused, watch=len(want),
                                        watch_read=watch_read_ms)
            except ValueError as exc:  # no read-time model installed: keep the slots as they are
                log.warning("fixed scan slots: %s", exc)
                self._adaptive = False
        with self._lock:
            if self._wanted is not schedule:
                return  # replaced meanwhile: size it next time
            if needed is not None:
                sizer = self._sizer or SlotLengths.start(schedule.slot_ms, self._slot_shrink_s)
                if focus != self._sized_focus:
                    sizer = SlotLengths.start(needed, self._slot_shrink_s)
                    self._sized_focus = focus
                self._sizer = sizer = sizer.update(needed, time.monotonic())
                self._wanted = schedule.with_lengths(sizer.lengths)
            sends = self._in_force(self._scheduled_hubs())
        for link, command in sends:
            link.send(command)

    @staticmethod
    def _measured_reads(hubs: Iterable[HubStatus]) -> dict[AntennaKey, ReadTimes]:
        """Under the lock: each antenna's read times as its hub measured them (1.3), where it
        has timed enough reads (:func:`measured_read_times`)."""
        out: dict[AntennaKey, ReadTimes] = {}
        for h in hubs:
            for a, s in h.antennas.items():
                times = measured_read_times(tuple(s.read_ms), s.full_reads, s.quick_reads)
                if times is not None:
                    out[AntennaKey(h.hub_id, a)] = times
        return out

    def _sync_all(self) -> None:
        with self._lock:
            schedule = self._schedule
            links = [h.link for h in self._scheduled_hubs() if h.link is not None]
        if schedule is not None:
            for link in links:
                self._sync(link, schedule)

    # ------------------------------------------------------------------ LinkListener (cont.)

    def hub_snapshot(self, hub_id: str, antenna: int, uids: frozenset[str], at: float,
                     read: p.ReadReport | None = None) -> None:
        events: list[TrackEvent] = []
        with self._lock:
            status = self._hubs[hub_id]
            ant = status.antennas.get(antenna)
            if ant is None:
                ant = status.antennas[antenna] = AntennaStatus()
            ant.snapshots += 1
            ant.tags = len(uids)
            ant.fault = None
            ant.recent.append(at)
            if read is not None:
                if read.ms is not None:
                    ant.read_ms.append(read.ms)
                if read.full:
                    ant.full_reads += 1
                else:
                    ant.quick_reads += 1
            full = read is None or read.full
            key = AntennaKey(hub_id, antenna)
            if self.observer.snapshot(key, uids, at, full=full, reported=read is not None):
                events = self.tracker.update(self.observer.view(), self._piece_time(at))
                self._changed.notify_all()
            zone = self._zone_of.get(key)
            if full and zone is not None:  # the settle rule: a later full read still lists it
                tags = self.registry.tags
                settled = self.tracker.read_in_full(
                    zone, (tags[u] for u in uids if u in tags), self._piece_time(at))
                if settled:
                    events += settled
                    self._changed.notify_all()
            if events:
                self._delivering(events)
                self._refocus_locked()
            listeners = list(self._raw_listeners)
        for listener in listeners:
            listener(key, uids, at)
        if events:
            self._publish(events)
            self._push_focus()

    def hub_fault(self, hub_id: str, fault: p.Fault, at: float) -> None:
        with self._lock:
            status = self._hubs[hub_id]
            text = f"{fault.code} {fault.detail}".strip()
            if fault.antenna is None:
                if status.fault != text:
                    log.error("hub %s reports %s", hub_id, text)
                status.fault, status.fault_at = text, at
                self._changed.notify_all()
                return
            ant = status.antennas.setdefault(fault.antenna, AntennaStatus())
            ant.faults += 1
            if fault.code == "RF_COLLISION":
                ant.rf_collisions += 1
            ant.last_fault, ant.last_fault_at = text, at
            if ant.fault != text:
                log.warning("hub %s antenna A%02d fault: %s", hub_id, fault.antenna, text)
            ant.fault = text
            self.observer.freeze(AntennaKey(hub_id, fault.antenna), text)
            self.tracker.update(self.observer.view(), self._piece_time(at))
            self._changed.notify_all()

    def hub_test(self, hub_id: str, result: p.TestResult) -> None:
        with self._lock:
            ant = self._hubs[hub_id].antennas.setdefault(result.antenna, AntennaStatus())
            ant.test = "PASS" if result.passed else f"FAIL {result.detail}".strip()
            self._changed.notify_all()

    def hub_lost(self, link: HubLink, reason: str) -> None:
        heir: HubLink | None = None
        with self._lock:
            if self._links.get(link.port) is link:
                del self._links[link.port]
            if link.refused:
                self.refused[link.port] = link.refused
            self._claims.pop(link.port, None)
            self._doubted.discard(link)
            hub = link.hub_id
            if hub is not None and self._hubs[hub].link is link:
                status = self._hubs[hub]
                status.connected, status.lost_reason = False, reason
                status.lost_at = self.clock()
                self.observer.freeze_hub(hub, f"hub lost: {reason}")
                self.tracker.update(self.observer.view(), self.piece_clock())
                heir = next((self._links[port] for port, claimed in self._claims.items()
                             if claimed == hub and port in self._links
                             and self._links[port].alive), None)
            self._changed.notify_all()
        log.warning("hub %s on %s lost: %s", hub or "?", link.port, reason)
        if heir is not None and heir.hello is not None:  # the port set aside is that hub now
            stats = self.hub_hello(heir, heir.hello, self.clock())
            stats.merge(heir.stats)
            heir.stats = stats

    # ------------------------------------------------------------------ outputs

    def subscribe(self, callback: Callable[[TrackEvent], None]) -> None:
        """Call ``callback`` with every tracking event, from a bridge thread."""
        self._subscribers.append(callback)

    def _delivering(self, events: list[TrackEvent]) -> list[TrackEvent]:
        """Under the lock: ``events`` are about to be published; until :meth:`_publish` has
        told every subscriber, the blocks of their moves are still being told (:meth:`telling`:
        a caller that sees the tracker settled must not act before the rules were told)."""
        for event in events:
            if isinstance(event, StackMoved):
                for block in event.block_ids:
                    self._unpublished[block] = self._unpublished.get(block, 0) + 1
        return events

    def _publish(self, events: list[TrackEvent]) -> None:
        try:
            for event in events:
                for callback in self._subscribers:
                    try:
                        callback(event)
                    except Exception as exc:  # the log is no place for the blocks' identities
                        log.error("event subscriber %s failed on a %s event: %s",
                                  _named(callback), type(event).__name__, type(exc).__name__)
                        log.debug("event subscriber %s failed on %s", _named(callback), event,
                                  exc_info=True)
        finally:
            with self._lock:
                for event in events:
                    if isinstance(event, StackMoved):
                        for block in event.block_ids:
                            left = self._unpublished.get(block, 0) - 1
                            if left > 0:
                                self._unpublished[block] = left
                            else:
                                self._unpublished.pop(block, None)

    def hub_problems(self) -> tuple[HubProblem, ...]:
        """What is wrong with the hubs now (:func:`~firmware_bridge.hubstatus.find_problems`)."""
        with self._lock:
            refused = dict(self.refused)
            refused.update({port: link.refused for port, link in self._links.items()
                            if link.refused})
            return find_problems(self.wiring, self._hubs, self.observer.frozen(), refused,
                                 self.clock(), self._started_at, self._claims)

    def watch_hubs(self, callback: Callable[[tuple[HubProblem, ...]], None]) -> None:
        """Call ``callback(problems)`` from the bridge's thread whenever :meth:`hub_problems`
        changes (a hub lost, silent, faulted or replaced, or back): checked every 0.1 s."""
        self._hub_watchers.append(callback)

    def _check_hubs(self) -> None:
        problems = self.hub_problems()
        with self._lock:
            if problems == self._problems:
                return
            before, self._problems = self._problems, problems
            self._changed.notify_all()
        for problem in set(problems) - set(before):
            log.warning("hub problem: %s %s %s", problem.kind, problem.hub, problem.detail)
        for problem in set(before) - set(problems):
            log.info("hub problem over: %s %s", problem.kind, problem.hub)
        for callback in list(self._hub_watchers):
            try:
                callback(problems)
            except Exception:
                log.exception("hub watcher failed")

    def listen_snapshots(
        self, callback: Callable[[AntennaKey, frozenset[str], float], None]
    ) -> Callable[[], None]:
        """Call ``callback(antenna, uids, time)`` with every raw snapshot, before any debounce
        (for measuring read rates); returns the function that stops it."""
        with self._lock:
            self._raw_listeners.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._raw_listeners:
                    self._raw_listeners.remove(callback)
        return stop

    def wait_for(self, condition: Callable[[Bridge], T | None], timeout: float) -> T:
        """Wait until ``condition(bridge)`` is truthy (checked after each change); TimeoutError."""
        return wait_until(self._changed, lambda: condition(self), timeout, "bridge")

    def view(self) -> BoardView:
        with self._lock:
            return self.observer.view()

    def placements(self) -> dict[str, str]:
        with self._lock:
            return dict(self.tracker.placements)

    def antenna_tags(self) -> dict[AntennaKey, frozenset[str]]:
        """Every antenna of every connected hub -> its debounced tags (mapped or not)."""
        with self._lock:
            return {
                AntennaKey(hub.hub_id, a): self.observer.confirmed(AntennaKey(hub.hub_id, a))
                for hub in self._hubs.values() if hub.connected
                for a in range(hub.read_antennas)
            }

    def set_registry(self, registry: TagRegistry) -> None:
        """Use a new tag registry (after registering a tag) from the next update on."""
        with self._lock:
            self.registry = registry
            self.tracker.registry = registry
            self.tracker.update(self.observer.view(), self.piece_clock())

    def refused_ports(self) -> dict[str, str]:
        """Port -> why its hub is not used (another major protocol version)."""
        with self._lock:
            refused = dict(self.refused)
            refused.update({port: link.refused for port, link in self._links.items()
                            if link.refused})
            return refused

    def open_failures(self) -> dict[str, str]:
        """Port -> why it cannot be opened now (``no such port``, permission denied...)."""
        with self._lock:
            return dict(self._open_failures)

    def hubs(self) -> dict[str, HubStatus]:
        with self._lock:
            return dict(self._hubs)

    def reconcile(
        self, rules: MoveRules, also: Mapping[str, p.LedMode] | None = None,
        observe: Callable[[Mapping[str, str]], None] | None = None,
    ) -> Reconciliation:
        """Compare with the rules (see :mod:`firmware_bridge.discrepancy`) and blink the LEDs;
        ``also`` lights other zones (legal destinations ON, the battle FAST) under the blinks.
        ``observe`` is told the placements compared (:meth:`SessionRules.observe
        <companion.core.table.SessionRules.observe>`), under the same lock: a frame from
        another hub between the two would judge pieces the rules were not told of."""
        with self._lock:
            if observe is not None:
                observe(dict(self.tracker.placements))
            result = reconcile(rules, self.tracker, self.observer.view(), self.registry,
                               self.corrections.dismissed)
        self.set_leds({**(also or {}), **result.led_modes()})
        return result

    def declare(self, block_id: str, zone: str, note: str) -> None:
        """A logged correction: ``block_id`` is on ``zone`` while its tag is unseen (a dead or
        covered tag); the placements take it into account at once."""
        with self._lock:
            self.corrections.declare(self.tracker, block_id, zone, note)
            events = self._delivering(self.tracker.update(self.observer.view(),
                                                          self.piece_clock()))
            self._changed.notify_all()
        self._publish(events)

    def handled(self, hub_id: str) -> int | None:
        """The sequence number of the last frame read and handled from hub ``hub_id`` (None:
        none, or the hub is not connected)."""
        with self._lock:
            status = self._hubs.get(hub_id)
            link = status.link if status is not None and status.connected else None
        return None if link is None else link.handled_seq

    def holding(self) -> dict[str, str]:
        """Blocks lifted and not yet put down (nor given up as missing) -> where they were."""
        with self._lock:
            return {b: h.origin for b, h in self.tracker.in_hand.items()}

    def settling(self) -> dict[str, str]:
        """Blocks put down less than ``settle_s`` ago, not yet ruled as moved -> where they
        stand: a hand may still pick them up again (the settle rule, :mod:`.tracking`)."""
        with self._lock:
            return self.tracker.unsettled()

    def telling(self) -> bool:
        """Whether moves the tracker has ruled are still on their way to the subscribers (the
        table session): a hand that sees the table settled must wait for this too before it
        acts on what the rules were told (a tap on Done)."""
        with self._lock:
            return bool(self._unpublished)

    # ------------------------------------------------------------------ commands

    def set_leds(self, modes: Mapping[str, p.LedMode]) -> None:
        """Light zones (legal destinations ON, discrepancies BLINK, battle FAST); others OFF."""
        with self._lock:
            self._leds = dict(modes)
        self._push_leds()

    def set_destinations(self, zones: Iterable[str]) -> None:
        """Light these zones as the legal destinations of the blocks in hand (LED ON, over what
        :meth:`set_leds` shows) and read them first (FOCUS); empty when the hand is empty."""
        with self._lock:
            self._destinations = frozenset(zones)
            self._refocus_locked()
        self._push_leds()
        self._push_focus()
        self._resize_slots()  # the focus's slot lengths at once, not at the next second

    def _refocus_locked(self) -> None:
        """Under the lock: the antennas that matter now are those of the lit destinations and
        of the origins of the blocks in hand (a block put back), watched for those blocks."""
        zones = set(self._destinations)
        origins = {h.origin for h in self.tracker.in_hand.values()} if zones else set()
        # No origin is read in full ('!'): the focus is only set once the readers saw the blocks
        # leave it (they are in hand), so no antenna still lists them when they land.
        self._focus = {k for k, z in self._zone_of.items() if z in zones or z in origins}
        held = self.tracker.in_hand if zones else {}
        uids = sorted(u for u, block in self.registry.tags.items() if block in held)
        self._want = tuple(uids) if len(uids) <= p.MAX_WANTED else ()

    def focus(self) -> frozenset[AntennaKey]:
        """The antennas the hubs are told to read first (protocol 1.3 FOCUS)."""
        with self._lock:
            return frozenset(self._focus)

    def _push_focus(self) -> None:
        """Send FOCUS to each 1.3 hub whose focus changed (``-`` after its HELLO: opting in)."""
        sends: list[tuple[HubLink, p.Focus]] = []
        with self._lock:
            for status in self._hubs.values():
                if (status.link is None or not status.connected
                        or status.hello.protocol < p.FOCUS_READS):
                    continue
                mine = sorted(k.antenna for k in self._focus if k.hub == status.hub_id
                              and k.antenna < status.hello.antennas)  # any other: all refused
                command = p.Focus(tuple(mine), want=self._want if mine else ())
                if self._sent_focus.get(status.hub_id) != command:
                    self._sent_focus[status.hub_id] = command
                    sends.append((status.link, command))
        for link, command in sends:
            link.send(command)

    def _push_leds(self) -> None:
        sends: list[tuple[HubLink, p.SetLed]] = []
        with self._lock:
            lit = {**self._leds, **{z: p.LedMode.ON for z in self._destinations
                                    if z not in self._leds}}
            for key, zone in self._zone_of.items():
                status = self._hubs.get(key.hub)
                if status is None or status.link is None or not status.connected:
                    continue
                if key.antenna >= status.read_antennas:
                    continue
                mode = lit.get(zone, p.LedMode.OFF)
                if self._sent_leds.get(key, p.LedMode.OFF) != mode:
                    self._sent_leds[key] = mode
                    sends.append((status.link, p.SetLed(key.antenna, mode)))
        for link, command in sends:
            link.send(command)

    def self_test(self, timeout: float = 3.0) -> dict[AntennaKey, str]:
        """Ask every connected hub for a self-test; antenna -> PASS / FAIL reason / no answer.
        A scheduled hub tests each antenna in its own slot: allow a whole cycle more."""
        schedule = self.schedule()
        if schedule is not None:
            timeout = max(timeout, schedule.cycle_ms / 1000 + 1.0)
        with self._lock:
            hubs = [h for h in self._hubs.values() if h.connected and h.link is not None]
            for hub in hubs:
                for ant in hub.antennas.values():
                    ant.test = None
        for hub in hubs:
            assert hub.link is not None
            hub.link.send(p.SelfTest())
        expected = {AntennaKey(h.hub_id, a) for h in hubs for a in range(h.read_antennas)}

        def results(bridge: Bridge) -> dict[AntennaKey, str] | None:
            got = {
                AntennaKey(h.hub_id, a): s.test
                for h in hubs for a, s in h.antennas.items() if s.test is not None
            }
            return got if set(got) >= expected else None

        with contextlib.suppress(TimeoutError):
            return self.wait_for(results, timeout)
        with self._lock:
            partial = {
                AntennaKey(h.hub_id, a): s.test
                for h in hubs for a, s in h.antennas.items() if s.test is not None
            }
        return {k: partial.get(k) or "no answer" for k in expected}


def _named(callback: Callable[..., object]) -> str:
    """A subscriber's name for the log: its qualified name (never its repr, which may show
    what it holds)."""
    return str(getattr(callback, "__qualname__", None) or type(callback).__qualname__)


def _port_of(status: HubStatus | None) -> str:
    return status.port if status is not None else "?"
