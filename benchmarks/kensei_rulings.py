"""Kensei: how long a ruling takes, command by command, and what verifying a stored battle
costs.

    .venv/bin/python benchmarks/kensei_rulings.py [BATTLES]

Plays BATTLES seeded 200-pe self-play battles (the simulator's two example armies, the
tournament feed's ``play``) recording every accepted command, then submits each battle's
commands again to a fresh game and times every ``Game.submit``: the rules' judgement and the
state's update, which is what a player waits for after a tap (the screen and the store come on
top). Prints the median and p99 per command kind that occurs, overall, and the rate at which
``companion referee verify`` checks the same battles stored (hash chain, then every command
re-adjudicated). Times are this process's wall clock (``time.perf_counter``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.core.events import Command, Event
from companion.core.game import Accepted, Game
from companion.core.store import Store
from companion.games.kensei import records, tournament
from companion.games.kensei.battle.rules import KenseiRules


class Kept:
    """Every accepted command, in order."""

    def __init__(self) -> None:
        self.commands: list[Command] = []

    def record(self, command: Command, events: Sequence[Event]) -> None:
        self.commands.append(command)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def timed(battles: int) -> dict[str, list[float]]:
    """Seconds per submit, by command kind."""
    found: dict[str, list[float]] = defaultdict(list)
    for seed in range(battles):
        kept = Kept()
        tournament.play(Game(KenseiRules(), recorder=kept), seed)
        game: Game[Any, Any, Any] = Game(KenseiRules())
        for command in kept.commands:
            start = time.perf_counter()
            outcome = game.submit(command)
            found[command.type].append(time.perf_counter() - start)
            if not isinstance(outcome, Accepted):
                raise SystemExit(f"seed {seed}: {command.type} refused on replay: {outcome}")
    return found


def verify_rate(battles: int) -> tuple[float, int]:
    """Stored battles verified per second, and the entries they hold."""
    with tempfile.TemporaryDirectory() as scratch, \
            Store.open(Path(scratch) / "bench.sqlite", durable=False) as store:
        logs = []
        for seed in range(battles):
            game_id, game = records.start(store)
            tournament.play(game, seed)
            logs.append(store.load(game_id))
        start = time.perf_counter()
        for log in logs:
            records.check(log)
        return battles / (time.perf_counter() - start), sum(len(log.entries) for log in logs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("battles", type=int, nargs="?", default=20)
    args = parser.parse_args()
    found = timed(args.battles)
    every = [t for times in found.values() for t in times]
    battles = f"{args.battles} battle{'s' if args.battles != 1 else ''}"
    print(f"{len(every)} rulings over {battles}: median "
          f"{statistics.median(every) * 1e3:.2f} ms, p99 {p99(every) * 1e3:.2f} ms")
    for kind, times in sorted(found.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"  {kind:<22} {len(times):>6}  median {statistics.median(times) * 1e3:7.2f} ms"
              f"  p99 {p99(times) * 1e3:7.2f} ms")
    rate, entries = verify_rate(args.battles)
    print(f"{rate:.1f} stored battles/s verified ({entries} entries; hash chain and every "
          "command re-adjudicated)")


if __name__ == "__main__":
    main()
