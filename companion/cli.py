"""The ``companion`` command.

Subcommands are plugins: each package that offers one (the game packages, the hardware bridge,
the touchscreen) names a ``register(subparsers)`` function under the ``companion.commands`` entry
point group in ``pyproject.toml``. The core thus never imports the packages that depend on it.
``companion`` with no subcommand runs the ``run`` command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="The Sekigahara table companion."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for entry in sorted(entry_points(group="companion.commands"), key=lambda e: e.name):
        try:
            register = entry.load()
        except ImportError as exc:  # a plugin that is not installed must not break the others
            print(f"companion: command {entry.name!r} is unavailable: {exc}", file=sys.stderr)
            continue
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list:
        args_list = ["run"]
    args = parser.parse_args(args_list)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
