"""``companion run``: the table app (the README's run command), for either game.

``--game sekigahara`` or ``--game tenka-meidou``; without ``--game``, when more than one game is
installed (:func:`installed_games`), the first screen asks "Which game is on the table?" and each
game's start screen has "Change game" to come back to it. With no hub plugged in either game
runs on the built-in reader simulator and opens the virtual table beside the screen (blocks or
pawns). ``--kiosk`` fills the screen (SDL's kmsdrm driver on a
Raspberry Pi with no desktop); ``--headless --demo`` plays a seeded game with no window. Readers
that cannot start (a bad ``--hubs`` port) are said on a start-up screen with a retry
(docs/touchscreen.md, "When something is wrong"); other errors, and any with no screen to show
them on, are one line and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from companion.core.descriptor import GameDescriptor, descriptor, descriptors
from companion.core.inuse import DatabaseInUse, DatabaseLock
from companion.core.paths import add_db_argument

if TYPE_CHECKING:  # pygame and the bridge load only when the app runs
    from firmware_bridge.tablelink import ReadersUnavailable
    from ui.shell.chooser import GameChoice
    from ui.shell.contract import GameUI
    from ui.tableapp import TableOptions

DEFAULT_DEMO = "sekigahara"
"""The game ``--demo`` plays when ``--game`` is not given."""

GameRun = Callable[[argparse.Namespace, bool], "int | None"]

DISPLAY_TIMEOUT_S = 15.0
"""The longest SDL may take to open the screen."""
NO_DISPLAY = "no screen to show the table on"
NO_DISPLAY_ADVICE = ("run it from the desktop, on the Raspberry Pi's panel with --kiosk, or "
                     "with --headless")
KIOSK_ADVICE = ("check the panel's cable and that no desktop holds the screen "
                "(docs/touchscreen.md)")
NO_PYGAME = ("the table app needs pygame-ce, which this install lacks: "
             "pip install 'sekigahara-companion[ui]'")
"""What ``companion run`` says when the ``ui`` extra was not installed (one line, no traceback)."""


def installed_games() -> list[GameChoice]:
    """The games this table can play: those whose descriptor (:mod:`companion.core.descriptor`)
    names screens (a reader table too, except Kensei's calculators), with the title and line
    the choice shows."""
    from ui.shell.chooser import GameChoice

    return [GameChoice(game.name, game.title, game.line) for game in _with_screens()]


def _with_screens() -> list[GameDescriptor]:
    return [game for game in descriptors().values() if game.ui is not None]


def game_runner(key: str) -> GameRun:
    """The ``run(args, change_game)`` of the game ``key``'s screens (imported only now)."""
    game_ui: GameUI[TableOptions] = descriptor(key).load("ui")
    return game_ui.run


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
    parser.add_argument("--game", choices=[game.name for game in _with_screens()],
                        default=None, type=lambda name: name.replace("_", "-"),
                        help="which game (default: ask on the screen when more than one is "
                        "installed; --demo plays sekigahara)")
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
    parser.add_argument("--time-model", action="store_true",
                        help="simulated hubs read one antenna at a time, each read as long as "
                        "the computed air-time model says, in the host's scan slots")
    parser.add_argument("--instr-us", type=float, default=250.0, metavar="US",
                        help="with --time-model: the hubs' cost per SPI instruction "
                        "(default 250 us)")
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
    parser.add_argument("--no-pictures", dest="pictures", action="store_false",
                        help="with --record: only the strings and targets (what "
                        "python -m ui.shell.legibility checks), no PNG frames")
    parser.add_argument("--log", type=Path, default=None, help="write a debug log here")
    parser.add_argument("--tournament", metavar="URL", default=None,
                        help="publish the table's public game to the event's broker: "
                             "mqtt://table-03:PASSWORD@HOST:PORT/EVENT (docs/tournament.md)")
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
    if not 1 <= args.instr_us <= 10_000:
        print("companion run: error: --instr-us is 1 to 10000 microseconds", file=sys.stderr)
        return 2
    if args.tournament is not None:
        from tournament.url import TournamentUrl, UrlError

        try:
            TournamentUrl.for_table(args.tournament)
        except UrlError as exc:
            print(f"companion run: error: --tournament: {exc}", file=sys.stderr)
            return 2
    try:
        with one_app(args):
            if not args.headless:
                open_display(kiosk=args.kiosk)
            return play_in_tournament(args)
    except DatabaseInUse as exc:  # another app holds the database: one line, at once
        print(f"companion run: error: {exc.message}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line, never a traceback
        logging.getLogger(__name__).debug("run failed", exc_info=True)
        line = str(exc).splitlines()[0] if str(exc) else repr(exc)
        missing = exc.name if isinstance(exc, ModuleNotFoundError) else None
        if (missing or "").partition(".")[0] == "pygame":
            line = NO_PYGAME
        print(f"companion run: error: {line}", file=sys.stderr)
        return 1


def one_app(args: argparse.Namespace) -> DatabaseLock | nullcontext[None]:
    """The database lock held while the app runs (:mod:`companion.core.inuse`); a demo on its
    own scratch database takes none."""
    if args.demo and args.db is None:
        return nullcontext()
    return DatabaseLock(args.db)


def play_in_tournament(args: argparse.Namespace) -> int:
    """:func:`play`, publishing to the tournament while it runs: ``--tournament``, else the
    URL last joined on the start screen (not for a demo) (:mod:`ui.shell.tournament`)."""
    from ui.shell import tournament
    from ui.shell.tournament_screen import saved

    url = args.tournament or (None if args.demo else saved())
    if url is None:
        return play(args)
    try:
        tournament.start(url, args.db)
    except ValueError as exc:  # a saved URL spoilt by hand: play on, out of the tournament
        logging.getLogger(__name__).error("the saved tournament URL is not used: %s", exc)
        return play(args)
    try:
        return play(args)
    finally:
        tournament.stop()


def play(args: argparse.Namespace) -> int:
    """The chosen game (``--game``), or the choice on the screen first; back to the choice
    whenever the players tap "Change game" on a game's start screen. Readers that cannot
    start are said on the screen with a retry (:func:`startup`); headless, in one line."""
    from firmware_bridge.tablelink import ReadersUnavailable

    games = installed_games()
    key: str | None = args.game
    if key is None and (args.demo or len(games) < 2):
        key = DEFAULT_DEMO if args.demo or not games else games[0].key
    offer_change = len(games) > 1 and not args.demo
    while True:
        if key is None:
            key = choose(args, games)
            if key is None:
                return 0  # the window was closed
        try:
            result = game_runner(key)(args, offer_change)
        except ReadersUnavailable as exc:
            if args.headless:  # nobody to tap a screen: one line, as any error
                raise
            choice = startup(args, exc)
            if choice in (None, "quit"):
                raise
            if choice == "simulator":
                args.hubs = ["sim"]
            continue
        if result is not None:
            return result
        key = None


def open_display(kiosk: bool = False, timeout_s: float = DISPLAY_TIMEOUT_S) -> None:
    """Open SDL's video before anything else, so that a table with no screen stops at once
    with one line (:class:`DisplayUnavailable`) instead of running unseen: SDL, finding no
    screen, would fall back to drawing off-screen and wait there for touches forever. On
    Linux, SDL is pointed at the one driver that can work (X11 with ``DISPLAY``, else the
    panel itself through kmsdrm, as ``--kiosk`` does) unless ``SDL_VIDEODRIVER`` or Wayland
    says otherwise. A driver that does not answer within ``timeout_s`` ends the process with
    the same line (nothing has been made yet that needs cleaning up)."""
    import threading

    advice = KIOSK_ADVICE if kiosk else NO_DISPLAY_ADVICE

    chosen = os.environ.get("SDL_VIDEODRIVER")
    x11, wayland = os.environ.get("DISPLAY"), os.environ.get("WAYLAND_DISPLAY")
    why = ""
    if not chosen and sys.platform.startswith("linux") and not wayland:
        # straight to the one that can work: SDL would try the others, say so on stderr and
        # end up drawing off-screen
        os.environ["SDL_VIDEODRIVER"] = "x11" if x11 else "kmsdrm"
        why = (f"the desktop DISPLAY={x11} cannot be opened" if x11 else
               "there is no desktop (DISPLAY is not set) and the panel cannot be opened "
               "directly")

    def stuck() -> None:
        print(f"companion run: error: {NO_DISPLAY}: the video driver did not answer in "
              f"{timeout_s:.0f} s", file=sys.stderr, flush=True)
        os._exit(1)

    watchdog = threading.Timer(timeout_s, stuck)
    watchdog.daemon = True
    watchdog.start()
    try:
        import pygame

        try:
            pygame.display.init()
        except pygame.error as exc:
            raise DisplayUnavailable(f"{NO_DISPLAY}: {why or 'SDL cannot open it'} ({exc}); "
                                     f"{advice}") from None
        driver = pygame.display.get_driver()
    finally:
        watchdog.cancel()
    if driver in ("offscreen", "dummy") and driver != chosen:
        raise DisplayUnavailable(f"{NO_DISPLAY}: SDL found no video device; "
                                 f"{advice}")


class DisplayUnavailable(RuntimeError):
    """No screen to draw on (one line for the console: there is no screen to show it)."""


def startup(args: argparse.Namespace, problem: ReadersUnavailable) -> str | None:
    """The readers cannot start: say so on the screen, with a retry (by itself every two
    seconds, or tapped), the simulator (not on a kiosk) and Quit. ``retry``, ``simulator``,
    ``quit`` or None (the window closed)."""
    from firmware_bridge.discovery import hub_ports
    from firmware_bridge.tablelink import ReadersUnavailable, check_readers
    from ui.shell.app import App, FrameRecorder, kiosk_display
    from ui.shell.startup import startup_problem
    from ui.tableapp import TableOptions

    config = args.config if args.config is not None else TableOptions().config

    def recheck() -> tuple[str, str] | None:
        try:
            check_readers(args.hubs, config)
        except ReadersUnavailable as exc:
            return exc.problem, exc.advice
        return None

    found = [p.device for p in hub_ports()]
    note = (f"Hub ports plugged in now: {', '.join(found)}." if found
            else "No hub is plugged in now.")
    logging.getLogger(__name__).warning("%s", problem)
    size = kiosk_display(args.size) if args.kiosk else args.size
    app = App(size, diagonal_in=args.inches, fullscreen=args.kiosk, title="Table companion")
    if args.record is not None:
        app.recorder = FrameRecorder(args.record / "startup")
    try:
        return startup_problem(app, problem.problem, problem.advice, recheck,
                               simulator=not args.kiosk, note=note)
    finally:
        app.close()


def choose(args: argparse.Namespace, games: list[GameChoice]) -> str | None:
    """The game choice in its own window (each game's app sizes the window again)."""
    import pygame

    from ui.shell.app import App, kiosk_display

    size = kiosk_display(args.size) if args.kiosk else args.size
    app = App(size, diagonal_in=args.inches, fullscreen=args.kiosk,
              title="Table companion")
    if args.kiosk:
        pygame.mouse.set_visible(False)
    from ui.shell.chooser import choose_game

    try:
        return choose_game(app, games)
    finally:
        app.close()
