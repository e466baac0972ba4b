"""``companion run --game tenka-meidou``: Tenka Meidou's table app (options from :mod:`ui.cli`)."""

from __future__ import annotations

import argparse

from ui.tenka_meidou import UI
from ui.tenka_meidou.app import TenkaOptions


def run(args: argparse.Namespace, change_game: bool = False) -> int | None:
    """The exit status, or None when the players asked for the game choice."""
    options = TenkaOptions(size=args.size, diagonal_in=args.inches, kiosk=args.kiosk,
                           seed=args.seed, virtual_table=not args.headless, hubs=args.hubs,
                           rate_hz=args.rate, db=args.db, change_game=change_game,
                           time_model=args.time_model, instr_us=args.instr_us)
    if args.config is not None:
        options.config = args.config
    if args.demo:
        return UI.demo(options, args)
    app = UI.table_app(options)
    if args.record is not None:
        from ui.shell.app import FrameRecorder

        app.app.recorder = FrameRecorder(args.record, args.pictures)
    app.run()
    return None if app.changing else 0
