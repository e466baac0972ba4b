"""Tenka Meidou's screens. :data:`UI` is what the shell reaches them by
(:class:`ui.shell.contract.GameUI`); importing this package loads neither pygame nor the bridge.

Where each screen lives: :mod:`.screens` (start, set-up, the rules in short), :mod:`.play`
(the game phase by phase: the Daimyo choice, the turn, dice, placement, cards),
:mod:`.war_screen` (the War and the score), :mod:`.referee` (the referee's page),
:mod:`.virtual_table`, :mod:`.demo`; :mod:`.app` puts them in the shell.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ui.shell.contract import GameUI

if TYPE_CHECKING:
    from ui.tableapp import TableOptions
    from ui.tenka_meidou.app import TenkaApp


class TenkaUI:
    """Tenka Meidou's side of the contract: each part imported when it is used."""

    key = "tenka-meidou"

    def run(self, args: argparse.Namespace, change_game: bool = False) -> int | None:
        from ui.tenka_meidou.cli import run

        return run(args, change_game)

    def demo(self, options: TableOptions, args: argparse.Namespace) -> int:
        from ui.tenka_meidou.demo import run_demo

        return run_demo(options, seed=args.seed, record=args.record,
                        pictures=args.pictures)

    def table_app(self, options: TableOptions) -> TenkaApp:
        from ui.tenka_meidou.app import TenkaApp

        return TenkaApp(options)


UI: GameUI[TableOptions] = TenkaUI()
