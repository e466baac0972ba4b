"""What a game's UI gives the shell: the contract every ``ui/<game>/`` package keeps.

A game's UI is one object, :data:`UI` in its package (``ui.sekigahara:UI``,
``ui.tenka_meidou:UI``), that satisfies :class:`GameUI` (checked by mypy where it is declared,
and by ``tests/ui/test_ui_contract.py`` for every game ``companion run`` offers). Importing
the package is cheap (no pygame, no bridge); the rest is imported when it is used. What the
game choice shows (title, line) is the game's descriptor's (:mod:`companion.core.descriptor`),
whose ``ui`` names this object.

What the contract holds, and who relies on it:

- :meth:`GameUI.run`: ``companion run --game KEY`` (:mod:`ui.cli`), ``--demo`` included; None
  when the players tapped "Change game".
- :meth:`GameUI.demo`: the seeded headless demo, played through the screens and the simulated
  readers (the demo tests, ``--record`` for docs and the legibility lint).
- :meth:`GameUI.table_app`: the game's table app (:class:`TableApp`, in practice a
  :class:`ui.tableapp.GameTableApp`): its start screen, play screen, hardware check and
  referee screen (:class:`ui.shell.referee.RefereeScreen` round the game's
  :class:`~ui.shell.referee.RefereePage`), and with simulated readers its
  :class:`VirtualTable`.
- :attr:`GameUI.key`: the game's table in :func:`companion.core.table.table_names`, from which
  the legibility lint (:func:`ui.shell.legibility.proper_names`) reads the game's proper names
  and the game choice knows the game can be served.

The options type is a parameter: the shell imports neither a game nor the bridge, and the
options every game's app takes (:class:`ui.tableapp.TableOptions`) live beside the bridge.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:  # importing a game's UI package loads no pygame
    from ui.shell.app import App, Screen
    from ui.shell.canvas import Canvas

Options = TypeVar("Options", contravariant=True)


@runtime_checkable
class VirtualTable(Protocol):
    """The table drawn beside the screen when the readers are simulated: pieces dragged there
    are read by the simulated hubs as real pieces would be (an :class:`ui.shell.app.Panel`
    and a :class:`ui.shell.canvas.DragHandler`)."""

    @property
    def name(self) -> str: ...

    def draw(self, canvas: Canvas) -> None: ...

    def tick_ms(self) -> int | None: ...

    def press(self, pos: tuple[int, int]) -> None: ...

    def motion(self, pos: tuple[int, int]) -> None: ...

    def release(self, pos: tuple[int, int]) -> None: ...

    def where(self, piece: str, /) -> str:
        """Where a piece lies on the virtual table (a place of the game's table)."""
        ...


class TableApp(Protocol):
    """A game's table app as ``companion run``, the demos and the tests drive it."""

    @property
    def title(self) -> str:
        """The game's name, as the Saved games page heads it."""
        ...

    @property
    def app(self) -> App:
        """The window, the loop, touch and the recorder."""
        ...

    @property
    def play(self) -> Screen:
        """The screen the game is played on, from the first turn to the final score."""
        ...

    @property
    def virtual(self) -> VirtualTable | None:
        """The virtual table, with simulated readers; None with real hubs."""
        ...

    @property
    def changing(self) -> bool:
        """The players asked for the game choice ("Change game")."""
        ...

    @property
    def game_id(self) -> int | None:
        """The stored game being played (None: not saved, or none yet)."""
        ...

    def show_start(self) -> None: ...

    def show_hardware(self) -> None: ...

    def show_referee(self) -> None:
        """The referee screen behind the PIN (:class:`ui.shell.referee.RefereeScreen`)."""
        ...

    def show_saved_games(self) -> None: ...

    def back_to_game(self) -> None: ...

    def run(self) -> None:
        """Blocks until the window is closed or the players ask for the game choice."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class GameUI(Protocol[Options]):
    """A game's UI, as the shell reaches it (see the module docstring)."""

    @property
    def key(self) -> str:
        """What ``companion run --game`` and the game's table know it by (``tenka-meidou``)."""
        ...

    def run(self, args: argparse.Namespace, change_game: bool = False) -> int | None:
        """``companion run``'s parsed arguments; the exit status, or None when the players
        asked for the game choice (offered when ``change_game``)."""
        ...

    def demo(self, options: Options, args: argparse.Namespace) -> int:
        """Play a seeded game headless (``args.seed``, ``args.record``, the game's own flags);
        0 when the screens followed it to the end."""
        ...

    def table_app(self, options: Options) -> TableApp:
        """The game's table app, its readers open, showing the start screen."""
        ...
