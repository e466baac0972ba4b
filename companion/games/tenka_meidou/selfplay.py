"""``companion tenka selfplay --games N --seed S``: random legal games, invariants checked.

Prints one JSON object with the same keys as Sekigahara's ``companion selfplay``; Tenka Meidou
has no instant victory, so ``instant_victories`` is always 0.
"""

from __future__ import annotations

import time
from typing import Any

from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.simulator import play_game


def run(games: int, seed: int, *, check: bool = True,
        rules: TenkaRules | None = None) -> dict[str, Any]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    rules = rules or TenkaRules()
    started = time.perf_counter()
    winners = {c.value: 0 for c in Colour}
    completed = errors = violations = 0
    failures: list[str] = []
    for n in range(games):
        report = play_game(seed + n, check=check, rules=rules)
        if report.error is not None or report.rejections:
            errors += 1
            failures.append(f"seed {report.seed}: {report.error or report.rejections[0]}")
        if report.invariant_violations:
            violations += 1
            failures.append(f"seed {report.seed}: {report.invariant_violations[0]}")
        if report.completed and report.winner is not None:
            completed += 1
            winners[report.winner.value] += 1
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "games": games,
        "completed": completed,
        "errors": errors,
        "invariant_violations": violations,
        "winners": winners,
        "instant_victories": 0,
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    if failures:
        summary["failures"] = failures[:20]
    return summary
