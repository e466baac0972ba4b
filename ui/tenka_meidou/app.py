"""The Tenka Meidou table app: readers, game, screens and (with the simulator) the virtual table.

The shell (:mod:`ui.shell`) holds the window, the loop, touch and the recorder; this module puts
Tenka Meidou's parts in it. The readers are real hubs, or the built-in simulator when none is
plugged in (``--hubs auto|sim|PORT...``); the bridge serves Tenka Meidou
(:func:`firmware_bridge.zones.use_table`) and its table session follows the game
(:class:`~firmware_bridge.tablelink.TableLink`). With the simulator on a desktop, the virtual
table is drawn beside the screen: pawns dragged there are read by the simulated hubs exactly as
real pawns would be. Games are saved in the store (``--db``) and resumed from the start screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from companion.core.game import Game
from companion.core.pin import RefereePin
from companion.core.seals import Seal
from companion.core.store import CommandRecorder, GameLog, StoreError
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.state import Phase
from companion.games.tenka_meidou.views import referee_view
from firmware_bridge.tablelink import open_readers
from ui.hardware import HardwareScreen
from ui.shell import tournament
from ui.shell.referee import RefereeScreen
from ui.shell.saving import SavedGames
from ui.shell.sealing import SealWatch
from ui.tableapp import GameTableApp, TableOptions
from ui.tenka_meidou.control import TenkaControl, TenkaGame
from ui.tenka_meidou.play import PlayScreen
from ui.tenka_meidou.referee import TenkaReferee
from ui.tenka_meidou.screens import RulesScreen, SetupScreen, StartScreen
from ui.tenka_meidou.virtual_table import VirtualTable

SIM_HUBS = 2
"""The simulator's hubs for Tenka Meidou: 17 places fit on two 16-antenna hubs."""


TenkaOptions = TableOptions
"""How to run Tenka Meidou's app (the options every game's app takes)."""


class TenkaApp(GameTableApp):
    """See the module docstring. ``run()`` blocks until the window is closed."""

    play: PlayScreen

    def __init__(self, options: TenkaOptions) -> None:
        self._serve(options, "tenka-meidou")
        readers = open_readers(options.hubs, options.config, self.workdir, options.rate_hz,
                               options.seed, sim_hubs=SIM_HUBS, time_model=options.time_model,
                               instr_us=options.instr_us)
        self.control = TenkaControl(readers, seed=options.seed, settle_s=options.settle_s)
        simulated = readers.simulated
        show_table = self._open_window("Tenka Meidou table companion", simulated is not None)
        self.virtual: VirtualTable | None = None
        if simulated is not None:
            whites = self.control.rules.components.reinforcement_pawns
            self.virtual = VirtualTable(simulated, whites)
            self.control.on_start = self.virtual.lay_out
            if show_table:
                self.app.panel = self.virtual
        self.play = PlayScreen(self.control, self.show_start, finished=self.finished,
                               seal=self.seal)
        self.seals = SealWatch(records.seal_points)
        self.saved = SavedGames(options.db, records.GAME)
        self.game_id: int | None = None
        self._saving = True
        self.pin = RefereePin(options.pin_file)
        self.control.start(self.app.wake)
        tournament.follow(self.control.link)
        self.show_start()

    # ------------------------------------------------------------------ screens

    def show_start(self) -> None:
        store = self.saved.open()
        phase = self.control.game.state.phase
        under_way = phase not in (Phase.SETUP, Phase.OVER)
        saved = None if under_way else self.saved.latest()
        resume: Callable[[], None] | None = None
        if under_way:
            resume = self.back_to_game
        elif saved is not None:
            resume = partial(self.resume, saved.id)
        has_saved = any(not (under_way and g.id == self.game_id)
                        for g in self.saved.unfinished())
        self.app.show(StartScreen(
            self.ask_new_game if store is not None else None, resume, self.show_rules,
            readers=self.control.readers.describe(), problem=self.saved.problem,
            retry=self.show_start if store is None else None,
            without_saving=self.ask_new_game_unsaved if store is None else None,
            hardware=self.show_hardware, referee=self.show_referee,
            change_game=self.change_game if self.options.change_game else None,
            saved_games=self.show_saved_games if has_saved else None,
            tournament=self.show_tournament))

    title = "Tenka Meidou"

    def _progress(self, log: GameLog) -> str:
        return records.progress(log)

    def _under_way(self) -> bool:
        return self.control.game.state.phase not in (Phase.SETUP, Phase.OVER)

    def show_rules(self) -> None:
        self.app.show(RulesScreen(self.show_start))

    def show_hardware(self) -> None:
        self.app.show(HardwareScreen(lambda: self.control.link.bridge, self.show_start))

    def show_referee(self) -> None:
        """Behind the referee PIN: the referee view, the log in the referee's words and
        "Verify this game" (the page gets callables, never the game)."""
        page = TenkaReferee(lambda: referee_view(self.control.game.state),
                            lambda: self.control.events, self.verify)
        self.app.show(RefereeScreen(self.pin, page, self.show_start))

    def verify(self) -> tuple[bool, str]:
        """The stored game re-adjudicated from its record (:mod:`companion.core.records`)."""
        self.saved.open()
        return self.saved.verify(self.game_id, records.check, self.control.events)

    def new_game(self) -> None:
        self._saving = True
        self.app.show(SetupScreen(self.start_game, self.show_start))

    def new_game_unsaved(self) -> None:
        """Chosen on the start screen when the store cannot be opened: said, never silent."""
        self._saving = False
        self.app.show(SetupScreen(self.start_game, self.show_start))
        self.app.say(f"Not saving this game: {self.saved.problem}")

    def start_game(self, players: tuple[Colour, ...], advanced: bool) -> None:
        """A fresh game, recorded (unless the store cannot be opened and the players chose to
        play without saving), then its set-up (3)."""
        game: TenkaGame
        if self._saving and self.saved.store is not None:
            try:
                self.game_id, game = records.start(self.saved.store, self.control.rules)
            except StoreError as exc:
                self.saved.problem = exc.message
                self.show_start()
                return
        else:
            self.game_id, game = None, Game(self.control.rules)
        self.control.follow(game, _recorder(game))
        try:
            rejected = self.control.start_game(players, advanced)
        except StoreError as exc:
            self.app.say(f"Not saved: {exc.message}")
            return
        if rejected is not None:
            self.app.say(f"{rejected.message} ({rejected.rule})")
            return
        self.play.reset()
        self.app.show(self.play)
        if not self._saving:
            self.app.say(f"Not saving this game: {self.saved.problem}")

    def resume(self, game_id: int) -> None:
        """The stored game, re-adjudicated entry by entry; the virtual table is laid out as
        the rules have it (real hubs show what is really there, and the differences are said)."""
        store = self.saved.store
        assert store is not None
        game = self._load_saved(lambda: records.resume(store, game_id, self.control.rules))
        if game is None:
            return
        self.control.follow(game, _recorder(game))
        if self.virtual is not None:
            self.virtual.arrange(game.state.players,
                                 dict(self.control.session.expected_positions()))
        self.play.reset()
        self.app.show(self.play)

    def finished(self) -> None:
        """The War is fought and scored: mark the game finished in the store (5.II, 6)."""
        if self.saved.store is not None and self.game_id is not None:
            try:
                records.finish_if_over(self.saved.store, self.game_id, self.control.game)
            except StoreError as exc:
                self.app.say(f"Not saved: {exc.message}")

    def seal(self) -> Seal | None:
        """The latest seal of the saved game (docs/referee.md, Seals)."""
        return self.seals.latest(self.saved.store, self.game_id, len(self.control.events))

    # ------------------------------------------------------------------ running

    def _stop_readers(self) -> None:
        self.control.stop()


def _recorder(game: TenkaGame) -> CommandRecorder | None:
    return game.recorder if isinstance(game.recorder, CommandRecorder) else None
