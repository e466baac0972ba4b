"""``companion run``: the table app (the README's run command), for either game.

``--game sekigahara`` (the default) or ``--game tenka-meidou``. With no hub plugged in either game
runs on the built-in reader simulator and opens the virtual table beside the screen (blocks or
pawns). ``--kiosk`` fills the screen (SDL's kmsdrm driver on a
Raspberry Pi with no desktop); ``--headless --demo`` plays a seeded game with no window. Errors
are one line and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from companion.core.paths import add_db_argument

GAMES = ("sekigahara", "tenka-meidou")


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"{text} is not a screen size")
    return width, height


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run", help="the table app (the simulator and virtual table when no hub is plugged in)",
        description="Run the table app. With no reader hub plugged in it uses the built-in "
        "simulator and shows a virtual table beside the screen, where pieces are dragged as on "
        "the real board.")
    parser.add_argument("--game", choices=GAMES, default="sekigahara",
                        type=lambda name: name.replace("_", "-"),
                        help="which game (default sekigahara)")
    parser.add_argument("--hubs", nargs="+", default=["auto"], metavar="auto|sim|PORT",
                        help="auto (default): real hubs if any answer, else the simulator; "
                        "sim: the simulator; or the hubs' serial ports")
    parser.add_argument("--size", type=_size, default=(800, 480), metavar="WxH",
                        help="the screen's size in pixels (default 800x480; 1024x600, "
                        "1280x720 and 720x1280 are laid out too)")
    parser.add_argument("--inches", type=float, default=7.0,
                        help="the screen's diagonal, for 9 mm touch targets (default 7)")
    parser.add_argument("--kiosk", action="store_true",
                        help="full screen, no pointer (a Raspberry Pi touchscreen)")
    parser.add_argument("--config", type=Path, default=None,
                        help="where the wiring map and tag registry are (real hubs)")
    parser.add_argument("--rate", type=int, default=10, help="simulated scans a second")
    parser.add_argument("--headless", action="store_true",
                        help="no window (SDL's dummy video driver): for tests and docs")
    parser.add_argument("--demo", action="store_true",
                        help="play a seeded random legal game through the whole stack")
    parser.add_argument("--weeks", type=int, default=1,
                        help="weeks the Sekigahara demo plays (1-7)")
    parser.add_argument("--seed", type=int, default=0, help="the demo's seed")
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help="write DIR/frames/NNNNN.png at each screen change and "
                        "DIR/text.jsonl, one line per string drawn")
    parser.add_argument("--log", type=Path, default=None, help="write a debug log here")
    add_db_argument(parser)
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    if args.log is not None:
        logging.basicConfig(filename=args.log, level=logging.DEBUG,
                            format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    else:  # the screen says what matters; the console only gets errors
        logging.basicConfig(level=logging.ERROR, format="companion: %(message)s")
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.demo and not 1 <= args.weeks <= 7:
        print("companion run: error: --weeks is 1 to 7", file=sys.stderr)
        return 2
    if args.demo and not args.headless:
        print("companion run: error: --demo runs with --headless", file=sys.stderr)
        return 2
    try:
        if args.game == "tenka-meidou":
            from ui.tenka_meidou.cli import run as run_game
        else:
            from ui.sekigahara.cli import run as run_game
        return run_game(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line, never a traceback
        logging.getLogger(__name__).debug("run failed", exc_info=True)
        print(f"companion run: error: {str(exc).splitlines()[0] if str(exc) else exc!r}",
              file=sys.stderr)
        return 1
