"""Kensei's referee page, behind the referee PIN (:class:`ui.shell.referee.RefereeScreen`).

It alone shows what the rules hide (B17): each player's hand (card values), the secondary
mission each rolled, and a Kuroi-te troop kept back in secret; then "Verify this battle", which
re-adjudicates the stored battle (:mod:`companion.games.kensei.records`). The page gets
callables from the app, never the battle itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from ui.kensei import battle_words as bw
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row


@dataclass
class KenseiReferee:
    view: Callable[[], dict[str, Any] | None]
    """The referee view of the battle on the screen (None: no battle yet)."""
    verify: Callable[[], tuple[bool, str]]
    verdict: tuple[bool, str] | None = None

    def lines(self) -> list[tuple[str, th.Colour]]:
        view = self.view()
        if view is None or not view.get("armies"):
            return [("No battle is under way: a battle's secrets show here once it begins.",
                     th.DIM)]
        names = {s: a["name"] for s, a in view["armies"].items()}
        out: list[tuple[str, th.Colour]] = [(
            f"Turn {view['turn']} · {names['a']} against {names['b']}", th.INK)]
        hands = view.get("hands") or {}
        for side in ("a", "b"):
            hand = hands.get(side, {}).get("hand", []) if hands else []
            values = ", ".join(str(c["value"]) for c in hand) or "no cards"
            die = view["secondary"].get(side)
            mission = bw.MISSIONS[die][0] if die in bw.MISSIONS else "not rolled yet"
            out.append((f"{names[side]}: hand {values}; secondary mission {mission}",
                        th.GOLD))
        kept = [t for t in view["troops"] if t.get("in_reserve")]
        for t in kept:
            out.append((f"{names[t['side']]} keeps {t['name']} in the reserve tray", th.DIM))
        return out

    def _verify(self) -> None:
        self.verdict = self.verify()

    def draw(self, canvas: Canvas, leave: Callable[[], None]) -> None:
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        y = canvas.text("Referee: the battle's secrets", (2 * t.gap, t.gap), size=t.title,
                        bold=True, width=width, max_lines=1).bottom + t.gap
        for text, colour in self.lines():
            y = canvas.text(text, (2 * t.gap, y), colour=colour, width=width,
                            max_lines=2).bottom + t.gap // 2
        if self.verdict is not None:
            ok, said = self.verdict
            canvas.text(said, (2 * t.gap, y + t.gap), colour=th.ACCEPT if ok else th.WARN,
                        width=width, max_lines=3)
        bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
        verify, lock = row(bar, 2, t.gap)
        canvas.button(verify, "Verify this battle", self._verify, colour=th.ACCEPT)
        canvas.button(lock, "Lock and leave", leave)
