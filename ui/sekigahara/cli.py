"""``companion run --game sekigahara`` (the default): Sekigahara's table app.

The command and its options are :mod:`ui.cli`'s; ``register`` is kept here for installs whose
entry point still names this module.
"""

from __future__ import annotations

import argparse

from ui.cli import register

__all__ = ["register", "run"]


def run(args: argparse.Namespace, change_game: bool = False) -> int | None:
    """The exit status, or None when the players asked for the game choice."""
    from ui.sekigahara import UI
    from ui.sekigahara.app import Options

    options = Options(size=args.size, hubs=args.hubs, kiosk=args.kiosk,
                      diagonal_in=args.inches, rate_hz=args.rate, seed=args.seed,
                      virtual_table=not args.headless, change_game=change_game,
                      time_model=args.time_model, instr_us=args.instr_us)
    if args.config is not None:
        options.config = args.config
    options.db = args.db
    if args.demo:
        return UI.demo(options, args)
    app = UI.table_app(options)
    if args.record is not None:
        from ui.shell.app import FrameRecorder

        app.app.recorder = FrameRecorder(args.record, args.pictures)
    app.run()
    return None if app.changing else 0
