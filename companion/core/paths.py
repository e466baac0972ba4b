"""Where the companion keeps its files on this machine.

One directory per user, following the XDG base-directory convention:
``$XDG_DATA_HOME/sekigahara-companion`` or, when that is unset or not absolute,
``~/.local/share/sekigahara-companion``. The game database and the referee PIN live there
unless a path is given explicitly (``--db PATH``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

APP_DIR = "sekigahara-companion"


def data_dir() -> Path:
    """The companion's data directory (not created here)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / APP_DIR


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
