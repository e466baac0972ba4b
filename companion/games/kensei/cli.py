"""``companion kensei melee|shoot|duel FILE|-`` (the referee calculators), ``list`` and
``profiles`` (army lists and profiles), ``selfplay`` (seeded battles): docs/kensei.md."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.games.kensei import calculator, list_cli
from companion.games.kensei.battle import selfplay as battle_selfplay
from companion.games.kensei.errors import KenseiError

HELP = {
    "melee": "a melee between two troops: pools, hits, wounds, casualties, loser, honour",
    "shoot": "a shot: pool, hits, wounds, casualties, honour",
    "duel": "a command duel: the card sums and who holds the initiative",
}


def _print(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _run(args: argparse.Namespace) -> int:
    kind: calculator.Kind = args.kensei_command
    try:
        text = calculator.read(args.file)
    except KenseiError as exc:
        _print(exc.as_json())
        return calculator.EXIT_ERROR
    status, payload = calculator.adjudicate_text(kind, text)
    _print(payload)
    return status


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion kensei melee|shoot|duel|list|profiles|selfplay``."""
    parser = subparsers.add_parser(
        "kensei", help="Kensei: army lists, profiles, the referee calculators, self-play")
    inner = parser.add_subparsers(dest="kensei_command", metavar="WHAT", required=True)
    for kind, text in HELP.items():
        sub = inner.add_parser(
            kind, help=text, description=f"Kensei: {text}. Reads one JSON object "
            "(docs/kensei.md) and prints one; exit status 2 on malformed or illegal input.")
        sub.add_argument("file", metavar="FILE", help="the input as JSON, or - for stdin")
        sub.set_defaults(handler=_run)
    list_cli.register(inner)
    battle_selfplay.register(inner)
