"""Tenka Meidou's play screen, from the Daimyo choice to the final score: it picks the panel of
the phase and the turn's step, and lays out the status bar, the board and the feed round it.

=================  ===========================================  ==================================
screen name        what the players see                         drawn by
=================  ===========================================  ==================================
``daimyo-turn``    who chooses a Daimyo card (9)                :class:`.daimyo.DaimyoChoice`
``daimyo-choice``  the offer, for the chooser alone (9, 10)     :class:`.daimyo.DaimyoOffer`
``board``          roll, or play a card (5.I)                   :class:`.turn_menu.TurnMenu`
``dice``           the three dice, the die kept apart (5.I.1)   :class:`.dice.Dice`
``place``          placing the pawns the dice name (5.I.1)      :class:`.placement.Placement`
``tactic``         which tactic card (5.I.2)                    :class:`.cards.Tactics`
``card``           a card played, the pawns moved (5.I.2, 10)   :class:`.cards.CardPlay`
``daimyo-card``    why a Daimyo card was refused, to its owner  :class:`.cards.DaimyoReason`
``war``/``score``  the War zone by zone, the score (5.II, 6)    :mod:`ui.tenka_meidou.war_screen`
``detail``         a section's summary, a zone, the players     :func:`ui.shell.pages.detail_page`
=================  ===========================================  ==================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import pygame

from companion.games.tenka_meidou.rulebook import cite
from companion.games.tenka_meidou.state import Phase
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.hubstatus import hub_strip
from ui.shell.pages import detail_page, split
from ui.shell.tournament import referee_call
from ui.tenka_meidou.boardview import draw_board
from ui.tenka_meidou.control import Snapshot
from ui.tenka_meidou.play.cards import CardPlay, DaimyoReason, Tactics
from ui.tenka_meidou.play.daimyo import DaimyoChoice, DaimyoOffer
from ui.tenka_meidou.play.dice import Dice
from ui.tenka_meidou.play.feed import feed
from ui.tenka_meidou.play.placement import Placement
from ui.tenka_meidou.play.state import PlayState
from ui.tenka_meidou.play.status import status_bar, zone_opener
from ui.tenka_meidou.play.turn_menu import TurnMenu
from ui.tenka_meidou.war_screen import draw_score, draw_war


class Panel(Protocol):
    """A step of the deployment turn, drawn beside the board; the height it used."""

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int: ...


@dataclass
class PlayScreen(PlayState):
    """See the module docstring."""

    panels: dict[str, Panel] = field(init=False, repr=False, compare=False)
    """The deployment turn's step (:attr:`PlayState.mode`) -> its panel."""
    daimyo_choice: DaimyoChoice = field(init=False, repr=False, compare=False)
    daimyo_offer: DaimyoOffer = field(init=False, repr=False, compare=False)
    daimyo_reason: DaimyoReason = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.panels = {"turn": TurnMenu(self), "dice": Dice(self), "place": Placement(self),
                       "tactic": Tactics(self), "card": CardPlay(self)}
        self.daimyo_choice = DaimyoChoice(self)
        self.daimyo_offer = DaimyoOffer(self)
        self.daimyo_reason = DaimyoReason(self)

    @property
    def name(self) -> str:
        if self.detail is not None:
            return "detail"
        phase = self.view().phase
        if phase is Phase.DAIMYO:
            return "daimyo-choice" if self.private else "daimyo-turn"
        if self.private:
            return "daimyo-card"
        if phase is Phase.OVER:
            return "score" if self.mode == "score" else "war"
        return {"turn": "board"}.get(self.mode, self.mode)

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        canvas = hub_strip(canvas, self.control.link.hub_lines())
        snap = self.snap = self.control.snapshot()
        if self.mode == "place" and len(self.control.events) > self.turn.events_at:
            self.back()  # the readers saw the pawns the dice name: the deployment is played
        if snap.view.phase is Phase.OVER and not self.over:
            self.over = True
            if self.finished is not None:
                self.finished()
        canvas.painter.screen = self.name
        if self.detail is not None:
            detail_page(canvas, self.detail, self.close_detail, cite)
            return
        v = snap.view
        if self.private and v.phase is Phase.DAIMYO:
            self.daimyo_offer.draw(canvas, v)
            return
        if self.private and self.mode == "card" and self.turn.rejection is not None:
            self.daimyo_reason.draw(canvas, v)
            return
        if v.phase is Phase.OVER:
            self._war(canvas, snap)
            return
        self._board(canvas, snap)

    def _war(self, canvas: Canvas, snap: Snapshot) -> None:
        if self.mode not in ("war", "score"):
            self.mode = "war"
        if self.mode == "score":
            draw_score(canvas, snap, self.show, self.to_war, self.leave,
                       self.seal() if self.seal else None)
        else:
            draw_war(canvas, snap, self.show, self.leave, self.to_score)

    def _board(self, canvas: Canvas, snap: Snapshot) -> None:
        """The status bar, the board, the phase's panel and under it the feed."""
        t = canvas.theme
        r = canvas.rect
        v = snap.view
        bar = pygame.Rect(0, 0, r.width, t.target * (2 if t.portrait else 1))
        status_bar(canvas, bar, self, v)
        body = pygame.Rect(t.gap, bar.bottom + t.gap, r.width - 2 * t.gap,
                           r.height - bar.bottom - 2 * t.gap)
        board, side = split(body, t.portrait, t.gap, 0.62, top_share=0.5)
        lit = frozenset({self.turn.plan.zone}) if self.turn.plan is not None else frozenset()
        draw_board(canvas, board, v.castles, v.soldiers, v.daimyo_at, lit=lit,
                   on_zone=zone_opener(self))
        used = self._panel(canvas, side, v)
        if snap.unsaved:  # nothing was applied; the app retries every second
            used = canvas.text(snap.unsaved[:1].upper() + snap.unsaved[1:], (side.x, side.y + used),
                               size=t.small, colour=th.DANGER, width=side.width,
                               max_lines=2).bottom - side.y
        feed_rect = referee_call(canvas, pygame.Rect(side.x, side.y + used + t.gap, side.width,
                                                     side.bottom - side.y - used - t.gap))
        if feed_rect.height >= t.target:
            feed(canvas, feed_rect, snap.feed, self.show)

    def _panel(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        """What the player may do now; the height used."""
        if v.phase is Phase.DAIMYO:
            return self.daimyo_choice.draw(canvas, rect, v)
        if v.current is None:
            return 0
        return self.panels[self.mode].draw(canvas, rect, v)

    def to_score(self) -> None:
        self.mode = "score"

    def to_war(self) -> None:
        self.mode = "war"
