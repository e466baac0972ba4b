"""Sekigahara's screens. :data:`UI` is what the shell reaches them by
(:class:`ui.shell.contract.GameUI`); importing this package loads neither pygame nor the bridge.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ui.shell.contract import GameUI

if TYPE_CHECKING:
    from ui.sekigahara.app import TableApp
    from ui.tableapp import TableOptions


class SekigaharaUI:
    """Sekigahara's side of the contract: each part imported when it is used."""

    key = "sekigahara"

    def run(self, args: argparse.Namespace, change_game: bool = False) -> int | None:
        from ui.sekigahara.cli import run

        return run(args, change_game)

    def demo(self, options: TableOptions, args: argparse.Namespace) -> int:
        """``args.weeks`` weeks (1-7) or to the end."""
        from ui.sekigahara.demo import run_demo

        return run_demo(options, weeks=args.weeks, seed=args.seed, record=args.record,
                        pictures=args.pictures)

    def table_app(self, options: TableOptions) -> TableApp:
        from ui.sekigahara.app import TableApp

        return TableApp(options)


UI: GameUI[TableOptions] = SekigaharaUI()
