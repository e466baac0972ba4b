"""The three dice as rolled (5.I.1): entered face by face, all three re-rolled once if the
player wishes, the Daimyo sent along or not, then which die is kept apart (the other two name
the zone)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pygame

from companion.core.game import Rejection
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, grid, row
from ui.tenka_meidou.control import Plan, refusal
from ui.tenka_meidou.play.state import PlayState, heading
from ui.tenka_meidou.words import TEXT_COLOUR, colour_name, short_zone


@dataclass
class Dice:
    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        colour = v.current
        assert colour is not None
        turn = self.play.turn
        y = heading(canvas, rect, f"{colour_name(colour)}: enter the three dice as rolled "
                    "(5.I.1)", TEXT_COLOUR[colour])
        if turn.first is not None:
            first = "-".join(map(str, turn.first))
            y = canvas.text(f"First roll {first}, all three re-rolled: the new roll counts",
                            (rect.x, y), size=t.small, colour=th.DIM, width=rect.width).bottom
        slots = row(pygame.Rect(rect.x, y, min(rect.width, 3 * t.target + 2 * t.gap), t.target),
                    3, t.gap)
        for i, slot in enumerate(slots):
            canvas.fill(th.INK if i < len(turn.dice) else th.PANEL, slot, radius=t.gap)
            if i < len(turn.dice):
                canvas.text(str(turn.dice[i]), slot.center, size=t.title, bold=True,
                            colour=th.BLACK_SIDE, anchor="center")
        clear = pygame.Rect(slots[-1].right + t.gap, y, rect.right - slots[-1].right - t.gap,
                            t.target)
        if clear.width >= t.target:
            canvas.button(clear, "Clear", self.clear if turn.dice else None, size=t.small)
        y += t.target + t.gap
        if len(turn.dice) < 3:
            cells = grid(pygame.Rect(rect.x, y, rect.width, 0), 6, 3, t.gap // 2,
                         int(t.target * 1.1))
            for face, cell in enumerate(cells, start=1):
                canvas.button(cell, str(face), partial(self.die, face), size=t.title)
            y = cells[-1].bottom + t.gap
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), "Back", self.play.back,
                          size=t.small)
            return y + t.target - rect.y
        return self._keep_apart(canvas, rect, v, y) - rect.y

    def _keep_apart(self, canvas: Canvas, rect: pygame.Rect, v: Table, y: int) -> int:
        """Re-roll or the Daimyo, then one button per die that may be kept apart; the y under."""
        t = canvas.theme
        colour = v.current
        assert colour is not None
        turn = self.play.turn
        options = row(pygame.Rect(rect.x, y, rect.width, t.target), 2, t.gap)
        canvas.button(options[0], "Re-roll all three", self.reroll if turn.first is None
                      else None, size=t.small)
        daimyo_free = colour in v.daimyo and colour not in v.daimyo_at
        if daimyo_free:
            canvas.button(options[1], f"Daimyo goes too: {'yes' if turn.daimyo else 'no'}",
                          self.flip_daimyo, size=t.small, selected=turn.daimyo)
        else:
            canvas.button(options[1], "Back", self.play.back, size=t.small)
        y += t.target + t.gap // 2
        y = canvas.text("Which die do you keep apart? The other two name the zone:",
                        (rect.x, y), size=t.small, width=rect.width).bottom + 2
        reasons: list[str] = []
        for single in sorted(set(turn.dice)):
            plan = self.play.control.plan(colour, turn.rolls, single, turn.daimyo)
            if isinstance(plan, Rejection):
                label, action = f"Keep {single} apart: not allowed", None
                if (said := f"{plan.message} ({plan.rule})") not in reasons:
                    reasons.append(said)
            else:
                pawns = plan.soldiers + int(plan.daimyo)
                label = (f"Keep {single} apart: castle {plan.value} {short_zone(plan.zone)}, "
                         f"{pawns} pawn{'s' if pawns != 1 else ''}")
                action = partial(self.pick, single, plan)
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), label, action,
                          colour=th.ACCEPT, size=t.small)
            y += t.target + t.gap // 2
        if turn.rejection is not None:  # the table session refused the dice
            reasons.append(refusal(turn.rejection))
        for said in reasons:
            y = canvas.text(said, (rect.x, y), size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=3).bottom + 2
        return y

    def die(self, face: int) -> None:
        if len(self.play.turn.dice) < 3:
            self.play.turn.dice.append(face)

    def clear(self) -> None:
        self.play.turn.dice.clear()
        self.play.turn.rejection = None

    def reroll(self) -> None:
        t = self.play.turn
        t.first, t.dice, t.rejection = (t.dice[0], t.dice[1], t.dice[2]), [], None

    def flip_daimyo(self) -> None:
        self.play.turn.daimyo = not self.play.turn.daimyo

    def pick(self, single: int, plan: Plan) -> None:
        """The dice entered and the die kept apart: the table session now expects the pawns."""
        play = self.play
        colour = play.view().current
        assert colour is not None
        turn = play.turn
        rejected = play.control.enter_dice(colour, turn.rolls, single, turn.daimyo)
        if rejected is not None:
            turn.rejection = rejected
            return
        turn.single, turn.plan, turn.events_at = single, plan, len(play.control.events)
        play.mode = "place"
