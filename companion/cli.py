"""The ``companion`` command.

Subcommands are plugins: each package that offers one (the game packages, the hardware bridge,
the touchscreen) names a ``register(subparsers)`` function under the ``companion.commands`` entry
point group in ``pyproject.toml``. The core thus never imports the packages that depend on it, and
only the plugin of the command being run is imported (``companion --help`` imports none), so the
command starts fast on a Raspberry Pi. ``companion`` with no subcommand prints help.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points

Handler = Callable[[argparse.Namespace], int]
TERM_AGAIN_S = 2.0
DESCRIPTION = "The Sekigahara table companion."


def _plugins() -> dict[str, EntryPoint]:
    return {e.name: e for e in entry_points(group="companion.commands")}


def usage(plugins: dict[str, EntryPoint]) -> str:
    names = ", ".join(sorted(plugins)) or "(none installed)"
    return (
        "usage: companion COMMAND [ARGS...]\n\n"
        f"{DESCRIPTION}\n\n"
        f"commands: {names}\n\n"
        "  companion run                 the table app (the simulator when no hub is plugged in)\n"
        "  companion COMMAND --help      what a command does and its options\n"
    )


def build_parser(names: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """A parser with the subcommands of ``names`` (every installed plugin when None)."""
    parser = argparse.ArgumentParser(prog="companion", description=DESCRIPTION)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    plugins = _plugins()
    for name in sorted(plugins if names is None else [n for n in names if n in plugins]):
        try:
            register = plugins[name].load()
        except ImportError as exc:  # a plugin that is not installed must not break the others
            print(f"companion: command {name!r} is unavailable: {exc}", file=sys.stderr)
            continue
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    plugins = _plugins()
    if not args_list or args_list[0] in ("-h", "--help", "help"):
        print(usage(plugins), end="")
        return 0 if args_list else 2
    name = args_list[0]
    if name not in plugins:
        print(f"companion: unknown command {name!r}\n\n{usage(plugins)}", end="", file=sys.stderr)
        return 2
    parser = build_parser([name])
    args = parser.parse_args(args_list)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM (systemd stopping the service): leave as from an error, so every ``finally``
    and exit handler runs and no temporary directory is left behind. A SystemExit raised while
    a C library runs Python code (pygame loading its window icon) can be swallowed there: the
    signal comes again in two seconds, and is ignored once the way out is under way."""
    if isinstance(sys.exc_info()[1], SystemExit):
        return
    again = threading.Timer(TERM_AGAIN_S, os.kill, (os.getpid(), signum))
    again.daemon = True
    again.start()
    raise SystemExit(128 + signum)
