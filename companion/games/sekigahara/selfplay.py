"""``companion selfplay --games N --seed S``: random legal games, invariants after every command.

Prints one JSON object on standard output and exits non-zero if any game failed.
``--export DIR`` also writes each game as a game export (``DIR/selfplay-seed-S.jsonl``,
docs/referee.md), so ``companion referee verify|replay|explain`` can be tried on real games.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.core.selfplay import Tally
from companion.core.store import CommandRecorder, Store, StoreError
from companion.games.sekigahara import records
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.simulator import GameReport, play_game


def play_and_export(seed: int, check: bool, store: Store, directory: Path) -> GameReport:
    """Play one game recording it in ``store``; write its export into ``directory``."""
    game_id = store.create_game(records.GAME, records.new_header())
    report = play_game(seed, check=check, recorder=CommandRecorder(store, game_id))
    if report.game is not None:
        records.finish_if_over(store, game_id, report.game)
    records.write_export(store.load(game_id), directory / f"selfplay-seed-{seed}.jsonl")
    return report


def run(games: int, seed: int, *, check: bool = True,
        export: Path | None = None) -> dict[str, Any]:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; return the summary."""
    if export is None:
        return _run(games, seed, check, None)
    try:
        export.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create {export}: {exc.strerror}") from None
    with tempfile.TemporaryDirectory() as scratch, \
            Store.open(Path(scratch) / "selfplay.sqlite", durable=False) as store:
        return _run(games, seed, check, lambda s: play_and_export(s, check, store, export))


def _run(games: int, seed: int, check: bool, play: Any) -> dict[str, Any]:
    tally = Tally(side.value for side in Side)
    for n in range(games):
        report = play(seed + n) if play is not None else play_game(seed + n, check=check)
        tally.add(report, instant=report.instant)
    return tally.summary()


def _handler(args: argparse.Namespace) -> int:
    try:
        summary = run(args.games, args.seed, check=not args.no_checks, export=args.export)
    except StoreError as exc:
        print(f"companion: {exc.message}", file=sys.stderr)
        return 2
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
                        help="skip the invariant checks after every command (faster)")
    parser.add_argument("--export", type=Path, default=None, metavar="DIR",
                        help="write each game as a game export file into DIR")
    parser.set_defaults(handler=_handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_handler(argparse.Namespace(games=10, seed=0, no_checks=False, export=None)))
