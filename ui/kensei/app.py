"""The Kensei table app: the home screen, the calculators and, once installed, the battle.

The battle screens plug in without this module changing: "New battle" looks up
:data:`BATTLE` (``ui.kensei.battle``) when it is drawn and tapped, and calls its
``open_battle(app)``; "Saved battles" resumes a stored battle through its
``resume_battle(app, game_id)``. Until that module exists the button says the battle screens
are not installed. The calculators' forms are for the battle screens too:
:meth:`KenseiApp.open_calculator` opens one prefilled and hands back the input and the ruling.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion.core.pin import RefereePin
from companion.core.store import GameLog
from ui.kensei.battle_table import ReaderTable, at_reader_table, open_reader_table
from ui.kensei.form_screen import FormScreen, Ruled
from ui.kensei.forms import CalcForm, DuelForm, MeleeForm, ShootForm
from ui.kensei.home import CalculatorsScreen, HomeScreen
from ui.kensei.ruling import RulingScreen
from ui.shell.app import App, Screen, panel_size
from ui.shell.saving import SavedGames, SavedGamesScreen
from ui.tableapp import TableOptions

if TYPE_CHECKING:
    from ui.kensei.virtual_table import VirtualTable

BATTLE = "ui.kensei.battle"
"""The battle screens' module: ``open_battle(app: KenseiApp) -> None`` starts a new battle,
``resume_battle(app, game_id: int) -> None`` a saved one."""
RECORDS = "companion.games.kensei.records"


def _lookup(module: str, attribute: str) -> Any:
    """``module.attribute`` if that module is installed, else None (looked up when used)."""
    try:
        if module not in sys.modules and importlib.util.find_spec(module) is None:
            return None
    except ModuleNotFoundError:
        return None
    return getattr(importlib.import_module(module), attribute, None)


class KenseiApp:
    """See the module docstring. ``run()`` blocks until the window is closed or the players
    ask for the game choice. No reader is opened: Kensei's readers come with its table."""

    title = "Kensei"
    virtual: VirtualTable | None = None

    def __init__(self, options: TableOptions) -> None:
        self.options = options
        self.changing = False
        self.game_id: int | None = None
        pygame.display.init()
        virtual = at_reader_table(options) and options.virtual_table and not options.kiosk
        self.app = App(options.size, diagonal_in=options.diagonal_in,
                       fullscreen=options.kiosk, title="Kensei table companion",
                       desktop=options.desktop,
                       panel_size=panel_size(options.size) if virtual else None)
        if options.kiosk:
            pygame.mouse.set_visible(False)
        self.table: ReaderTable | None = (open_reader_table(options)
                                          if at_reader_table(options) else None)
        """The simulated reader table and its virtual table (``--hubs sim``)."""
        self.virtual = self.table.virtual if self.table is not None else None
        if self.virtual is not None and self.app.panel_rect is not None:
            self.app.panel = self.virtual
        self.saved = SavedGames(options.db, "kensei")
        self.pin = RefereePin(options.pin_file)
        self.seed = options.seed
        self.play: Screen = self._home()
        self.show_start()

    # ------------------------------------------------------------------ home

    def _home(self) -> HomeScreen:
        start = _lookup(BATTLE, "open_battle")
        saved = [g for g in self.saved.unfinished() if g.id != self.game_id]
        can_resume = bool(saved) and _lookup(BATTLE, "resume_battle") is not None
        return HomeScreen(
            (lambda: start(self)) if start is not None else None, self.show_calculators,
            self.show_saved_games if can_resume else None,
            change_game=self.change_game if self.options.change_game else None,
            problem=self.saved.problem)

    def show_start(self) -> None:
        self.saved.open()
        self.app.show(self._home())

    def show_calculators(self) -> None:
        self.app.show(CalculatorsScreen(partial(self._blank, MeleeForm),
                                        partial(self._blank, ShootForm),
                                        partial(self._blank, DuelForm), self.show_start))

    def _blank(self, form: Callable[..., CalcForm]) -> None:
        self.open_calculator(form(seed=self.seed))

    def open_calculator(self, form: CalcForm, ruled: Ruled | None = None,
                        back: Callable[[], None] | None = None) -> FormScreen:
        """Show ``form`` (a :class:`MeleeForm`, :class:`ShootForm` or :class:`DuelForm`,
        prefilled as the caller likes). "Rule it" calls ``ruled(input, ruling)``; by default
        the ruling is shown, "Back to the form" returning to it. ``back`` leaves the form
        (default: the calculators)."""
        leave = back or self.show_calculators
        screen = FormScreen(form, leave, ruled or (lambda data, ruling: self.show_ruling(
            form, ruling, lambda: self.app.show(screen), leave)))
        self.app.show(screen)
        return screen

    def show_ruling(self, form: CalcForm, ruling: dict[str, Any], back: Callable[[], None],
                    done: Callable[[], None] | None = None) -> None:
        """A ruling of ``form``'s calculator, every modifier a tap from its rule."""
        self.app.show(RulingScreen(form.kind, ruling, back, form.names,
                                   done=done or self.show_calculators))

    # ------------------------------------------------------------------ saved battles

    def show_saved_games(self) -> None:
        progress: Callable[[GameLog], str] = (_lookup(RECORDS, "progress")
                                              or (lambda log: "A battle"))
        resume = _lookup(BATTLE, "resume_battle")
        games = [g for g in self.saved.saved_games(progress) if g.id != self.game_id]
        self.app.show(SavedGamesScreen(
            "Kensei", games, (lambda game_id: resume(self, game_id)) if resume else
            (lambda game_id: None), self.show_start))

    # ------------------------------------------------------------------ the contract

    def show_hardware(self) -> None:
        """The readers' hardware check at the reader table; without readers, the home screen
        saying so."""
        table = self.table
        if table is not None:
            from ui.hardware import HardwareScreen

            self.app.show(HardwareScreen(lambda: table.link.bridge, self.show_start))
            return
        self.show_start()
        self.app.say("Kensei uses no readers here: there is no hardware to check.")

    def show_referee(self) -> None:
        """Behind the referee PIN: the battle's secrets and "Verify this battle"
        (:mod:`ui.kensei.battle_referee`)."""
        from companion.games.kensei import records
        from companion.games.kensei.battle.views import referee_view
        from ui.kensei.battle_referee import KenseiReferee
        from ui.shell.referee import RefereeScreen

        def view() -> dict[str, Any] | None:
            battle = getattr(self, "battle", None)
            return None if battle is None else referee_view(battle.control.state)

        def verify() -> tuple[bool, str]:
            battle = getattr(self, "battle", None)
            self.saved.open()
            return self.saved.verify(self.game_id, records.check,
                                     battle.control.events if battle is not None else ())

        self.app.show(RefereeScreen(self.pin, KenseiReferee(view, verify), self.show_start))

    def back_to_game(self) -> None:
        self.app.show(self.play)

    def change_game(self) -> None:
        self.changing = True
        self.app.running = False

    def run(self) -> None:
        try:
            self.app.run()
        finally:
            self.close()

    def close(self) -> None:
        battle = getattr(self, "battle", None)
        if battle is not None:
            battle.control.stop()
        if self.table is not None:
            self.table.close()
        self.app.close()
        self.saved.close()
