"""The self-play summary every game prints: one JSON object of the same shape for every game.

A game's simulator plays seeded random legal games and hands each report to :class:`Tally`;
``companion <game> selfplay`` prints :meth:`Tally.summary`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

FAILURES_SHOWN = 20


class GameReport(Protocol):
    """What a game's simulator reports about one game."""

    @property
    def seed(self) -> int: ...

    @property
    def error(self) -> str | None: ...

    @property
    def rejections(self) -> Sequence[str]: ...

    @property
    def invariant_violations(self) -> Sequence[str]: ...

    @property
    def completed(self) -> bool: ...

    @property
    def winner(self) -> Enum | None: ...


@dataclass
class Tally:
    """Counts over the games played; ``players`` are the winners' possible values."""

    players: Iterable[str]
    games: int = 0
    completed: int = 0
    errors: int = 0
    violations: int = 0
    instant: int = 0
    failures: list[str] = field(default_factory=list)
    winners: dict[str, int] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        self.winners = {player: 0 for player in self.players}

    def add(self, report: GameReport, instant: bool = False) -> None:
        self.games += 1
        if report.error is not None or report.rejections:
            self.errors += 1
            self.failures.append(f"seed {report.seed}: {report.error or report.rejections[0]}")
        if report.invariant_violations:
            self.violations += 1
            self.failures.append(f"seed {report.seed}: {report.invariant_violations[0]}")
        if report.completed and report.winner is not None:
            self.completed += 1
            self.winners[str(report.winner.value)] += 1
            self.instant += int(instant)

    def summary(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.started
        found: dict[str, Any] = {
            "games": self.games,
            "completed": self.completed,
            "errors": self.errors,
            "invariant_violations": self.violations,
            "winners": self.winners,
            "instant_victories": self.instant,
            "games_per_second": round(self.games / elapsed, 2) if elapsed > 0 else None,
        }
        if self.failures:
            found["failures"] = self.failures[:FAILURES_SHOWN]
        return found
