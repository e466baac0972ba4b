"""Self-play throughput: games per second (median of a few runs), with and without the
per-event invariant checks. Run: ``.venv/bin/python benchmarks/selfplay.py [games] [runs]``."""

from __future__ import annotations

import statistics
import sys
import time

from companion.games.sekigahara.engine.simulator import play_game


def rate(games: int, seed: int, *, check: bool) -> float:
    started = time.perf_counter()
    for n in range(games):
        report = play_game(seed + n, check=check)
        if not report.completed:
            raise SystemExit(f"seed {seed + n} failed: {report.error or report.rejections}")
    return games / (time.perf_counter() - started)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for check in (True, False):
        rates = [rate(games, 1000 * r, check=check) for r in range(runs)]
        label = "with invariant checks" if check else "without checks"
        print(f"{statistics.median(rates):.1f} games/s {label} "
              f"(median of {runs} runs of {games} games)")


if __name__ == "__main__":
    main()
