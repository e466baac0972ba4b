"""Latency of the movement queries the touchscreen and the RFID tracker call on every update.

Random origins, group sizes, bonuses and mid-game situations on the real board. Prints the
median and 99th percentile in microseconds; the last line is machine-readable:

    legal_destinations_p50_us=.. p99_us=.. explain_move_p50_us=.. p99_us=..

Run: .venv/bin/python benchmarks/movement_queries.py [calls]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.movement import MoveSituation, explain_move, legal_destinations


def _situation(
    rng: random.Random, locations: list[str], segments: list[frozenset[str]]
) -> MoveSituation:
    enemy = {loc: rng.randint(1, 4) for loc in rng.sample(locations, 10)}
    castles = [loc for loc in enemy if default_board().locations[loc].castle is not None]
    return MoveSituation(
        friendly_count={loc: rng.randint(1, 6) for loc in rng.sample(locations, 10)},
        enemy_count=enemy,
        enemy_holds_castle=frozenset(castles[:2]),
        used_segments=frozenset(rng.sample(segments, 4)),
    )


def _percentiles(samples_ns: list[int]) -> tuple[float, float]:
    ordered = sorted(samples_ns)
    p50 = statistics.median(ordered) / 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000
    return p50, p99


def main(calls: int = 20_000) -> None:
    board = default_board()
    rng = random.Random(1600)
    locations = sorted(board.locations)
    segments = [road.key for road in board.roads]
    situations = [_situation(rng, locations, segments) for _ in range(50)]
    cases = [
        (
            rng.choice(locations),
            rng.choice(locations),
            rng.choice((1, 1, 2, 3, 4, 4, 5, 6, 8, 9, 12)),
            rng.choice((Side.ISHIDA, Side.TOKUGAWA)),
            rng.random() < 0.5,
            rng.random() < 0.5,
            rng.choice(situations),
        )
        for _ in range(calls)
    ]
    for origin, *_ in cases[:200]:  # warm the per-board index
        legal_destinations(board, origin, 1, side=Side.ISHIDA, leadership=True, force_march=True)

    clock = time.perf_counter_ns
    legal: list[int] = []
    explain: list[int] = []
    for origin, _destination, size, side, leadership, force_march, situation in cases:
        start = clock()
        legal_destinations(
            board,
            origin,
            size,
            side=side,
            leadership=leadership,
            force_march=force_march,
            situation=situation,
        )
        legal.append(clock() - start)
    for origin, destination, size, side, leadership, force_march, situation in cases:
        start = clock()
        explain_move(
            board,
            origin,
            destination,
            size,
            side=side,
            leadership=leadership,
            force_march_available=force_march,
            situation=situation,
        )
        explain.append(clock() - start)

    l50, l99 = _percentiles(legal)
    e50, e99 = _percentiles(explain)
    print(f"{calls} calls each on the real board ({len(board.locations)} locations)")
    print(f"legal_destinations: median {l50:.1f} us, p99 {l99:.1f} us")
    print(f"explain_move:       median {e50:.1f} us, p99 {e99:.1f} us")
    print(
        f"legal_destinations_p50_us={l50:.1f} p99_us={l99:.1f} "
        f"explain_move_p50_us={e50:.1f} p99_us={e99:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
