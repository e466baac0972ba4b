"""``companion tenka ...``: the Tenka Meidou commands (``selfplay``, ``war``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.core.datafiles import DataFileError
from companion.games.tenka_meidou import calculator, selfplay
from companion.games.tenka_meidou.components import load_board
from companion.games.tenka_meidou.rules import TenkaRules


def _print(payload: dict[str, Any], indent: int | None = 2) -> None:
    sys.stdout.write(json.dumps(payload, indent=indent, ensure_ascii=False) + "\n")


def _rules(args: argparse.Namespace) -> TenkaRules:
    board = load_board(Path(args.board)) if args.board else None
    return TenkaRules(board=board)


def _war(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
        text = calculator.read(args.file)
    except DataFileError as exc:
        _print(calculator.WarInputError(exc.message).as_json())
        return calculator.EXIT_ERROR
    except calculator.WarInputError as exc:
        _print(exc.as_json())
        return calculator.EXIT_ERROR
    status, payload = calculator.adjudicate_text(text, rules.board, rules.components)
    _print(payload)
    return status


def _selfplay(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
    except DataFileError as exc:
        print(f"companion tenka selfplay: {exc.message}", file=sys.stderr)
        return 2
    summary = selfplay.run(args.games, args.seed, check=not args.no_checks, rules=rules)
    _print(summary, indent=None)
    ok = summary["completed"] == args.games and not summary["errors"]
    return 0 if ok and not summary["invariant_violations"] else 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion tenka selfplay`` and ``companion tenka war FILE``."""
    parser = subparsers.add_parser("tenka", help="Tenka Meidou (Rumble Nation)")
    inner = parser.add_subparsers(dest="tenka_command", metavar="WHAT", required=True)
    war = inner.add_parser(
        "war", help="fight the War phase of a table given as JSON (docs/tenka-meidou.md)",
        description="The War phase and final score from the table at the end of deployment; "
        "prints one JSON object. Exit status 2 on malformed or impossible input.")
    war.add_argument("file", metavar="FILE", help="the table as JSON, or - for stdin")
    play = inner.add_parser("selfplay", help="play random legal games and check the rules")
    play.add_argument("--games", type=int, default=100)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--no-checks", action="store_true",
                      help="skip the invariant checks (faster)")
    for sub in (war, play):
        sub.add_argument("--board", metavar="FILE",
                         help="a corrected board.yaml for your copy (default: the bundled one)")
    war.set_defaults(handler=_war)
    play.set_defaults(handler=_selfplay)
