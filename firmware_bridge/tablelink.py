"""An app's link to the table: the readers (real hubs or the built-in simulator), the bridge and
the table session following one game. Game-neutral: every table app (``companion run``, for any
game) opens its readers with :func:`open_readers` and follows its game with a
:class:`TableLink`; what a change on the table means is the game's ``SessionRules``.

Threads: the bridge calls back from its reader threads; :attr:`TableLink.on_change` is called
from there (an app wakes its loop with it). Calls from the app take :attr:`TableLink.lock`.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core.events import Command, Event
from companion.core.game import Accepted, Game, Rejection
from companion.core.store import CorrectionRecorder
from firmware_bridge.bridge import Bridge
from firmware_bridge.clock import TableClock
from firmware_bridge.discovery import hub_ports
from firmware_bridge.discrepancy import Discrepancy
from firmware_bridge.protocol import SEQ_MODULO
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.wiring import WiringMap

log = logging.getLogger(__name__)


@dataclass
class Readers:
    """The hubs to read: the built-in simulator or serial ports."""

    simulated: SimulatedTable | None
    ports: list[str]
    wiring: WiringMap
    registry: TagRegistry

    def describe(self) -> str:
        if self.simulated is not None:
            return f"simulated readers ({len(self.ports)} virtual hubs)"
        return f"{len(self.ports)} reader hub(s): {', '.join(self.ports)}"


class ReadersUnavailable(ValueError):
    """The readers cannot start: a port given is not there or cannot be opened, or the real
    hubs are not set up yet. ``str()`` is the one line for a console; :attr:`problem` and
    :attr:`advice` are what the start-up screen says."""

    def __init__(self, problem: str, advice: str) -> None:
        super().__init__(f"{problem}: {advice}")
        self.problem = problem
        self.advice = advice


def hub_port_choice(hubs: Sequence[str]) -> list[str]:
    """The serial ports ``--hubs`` means now; empty for the simulator (``sim``, or ``auto``
    with no hub plugged in)."""
    choice = list(hubs) or ["auto"]
    if choice == ["auto"]:
        return [p.device for p in hub_ports()]
    return [] if choice == ["sim"] else choice


def check_readers(hubs: Sequence[str], config: Path) -> None:
    """Raise :class:`ReadersUnavailable` if :func:`open_readers` cannot start the readers
    ``hubs`` names; cheap and without side effects (a start-up screen retries it)."""
    ports = hub_port_choice(hubs)
    for port in ports:
        why = _port_problem(port)
        if why is not None:
            raise ReadersUnavailable(f"Cannot open {port}", why)
    if not ports:
        return
    for name, how in (("wiring.yaml", "hardware wiring"), ("tags.yaml", "hardware register-tags")):
        if not (config / name).exists():
            raise ReadersUnavailable("The hubs are not set up yet",
                                     f"{_home(config / name)} is missing: run `companion "
                                     f"{how}` on this computer first")


def _home(path: Path) -> str:
    """``~/...`` for a path in the home directory: short enough to read on a 7-inch screen."""
    try:
        return f"~/{path.relative_to(Path.home())}"
    except ValueError:
        return str(path)


def _port_problem(port: str) -> str | None:
    """Why a hub's serial port cannot be opened, or None. Looked at, never opened: opening a
    port may restart the board behind it."""
    try:
        mode = os.stat(port).st_mode
    except FileNotFoundError:
        return "there is no such port: check the hub's USB cable, or the name after --hubs"
    except OSError as exc:
        return exc.strerror or str(exc)
    if not stat.S_ISCHR(mode):
        return "it is not a serial port: give the hub's port after --hubs (like /dev/ttyACM0)"
    if not os.access(port, os.R_OK | os.W_OK):
        return ("permission denied: add this user to the dialout group and log in again "
                "(docs/bridge.md)")
    return None


def open_readers(hubs: Sequence[str], config: Path, workdir: Path, rate_hz: int = 10,
                 seed: int | None = 0, sim_hubs: int = 5, time_model: bool = False,
                 instr_us: float = 250.0) -> Readers:
    """``["auto"]``: real hubs if any is plugged in, else the simulator; ``["sim"]``: the
    simulator (``sim_hubs`` virtual hubs for the served game, :func:`~firmware_bridge.zones.
    use_table`; ``time_model``: reading at the air-time model's pace, ``instr_us`` per SPI
    instruction, :mod:`firmware_bridge.simulator`); otherwise the serial ports given. Real
    hubs need the wiring map and tag registry made by ``companion hardware wiring`` and
    ``register-tags`` (in ``config``): :class:`ReadersUnavailable` if they or a port are
    missing (:func:`check_readers`)."""
    ports = hub_port_choice(hubs)
    if not ports:
        table = SimulatedTable.create(workdir / "hubs", hubs=sim_hubs, rate_hz=rate_hz, seed=seed,
                                      time_model=time_model, instr_us=instr_us)
        table.start()
        return Readers(table, table.ports, table.wiring, table.registry)
    check_readers(ports, config)
    return Readers(None, ports, WiringMap.load(config / "wiring.yaml"),
                   TagRegistry.load(config / "tags.yaml"))


_WORKDIRS: set[Path] = set()


def default_workdir(prefix: str = "companion-") -> Path:
    """A fresh temporary directory (the simulator's pseudo-terminal links, a demo's database):
    removed by :func:`remove_workdir`, and in any case when the process exits (normally, on an
    error, Ctrl-C, or a SIGTERM that ``companion`` turns into an exit)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    _WORKDIRS.add(path)
    return path


def remove_workdir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    _WORKDIRS.discard(path)


def remove_workdirs() -> None:
    """Every work directory this process made and still has."""
    for path in list(_WORKDIRS):
        remove_workdir(path)


atexit.register(remove_workdirs)


@dataclass
class TableLink:
    """The readers, the bridge and a table session on ``game``. ``start()`` then ``stop()``;
    :meth:`follow` switches to another game (a new one, or one resumed from the store) while
    the readers keep running."""

    readers: Readers
    game: Game[Any, Any, Any]
    debounce_missing_s: float = 10.0
    settle_s: float = 0.3
    """How long set-down pieces rest before they are ruled as moved (the settle rule)."""
    on_change: Callable[[], None] | None = None
    clock: Callable[[], float] = field(default_factory=TableClock)
    """The bridge's clock (:attr:`Bridge.clock`): a :class:`TableClock` lets a machine's hand
    move it past the settle rule's rest (:meth:`rest_over`); tests may inject any clock."""
    bridge: Bridge = field(init=False)
    session: TableSession = field(init=False)
    lit: frozenset[str] = field(default=frozenset(), init=False)
    """The legal destinations of the pieces in hand, lit on the table (7.3 for Sekigahara)."""
    _held: tuple[str, tuple[str, ...]] | None = field(default=None, init=False)
    _retrying: bool = field(default=False, init=False)
    lock: threading.RLock = field(default_factory=threading.RLock, init=False)

    def start(self) -> TableLink:
        r = self.readers
        self.bridge = Bridge(r.ports, wiring=r.wiring, registry=r.registry,
                             missing_after_s=self.debounce_missing_s, settle_s=self.settle_s,
                             clock=self.clock.base if isinstance(self.clock, TableClock)
                             else self.clock, piece_clock=self.clock)
        self.bridge.start()
        self.session = TableSession(self.bridge, self.game)
        self.session.on_refresh = self._notify
        self.bridge.subscribe(lambda _event: self._changed())
        self.bridge.watch_hubs(lambda _problems: self._hubs_changed())
        self.session.start()
        return self

    def rest_over(self) -> bool:
        """A machine's hand (the demo, the whole-app tests) never comes back for the pieces it
        set down, nor for those it put where no antenna reads (a bag). Once the simulated
        readers see every piece where the simulated table holds it, move the clock on past
        what the bridge would otherwise sleep through, and judge at once: pieces still resting
        are ruled as after the settle rule's rest, and the pieces lifted that lie nowhere the
        readers watch, where the rules want them now (a bag), are given up as missing as
        after ``debounce_missing_s``; one the rules want on a read place waits the real time, as it
        would for players (a tap may yet change where the rules want it). True if it did;
        False (and nothing done) with real hubs, a clock that cannot be moved, or pieces set
        down that the readers have not seen yet, or frames the hubs wrote before now still on
        their way to the bridge (read before the hand's last move, they may yet say a piece is
        where it was). The caller's hand must be empty."""
        table = self.readers.simulated
        if table is None or not isinstance(self.clock, TableClock):
            return False
        bridge = self.bridge
        written = {name: seq for name, hub in table.hubs.items()
                   if hub.plugged and not hub.mischief.silent
                   and (seq := hub.sent_seq) is not None}
        if not all(_reached(bridge.handled(name), seq) for name, seq in written.items()):
            return False  # first what the readers said before now, then judge
        held = bridge.holding()
        resting = bridge.settling()
        if not held and not resting:
            return False
        lying = {piece: zone for zone, pieces in table.occupied() for piece in pieces}
        if any(piece in lying for piece in held) or bridge.placements() != lying:
            return False  # the readers have yet to see some of what the hand did
        if held:  # gone where no antenna reads: only where the rules want them now
            read = set(bridge.wiring.table().values())
            expected = self.session.rules.expected_positions()
            if any(expected.get(piece) in read for piece in held):
                return False  # a piece missing from where it should be is for the players
        if held:  # these, and only these: a lift read since is the hand's next move
            bridge.give_up(held)
        else:
            self.clock.skip(max(self.settle_s, bridge.tracker.unread_settle_s))
            bridge.tick()
        return True

    def follow(self, game: Game[Any, Any, Any], records: CorrectionRecorder | None = None
               ) -> None:
        """Follow ``game``; the old session stops, the readers keep running. ``records``
        stores corrections with who and why."""
        with self.lock:
            self.session.stop()
            self.game = game
            self.session = TableSession(self.bridge, self.game, records)
            self.session.on_refresh = self._notify
            self.session.start()

    def retry_unsaved(self) -> None:
        """While the store refuses to save (never silently), try again every second."""
        if self.session.unsaved is None or self._retrying:
            return
        self._retrying = True

        def retry() -> None:
            self._retrying = False
            self.session.refresh()
            self._notify()
            self.retry_unsaved()

        timer = threading.Timer(1.0, retry)
        timer.daemon = True
        timer.start()

    def stop(self) -> None:
        self.session.stop()
        self.bridge.stop()
        if self.readers.simulated is not None:
            self.readers.simulated.stop()

    def _notify(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _hubs_changed(self) -> None:
        """From the bridge's thread: a hub was lost, went quiet, failed or came back. The table
        is judged again at once (its places are unobserved, or read again) and the screens
        redraw, whether or not a piece moved."""
        self.session.refresh()
        self._notify()

    def _changed(self) -> None:
        """From a reader thread: light the legal destinations of a lifted stack."""
        held = self.bridge.holding()
        origins = set(held.values())
        key = None
        if held and len(origins) == 1:
            key = (next(iter(origins)), tuple(sorted(held)))
        self.retry_unsaved()
        if key != self._held:
            self._held = key
            if key is None:
                self.lit = frozenset()
                self.session.clear_destinations()
            else:
                self.lit = frozenset(self.session.show_destinations(key[0], key[1]))
        self._notify()

    # ------------------------------------------------------------------ what screens see

    def hub_lines(self) -> tuple[str, ...]:
        """What is wrong with the hubs, one sentence each for the shared screen (empty when
        every hub answers): see :mod:`firmware_bridge.hubstatus`."""
        return tuple(p.words(self.session.table) for p in self.bridge.hub_problems())

    @property
    def in_hand(self) -> int:
        """Pieces lifted off the table right now (counted, never named)."""
        return len(self.bridge.holding())

    @property
    def settling(self) -> int:
        """Pieces just set down, ruled once they rest (the settle rule)."""
        return len(self.bridge.settling())

    # ------------------------------------------------------------------ touches

    def submit(self, command: Command, by: str | None = None) -> Accepted[Event] | Rejection:
        """A command tapped on the shared screen by ``by`` (a side, a colour)."""
        with self.lock:
            return self.session.submit(command, by)

    def answer(self, question_id: int, choice: int) -> Accepted[Event] | Rejection:
        with self.lock:
            return self.session.answer(question_id, choice)

    def discrepancy(self, index: int) -> Discrepancy:
        found = self.session.discrepancies
        if not 0 <= index < len(found):
            raise ValueError("that discrepancy has already been resolved")
        return found[index]

    def accept_table(self, index: int) -> None:
        """"Accept what is on the table": logged."""
        with self.lock:
            self.session.accept_table(self.discrepancy(index), "accepted on the touchscreen")

    def put_back(self, index: int) -> None:
        """"Put it back": the game is right; logged."""
        with self.lock:
            self.session.trust_engine(self.discrepancy(index), "put back, on the touchscreen")


def _reached(handled: int | None, seq: int) -> bool:
    """Whether a hub's frame ``handled`` is ``seq`` or came after it (numbers wrap round)."""
    return handled is not None and (handled - seq) % SEQ_MODULO < SEQ_MODULO // 2
