"""``companion selfplay --games N --seed S``: random legal games, invariants after every event.

Prints one JSON object on standard output and exits non-zero if any game failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.simulator import play_game


def run(games: int, seed: int, *, check: bool = True) -> dict[str, Any]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    started = time.perf_counter()
    winners = {side.value: 0 for side in Side}
    completed = errors = violations = instant = 0
    failures: list[str] = []
    for n in range(games):
        report = play_game(seed + n, check=check)
        if report.error is not None or report.rejections:
            errors += 1
            failures.append(f"seed {report.seed}: {report.error or report.rejections[0]}")
        if report.invariant_violations:
            violations += 1
            failures.append(f"seed {report.seed}: {report.invariant_violations[0]}")
        if report.completed and report.winner is not None:
            completed += 1
            winners[report.winner.value] += 1
            instant += int(report.instant)
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "games": games,
        "completed": completed,
        "errors": errors,
        "invariant_violations": violations,
        "winners": winners,
        "instant_victories": instant,
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    if failures:
        summary["failures"] = failures[:20]
    return summary


def _handler(args: argparse.Namespace) -> int:
    summary = run(args.games, args.seed, check=not args.no_checks)
    print(json.dumps(summary))
    ok = summary["completed"] == args.games and not summary["errors"]
    return 0 if ok and not summary["invariant_violations"] else 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay", help="play random legal games of Sekigahara and check the engine"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-checks", action="store_true",
                        help="skip the per-event invariant checks (faster)")
    parser.set_defaults(handler=_handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_handler(argparse.Namespace(games=10, seed=0, no_checks=False)))
