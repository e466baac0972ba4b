"""Every game's UI keeps the shell's contract (:mod:`ui.shell.contract`): what ``companion run``
offers is what the games' :data:`UI` objects say, their packages import cheaply, and the table
app each one makes has the start screen, the hardware check, the referee behind the PIN and,
with simulated readers, the virtual table beside the screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ui.kensei
import ui.sekigahara
import ui.tenka_meidou
from companion.core.descriptor import descriptor, descriptors
from companion.core.table import table_names
from ui.shell.contract import GameUI, TableApp, VirtualTable
from ui.tableapp import TableOptions

UIS: dict[str, GameUI[TableOptions]] = {
    u.key: u for u in (ui.kensei.UI, ui.sekigahara.UI, ui.tenka_meidou.UI)}
ON_READERS = sorted(key for key in UIS if descriptor(key).table is not None)
"""Kensei's screens have no reader table yet: no virtual table, no hardware to check."""
ROOT = Path(__file__).resolve().parents[2]


def drawn(app: TableApp) -> set[str]:
    """The screens a fresh frame drew strings for (the touchscreen's and the side panel's)."""
    app.app.draw()
    return {name for name, _text in app.app.drawn}


def test_every_game_offered_has_a_ui_that_keeps_the_contract() -> None:
    with_screens = {game.name: game for game in descriptors().values() if game.ui}
    assert set(UIS) == set(with_screens)
    served = set(table_names())
    for key, game_ui in UIS.items():
        assert isinstance(game_ui, GameUI)
        assert with_screens[key].load("ui") is game_ui  # the descriptor names this object
        if key in ON_READERS:  # the legibility lint reads the game's names from its table
            assert key in served


def test_a_game_ui_package_loads_neither_pygame_nor_the_bridge() -> None:
    """The game choice reads every game's title before any game is chosen."""
    probe = ("import sys, ui.kensei, ui.sekigahara, ui.tenka_meidou; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             "('pygame', 'firmware_bridge') or m.startswith('companion.games')))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize("key", ON_READERS)
def test_each_table_app_has_the_screens_the_shell_relies_on(tmp_path: Path, key: str) -> None:
    options = TableOptions(hubs=["sim"], rate_hz=20, settle_s=0.1, seed=1,
                           virtual_table=True, desktop=(1920, 1080),
                           pin_file=tmp_path / "pin.json", workdir=tmp_path / "run",
                           db=tmp_path / "games.sqlite")
    app: TableApp = UIS[key].table_app(options)
    try:
        assert app.title == descriptor(key).title
        assert isinstance(app.virtual, VirtualTable) and app.app.panel is app.virtual
        assert drawn(app) == {"start", "virtual-table"}
        assert not app.changing and app.game_id is None
        app.show_referee()
        assert drawn(app) == {"referee-pin", "virtual-table"}  # nothing of the game before the PIN
        app.show_hardware()
        assert drawn(app) == {"hardware", "virtual-table"}
        app.show_start()
        assert drawn(app) == {"start", "virtual-table"}
        assert app.app.tap("Change game") is False  # offered only with more than one game
    finally:
        app.close()
