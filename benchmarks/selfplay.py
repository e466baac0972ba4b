"""Self-play throughput: complete random games per second, with the checks every test and
``companion selfplay`` run (invariants and the leak check after every command) and without.

    .venv/bin/python benchmarks/selfplay.py [GAMES] [RUNS] [--only checked|unchecked]

Each run plays GAMES seeded games (seeds differ between runs, the same in every invocation);
the figure is the median over RUNS of games per second of this process's CPU time (the machine
may be shared: CPU time is what the engine costs, wall time what a busy machine adds), with the
wall-clock rate and the CPU time per event beside it. ``--only`` times one mode, so two engines
can be compared as whole processes.

The last line is what ``companion referee verify`` costs: the same games stored, then each
stored game checked (hash chain, then every command re-adjudicated by the rules and its events
compared with those recorded), in games per CPU second.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion.core.store import CommandRecorder, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.simulator import play_game


def run(games: int, seed: int, *, check: bool) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and events of ``games`` games from ``seed``."""
    cpu, wall, events = time.process_time(), time.perf_counter(), 0
    for n in range(games):
        report = play_game(seed + n, check=check)
        if not report.completed or report.invariant_violations:
            why = report.error or report.rejections or report.invariant_violations
            raise SystemExit(f"seed {seed + n} failed: {why}")
        events += report.events
    return time.process_time() - cpu, time.perf_counter() - wall, events


def verify_rate(games: int, seed: int) -> float:
    """Stored games checked per CPU second (``companion referee verify``)."""
    with tempfile.TemporaryDirectory() as scratch, \
            Store.open(Path(scratch) / "bench.sqlite", durable=False) as store:
        stored = []
        for n in range(games):
            game_id = store.create_game(records.GAME, records.new_header())
            play_game(seed + n, check=False, recorder=CommandRecorder(store, game_id))
            stored.append(store.load(game_id))
        cpu = time.process_time()
        for log in stored:
            records.check(log)
        return games / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=50, help="games per run")
    parser.add_argument("runs", type=int, nargs="?", default=3)
    parser.add_argument("--only", choices=("checked", "unchecked", "verify"))
    args = parser.parse_args()
    modes = [m for m in ("checked", "unchecked") if args.only in (None, m)]
    for mode in modes:
        results = [run(args.games, 1000 * r, check=mode == "checked") for r in range(args.runs)]
        cpu = statistics.median(args.games / c for c, _, _ in results)
        wall = statistics.median(args.games / w for _, w, _ in results)
        per_event = statistics.median(c / e * 1e6 for c, _, e in results)
        label = "with checks" if mode == "checked" else "without checks"
        print(f"{cpu:.1f} games/s {label} ({wall:.1f} by the wall clock, {per_event:.0f} µs "
              f"CPU per event; median of {args.runs} runs of {args.games} games)")
    if args.only in (None, "verify"):
        rate = statistics.median(verify_rate(args.games, 1000 * r) for r in range(args.runs))
        print(f"{rate:.1f} stored games/s verified (hash chain and every command re-adjudicated; "
              f"median of {args.runs} runs of {args.games} games)")


if __name__ == "__main__":
    main()
