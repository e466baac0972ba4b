"""The end of the game: who won and why (2.1 instant victory or 2.2 points), and plots of the
game week by week: victory points, castles held, cards in hand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.core.seals import Seal
from companion.games.sekigahara.components import Side
from ui.sekigahara.control import Snapshot
from ui.sekigahara.parts import side_colour, side_name
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.shell.plots import Series, line_chart
from ui.shell.sealing import draw_seal


@dataclass(frozen=True)
class WeekPoint:
    """Public figures at the end of one week."""

    week: int
    points: dict[Side, int]
    castles: dict[Side, int]
    hand: dict[Side, int]


@dataclass(frozen=True)
class History:
    weeks: tuple[WeekPoint, ...] = field(default_factory=tuple)


def draw(canvas: Canvas, snap: Snapshot, history: History, leave: Callable[[], None],
         seal: Seal | None = None) -> None:
    t = canvas.theme
    r = canvas.rect
    v = snap.view.payload
    winner = v.winner
    y = t.gap
    if winner is not None:
        y = canvas.text(f"{side_name(winner)} wins", (t.gap * 2, y), size=t.title, bold=True,
                        colour=side_colour(winner)).bottom
        why = v.victory or ""
        if v.score:
            why += " · " + ", ".join(f"{side_name(s)} {n} points" for s, n in v.score.items())
        y = canvas.text(why, (t.gap * 2, y), size=t.small, width=r.width - 4 * t.gap).bottom
    else:
        y = canvas.text("The game is over", (t.gap * 2, y), size=t.title, bold=True).bottom
    if seal is not None:
        y = draw_seal(canvas, seal, (t.gap * 2, y + t.gap // 2), r.width - 4 * t.gap)
    y += t.gap
    labels = [f"W{p.week}" for p in history.weeks]
    bottom = r.bottom - t.target - 2 * t.gap
    half = (bottom - y - t.gap) // 2
    top_row = row(pygame.Rect(t.gap, y, r.width - 2 * t.gap, half), 2, t.gap)
    charts: list[tuple[str, Callable[[WeekPoint], dict[Side, int]]]] = [
        ("Victory points", lambda p: p.points), ("Castles held", lambda p: p.castles),
        ("Cards in hand", lambda p: p.hand)]
    rects = [*top_row, pygame.Rect(t.gap, y + half + t.gap, r.width - 2 * t.gap, half)]
    for rect, (title, pick) in zip(rects, charts, strict=True):
        series = [Series(side_name(s), side_colour(s), [pick(p)[s] for p in history.weeks])
                  for s in Side]
        line_chart(canvas, rect, f"{title} by week", labels, series)
    canvas.button(pygame.Rect(r.right - 4 * t.target - t.gap, r.bottom - t.target - t.gap,
                              4 * t.target, t.target), "Back to the start", leave,
                  colour=th.ACCEPT)
