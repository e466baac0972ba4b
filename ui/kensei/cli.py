"""``companion run --game kensei``: Kensei's table app (options from :mod:`ui.cli`)."""

from __future__ import annotations

import argparse

from ui.kensei import UI
from ui.tableapp import TableOptions


def options(args: argparse.Namespace, change_game: bool = False) -> TableOptions:
    found = TableOptions(size=args.size, diagonal_in=args.inches, kiosk=args.kiosk,
                         seed=args.seed, virtual_table=not args.headless, hubs=args.hubs,
                         rate_hz=args.rate, db=args.db, change_game=change_game)
    if args.config is not None:
        found.config = args.config
    return found


def run(args: argparse.Namespace, change_game: bool = False) -> int | None:
    """The exit status, or None when the players asked for the game choice."""
    opts = options(args, change_game)
    if args.demo:
        return UI.demo(opts, args)
    app = UI.table_app(opts)
    if args.record is not None:
        from ui.shell.app import FrameRecorder

        app.app.recorder = FrameRecorder(args.record, args.pictures)
    app.run()
    return None if app.changing else 0
