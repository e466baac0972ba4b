"""Placing the pawns the dice name (5.I.1): what to place where, what the readers see, and
"Done" once the pawns are down (or "Change the dice")."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.shell.pages import Detail
from ui.tenka_meidou.play.state import PlayState, heading
from ui.tenka_meidou.words import TEXT_COLOUR, colour_name, short_zone


@dataclass
class Placement:
    play: PlayState

    def draw(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        play = self.play
        plan = play.turn.plan
        assert plan is not None and v.current is not None
        plural = "s" if plan.soldiers != 1 else ""
        what = f"{plan.soldiers} {colour_name(v.current)} soldier{plural}"
        if plan.daimyo:
            what += " and the Daimyo"
        y = heading(canvas, rect, f"Place {what} on {short_zone(plan.zone)} "
                    f"(castle {plan.value})", TEXT_COLOUR[v.current])
        y = canvas.text(plan.text, (rect.x, y), size=t.small, width=rect.width,
                        max_lines=3).bottom
        canvas.tap_area(pygame.Rect(rect.x, rect.y, rect.width, max(t.target, y - rect.y)),
                        plan.text,
                        lambda: play.show(Detail("The dice", (plan.text,), ("5.I.1",))))
        y += t.gap // 2
        snap = play.snap
        problems = snap.problems if snap else ()
        if problems:
            y = canvas.text(f"The table differs: {'; '.join(problems)} (5.I.1)", (rect.x, y),
                            size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=4).bottom + t.gap // 2
        elif snap is not None and snap.table:
            y = canvas.text(f"The readers see: {'; '.join(snap.table)}", (rect.x, y),
                            size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=4).bottom + t.gap // 2
        elif snap is not None and snap.waiting:
            y = canvas.text(f"The readers see {snap.waiting}", (rect.x, y), size=t.small,
                            colour=th.DIM, width=rect.width).bottom + t.gap // 2
        left, right = row(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.2)), 2, t.gap)
        canvas.button(left, "Change the dice", self.redo_dice, size=t.small)
        canvas.button(right, "Done: the pawns are placed", self.deploy, colour=th.ACCEPT,
                      size=t.small)
        return y + int(t.target * 1.2) - rect.y

    def redo_dice(self) -> None:
        self.play.mode, self.play.turn.plan = "dice", None
        self.play.control.cancel()

    def deploy(self) -> None:
        play = self.play
        turn = play.turn
        v = play.view()
        assert turn.single is not None and v.current is not None
        result = play.control.deploy(v.current, turn.rolls, turn.single, turn.daimyo)
        if result is None:
            play.back()
