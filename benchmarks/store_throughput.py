"""Game-store write speed on this machine: events committed per second and commit latency.

    .venv/bin/python benchmarks/store_throughput.py [--games 3] [--seed 0]

Replays the accepted commands of seeded self-play games (real commands and events, as the
table produces them) into a fresh database through ``Store.append_command``, one transaction
per command, as ``Game.submit`` does: WAL, ``synchronous=FULL`` (a flush to disk per commit).
Prints commands and events per second and the commit latency median and p99; then the same
with ``synchronous=OFF`` for comparison (never used for a real game).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.store import Store  # noqa: E402
from companion.games.sekigahara import records  # noqa: E402
from companion.games.sekigahara.engine.simulator import play_game  # noqa: E402


class Capture:
    """A recorder that keeps the commands and events in memory (the workload)."""

    def __init__(self) -> None:
        self.items: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def record(self, command: Any, events: Any) -> None:
        self.items.append((command.model_dump(mode="json"),
                           [e.model_dump(mode="json") for e in events]))


def measure(workload: list[list[tuple[dict[str, Any], list[dict[str, Any]]]]],
            durable: bool) -> str:
    latencies: list[float] = []
    events = 0
    with tempfile.TemporaryDirectory() as scratch, \
            Store.open(Path(scratch) / "bench.sqlite", durable=durable) as store:
        started = time.perf_counter()
        for game in workload:
            game_id = store.create_game(records.GAME, records.new_header())
            for command, produced in game:
                t = time.perf_counter()
                store.append_command(game_id, command, produced)
                latencies.append(time.perf_counter() - t)
                events += len(produced)
        elapsed = time.perf_counter() - started
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    mode = "FULL" if durable else "OFF "
    return (f"synchronous={mode} commands={len(latencies)} events={events} "
            f"commands_per_s={len(latencies) / elapsed:.0f} events_per_s={events / elapsed:.0f} "
            f"commit_median_ms={statistics.median(latencies) * 1000:.2f} "
            f"commit_p99_ms={p99 * 1000:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    workload = []
    for n in range(args.games):
        capture = Capture()
        play_game(args.seed + n, check=False, recorder=capture)
        workload.append(capture.items)
    print(measure(workload, durable=False))
    print(measure(workload, durable=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
