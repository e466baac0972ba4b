"""The board first: how the set-up and board screens share the touchscreen.

The map takes the most room at every size. In landscape it fills the left of the screen as wide
as the prompt column allows (the map is wider than tall, so its width sets its size) and the
latest rulings run under it; the prompt, its buttons and, at the bottom, "Whole map" (when
zoomed) and "Menu" stand in a column on the right, never narrower than four touch targets. In
portrait the map spans the width at the top, the prompt below it, then the rulings and the
bottom row.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from companion.games.sekigahara.components import Board
from ui.sekigahara.mapview import MapLayout
from ui.shell import theme as th

SIDE_SHARE = 0.28
"""The prompt column's share of a landscape screen's width (at least four targets)."""
MAP_SHARE_PORTRAIT = 0.46
"""An upright screen's height given to the map (its width is the screen's): the room round the
whole map holds names, and zoomed it shows more."""
FEED_ROWS_PORTRAIT = 2
"""Touch-target rows of rulings under the prompt on an upright screen."""


@dataclass(frozen=True)
class BoardRects:
    """The parts of a set-up or board screen, in the screen's pixels."""

    bar: pygame.Rect
    """The status bar across the top."""
    map: MapLayout
    feed: pygame.Rect
    """The latest rulings, each a tap from its full text and rule."""
    side: pygame.Rect
    """The prompt, questions, discrepancies and their buttons."""
    whole: pygame.Rect
    """"Whole map", shown while zoomed."""
    menu: pygame.Rect


def status_height(theme: th.Theme) -> int:
    """The status bar: a line for the week and phase, one (two upright) for the sides."""
    rows = 3 if theme.portrait else 2
    return max(theme.target, rows * (theme.small + 4) + 4)


def board_rects(theme: th.Theme, screen: pygame.Rect, board: Board) -> BoardRects:
    t = theme
    bar = pygame.Rect(screen.x, screen.y, screen.width, status_height(t))
    body = pygame.Rect(screen.x + t.gap, bar.bottom + t.gap, screen.width - 2 * t.gap,
                       screen.bottom - bar.bottom - 2 * t.gap)
    if t.portrait:
        feed_h = FEED_ROWS_PORTRAIT * t.target + t.gap
        column = pygame.Rect(body.x, body.y, body.width, round(body.height * MAP_SHARE_PORTRAIT))
        layout = MapLayout.fit(column, board, t, fill=True)
        bottom = pygame.Rect(body.x, body.bottom - t.target, body.width, t.target)
        feed = pygame.Rect(body.x, bottom.y - t.gap - feed_h, body.width, feed_h)
        side = pygame.Rect(body.x, layout.map_rect.bottom + t.gap, body.width,
                           feed.y - t.gap - layout.map_rect.bottom - t.gap)
    else:
        side_w = max(4 * t.target, round(screen.width * SIDE_SHARE))
        column = pygame.Rect(body.x, body.y, body.width - side_w - t.gap, body.height)
        layout = MapLayout.fit(column, board, t, top=True)
        if column.bottom - layout.map_rect.bottom - t.gap < t.target:
            column.height -= t.target + t.gap - (column.bottom - layout.map_rect.bottom)
            layout = MapLayout.fit(column, board, t, top=True)
        feed = pygame.Rect(column.x, layout.map_rect.bottom + t.gap, column.width,
                           column.bottom - layout.map_rect.bottom - t.gap)
        bottom = pygame.Rect(column.right + t.gap, body.bottom - t.target, side_w, t.target)
        side = pygame.Rect(bottom.x, body.y, side_w, bottom.y - t.gap - body.y)
    half = (bottom.width - t.gap) // 2
    menu_w = min(half, 2 * t.target)
    menu = pygame.Rect(bottom.right - menu_w, bottom.y, menu_w, t.target)
    whole = pygame.Rect(bottom.x, bottom.y, min(half, 3 * t.target), t.target)
    return BoardRects(bar, layout, feed, side, whole, menu)
