"""Kensei's screens. :data:`UI` is what the shell reaches them by
(:class:`ui.shell.contract.GameUI`); importing this package loads neither pygame nor the bridge.

Where each screen lives: :mod:`.home` (the home screen, the choice of calculator),
:mod:`.forms` (the calculators' forms: :class:`~.forms.MeleeForm`, :class:`~.forms.ShootForm`,
:class:`~.forms.DuelForm`), :mod:`.form_screen` (a form on the screen, the dice pad, refusals),
:mod:`.ruling` (a ruling, each modifier a tap from its rule); the battle: :mod:`.battle`,
:mod:`.lists`, :mod:`.pregame`, :mod:`.turn`, :mod:`.score`, held by :mod:`.control`;
:mod:`.demo` (the seeded headless battle); :mod:`.app` puts them in the shell.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ui.shell.contract import GameUI

if TYPE_CHECKING:
    from ui.kensei.app import KenseiApp
    from ui.tableapp import TableOptions


class KenseiUI:
    """Kensei's side of the contract: each part imported when it is used."""

    key = "kensei"

    def run(self, args: argparse.Namespace, change_game: bool = False) -> int | None:
        from ui.kensei.cli import run

        return run(args, change_game)

    def demo(self, options: TableOptions, args: argparse.Namespace) -> int:
        """The seeded battle demo: a 200-pe battle from the lists to the score through the
        screens (:mod:`ui.kensei.demo`)."""
        from ui.kensei.demo import run_demo

        return run_demo(options, seed=args.seed, record=args.record, pictures=args.pictures)

    def table_app(self, options: TableOptions) -> KenseiApp:
        from ui.kensei.app import KenseiApp

        return KenseiApp(options)


UI: GameUI[TableOptions] = KenseiUI()
