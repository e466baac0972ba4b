"""The rulings feed beside the board, newest first; each line a tap from its section's summary."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.pages import Detail
from ui.tenka_meidou.control import FeedLine

FEED_COLOUR = {"ruling": th.INK, "rejected": th.DANGER, "table": th.WARN}
FEED_TITLE = {"ruling": "Ruling", "rejected": "Not allowed", "table": "The table differs"}


def open_line(show: Callable[[Detail], None], line: FeedLine) -> Callable[[], None]:
    return lambda: show(Detail(FEED_TITLE.get(line.kind, "Note"), (line.text,),
                               (line.rule,) if line.rule else ()))


def feed(canvas: Canvas, rect: pygame.Rect, lines: tuple[FeedLine, ...],
         show: Callable[[Detail], None]) -> None:
    """The feed in ``rect``, as many lines as fit, each a finger's tap high."""
    t = canvas.theme
    canvas.fill(th.PANEL, rect, radius=t.gap)
    y = rect.y + t.gap // 2
    for line in reversed(lines):
        wrapped = canvas.painter.wrap(line.text, t.small, rect.width - 2 * t.gap)[:2]
        height = max(t.target, len(wrapped) * (t.small + 2) + 4)  # a finger's tap each
        if y + height > rect.bottom:
            break
        canvas.text(line.text, (rect.x + t.gap, y + 2), size=t.small,
                    colour=FEED_COLOUR.get(line.kind, th.INK), width=rect.width - 2 * t.gap,
                    max_lines=2)
        canvas.tap_area(pygame.Rect(rect.x, y, rect.width, height), line.text,
                        open_line(show, line))
        y += height
        pygame.draw.line(canvas.surface, th.LINE, (rect.x + t.gap, y - 1),
                         (rect.right - t.gap, y - 1))
