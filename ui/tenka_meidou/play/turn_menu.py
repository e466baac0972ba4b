"""The player on turn chooses: roll the dice, play a tactic card, or play the Daimyo card (5.I)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.tenka_meidou.play.state import PlayState, Turn, heading
from ui.tenka_meidou.words import TEXT_COLOUR, colour_name


@dataclass
class TurnMenu:
    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        colour = v.current
        assert colour is not None
        y = heading(canvas, rect, f"{colour_name(colour)}: roll, or play a card instead (5.I)",
                    TEXT_COLOUR[colour])
        undo = self.play.control.put_back()
        if undo:
            y = canvas.text("First put back what moved: " + "; ".join(undo),
                            (rect.x, y), size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=3).bottom + t.gap // 2
        locked = bool(v.swords)
        buttons: list[tuple[str, Callable[[], None] | None]] = [
            ("Roll the dice", self.to_dice)]
        if colour not in v.tactic_used and v.tactic_offer:
            buttons.append(("Play a tactic card", None if locked else self.to_tactics))
        face_down = colour in v.daimyo and v.daimyo[colour] is None
        waiting = face_down and colour not in v.daimyo_at  # the card works from its zone (TM5)
        if face_down:
            buttons.append(("Play my Daimyo card",
                            None if locked or waiting else self.to_daimyo))
        height = int(t.target * 1.2)
        for label, action in buttons:
            canvas.button(pygame.Rect(rect.x, y, rect.width, height), label, action,
                          colour=th.ACCEPT if label == "Roll the dice" else th.PANEL_HI)
            y += height + t.gap // 2
        if locked:
            y = canvas.text("No more cards: a player has placed every pawn (5.I.2)",
                            (rect.x, y), size=t.small, colour=th.DIM, width=rect.width).bottom
        elif waiting:
            y = canvas.text(f"The Daimyo card needs {colour_name(colour)}'s Daimyo pawn on "
                            "the board: roll and send it with your soldiers (TM5)", (rect.x, y),
                            size=t.small, colour=th.DIM, width=rect.width, max_lines=3).bottom
        return y - rect.y

    def to_dice(self) -> None:
        self.play.mode, self.play.turn = "dice", Turn()

    def to_tactics(self) -> None:
        self.play.mode, self.play.turn = "tactic", Turn()

    def to_daimyo(self) -> None:
        play = self.play
        play.mode, play.turn = "card", Turn(daimyo_card=True)
        colour = play.view().current
        if colour is not None:
            play.control.enter_card(colour, None)
