"""Where the companion keeps its files on this machine: one answer for every command.

Two directories per user, following the XDG base-directory convention (a variable that is unset,
empty or not an absolute path is ignored, as the convention says):

* data, :func:`data_dir`: ``$XDG_DATA_HOME/sekigahara-companion`` or
  ``~/.local/share/sekigahara-companion``. The game database and the referee PIN live there
  unless a path is given explicitly (``--db PATH``); whoever creates it first creates it
  ``0700`` (they hold every concealed block).
* configuration, :func:`config_dir`: ``$SEKIGAHARA_CONFIG`` itself when set (any path), else
  ``$XDG_CONFIG_HOME/sekigahara-companion`` or ``~/.config/sekigahara-companion``. The wiring map
  and the tag registry of real hubs live there (``companion hardware wiring``,
  ``register-tags``), and ``companion run`` reads them from there unless ``--config DIR``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

APP_DIR = "sekigahara-companion"


def _absolute(variable: str) -> Path | None:
    value = os.environ.get(variable, "")
    return Path(value) if value and os.path.isabs(value) else None


def data_dir() -> Path:
    """The companion's data directory (not created here)."""
    root = _absolute("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return root / APP_DIR


def config_dir() -> Path:
    """Where the wiring map and the tag registry of real hubs are (not created here)."""
    chosen = os.environ.get("SEKIGAHARA_CONFIG", "")
    if chosen:
        return Path(chosen).expanduser().absolute()
    return (_absolute("XDG_CONFIG_HOME") or Path.home() / ".config") / APP_DIR


def default_db_path() -> Path:
    """The default game database: ``<data dir>/games.sqlite``."""
    return data_dir() / "games.sqlite"


def default_pin_path() -> Path:
    """The default referee PIN file: ``<data dir>/referee-pin.json``."""
    return data_dir() / "referee-pin.json"


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db PATH``: the game database (default: :func:`default_db_path`)."""
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help=f"the game database (default: {default_db_path()})")
