"""``companion kensei selfplay --games N --seed S``: random legal battles, invariants checked.

Prints one JSON object with the same keys as the other games' self-play; the winners are
"a", "b" and "draw"."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.core.selfplay import Tally
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.simulator import Outcome, play_battle


def run(games: int, seed: int, *, check: bool = True,
        rules: KenseiRules | None = None) -> dict[str, Any]:
    """Play ``games`` battles with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    tally = Tally(o.value for o in Outcome)
    for n in range(games):
        tally.add(play_battle(seed + n, check=check, rules=rules))
    return tally.summary()


def _command(args: argparse.Namespace) -> int:
    summary = run(args.games, args.seed)
    sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    ok = summary["completed"] == args.games and not summary["errors"]
    return 0 if ok and not summary["invariant_violations"] else 1


def register(inner: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``kensei selfplay --games N --seed S`` to the ``kensei`` command."""
    play = inner.add_parser("selfplay", help="random legal battles, invariants checked")
    play.add_argument("--games", type=int, default=10)
    play.add_argument("--seed", type=int, default=1)
    play.set_defaults(handler=_command)
