"""What every phase panel of Tenka Meidou's play screen shares: the turn being entered, the
screen's mode and the ways back (:class:`PlayState`).

Each panel (:mod:`.daimyo`, :mod:`.turn_menu`, :mod:`.dice`, :mod:`.placement`, :mod:`.cards`)
is given the one :class:`PlayState` of the :class:`~ui.tenka_meidou.play.screen.PlayScreen`
and draws from :meth:`TenkaControl.snapshot`, never from the game's state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.core.game import Rejection
from companion.core.seals import Seal
from companion.games.tenka_meidou.components import Tactic
from companion.games.tenka_meidou.state import Phase
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.pages import Detail
from ui.tenka_meidou.control import Plan, Roll, Snapshot, TenkaControl


@dataclass
class Turn:
    """What the player on turn has entered so far."""

    dice: list[int] = field(default_factory=list)
    first: Roll | None = None
    """The first roll when all three were re-rolled (5.I.1)."""
    daimyo: bool = False
    plan: Plan | None = None
    single: int | None = None
    card: Tactic | None = None
    daimyo_card: bool = False
    rejection: Rejection | None = None
    events_at: int = 0
    """The game's events when the dice were entered: more, and the deployment was played."""

    @property
    def rolls(self) -> tuple[Roll, ...]:
        final: Roll = (self.dice[0], self.dice[1], self.dice[2])
        return (self.first, final) if self.first is not None else (final,)


@dataclass
class PlayState:
    """The play screen's state, which its phase panels read and change."""

    control: TenkaControl
    leave: Callable[[], None]
    finished: Callable[[], None] | None = None
    """Called once when the War has been fought (the app marks the stored game finished)."""
    seal: Callable[[], Seal | None] | None = None
    """The latest seal of the saved game (shown with the final score)."""
    detail: Detail | None = None
    mode: str = "turn"
    """turn, dice, place, tactic, card (deployment); war, score (after the War)."""
    private: bool = False
    """A page for one player's eyes: the Daimyo offer (9), or why their card was refused."""
    turn: Turn = field(default_factory=Turn)
    snap: Snapshot | None = None
    """The snapshot the frame being drawn was drawn from."""
    over: bool = False

    def view(self) -> Table:
        return self.control.snapshot().view

    def show(self, detail: Detail) -> None:
        self.detail = detail

    def close_detail(self) -> None:
        self.detail = None

    def reset(self) -> None:
        self.mode, self.turn, self.private, self.detail = "turn", Turn(), False, None
        self.over = self.control.game.state.phase is Phase.OVER

    def back(self) -> None:
        """Back to the turn menu, what was entered forgotten (and the table session's
        expectation withdrawn)."""
        if self.mode in ("place", "card"):
            self.control.cancel()
        self.mode, self.turn = "turn", Turn()

    def reveal(self) -> None:
        self.private = True

    def hide(self) -> None:
        self.private = False


def heading(canvas: Canvas, rect: pygame.Rect, text: str, colour: th.Colour = th.INK) -> int:
    """A panel's heading at the top of ``rect``; the y under it."""
    t = canvas.theme
    return canvas.text(text, (rect.x, rect.y), size=t.body, bold=True, colour=colour,
                       width=rect.width, max_lines=3).bottom + t.gap // 2
