"""Line charts drawn with pygame (game-neutral): victory points per week, cards in hand.

Axes, horizontal grid lines at whole-number ticks, a point for each value joined by lines, the
last value of each line written at its end, and a legend. A missing value (None) breaks the line.
All text goes through :meth:`Canvas.text`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas


@dataclass(frozen=True)
class Series:
    """One line of a chart: a name for the legend, a colour, one value per x label."""

    name: str
    colour: th.Colour
    values: Sequence[float | None]


def line_chart(canvas: Canvas, rect: pygame.Rect, title: str, x_labels: Sequence[str],
               series: Sequence[Series], y_label: str = "") -> None:
    """Draw a line chart of ``series`` over ``x_labels`` in ``rect``."""
    rect = pygame.Rect(rect)
    t = canvas.theme
    size = t.small  # never under 14 px (th.MIN_TEXT)
    canvas.fill(th.PANEL, rect, radius=t.gap)
    title_box = canvas.text(title, (rect.x + t.gap, rect.y + t.gap // 2), size=t.body, bold=True,
                            width=rect.width - 2 * t.gap, max_lines=1)
    legend_h = _legend(canvas, rect, series, size, title_box.bottom + 2)
    low, high, step = _y_range(series)
    tick_w = max(canvas.painter.measure(_fmt(v), size)[0] for v in _ticks(low, high, step))
    end_w = max((canvas.painter.measure(_fmt(_last(s) or 0), size)[0] for s in series),
                default=0)
    plot = pygame.Rect(rect.x + t.gap + tick_w + 6,
                       title_box.bottom + legend_h + size // 2 + 4 + (size if y_label else 0), 0, 0)
    plot.width = rect.right - t.gap - end_w - 8 - plot.x
    plot.height = rect.bottom - t.gap // 2 - size - 4 - plot.y
    if plot.width < 20 or plot.height < 20:
        return
    _grid(canvas, plot, low, high, step, size)
    if y_label:
        canvas.text(y_label, (rect.x + t.gap, plot.y - size // 2 - 2), size=size, colour=th.DIM,
                    anchor="bottomleft")
    widest = max((canvas.painter.measure(label, size)[0] for label in x_labels), default=0)
    inner = plot.inflate(-2 * min(plot.width // 4, widest // 2 + 2), 0)
    _x_axis(canvas, inner, x_labels, size)
    count = max([len(x_labels), *(len(s.values) for s in series)], default=0)
    ends: list[pygame.Rect] = []
    for i, s in enumerate(series):
        lift = round((i - (len(series) - 1) / 2) * 2)  # equal lines drawn side by side
        _line(canvas, inner, s, count, (low, high, lift), size, ends)
    if not any(v is not None for s in series for v in s.values):
        canvas.text("No data yet", plot.center, size=size, colour=th.DIM, anchor="center")


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _last(s: Series) -> float | None:
    return next((v for v in reversed(s.values) if v is not None), None)


def _y_range(series: Sequence[Series]) -> tuple[int, int, int]:
    """Whole-number bounds and tick step covering every value (0 included), about 5 ticks."""
    values = [v for s in series for v in s.values if v is not None]
    low = math.floor(min([0.0, *values]))
    high = math.ceil(max([1.0, *values]))
    step = max(1, math.ceil((high - low) / 5))
    high = low + step * math.ceil((high - low) / step)
    return low, max(high, low + step), step


def _ticks(low: int, high: int, step: int) -> list[int]:
    return list(range(low, high + 1, step))


def _y(plot: pygame.Rect, value: float, low: int, high: int) -> int:
    return round(plot.bottom - (value - low) / (high - low) * plot.height)


def _x(plot: pygame.Rect, index: int, count: int) -> int:
    if count <= 1:
        return plot.centerx
    return round(plot.x + index * plot.width / (count - 1))


def _grid(canvas: Canvas, plot: pygame.Rect, low: int, high: int, step: int, size: int) -> None:
    for value in _ticks(low, high, step):
        y = _y(plot, value, low, high)
        pygame.draw.line(canvas.surface, th.LINE if value else th.DIM, (plot.x, y),
                         (plot.right, y), 1)
        canvas.text(_fmt(value), (plot.x - 6, y), size=size, colour=th.DIM, anchor="midright")
    pygame.draw.line(canvas.surface, th.DIM, plot.topleft, plot.bottomleft, 2)


def _x_axis(canvas: Canvas, plot: pygame.Rect, labels: Sequence[str], size: int) -> None:
    """The x labels under the plot, thinned so they never overlap."""
    if not labels:
        return
    widest = max(canvas.painter.measure(label, size)[0] for label in labels) + 6
    room = plot.width / max(1, len(labels) - 1) if len(labels) > 1 else plot.width
    every = max(1, math.ceil(widest / max(1.0, room)))
    for i, label in enumerate(labels):
        if i % every == 0:
            canvas.text(label, (_x(plot, i, len(labels)), plot.bottom + 4), size=size,
                        colour=th.DIM, anchor="midtop")


def _line(canvas: Canvas, plot: pygame.Rect, s: Series, count: int,
          scale: tuple[int, int, int], size: int, ends: list[pygame.Rect]) -> None:
    """One series: segments between consecutive known values, a dot at each, and the last value
    written at the end of the line (moved down when another line's last value is there)."""
    low, high, lift = scale
    dot = max(3, size // 4)
    previous: tuple[int, int] | None = None
    for i, value in enumerate(s.values):
        if value is None:
            previous = None
            continue
        point = (_x(plot, i, count), _y(plot, value, low, high) - lift)
        if previous is not None:
            pygame.draw.line(canvas.surface, s.colour, previous, point, 3)
        pygame.draw.circle(canvas.surface, s.colour, point, dot)
        previous = point
    last = _last(s)
    if last is None:
        return
    index = max(i for i, v in enumerate(s.values) if v is not None)
    w, h = canvas.painter.measure(_fmt(last), size, bold=True)
    label = pygame.Rect(0, 0, w, h + 2)  # as tall as the drawn image, a little over size()
    label.midleft = (_x(plot, index, count) + dot + 4, _y(plot, last, low, high))
    while label.collidelist(ends) != -1:
        label.top = ends[label.collidelist(ends)].bottom + 1
    ends.append(label)
    canvas.text(_fmt(last), (label.x, label.centery), size=size, colour=s.colour,
                anchor="midleft", bold=True)


def _legend(canvas: Canvas, rect: pygame.Rect, series: Sequence[Series], size: int,
            top: int) -> int:
    """A swatch and name per series, flowing into rows across ``rect``; returns its height."""
    if not series:
        return 0
    gap = canvas.theme.gap
    x, y = rect.x + gap, top
    line_h = size + 4
    for s in series:
        width = canvas.painter.measure(s.name, size)[0] + size + 10
        if x + width > rect.right - gap and x > rect.x + gap:
            x, y = rect.x + gap, y + line_h
        swatch = pygame.Rect(x, y + line_h // 2 - 2, size - 2, 4)
        canvas.fill(s.colour, swatch)
        canvas.text(s.name, (x + size + 2, y + line_h // 2), size=size, colour=th.INK,
                    anchor="midleft")
        x += width + gap
    return y + line_h - top
