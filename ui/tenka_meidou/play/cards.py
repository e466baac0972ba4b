"""A card played instead of rolling (5.I.2, 9, 10): which tactic card, the card being played
while the pawns are moved, and why a face-down Daimyo card was refused, for its owner alone."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pygame

from companion.core.game import Rejection
from companion.games.tenka_meidou.components import Tactic
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.tenka_meidou.control import FeedLine, refusal
from ui.tenka_meidou.play.feed import open_line
from ui.tenka_meidou.play.state import PlayState, Turn, heading
from ui.tenka_meidou.words import CARD_TEXT, TEXT_COLOUR, card_name, colour_name, words


@dataclass
class Tactics:
    """Which tactic card of the offer; each player plays one once a game (5.I.2)."""

    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        assert v.current is not None
        y = heading(canvas, rect, f"{colour_name(v.current)}: which tactic card? Once a game "
                    "(5.I.2)", TEXT_COLOUR[v.current])
        for card in v.tactic_offer:
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), card_name(card),
                          partial(self.pick, card), size=t.small)
            y += t.target + t.gap // 2
        canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), "Back", self.play.back,
                      size=t.small)
        return y + t.target - rect.y

    def pick(self, card: Tactic) -> None:
        play = self.play
        play.mode, play.turn = "card", Turn(card=card)
        colour = play.view().current
        if colour is not None:
            play.control.enter_card(colour, card)


@dataclass
class CardPlay:
    """A tactic card or the Daimyo card being played: the pawns are moved, then "Done"."""

    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        play = self.play
        turn = play.turn
        colour = v.current
        assert colour is not None
        if turn.card is not None:
            title = f"{colour_name(colour)} plays {card_name(turn.card)}"
            text = CARD_TEXT.get(turn.card.value, "")
        else:  # the card stays face down on the shared screen until it is accepted (9)
            title = f"{colour_name(colour)} plays the Daimyo card"
            text = "Do what your Daimyo card says; it is turned face up once accepted (10)."
        y = heading(canvas, rect, title, TEXT_COLOUR[colour])
        if text:
            y = canvas.text(text, (rect.x, y), size=t.small, width=rect.width,
                            max_lines=3).bottom + 2
        y = canvas.text("Move the pawns on the table as the card says, then tap Done.",
                        (rect.x, y), size=t.small, colour=th.DIM, width=rect.width,
                        max_lines=2).bottom + t.gap // 2
        if turn.rejection is not None:
            why = turn.rejection
            said = refusal(why)  # the public message only, never ``why.private``
            box = canvas.text(said, (rect.x, y), size=t.small, colour=th.DANGER,
                              width=rect.width, max_lines=3)
            canvas.tap_area(pygame.Rect(rect.x, box.y, rect.width, max(box.height, t.target)),
                            f"Section {why.rule}",
                            open_line(play.show, FeedLine("rejected", said, why.rule)))
            y = box.bottom + 2
            if why.private is not None:  # the reason would name the face-down card (9)
                canvas.button(pygame.Rect(rect.x, y, rect.width, t.target),
                              f"{colour_name(colour)} only: why?", play.reveal, size=t.small)
                y += t.target + 2
            undo = play.control.put_back()
            if undo:
                y = canvas.text("Put back: " + "; ".join(undo), (rect.x, y), size=t.small,
                                colour=th.WARN, width=rect.width, max_lines=2).bottom
            y += t.gap // 2
        left, right = row(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.2)), 2, t.gap)
        canvas.button(left, "Cancel", play.back, size=t.small)
        canvas.button(right, "Done: the pawns are moved", self.done, colour=th.ACCEPT,
                      size=t.small)
        return y + int(t.target * 1.2) - rect.y

    def done(self) -> None:
        play = self.play
        v = play.view()
        assert v.current is not None
        result = play.control.play_card(v.current, play.turn.card)
        if result is None:
            play.back()
        elif isinstance(result, Rejection):
            play.turn.rejection = result


@dataclass
class DaimyoReason:
    """Why the face-down Daimyo card was refused, for its owner alone (9, 10)."""

    play: PlayState

    def draw(self, canvas: Canvas, v: Table) -> None:
        t = canvas.theme
        r = canvas.rect
        colour = v.current
        why = self.play.turn.rejection
        assert colour is not None and why is not None
        x, width = 2 * t.gap, r.width - 4 * t.gap
        y = canvas.text(f"{colour_name(colour)} only: your Daimyo card", (x, t.gap),
                        size=t.title, bold=True, colour=TEXT_COLOUR[colour], width=width,
                        max_lines=2).bottom + t.gap
        card = self.play.control.daimyo_card(colour)
        reason = words(why.private or why.message)
        if card is not None:
            y = canvas.text(f"{card_name(card)}: {CARD_TEXT.get(card.value, '')}", (x, y),
                            size=t.body, width=width, max_lines=3).bottom + t.gap
            reason = reason.removeprefix(f"{card_name(card)}: ")
        y = canvas.text(f"Why not: {reason} ({why.rule})", (x, y), size=t.body,
                        colour=th.DANGER, width=width, max_lines=4).bottom + t.gap
        canvas.text("Hide this before the others look again.", (x, y), size=t.small,
                    colour=th.DIM, width=width)
        canvas.button(pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target),
                      "Hide", self.play.hide, colour=th.ACCEPT)
