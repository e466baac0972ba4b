#!/usr/bin/env python3
"""Table app latency: from a hand on a simulated block to the screen showing it and the ruling.

Runs the whole table app in this process, as ``companion run --headless --hubs sim
--time-model`` does: the built-in simulator (5 virtual hubs on pseudo-terminals), the bridge,
the table session, the engine and the touchscreen (:class:`~ui.sekigahara.app.TableApp`, SDL's
dummy video driver). The main thread drives the app's loop itself, exactly as ``App.run`` does:
``app.pump(app._timeout_ms())``.

**What is computed and what is measured.** With ``--time-model`` (the default;
``--no-time-model`` for the old 10 complete scans a second, reads taking no time) each
simulated hub reads one antenna at a time, keeps the scan schedule the bridge sends
(docs/protocol.md 5.1) and the focus (5.2), and each read lasts the time the **computed**
air-time model gives (``firmware_bridge/airtime.py``: ``read_ms`` for a full read,
``quick_read_ms`` for a quick one, at ``--instr-us`` per SPI instruction, 250 by default: a
pessimistic MicroPython); between two reads a hub spends ``--gap-ms`` (2 by default,
**estimated**) sending the SNAP, the only time a ``SYNC`` that comes while it reads back to back
is used (as on the firmware): how many hubs keep the slots is printed. Everything else is
**measured** here on this machine's clock: the hubs' frames as written, the bridge, the
tracker's rules, the session, the engine, the UI's loop and redraws, the frames reaching the
display.

**The position** (``--position``). ``setup``: seeded random players (the engine's
``RandomPlayer``) play a real game through the set-up (5.2) to the Movement Phase of week 1 with
a level of movement bought and no stack moved yet: the set-up position. ``crowded`` (the
default): the same, then every empty map location gets one block taken from a bag, so that
*every* location holds at least one block. The first seed from ``--seed`` on whose mover bought a
limited or minimal level is used (the moves left are on the screen, which is how a ruling shows,
below). The app follows that position (a fresh table session on it) and it is laid out on the
simulated table, block by block, until the table agrees with the engine.

**A trial.** The simulated hand lifts one block of the side to move from a map location (in
``crowded``, from a location holding two or more, so every location stays populated), waits until
the screen shows "1 block in hand: legal destinations are lit", picks a random one of the lit
legal destinations other than the origin, hovers (0.3 s plus a random part of one scan cycle of
the schedule in force, so the put-down falls at a random phase of the scan) and puts it down there,
then waits until the screen shows the engine's ruling. Then the next trial starts from the same
position: the hand puts the block back on its origin, and once the readers see it there the app
follows a fresh table session on the position (the move ruled, and whatever the old session made
of the way back, are dropped with it); the settle rule's rest is skipped during this reset
(:meth:`~firmware_bridge.tablelink.TableLink.rest_over`, as the demo does; nothing of the reset
is timed).

**The figures of the last line** (p50/p90: nearest-rank percentiles over the trials):

* ``revisit_ms_p50``: the median interval between two consecutive reads of one antenna (the
  times the hub wrote their SNAPs' last parts), over the antennas that matter while a block is in
  hand (its origin and every lit destination): every pair of consecutive SNAPs of such an
  antenna whose first was written between the first frame showing the block in hand and the
  put-down.
* ``putdown_to_shown_ms_p50``/``_p90``: from the instant the simulated hand puts the tag on the
  destination antenna to the first frame on display (``App.on_frame``: ``pygame.display.flip``
  returned) without the "in hand" line (the block is shown landed: "Blocks set down" or the
  ruling).
* ``putdown_to_ruled_ms_p50``/``_p90``: from the same instant to the first frame on display
  showing the engine's ruling of the move: the movement button that was on screen before the
  lift ("End movement (3 moves left)") gone, as the engine's answer replaces it (one move less,
  or a question about the move, such as which route the stack took, or the phase over), and
  neither the "in hand" nor the "Blocks set down" line shown. How each trial was ruled (moved,
  asked, other) is printed on the line before.

**The earlier figures.** For each lift and put-down the hub's frame observer
(``VirtualHub.on_frame``) also gives the time the hub *wrote* the first complete snapshot of that
antenna that omits (lift) or contains (put-down) the tag, and the time it wrote the snapshot that
completed the debounce; ``tag_to_pixels`` = frame on display - first hub frame showing the
change, so it includes the debounce, the pty, decoding, tracking, the engine's destination query,
the wake-up of the UI loop and one full redraw (the put-down's in ``tag_to_pixels_*``, the lift's
on its own line). ``debounce_ms`` is *measured*: the median of (hub frame completing the
debounce - first hub frame showing the block).

**idle_cpu_percent.** Then the app is left idle for ``--idle-seconds`` (game on screen, table
still, frame observers detached): CPU time of the whole process (``time.process_time``: every
thread, *including the simulator's hub threads*, which on a real table run in the hubs, not on
the Pi) over wall time, in percent of one core. Per-thread CPU time (``/proc/self/task/TID/stat``)
splits it: the figure without the simulator's threads is printed on a line before the result.

**first_frame_s.** A fresh child process (``python -c``: ``TableApp(Options(hubs=["sim"]))``
headless, as ``companion run --headless --hubs sim`` builds it) is timed from just before it is
spawned (fork, exec, interpreter start, imports, simulator, bridge, first draw) to the moment its
first frame (the start screen) reached the display, on CLOCK_MONOTONIC shared by both processes.
The median of ``--first-frame-runs`` runs is reported.

**rss_mb.** The peak resident set size (``ru_maxrss``) of this process: the app with the game,
the bridge and the simulator, at the end of the run. The child's peak is printed before it.

The last two lines are machine-readable::

    tag_to_pixels_p50_ms=X tag_to_pixels_p99_ms=Y debounce_ms=Z idle_cpu_percent=W \
first_frame_s=V rss_mb=U
    revisit_ms_p50=A putdown_to_shown_ms_p50=B putdown_to_shown_ms_p90=C \
putdown_to_ruled_ms_p50=D putdown_to_ruled_ms_p90=E

Usage: ``SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/table_latency.py [--trials 30]
[--position crowded|setup] [--time-model | --no-time-model] [--instr-us 250] [--gap-ms 2]
[--idle-seconds 10] [--rate 10] [--seed 1] [--first-frame-runs 3]``
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from companion.core.game import Accepted, Game
from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.engine.data import side_of
from companion.games.sekigahara.engine.game import SekigaharaGame, SekigaharaRules, new_game
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.state import BAG, Level, Phase, State
from firmware_bridge import protocol as p
from firmware_bridge.observation import DebounceConfig
from firmware_bridge.schedule import ScanSchedule
from ui.sekigahara.app import Options, TableApp
from ui.shell.app import FRAME_S

ROOT = Path(__file__).resolve().parents[1]
IN_HAND = re.compile(r"^\d+ blocks? in hand")
SETTLING = "Blocks set down: ruled once they rest"
STEP_TIMEOUT_S = 30.0
RULING_TIMEOUT_S = 60.0
GAP_MS = 2.0
"""ESTIMATED time a hub takes between two reads: a SNAP line's bitwise CRC in MicroPython and
its USB write (a SYNC can only be used then while a hub reads back to back): measure it."""

FIRST_FRAME_CHILD = """
import os, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from pathlib import Path
from ui.sekigahara.app import Options, TableApp
from ui.shell.app import FRAME_S
work = Path(sys.argv[1])
table_app = TableApp(Options(hubs=["sim"], virtual_table=False, workdir=work,
                             pin_file=work / "pin", db=work / "games.sqlite"))
seen = []
table_app.app.on_frame = seen.append
deadline = time.monotonic() + 60
while not seen and time.monotonic() < deadline:
    table_app.app.pump(min(table_app.app._timeout_ms(), 100))
screen = table_app.app.screen.name if table_app.app.screen else "none"
table_app.close()
import resource
print(f"first_frame {seen[0] if seen else -1.0!r} {screen} "
      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", flush=True)
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# ---------------------------------------------------------------------- the position


class PositionRules(SekigaharaRules):
    """The Sekigahara rules, starting from a given position instead of an empty box."""

    def __init__(self, state: State) -> None:
        self._start = state

    def initial_state(self) -> State:
        return self._start.copy()


def play_to_movement(seed: int) -> State:
    """A real game through the set-up (5.2) to the Movement Phase of week 1, a level of movement
    bought and no stack moved yet."""
    rng = random.Random(seed)
    cards = Table.shuffled(rng)
    player = RandomPlayer(rng, cards)
    game = new_game()
    for _ in range(20_000):
        s = game.state
        if (s.phase is Phase.MOVEMENT and s.level not in (None, Level.NONE)
                and s.moves_left > 0 and not s.moved):
            return game.state.copy()
        result = game.submit(player.command(s))
        if isinstance(result, Accepted):
            for event in result.events:
                cards.observe(event)
    raise RuntimeError(f"seed {seed}: no Movement Phase with a level bought")


def fill_every_location(state: State) -> State:
    """One block from a bag on every empty map location, so that every location is populated."""
    board = default_board()
    occupied = set(state.pos.values())
    bags = {side: sorted(b for b, z in state.pos.items() if z == BAG and side_of(b) is side)
            for side in Side}
    for location in board.locations:
        if location in occupied:
            continue
        side = max(Side, key=lambda s: len(bags[s]))
        if not bags[side]:
            raise RuntimeError("not enough blocks in the bags to fill every location")
        state.pos[bags[side].pop()] = location
    return state


def build_position(seed: int, position: str = "crowded") -> tuple[State, int]:
    """The position and the seed that gave it: the first from ``seed`` on whose mover bought a
    limited or minimal level (the screen then counts the moves left, 7.1)."""
    for tried in range(seed, seed + 200):
        state = play_to_movement(tried)
        if state.level in (Level.LIMITED, Level.MINIMAL):
            return (fill_every_location(state) if position == "crowded" else state), tried
    raise RuntimeError(f"no seed from {seed} buys a limited or minimal level")


def follow_position(table_app: TableApp, state: State, lay_out: bool = True) -> None:
    """A fresh table session on ``state`` (what was ruled before is dropped with the old one)
    and, with ``lay_out``, the position laid out on the simulated table."""
    control = table_app.control
    game: SekigaharaGame = Game(PositionRules(state))
    control.follow(game)
    if lay_out:
        virtual = table_app.virtual
        assert virtual is not None
        for block, zone in sorted(control.session.rules.expected_positions().items()):
            virtual.place(block, zone)
    table_app.back_to_game()  # the board, as "Resume" on the start screen shows it


def settled(table_app: TableApp) -> bool:
    snap = table_app.control.snapshot()
    return not snap.questions and not snap.discrepancies and snap.in_hand == 0


def rested(table_app: TableApp) -> bool:
    """The table agrees with the engine and nothing rests: the settle rule's rest is skipped
    once the readers see the pieces where the simulated table holds them (as the demo does)."""
    table_app.control.rest_over()
    return settled(table_app) and table_app.control.settling == 0


def back(table_app: TableApp, block: str, origin: str) -> bool:
    """The readers see ``block`` on ``origin`` again and nothing in hand or resting (the old
    session may take the way back as it likes: a fresh one follows)."""
    table_app.control.rest_over()
    bridge = table_app.control.bridge
    return (bridge.placements().get(block) == origin and not bridge.holding()
            and not bridge.settling())


def pump_until(table_app: TableApp, done: Callable[[], bool], what: str,
               timeout: float = STEP_TIMEOUT_S) -> None:
    """Run the app's loop as ``App.run`` does until ``done()`` (bounded by ``timeout``)."""
    app = table_app.app
    deadline = time.monotonic() + timeout
    while not done():
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms <= 0:
            snap = table_app.control.snapshot()
            raise RuntimeError(f"timed out waiting for {what}; on screen: {texts(table_app)}; "
                               f"questions {snap.questions}; discrepancies "
                               f"{snap.discrepancies}; in hand {snap.in_hand}")
        app.pump(max(1, min(app._timeout_ms(), left_ms)))


def pump_for(table_app: TableApp, seconds: float) -> None:
    """Run the app's loop as ``App.run`` does for ``seconds``."""
    app = table_app.app
    end = time.monotonic() + seconds
    while (left_ms := int((end - time.monotonic()) * 1000)) > 0:
        app.pump(min(app._timeout_ms(), left_ms))


# ---------------------------------------------------------------------- watching the hubs


@dataclass
class Watch:
    """Watches one antenna of one hub for one tag, from the hub's own threads."""

    hub: str
    antenna: int
    uid: str
    present: bool
    """True: wait for snapshots containing the tag (put down); False: omitting it (lift)."""
    needed: int
    """Snapshots in a row the debounce needs."""
    first: float | None = None
    confirmed: float | None = None
    _run: int = 0
    _parts: list[str] = field(default_factory=list)

    def frame(self, hub: str, message: p.Message, at: float) -> None:
        if hub != self.hub or not isinstance(message, p.Snapshot):
            return
        if message.antenna != self.antenna or self.confirmed is not None:
            return
        if message.part == 1:
            self._parts = []
        self._parts.extend(message.uids)
        if message.part != message.parts:
            return
        if (self.uid in self._parts) == self.present:
            if self._run == 0:
                self.first = at
            self._run += 1
            if self._run >= self.needed:
                self.confirmed = at
        else:
            self._run = 0
            self.first = None


class Observer:
    """The frame observer given to every hub: forwards frames to the current watch and keeps
    the time of every complete snapshot, per antenna."""

    def __init__(self) -> None:
        self.watch: Watch | None = None
        self.snaps: dict[tuple[str, int], list[float]] = {}

    def __call__(self, hub: str, _seq: int, message: p.Message, at: float) -> None:
        if isinstance(message, p.Snapshot) and message.part == message.parts:
            self.snaps.setdefault((hub, message.antenna), []).append(at)
        watch = self.watch
        if watch is not None:
            watch.frame(hub, message, at)

    def revisits(self, keys: Iterable[tuple[str, int]], begin: float, end: float) -> list[float]:
        """Intervals (ms) between consecutive snapshots of each antenna, the first of the two
        written in [begin, end)."""
        found = []
        for key in keys:
            times = list(self.snaps.get(key, ()))
            found += [(b - a) * 1000 for a, b in itertools.pairwise(times) if begin <= a < end]
        return found


@dataclass
class Sample:
    kind: str
    latency_ms: float
    debounce_ms: float
    shown_at: float
    """When the first frame showing the change reached the display."""


def measure_change(table_app: TableApp, observer: Observer, watch: Watch,
                   act: Callable[[], None], shown: Callable[[], bool]) -> Sample:
    """Arm ``watch``, ``act`` on the table, run the app until a frame showing the change
    (``shown()`` on that frame's strings) reached the display."""
    app = table_app.app
    on_display: list[float] = []

    def on_frame(at: float) -> None:
        if not on_display and shown():
            on_display.append(at)

    app.on_frame = on_frame
    observer.watch = watch
    act()
    try:
        pump_until(table_app, lambda: bool(on_display) and watch.confirmed is not None,
                   "the screen to show the change")
    finally:
        app.on_frame = None
        observer.watch = None
    assert watch.first is not None and watch.confirmed is not None
    kind = "put" if watch.present else "lift"
    return Sample(kind, (on_display[0] - watch.first) * 1000,
                  (watch.confirmed - watch.first) * 1000, on_display[0])


def texts(table_app: TableApp) -> list[str]:
    return [text for _, text in table_app.app.drawn]


def in_hand_shown(table_app: TableApp) -> bool:
    return any(IN_HAND.match(text) for text in texts(table_app))


def movement_label(table_app: TableApp) -> str:
    """The movement button on screen now, which counts the moves left (7.1)."""
    found = [t for t in texts(table_app) if t.startswith("End movement (")]
    if len(found) != 1:
        raise RuntimeError(f"no movement button counting the moves left on screen: {found}")
    return found[0]


def ruled_shown(table_app: TableApp, label: str) -> bool:
    """The frame shows the engine's answer to the move: the movement button of before gone, and
    neither a block in hand nor blocks resting shown."""
    drawn = texts(table_app)
    return (label not in drawn and not any(IN_HAND.match(t) for t in drawn)
            and SETTLING not in drawn)


def candidates(table_app: TableApp, crowded: bool) -> list[tuple[str, str]]:
    """(block, location) for the active side's blocks on map locations (with ``crowded``, on
    locations holding two or more: every location stays populated)."""
    state = table_app.control.game.state
    board = default_board()
    crowd: dict[str, int] = {}
    for zone in state.pos.values():
        crowd[zone] = crowd.get(zone, 0) + 1
    return sorted((b, z) for b, z in state.pos.items()
                  if z in board.locations and (crowd[z] > 1 or not crowded)
                  and side_of(b) is state.active and b not in state.inside)


@dataclass
class Trial:
    lift: Sample
    put: Sample
    revisits: list[float]
    shown_ms: float
    ruled_ms: float
    outcome: str
    cycle_ms: float = float("nan")
    """The scan schedule's cycle while the block was in hand (as the hand put it down)."""


def cycle_s(table_app: TableApp, rate: int) -> float:
    """One scan cycle of the schedule in force (1/rate without one)."""
    schedule = table_app.control.bridge.schedule()
    return schedule.cycle_ms / 1000 if schedule is not None else 1 / rate


def run_trial(table_app: TableApp, observer: Observer, rng: random.Random, block: str,
              origin: str, debounce: DebounceConfig, rate: int) -> Trial | None:
    """Lift ``block`` off ``origin``, put it on a random lit destination, wait for the ruling;
    None if nothing but the origin was lit."""
    control = table_app.control
    sim = control.readers.simulated
    assert sim is not None
    uid = sim.uid(block)
    [home] = sim.wiring.antennas_of(origin)
    label = movement_label(table_app)
    start = control.game.state
    before = (start.moves_left, start.phase, start.active)
    lift = measure_change(table_app, observer,
                          Watch(home.hub, home.antenna, uid, False, debounce.vanish_scans),
                          partial(sim.lift, block), lambda: in_hand_shown(table_app))
    lit = sorted(control.lit - {origin})
    if not lit:
        return None
    destination = rng.choice(lit)
    matter = {(home.hub, home.antenna)} | {(k.hub, k.antenna) for zone in control.lit
                                           for k in sim.wiring.antennas_of(zone)}
    pump_for(table_app, 0.3 + rng.uniform(0, cycle_s(table_app, rate)))  # the hand hovers
    [there] = sim.wiring.antennas_of(destination)
    watch = Watch(there.hub, there.antenna, uid, True, debounce.appear_scans)
    marks: dict[str, float] = {}

    def on_frame(at: float) -> None:
        if "shown" not in marks and not in_hand_shown(table_app):
            marks["shown"] = at
        if "ruled" not in marks and ruled_shown(table_app, label):
            marks["ruled"] = at

    app = table_app.app
    app.on_frame = on_frame
    observer.watch = watch
    held_cycle_ms = cycle_s(table_app, rate) * 1000
    put_at = time.monotonic()
    sim.put(block, destination)
    try:
        pump_until(table_app, lambda: "ruled" in marks and watch.confirmed is not None,
                   f"the ruling of {block} from {origin} to {destination}", RULING_TIMEOUT_S)
    finally:
        app.on_frame = None
        observer.watch = None
    assert watch.first is not None and watch.confirmed is not None
    put = Sample("put", (marks["shown"] - watch.first) * 1000,
                 (watch.confirmed - watch.first) * 1000, marks["shown"])
    state = control.game.state
    outcome = ("moved" if (state.moves_left, state.phase, state.active) != before
               else "asked" if control.snapshot().questions else "other")
    return Trial(lift, put, observer.revisits(matter, lift.shown_at, put_at),
                 (marks["shown"] - put_at) * 1000, (marks["ruled"] - put_at) * 1000, outcome,
                 held_cycle_ms)


def run_trials(table_app: TableApp, observer: Observer, state: State, trials: int,
               rate: int, seed: int, debounce: DebounceConfig, crowded: bool
               ) -> tuple[list[Trial], int]:
    """``trials`` trials from ``state`` (see the module docstring), and how many picks lit
    nothing but their origin (put back, not counted)."""
    sim = table_app.control.readers.simulated
    assert sim is not None
    rng = random.Random(seed)
    choices = candidates(table_app, crowded)
    if not choices:
        raise RuntimeError("no block of the side to move to lift")
    done: list[Trial] = []
    skipped = 0
    while len(done) < trials:
        if skipped > 10 * trials:
            raise RuntimeError("the blocks lifted light no destination")
        block, origin = rng.choice(choices)
        trial = run_trial(table_app, observer, rng, block, origin, debounce, rate)
        if trial is None:
            skipped += 1
        else:
            done.append(trial)
        sim.put(block, origin)  # the hand puts the block back, then the move is dropped
        pump_until(table_app, partial(back, table_app, block, origin), "the block back", 60)
        follow_position(table_app, state, lay_out=False)
        pump_until(table_app, lambda: rested(table_app), "the table to settle", 60)
        pump_for(table_app, rng.uniform(0, 1 / rate))
    return done, skipped


# ---------------------------------------------------------------------- CPU and start-up


def thread_cpu_s(native_id: int) -> float:
    """User + system CPU time of one thread of this process (0 once it has gone)."""
    try:
        raw = Path(f"/proc/self/task/{native_id}/stat").read_text()
    except OSError:
        return 0.0
    fields = raw[raw.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(table_app: TableApp, seconds: float) -> tuple[float, float, float, int]:
    """(percent of one core for the process, without the simulator's hub threads, for the main
    thread alone, frames drawn) over ``seconds`` of the app left idle."""
    sim_threads = [t.native_id for t in threading.enumerate()
                   if t.name.startswith("sim-") and t.native_id is not None]
    main = threading.main_thread().native_id or 0
    frames0 = table_app.app.frames_drawn
    sim0 = sum(thread_cpu_s(t) for t in sim_threads)
    main0 = thread_cpu_s(main)
    cpu0, wall0 = time.process_time(), time.monotonic()
    pump_for(table_app, seconds)
    wall = time.monotonic() - wall0
    cpu = time.process_time() - cpu0
    sim = sum(thread_cpu_s(t) for t in sim_threads) - sim0
    main_cpu = thread_cpu_s(main) - main0
    return (cpu / wall * 100, (cpu - sim) / wall * 100, main_cpu / wall * 100,
            table_app.app.frames_drawn - frames0)


def first_frame(runs: int) -> tuple[list[float], float]:
    """Seconds from spawning a fresh app process to its first frame on display, per run, and
    the children's peak RSS in MB."""
    found: list[float] = []
    rss = 0.0
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            done = subprocess.run([sys.executable, "-c", FIRST_FRAME_CHILD, tmp], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=120)
        line = next((ln for ln in done.stdout.splitlines() if ln.startswith("first_frame ")),
                    None)
        if done.returncode != 0 or line is None:
            raise RuntimeError(f"the app did not start: {done.stderr.strip()[-500:]}")
        _, at, screen, maxrss = line.split()
        if float(at) < 0:
            raise RuntimeError("the app drew no frame within 60 s")
        if screen != "start":
            print(f"note: the first frame showed the {screen!r} screen", flush=True)
        found.append(float(at) - start)
        rss = max(rss, int(maxrss) / 1024)
    return found, rss


# ---------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--trials", type=int, default=30,
                        help="lift, put down and rule trials (default 30)")
    parser.add_argument("--position", choices=("crowded", "setup"), default="crowded",
                        help="every location populated (default), or the set-up position (5.2)")
    parser.add_argument("--time-model", action=argparse.BooleanOptionalAction, default=True,
                        help="hubs read one antenna at a time for the computed air-time model's "
                        "time, in the bridge's slots (default; --no-time-model: the old "
                        "complete scans --rate times a second)")
    parser.add_argument("--instr-us", type=float, default=250.0, metavar="US",
                        help="with --time-model: the hubs' cost per SPI instruction (default 250)")
    parser.add_argument("--gap-ms", type=float, default=GAP_MS, metavar="MS",
                        help="with --time-model: the hubs' time between two reads, sending the "
                        f"SNAP (an estimate, default {GAP_MS:g})")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=10,
                        help="the hubs' scan rate (a ceiling with --time-model; default 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-frame-runs", type=int, default=3)
    args = parser.parse_args()
    if args.trials < 1 or args.first_frame_runs < 1 or args.idle_seconds <= 0:
        parser.error("--trials and --first-frame-runs must be positive, --idle-seconds > 0")
    if not 1 <= args.instr_us <= 10_000 or not 0 <= args.gap_ms <= 1000:
        parser.error("--instr-us is 1 to 10000, --gap-ms 0 to 1000")
    debounce = DebounceConfig()

    # First the child processes: they measure start-up on a machine not busy with our app.
    starts, child_rss = first_frame(args.first_frame_runs)
    print(f"first frame of the start screen, fresh process, {len(starts)} runs: "
          + ", ".join(f"{s:.3f}" for s in starts) + f" s; child peak RSS {child_rss:.1f} MB",
          flush=True)

    crowded = args.position == "crowded"
    state, seed = build_position(args.seed, args.position)
    if args.time_model:
        print(f"time model: each simulated read lasts what firmware_bridge/airtime.py computes "
              f"at {args.instr_us:g} us per SPI instruction (COMPUTED), {args.gap_ms:g} ms "
              f"between reads (ESTIMATED); the hubs follow the bridge's scan slots and focus; "
              f"every latency below is MEASURED end to end (hubs' frames, bridge, session, "
              f"engine, screen) on this machine", flush=True)
    else:
        print(f"no time model: every simulated hub reports every antenna {args.rate} times a "
              f"second, reads taking no time (NOT what a real hub does); latencies MEASURED",
              flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        table_app = TableApp(Options(hubs=["sim"], virtual_table=False, rate_hz=args.rate,
                                     seed=args.seed, workdir=work, pin_file=work / "pin",
                                     db=work / "games.sqlite", time_model=args.time_model,
                                     instr_us=args.instr_us))
        table_app.app.frame_s = FRAME_S  # paced as on the Pi's panel, though headless
        try:
            sim = table_app.control.readers.simulated
            assert sim is not None
            observer = Observer()
            for hub in sim.hubs.values():
                hub.on_frame = observer
                hub.gap_ms = args.gap_ms
            follow_position(table_app, state)
            pump_until(table_app, lambda: rested(table_app), "the position to be read", 120)
            pump_for(table_app, 0.5)
            game = table_app.control.game.state
            board = default_board()
            populated = {z for z in game.pos.values() if z in board.locations}
            placed = table_app.control.bridge.placements()
            on_map = sum(1 for z in placed.values() if z in board.locations)
            mover = game.active.value if game.active else "-"
            print(f"position {args.position} (seed {seed}): week {game.week}, "
                  f"{game.phase.value}, {mover} moves "
                  f"({game.level.value if game.level else '-'}, {game.moves_left} moves); "
                  f"{len(populated)}/{len(board.locations)} locations populated, {on_map} blocks "
                  f"on the map read by {len(sim.hubs)} simulated hubs; "
                  f"screen {table_app.app.painter.screen!r}", flush=True)
            if crowded and len(populated) != len(board.locations):
                raise RuntimeError("not every location is populated")

            trials, skipped = run_trials(table_app, observer, state, args.trials, args.rate,
                                         args.seed, debounce, crowded)
            schedule = table_app.control.bridge.schedule()
            if args.time_model:
                timed = [h for h in sim.hubs.values() if h.slots is not None and h.slots.synced]
                print(f"{len(timed)}/{len(sim.hubs)} simulated hubs keep the scan slots "
                      f"({sum(h.syncs_late for h in sim.hubs.values())} SYNCs arrived during "
                      f"a read and were not used, as on the firmware); "
                      f"{sum(len(h.reads) for h in sim.hubs.values())} reads kept", flush=True)
            for hub in sim.hubs.values():
                hub.on_frame = None
            pump_until(table_app, lambda: rested(table_app), "the table to settle")
            pump_for(table_app, 0.5)
            cpu, cpu_no_sim, cpu_main, idle_frames = idle_cpu(table_app, args.idle_seconds)
        finally:
            table_app.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report(args, trials, skipped, schedule, debounce)
    puts = [t.put for t in trials]
    put_debounce = statistics.median(s.debounce_ms for s in puts)
    put_ms = [s.latency_ms for s in puts]
    print(f"idle {args.idle_seconds:g} s ({idle_frames} frames drawn): whole process "
          f"{cpu:.2f} % of one core, including the simulator's hub threads; without them "
          f"{cpu_no_sim:.2f} % (bridge, session, UI); UI main thread alone {cpu_main:.2f} %")
    print(f"rss_mb is this process's peak RSS (app, game, bridge and simulator, after "
          f"{args.trials} trials); first_frame_s is the median over {len(starts)} runs")
    print(f"tag_to_pixels_p50_ms={percentile(put_ms, 50):.1f} "
          f"tag_to_pixels_p99_ms={percentile(put_ms, 99):.1f} "
          f"debounce_ms={put_debounce:.1f} idle_cpu_percent={cpu:.2f} "
          f"first_frame_s={statistics.median(starts):.3f} rss_mb={rss:.1f}")
    revisits = [r for t in trials for r in t.revisits]
    shown = [t.shown_ms for t in trials]
    ruled = [t.ruled_ms for t in trials]
    print(f"revisit_ms_p50={percentile(revisits, 50) if revisits else float('nan'):.0f} "
          f"putdown_to_shown_ms_p50={percentile(shown, 50):.0f} "
          f"putdown_to_shown_ms_p90={percentile(shown, 90):.0f} "
          f"putdown_to_ruled_ms_p50={percentile(ruled, 50):.0f} "
          f"putdown_to_ruled_ms_p90={percentile(ruled, 90):.0f}")
    return 0


def report(args: argparse.Namespace, trials: list[Trial], skipped: int,
           schedule: ScanSchedule | None, debounce: DebounceConfig) -> None:
    """The human-readable lines before the machine-readable ones."""
    lifts = [t.lift for t in trials]
    puts = [t.put for t in trials]
    lift_ms = [s.latency_ms for s in lifts]
    put_ms = [s.latency_ms for s in puts]
    lift_debounce = statistics.median(s.debounce_ms for s in lifts)
    put_debounce = statistics.median(s.debounce_ms for s in puts)
    p50, p99 = percentile(put_ms, 50), percentile(put_ms, 99)
    if schedule is not None:
        print(f"scan schedule at the end: {schedule.count} slots of "
              f"{', '.join(str(ms) for ms in schedule.slot_ms)} ms, a cycle of "
              f"{schedule.cycle_ms} ms")
    else:
        print("no scan schedule: the hubs read unscheduled")
    print(f"lift (block off the map -> '1 block in hand' and its destinations lit on screen), "
          f"{len(lifts)} trials: p50 {percentile(lift_ms, 50):.1f} ms, p99 "
          f"{percentile(lift_ms, 99):.1f} ms, max {max(lift_ms):.1f} ms after the first hub "
          f"frame without it; debounce measured {lift_debounce:.1f} ms "
          f"({debounce.vanish_scans} misses)")
    print(f"put-down (block on a lit destination -> the 'in hand' line gone), {len(puts)} "
          f"trials: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(put_ms):.1f} ms after the "
          f"first hub frame with it; p99 - debounce {p99 - put_debounce:.1f} ms")
    print(f"debounce_ms is measured (hub frame completing the debounce - first hub frame "
          f"showing the block, median) for the put-down: {debounce.appear_scans} reads in a row")
    outcomes = {kind: sum(1 for t in trials if t.outcome == kind)
                for kind in ("moved", "asked", "other")}
    revisits = [r for t in trials for r in t.revisits]
    print(f"{len(trials)} trials on the {args.position} position, each ruled by the engine: "
          f"{outcomes['moved']} moved at once, {outcomes['asked']} with a question about the "
          f"move (which route), {outcomes['other']} otherwise; {skipped} lifts lit nothing but "
          f"their origin and were put back (not counted)")
    cycles = [t.cycle_ms for t in trials]
    if cycles:
        print(f"scan cycle while a block is in hand (the slots sized for the focus): p50 "
              f"{percentile(cycles, 50):.0f} ms, max {max(cycles):.0f} ms")
    if revisits:
        print(f"revisit of the antennas that matter while a block is in hand (its origin and "
              f"lit destinations), MEASURED with read times COMPUTED: p50 "
              f"{percentile(revisits, 50):.0f} ms, p90 {percentile(revisits, 90):.0f} ms, max "
              f"{max(revisits):.0f} ms over {len(revisits)} intervals")
    print("put-down -> shown and put-down -> ruled, MEASURED from the hand setting the tag down "
          "to the frame on display (read times COMPUTED by the air-time model): "
          f"shown p50 {percentile([t.shown_ms for t in trials], 50):.0f} ms, "
          f"ruled p50 {percentile([t.ruled_ms for t in trials], 50):.0f} ms, "
          f"ruled max {max(t.ruled_ms for t in trials):.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
