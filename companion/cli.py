"""The ``companion`` command.

Subcommands are plugins, from two places: each installed game's descriptor names its own
(``commands`` in :class:`~companion.core.descriptor.GameDescriptor`: ``tenka``, ``selfplay``),
and the packages that serve every game (the referee tools, the hardware bridge, the touchscreen)
name a ``register(subparsers)`` function under the ``companion.commands`` entry point group in
``pyproject.toml``. The core thus never imports the packages that depend on it, and only the
plugin of the command being run is imported (``companion --help`` imports none: only the games'
light ``__init__``), so the command starts fast on a Raspberry Pi. When two register one name
the first wins (the games in name order, then the group) and the other is said in one line on
stderr. ``companion`` with no subcommand prints help.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from companion.core.commands import first_wins
from companion.core.descriptor import descriptors, load_target

Handler = Callable[[argparse.Namespace], int]
TERM_AGAIN_S = 2.0
EXIT_BUG = 70
"""A command that failed on something no check foresaw (EX_SOFTWARE)."""
DESCRIPTION = "The Sekigahara table companion."
GROUP = "companion.commands"
"""The entry point group of the commands that are no one game's."""


def _commands() -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Every subcommand name -> its ``"module:register"``, the first registration of a name
    winning; and the later ones that differ, as (name, used, skipped)."""
    found = [(name, target) for game in descriptors().values()
             for name, target in sorted(game.commands.items())]
    found += [(e.name, e.value) for e in entry_points(group=GROUP)]
    commands: dict[str, str] = {}
    skipped: list[tuple[str, str, str]] = []
    for name, target in found:
        used = commands.setdefault(name, target)
        if used != target:
            skipped.append((name, used, target))
    return commands, skipped


def usage(commands: dict[str, str]) -> str:
    names = ", ".join(sorted(commands)) or "(none installed)"
    return (
        "usage: companion COMMAND [ARGS...]\n\n"
        f"{DESCRIPTION}\n\n"
        f"commands: {names}\n\n"
        "  companion run                 the table app (the simulator when no hub is plugged in)\n"
        "  companion COMMAND --help      what a command does and its options\n"
    )


def build_parser(names: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """A parser with the subcommands of ``names`` (every installed one when None). A command
    that cannot be imported, or a name registered twice, is one line on stderr, never an
    error that stops the others."""
    parser = argparse.ArgumentParser(prog="companion", description=DESCRIPTION)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands, skipped = _commands()
    chosen = sorted(commands if names is None else [n for n in names if n in commands])
    for name, used, other in skipped:
        if name in chosen:
            print(f"companion: command {name!r} is registered twice ({used} and {other}): "
                  f"the first is used", file=sys.stderr)
    owners: dict[str, str] = {}
    called: set[str] = set()
    for name in chosen:
        target = commands[name]
        if target in called:  # one register adding several commands (hardware, simulate)
            continue
        called.add(target)
        try:
            register = load_target(target, f"command {name!r} ({target})")
        except ImportError as exc:  # a plugin that is not installed must not break the others
            print(f"companion: {exc}", file=sys.stderr)
            continue
        register(first_wins(subparsers, target, owners))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    commands, _ = _commands()
    if not args_list or args_list[0] in ("-h", "--help", "help"):
        print(usage(commands), end="")
        return 0 if args_list else 2
    name = args_list[0]
    if name not in commands:
        print(f"companion: unknown command {name!r}\n\n{usage(commands)}", end="",
              file=sys.stderr)
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
    except Exception as exc:  # a bug: still one line (the README's promise), never a traceback
        from companion.core.inputs import one_line

        print(f"companion {name}: internal error ({type(exc).__name__}: "
              f"{one_line(str(exc), 200)}); please report it", file=sys.stderr)
        return EXIT_BUG


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
