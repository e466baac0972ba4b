"""The Sekigahara table app: readers, game, screens and (with the simulator) the virtual table.

:class:`TableApp` puts the parts together: it opens the readers (real hubs, or the built-in
simulator when none is plugged in), starts the bridge and the table session on a game, and shows
the start screen. With the simulator on a desktop, the virtual table is drawn beside the screen:
blocks dragged there are read by the simulated hubs exactly as real blocks would be.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from functools import partial

from companion.core.pin import RefereePin
from companion.core.seals import Seal
from companion.core.store import CorrectionRecorder, GameLog, Store, StoreError
from companion.games.sekigahara.components import Side, default_blocks, default_board
from companion.games.sekigahara.facade import (
    GAME_BOX,
    SekigaharaGame,
    new_game,
    records,
    side_zone,
)
from firmware_bridge.tablelink import open_readers
from ui.hardware import HardwareScreen
from ui.sekigahara.control import TableControl, weekly_history
from ui.sekigahara.ending import History, WeekPoint
from ui.sekigahara.menus import SekigaharaReferee, StartScreen
from ui.sekigahara.parts import victory_points
from ui.sekigahara.play import PlayScreen
from ui.sekigahara.virtual_table import VirtualTable, side_to_move
from ui.shell import tournament
from ui.shell.referee import RefereeScreen
from ui.shell.saving import SavedGames
from ui.shell.sealing import SealWatch
from ui.tableapp import GameTableApp, TableOptions

log = logging.getLogger(__name__)

SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "1280x720": (1280, 720),
         "720x1280": (720, 1280)}


Options = TableOptions
"""How to run Sekigahara's app (the options every game's app takes)."""


class TableApp(GameTableApp):
    """See the module docstring. ``run()`` blocks until the window is closed."""

    play: PlayScreen

    def __init__(self, options: Options) -> None:
        self._serve(options, "sekigahara")  # the bridge serves this game in this process
        readers = open_readers(options.hubs, options.config, self.workdir, options.rate_hz,
                               options.seed, time_model=options.time_model,
                               instr_us=options.instr_us)
        self.control = TableControl(readers, settle_s=options.settle_s)
        show_table = self._open_window("Sekigahara table companion",
                                       readers.simulated is not None)
        self.control.on_change = self.app.wake
        tournament.follow(self.control)
        self.virtual: VirtualTable | None = None
        if readers.simulated is not None:
            self.virtual = VirtualTable(
                readers.simulated, default_board(),
                to_move=lambda: side_to_move(self.control.snapshot().prompt.waiting))
            if show_table:
                self.app.panel = self.virtual
        self.pin = RefereePin(options.pin_file)
        self.play = PlayScreen(self.app, self.control, self.show_start, history=self.history,
                               finished=self.finished, seal=self.seal)
        self.seals = SealWatch(records.seal_points)
        self.saved = SavedGames(options.db, records.GAME)
        self.game_id: int | None = None
        self.control.start()
        self.show_start()

    # ------------------------------------------------------------------ the game store

    @property
    def store(self) -> Store | None:
        return self.saved.store

    @property
    def store_problem(self) -> str | None:
        return self.saved.problem

    def finished(self) -> None:
        """The rules say the game is over: mark it so in the store (2.1, 2.2)."""
        if self.store is not None and self.game_id is not None:
            try:
                records.finish_if_over(self.store, self.game_id, self.control.game)
            except StoreError as exc:
                self.app.say(f"Not saved: {exc.message}")

    def seal(self) -> Seal | None:
        """The latest seal of the saved game (docs/referee.md, Seals)."""
        return self.seals.latest(self.store, self.game_id, len(self.control.events))

    # ------------------------------------------------------------------ screens

    def show_start(self) -> None:
        self.saved.open()
        following = self.control.game.state.phase.value not in ("not_started", "game_over")
        saved = None if following else self.saved.latest()
        resume: Callable[[], None] | None = None
        if following:
            resume = self.back_to_game
        elif saved is not None:
            resume = partial(self.resume, saved.id)
        has_saved = any(not (following and g.id == self.game_id)
                        for g in self.saved.unfinished())
        self.app.show(StartScreen(
            self.control, self.ask_new_game if self.store is not None else None, resume,
            self.show_hardware, self.show_referee, problem=self.store_problem,
            retry=self.show_start if self.store is None else None,
            without_saving=self.ask_new_game_unsaved if self.store is None else None,
            change_game=self.change_game if self.options.change_game else None,
            saved_games=self.show_saved_games if has_saved else None,
            tournament=self.show_tournament))

    title = "Sekigahara"

    def _progress(self, log: GameLog) -> str:
        return records.progress(log)

    def _under_way(self) -> bool:
        return self.control.game.state.phase.value not in ("not_started", "game_over")

    def show_hardware(self) -> None:
        self.app.show(HardwareScreen(lambda: self.control.bridge, self.show_start))

    def show_referee(self) -> None:
        page = SekigaharaReferee(self.control, self.verify)
        self.app.show(RefereeScreen(self.pin, page, self.show_start))

    def verify(self) -> tuple[bool, str]:
        """The referee's "Verify this game" on the game being played (8)."""
        return self.saved.verify(self.game_id, records.check, self.control.game.events)

    def resume(self, game_id: int) -> None:
        """The stored game, re-adjudicated entry by entry (8); then the readers are compared
        with it and what changed while the power was off is listed as discrepancies."""
        store = self.store
        assert store is not None
        game = self._load_saved(lambda: records.resume(store, game_id))
        if game is None:
            return
        self.control.follow(game, game.recorder)  # type: ignore[arg-type]
        try:  # the feed as it was shown, rebuilt from the record
            self.control.replay_feed(store.load(game_id).entries)
        except StoreError as exc:
            self.app.say(f"The feed cannot be shown again: {exc.message}")
        if self.virtual is not None:
            self._lay_out_virtual_table()
        self.app.show(self.play)

    def new_game(self) -> None:
        """A fresh game, recorded: the rules start it (5.1), the set-up is guided (5.2)."""
        assert self.store is not None
        try:
            self.game_id, game = records.start(self.store)
        except StoreError as exc:
            self.saved.problem = exc.message
            self.show_start()
            return
        self._begin(game, game.recorder)  # type: ignore[arg-type]

    def new_game_unsaved(self) -> None:
        """Chosen on the start screen when the store cannot be opened: said, never silent."""
        self.game_id = None
        self._begin(new_game(), None)
        self.app.say(f"Not saving this game: {self.store_problem}")

    def _begin(self, game: SekigaharaGame, recorder: CorrectionRecorder | None) -> None:
        if self.virtual is not None:
            self._clear_virtual_table()
        self.control.follow(game, recorder)
        try:
            self.control.start_game()
        except StoreError as exc:
            self.app.say(f"Not saved: {exc.message}")
            return
        if self.virtual is not None:
            for side in Side:
                for block in self.control.bag_blocks(side):
                    self.virtual.to_bag(block, side)
        self.app.show(self.play)

    def _clear_virtual_table(self, timeout_s: float = 3.0) -> None:
        """Every block back in the game box, and the readers seeing the map empty, before a
        new game's set-up is followed: a block of the last game still read on the map would
        pass for a set-up placement (5.2)."""
        assert self.virtual is not None
        for piece in default_blocks().blocks:
            self.virtual.place(piece.id, GAME_BOX)
        with contextlib.suppress(TimeoutError):  # a slow reader: the guide's check says so
            self.control.bridge.wait_for(lambda bridge: not bridge.placements() or None,
                                         timeout_s)

    def _lay_out_virtual_table(self) -> None:
        """With simulated readers the table is virtual: after a resume it is laid out as the
        rules have it (real hubs show what is really there instead)."""
        assert self.virtual is not None
        expected = self.control.session.rules.expected_positions()
        for block in default_blocks().blocks:
            zone = expected.get(block.id)
            if zone is None:
                self.virtual.place(block.id, GAME_BOX)
            elif (side := side_zone(zone, "bag")) is not None:
                self.virtual.to_bag(block.id, side)
            else:
                self.virtual.place(block.id, zone)

    def history(self) -> History:
        weeks = []
        for week, view in weekly_history(self.control.events):
            castles = {s: sum(1 for c in view.castles.values() if c is s) for s in Side}
            weeks.append(WeekPoint(week, victory_points(view), castles, dict(view.hand)))
        return History(tuple(weeks))

    # ------------------------------------------------------------------ running

    def _stop_readers(self) -> None:
        self.control.stop()
