#!/usr/bin/env python3
"""Bridge latency: from the simulator writing a frame to the tracked placement being available.

Runs ``companion simulate`` in a separate process (5 hubs x 16 antennas, every zone wired,
every map location populated, all hubs scanning at the protocol's full rate of 50 scans/s) and
the real bridge in this process, reading the simulator over pseudo-terminals. It then moves
blocks one at a time (lift, a short pause, put down elsewhere), always from a location holding
two blocks so that every location stays populated.

For each move, the simulator's frame log (written with CLOCK_MONOTONIC, shared by both
processes) gives the time the first frame showing the block at its destination was written, and
the time the frame that completed the debounce was written; the bridge's subscriber callback
gives the time the placement became available. So:

* processing latency = placement available - confirming frame written (pty, decode, debounce
  bookkeeping, cross-talk resolution, tracking);
* debounce delay = confirming frame written - first frame showing the block (by design
  ``appear_scans - 1`` scan periods: 20 ms at 50 scans/s).

``bridge_cpu_percent`` is this process's CPU time (bridge threads; the driver mostly sleeps)
over wall time during the moves, in percent of one core. The last line is machine-readable::

    processing_p50_ms=X processing_p99_ms=Y debounce_ms=Z bridge_cpu_percent=W

Usage: ``.venv/bin/python benchmarks/bridge_latency.py [--moves 150] [--rate 50]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from companion.games.sekigahara.components import default_board
from firmware_bridge.bridge import Bridge
from firmware_bridge.observation import DebounceConfig
from firmware_bridge.registry import TagRegistry
from firmware_bridge.tracking import PlacementChanged, TrackEvent
from firmware_bridge.wiring import AntennaKey, WiringMap

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def start_simulator(directory: Path, hubs: int, antennas: int, rate: int) -> subprocess.Popen[str]:
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion", "simulate", "--hubs", str(hubs), "--antennas",
         str(antennas), "--rate", str(rate), "--dir", str(directory), "--populate",
         "--frame-log", str(directory / "frames.log"), "--no-prompt", "--seed", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, bufsize=1,
    )
    assert sim.stdout is not None
    deadline = time.monotonic() + 20
    for line in sim.stdout:
        if line.strip() == "ready":
            break
        if time.monotonic() > deadline:
            raise RuntimeError("the simulator did not start")
    else:
        raise RuntimeError("the simulator exited early")
    threading.Thread(target=lambda: [None for _ in sim.stdout or []], daemon=True).start()
    return sim


def read_frames(path: Path) -> dict[AntennaKey, list[tuple[float, frozenset[str]]]]:
    frames: dict[AntennaKey, list[tuple[float, frozenset[str]]]] = defaultdict(list)
    with path.open() as log:
        for line in log:
            t, hub, _seq, antenna, uids = line.split()
            tags = frozenset() if uids == "-" else frozenset(uids.split(","))
            frames[AntennaKey(hub, int(antenna))].append((float(t), tags))
    return frames


def frame_times(
    frames: list[tuple[float, frozenset[str]]], uid: str, after: float, appear: int
) -> tuple[float, float] | None:
    """(first frame showing ``uid`` after ``after``, frame completing ``appear`` in a row)."""
    first: float | None = None
    run = 0
    for t, tags in frames:
        if t < after:
            continue
        if uid in tags:
            first = t if run == 0 else first
            run += 1
            if run == appear and first is not None:
                return first, t
        else:
            run = 0
    return None


def is_at(block: str, zone: str | None) -> Callable[[Bridge], bool]:
    return lambda bridge: bridge.placements().get(block) == zone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--rate", type=int, default=50, help="scans per second (50 = full)")
    parser.add_argument("--hubs", type=int, default=5)
    parser.add_argument("--antennas", type=int, default=16)
    args = parser.parse_args()
    debounce = DebounceConfig()
    rng = random.Random(1)
    board = default_board()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        sim = start_simulator(directory, args.hubs, args.antennas, args.rate)
        assert sim.stdin is not None
        wiring = WiringMap.load(directory / "wiring.yaml")
        registry = TagRegistry.load(directory / "tags.yaml")
        ports = [str(directory / hub) for hub in wiring.hubs]
        arrivals: list[tuple[str, str, float]] = []

        def on_event(event: TrackEvent) -> None:
            if isinstance(event, PlacementChanged) and event.zone is not None:
                arrivals.append((event.block_id, event.zone, time.monotonic()))

        samples: list[tuple[str, str, float, float]] = []  # block, zone, put at, available at
        try:
            with Bridge(ports, wiring=wiring, registry=registry, debounce=debounce) as bridge:
                bridge.subscribe(on_event)
                bridge.wait_for(lambda b: len(b.placements()) == len(registry.tags), 20)
                print(f"{len(bridge.hubs())} hubs, {len(wiring.table())} antennas wired, "
                      f"{len(bridge.placements())} blocks placed, every location populated, "
                      f"{args.rate} scans/s", flush=True)
                cpu0, wall0 = time.process_time(), time.monotonic()
                for _ in range(args.moves):
                    placements = bridge.placements()
                    crowd: dict[str, list[str]] = defaultdict(list)
                    for block, zone in placements.items():
                        crowd[zone].append(block)
                    block = rng.choice([b for z, bs in crowd.items() if len(bs) > 1
                                        and z in board.locations for b in bs])
                    destination = rng.choice([z for z in board.locations
                                              if z != placements[block]])
                    sim.stdin.write(f"lift {block}\n")
                    sim.stdin.flush()
                    bridge.wait_for(is_at(block, None), 5)
                    time.sleep(rng.uniform(0.05, 0.15))  # the hand travels
                    put_at = time.monotonic()
                    sim.stdin.write(f"put {block} {destination}\n")
                    sim.stdin.flush()
                    bridge.wait_for(is_at(block, destination), 5)
                    available = next(t for b, z, t in reversed(arrivals)
                                     if b == block and z == destination)
                    samples.append((block, destination, put_at, available))
                cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0) * 100
        finally:
            sim.stdin.write("quit\n")
            sim.stdin.flush()
            try:
                sim.wait(timeout=10)
            except subprocess.TimeoutExpired:
                sim.terminate()
                sim.wait(timeout=10)
        frames = read_frames(directory / "frames.log")
        processing: list[float] = []
        debounce_delays: list[float] = []
        for block, zone, put_at, available in samples:
            uid = registry.uid_of(block)
            assert uid is not None
            [key] = wiring.antennas_of(zone)
            times = frame_times(frames[key], uid, put_at, debounce.appear_scans)
            if times is None:
                print(f"no frame found for {block} on {zone}", file=sys.stderr)
                continue
            first, confirming = times
            processing.append((available - confirming) * 1000)
            debounce_delays.append((confirming - first) * 1000)
    designed = debounce.added_latency_ms(args.rate)[0]
    print(f"{len(processing)} moves measured; processing latency p50 "
          f"{percentile(processing, 50):.2f} ms, p99 {percentile(processing, 99):.2f} ms, "
          f"max {max(processing):.2f} ms")
    print(f"debounce adds by design {designed:.0f} ms on put-down "
          f"({debounce.appear_scans} scans in a row) and "
          f"{debounce.added_latency_ms(args.rate)[1]:.0f} ms on lift "
          f"({debounce.vanish_scans} misses); measured put-down median "
          f"{statistics.median(debounce_delays):.2f} ms")
    print(f"processing_p50_ms={percentile(processing, 50):.2f} "
          f"processing_p99_ms={percentile(processing, 99):.2f} "
          f"debounce_ms={statistics.median(debounce_delays):.2f} "
          f"bridge_cpu_percent={cpu:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
