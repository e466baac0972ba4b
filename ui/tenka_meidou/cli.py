"""``companion run --game tenka-meidou``: Tenka Meidou's table app (options from :mod:`ui.cli`)."""

from __future__ import annotations

import argparse

from ui.tenka_meidou.app import TenkaApp, TenkaOptions


def run(args: argparse.Namespace, change_game: bool = False) -> int | None:
    """The exit status, or None when the players asked for the game choice."""
    options = TenkaOptions(size=args.size, diagonal_in=args.inches, kiosk=args.kiosk,
                           seed=args.seed, virtual_table=not args.headless, hubs=args.hubs,
                           rate_hz=args.rate, db=args.db, change_game=change_game)
    if args.config is not None:
        options.config = args.config
    if args.demo:
        from ui.tenka_meidou.demo import run_demo

        return run_demo(options, seed=args.seed, record=args.record)
    app = TenkaApp(options)
    if args.record is not None:
        from ui.shell.app import FrameRecorder

        app.app.recorder = FrameRecorder(args.record)
    app.run()
    return None if app.changing else 0
