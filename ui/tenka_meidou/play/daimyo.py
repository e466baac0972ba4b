"""The Daimyo choice (advanced game, section 9): on the shared screen who chooses while the
others look away; then the offer, each card with its effect (10), for the chooser's eyes alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pygame

from companion.games.tenka_meidou.components import Colour, Daimyo
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, grid
from ui.shell.saving import undo_button
from ui.tenka_meidou.play.state import PlayState, heading
from ui.tenka_meidou.words import CARD_TEXT, TEXT_COLOUR, card_name, colour_name


def chooser(v: Table) -> Colour | None:
    """Who chooses next: from the first player's right, counter-clockwise (9)."""
    return next((c for c in reversed(v.players) if c not in v.daimyo), None)


@dataclass
class DaimyoChoice:
    """The shared screen's panel while a player chooses; the offer is a page of its own."""

    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        colour = chooser(v)
        if colour is None or self.play.private:
            return 0
        name = colour_name(colour)
        control = self.play.control
        y = heading(canvas, rect, f"{name} chooses a Daimyo card, face down (9)",
                    TEXT_COLOUR[colour])
        y = canvas.text("Everyone else looks away.", (rect.x, y), size=t.small,
                        width=rect.width).bottom + t.gap
        canvas.button(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.3)),
                      f"{name}: show me the Daimyo cards", self.play.reveal, colour=th.ACCEPT)
        y += int(t.target * 1.3) + t.gap
        return undo_button(canvas, pygame.Rect(rect.x, y, rect.width, t.target),
                           control.undo_offer(), control.undo_or_say, control.say) - rect.y


@dataclass
class DaimyoOffer:
    """The Daimyo offer for the chooser's eyes alone (9): each card with its effect (10)."""

    play: PlayState

    def draw(self, canvas: Canvas, v: Table) -> None:
        t = canvas.theme
        r = canvas.rect
        colour = chooser(v)
        if colour is None:
            self.play.hide()
            return
        x, width = 2 * t.gap, r.width - 4 * t.gap
        y = canvas.text(f"{colour_name(colour)} only: tap the Daimyo card you take (9)",
                        (x, t.gap), size=t.body, bold=True, colour=TEXT_COLOUR[colour],
                        width=width, max_lines=2).bottom
        y = canvas.text("Each works from your Daimyo pawn's zone, once in the game (10)",
                        (x, y), size=t.small, colour=th.DIM, width=width,
                        max_lines=2).bottom + t.gap // 2
        offer = self.play.control.daimyo_offer(colour)
        bar = pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target)
        columns = 1 if t.portrait or len(offer) < 3 else 2
        rows = max(1, -(-len(offer) // columns))
        gap = t.gap // 2
        height = max(t.target, min((bar.y - t.gap - y - (rows - 1) * gap) // rows,
                                   3 * t.target))
        cells = grid(pygame.Rect(x, y, width, 0), len(offer), columns, gap, height)
        inner = cells[0].width - 2 * t.gap if cells else width
        room = height - t.body - t.gap
        size = next((n for n in (t.body, t.small) if all(
            len(canvas.painter.wrap(CARD_TEXT.get(c.value, ""), n, inner)) * (n + 1) <= room
            for c in offer)), t.small)
        for cell, card in zip(cells, offer, strict=True):
            canvas.fill(th.PANEL_HI, cell, radius=t.gap)
            pygame.draw.rect(canvas.surface, th.ACCEPT, cell, width=2, border_radius=t.gap)
            top = canvas.text(card_name(card), (cell.x + t.gap, cell.y + t.gap // 2),
                              size=t.body, bold=True, width=inner, max_lines=1).bottom
            lines = max(1, (cell.bottom - top - t.gap // 2) // (size + 1))
            canvas.text(CARD_TEXT.get(card.value, ""), (cell.x + t.gap, top), size=size,
                        width=inner, max_lines=lines, colour=th.INK)
            canvas.tap_area(cell, card_name(card), partial(self.choose, colour, card))
        canvas.button(bar, "Hide the cards", self.play.hide)

    def choose(self, colour: Colour, card: Daimyo) -> None:
        self.play.control.choose_daimyo(colour, card)
        self.play.hide()
