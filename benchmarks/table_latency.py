#!/usr/bin/env python3
"""Table app latency: from a simulated hub writing a frame to the screen showing the change.

Runs the whole table app in this process, as ``companion run --headless --hubs sim`` does: the
built-in simulator (4 virtual hubs on pseudo-terminals, scanning ``--rate`` times a second, 10 as
on the real hubs), the bridge, the table session, the engine and the touchscreen
(:class:`~ui.sekigahara.app.TableApp`, SDL's dummy video driver). The main thread drives the
app's loop itself, exactly as ``App.run`` does: ``app.pump(app._timeout_ms())``.

**The position.** Seeded random players (the engine's ``RandomPlayer``) play a real game, set-up
included, to the Movement Phase of week 1 with a level of movement bought and no stack moved yet;
then every empty map location gets one block taken from a bag, so that *every* location holds at
least one block. The app follows that position (a fresh table session on it) and the position is
laid out on the simulated table, block by block, until the table agrees with the engine (no
discrepancy, no question, no block in hand).

**tag_to_pixels.** Each trial lifts one of the active side's blocks off a location holding two or
more (the location stays populated), waits until the screen shows "1 block in hand: legal
destinations are lit" (the destinations computed by the engine), pauses like a hand would, and
puts the block back where it was; the screen then drops that line and the lit destinations.
For each of the two changes, the hub's frame observer (``VirtualHub.on_frame``) gives the time
the hub *wrote* the first complete snapshot of that antenna that omits (lift) or contains
(put-down) the tag, and the time it wrote the snapshot that completed the debounce; the app's
``App.on_frame`` gives the time the first frame whose strings (``App.drawn``) show the change
reached the display (``pygame.display.flip`` returned). ``tag_to_pixels`` = frame on display -
first hub frame showing the change, so it includes the debounce (2 scans in a row to put down,
3 misses to lift: 1 and 2 scan periods), the pty, decoding, tracking, the engine's destination
query, the wake-up of the UI loop and one full redraw. The final line reports the **put-down**;
the lift is reported on the line before it. ``debounce_ms`` is *measured*, as in
``bridge_latency.py``: the median of (hub frame completing the debounce - first hub frame
showing the block), by design ``(appear_scans - 1)`` scan periods.

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

The last line is machine-readable::

    tag_to_pixels_p50_ms=X tag_to_pixels_p99_ms=Y debounce_ms=Z idle_cpu_percent=W \
first_frame_s=V rss_mb=U

Usage: ``SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/table_latency.py [--trials 200]
[--idle-seconds 10] [--rate 10] [--seed 1] [--first-frame-runs 3]``
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
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
from firmware_bridge.table_session import TableSession
from ui.sekigahara.app import Options, TableApp
from ui.shell.app import FRAME_S

ROOT = Path(__file__).resolve().parents[1]
IN_HAND = re.compile(r"^\d+ blocks? in hand")
STEP_TIMEOUT_S = 10.0

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


def build_position(seed: int) -> State:
    """A real game to the Movement Phase (level bought, nothing moved yet), then one block from a
    bag on every empty location, so that every location is populated."""
    rng = random.Random(seed)
    cards = Table.shuffled(rng)
    player = RandomPlayer(rng, cards)
    game = new_game()
    for _ in range(20_000):
        s = game.state
        if (s.phase is Phase.MOVEMENT and s.level not in (None, Level.NONE)
                and s.moves_left > 0 and not s.moved):
            break
        result = game.submit(player.command(s))
        if isinstance(result, Accepted):
            for event in result.events:
                cards.observe(event)
    else:
        raise RuntimeError(f"seed {seed}: no Movement Phase with a level bought")
    state = game.state.copy()
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


def follow_position(table_app: TableApp, state: State) -> None:
    """A fresh table session on ``state`` (as ``TableControl.new_game`` does for a new game),
    and the position laid out on the simulated table."""
    control = table_app.control
    virtual = table_app.virtual
    assert virtual is not None
    game: SekigaharaGame = Game(PositionRules(state))
    control.session.stop()
    control.game = game
    control.session = TableSession(control.bridge, game)
    control.session.start()
    for block, zone in sorted(control.session.rules.expected_positions().items()):
        virtual.place(block, zone)
    table_app.back_to_game()  # the board, as "Resume" on the start screen shows it


def settled(table_app: TableApp) -> bool:
    snap = table_app.control.snapshot()
    return not snap.questions and not snap.discrepancies and snap.in_hand == 0


def pump_until(table_app: TableApp, done: Callable[[], bool], what: str,
               timeout: float = STEP_TIMEOUT_S) -> None:
    """Run the app's loop as ``App.run`` does until ``done()`` (bounded by ``timeout``)."""
    app = table_app.app
    deadline = time.monotonic() + timeout
    while not done():
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms <= 0:
            raise RuntimeError(f"timed out waiting for {what}")
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
    """The frame observer given to every hub: forwards frames to the current watch."""

    def __init__(self) -> None:
        self.watch: Watch | None = None

    def __call__(self, hub: str, _seq: int, message: p.Message, at: float) -> None:
        watch = self.watch
        if watch is not None:
            watch.frame(hub, message, at)


@dataclass
class Sample:
    kind: str
    latency_ms: float
    debounce_ms: float


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
                  (watch.confirmed - watch.first) * 1000)


def in_hand_shown(table_app: TableApp) -> bool:
    return any(IN_HAND.match(text) for _, text in table_app.app.drawn)


def candidates(table_app: TableApp) -> list[tuple[str, str]]:
    """(block, location) for the active side's blocks on locations holding two or more."""
    state = table_app.control.game.state
    board = default_board()
    crowd: dict[str, int] = {}
    for zone in state.pos.values():
        crowd[zone] = crowd.get(zone, 0) + 1
    return sorted((b, z) for b, z in state.pos.items()
                  if z in board.locations and crowd[z] > 1 and side_of(b) is state.active
                  and b not in state.inside)


def run_trials(table_app: TableApp, observer: Observer, trials: int, rate: int,
               seed: int, debounce: DebounceConfig) -> list[Sample]:
    sim = table_app.control.readers.simulated
    assert sim is not None
    rng = random.Random(seed)
    choices = candidates(table_app)
    if not choices:
        raise RuntimeError("no stack of the active side to lift")
    samples: list[Sample] = []
    for _ in range(trials):
        block, zone = rng.choice(choices)
        uid = sim.uid(block)
        [key] = sim.wiring.antennas_of(zone)
        lift = Watch(key.hub, key.antenna, uid, False, debounce.vanish_scans)
        samples.append(measure_change(table_app, observer, lift, partial(sim.lift, block),
                                      lambda: in_hand_shown(table_app)))
        pump_for(table_app, rng.uniform(0.05, 0.15))  # the hand hovers over the map
        put = Watch(key.hub, key.antenna, uid, True, debounce.appear_scans)
        samples.append(measure_change(
            table_app, observer, put, partial(sim.put, block, zone),
            lambda: not in_hand_shown(table_app)))
        pump_until(table_app, lambda: settled(table_app), "the table to settle")
        pump_for(table_app, rng.uniform(0, 1 / rate))  # a random phase of the next scan
    return samples


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
    parser.add_argument("--trials", type=int, default=200,
                        help="lift-and-put-back trials (each gives one put-down sample)")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=10, help="simulated scans a second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-frame-runs", type=int, default=3)
    args = parser.parse_args()
    if args.trials < 1 or args.first_frame_runs < 1 or args.idle_seconds <= 0:
        parser.error("--trials and --first-frame-runs must be positive, --idle-seconds > 0")
    debounce = DebounceConfig()

    # First the child processes: they measure start-up on a machine not busy with our app.
    starts, child_rss = first_frame(args.first_frame_runs)
    print(f"first frame of the start screen, fresh process, {len(starts)} runs: "
          + ", ".join(f"{s:.3f}" for s in starts) + f" s; child peak RSS {child_rss:.1f} MB",
          flush=True)

    state = build_position(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        table_app = TableApp(Options(hubs=["sim"], virtual_table=False, rate_hz=args.rate,
                                     seed=args.seed, workdir=work, pin_file=work / "pin",
                                     db=work / "games.sqlite"))
        table_app.app.frame_s = FRAME_S  # paced as on the Pi's panel, though headless
        try:
            sim = table_app.control.readers.simulated
            assert sim is not None
            observer = Observer()
            for hub in sim.hubs.values():
                hub.on_frame = observer
            follow_position(table_app, state)
            pump_until(table_app, lambda: settled(table_app), "the position to be read", 30)
            pump_for(table_app, 0.5)
            game = table_app.control.game.state
            board = default_board()
            populated = {z for z in game.pos.values() if z in board.locations}
            placed = table_app.control.bridge.placements()
            on_map = sum(1 for z in placed.values() if z in board.locations)
            mover = game.active.value if game.active else "-"
            print(f"position: week {game.week}, {game.phase.value}, {mover} "
                  f"moves ({game.level.value if game.level else '-'}, {game.moves_left} moves); "
                  f"{len(populated)}/{len(board.locations)} locations populated, {on_map} blocks "
                  f"on the map read by {len(sim.hubs)} simulated hubs at {args.rate} scans/s; "
                  f"screen {table_app.app.painter.screen!r}", flush=True)
            if len(populated) != len(board.locations):
                raise RuntimeError("not every location is populated")

            samples = run_trials(table_app, observer, args.trials, args.rate, args.seed,
                                 debounce)
            for hub in sim.hubs.values():
                hub.on_frame = None
            pump_until(table_app, lambda: settled(table_app), "the table to settle")
            pump_for(table_app, 0.5)
            cpu, cpu_no_sim, cpu_main, idle_frames = idle_cpu(table_app, args.idle_seconds)
        finally:
            table_app.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    puts = [s for s in samples if s.kind == "put"]
    lifts = [s for s in samples if s.kind == "lift"]
    put_ms = [s.latency_ms for s in puts]
    lift_ms = [s.latency_ms for s in lifts]
    put_debounce = statistics.median(s.debounce_ms for s in puts)
    lift_debounce = statistics.median(s.debounce_ms for s in lifts)
    designed_put, designed_lift = debounce.added_latency_ms(args.rate)
    p50, p99 = percentile(put_ms, 50), percentile(put_ms, 99)
    print(f"lift (block off the map -> '1 block in hand' and its destinations lit on screen), "
          f"{len(lifts)} trials: p50 {percentile(lift_ms, 50):.1f} ms, p99 "
          f"{percentile(lift_ms, 99):.1f} ms, max {max(lift_ms):.1f} ms; debounce measured "
          f"{lift_debounce:.1f} ms ({debounce.vanish_scans} misses, by design "
          f"{designed_lift:.0f} ms); p99 - debounce {percentile(lift_ms, 99) - lift_debounce:.1f} "
          f"ms")
    print(f"put-down (block back -> that line and the lit destinations gone from the screen), "
          f"{len(puts)} trials: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(put_ms):.1f} ms; "
          f"p99 - debounce {p99 - put_debounce:.1f} ms (aim: under 50 ms)")
    print(f"debounce_ms is measured (hub frame completing the debounce - first hub frame "
          f"showing the block, median) for the put-down: {debounce.appear_scans} scans in a row, "
          f"by design {designed_put:.0f} ms at {args.rate} scans/s")
    print(f"idle {args.idle_seconds:g} s ({idle_frames} frames drawn): whole process "
          f"{cpu:.2f} % of one core, including the simulator's hub threads; without them "
          f"{cpu_no_sim:.2f} % (bridge, session, UI); UI main thread alone {cpu_main:.2f} %")
    print(f"rss_mb is this process's peak RSS (app, game, bridge and simulator, after "
          f"{args.trials} trials); first_frame_s is the median over {len(starts)} runs")
    print(f"tag_to_pixels_p50_ms={p50:.1f} tag_to_pixels_p99_ms={p99:.1f} "
          f"debounce_ms={put_debounce:.1f} idle_cpu_percent={cpu:.2f} "
          f"first_frame_s={statistics.median(starts):.3f} rss_mb={rss:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
