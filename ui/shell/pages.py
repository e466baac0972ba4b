"""Page layouts every game's screens share: a ruling's detail page, the body split in two, and
a pager across the bottom of a long screen. Game-neutral: the game passes the function that
turns a rule number into its summary."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas, row


@dataclass(frozen=True)
class Detail:
    """A page opened by a tap on a ruling or a number: a title, lines, and the rules cited."""

    title: str
    lines: tuple[str, ...]
    rules: tuple[str, ...] = ()


def detail_page(canvas: Canvas, detail: Detail, close: Callable[[], None],
                cite: Callable[[str], str]) -> None:
    """A full page: the ruling or number, its arithmetic, and the summary of each rule cited
    (``cite(number)``, the game's rule summaries)."""
    t = canvas.theme
    r = canvas.rect
    canvas.fill(th.PAPER)
    canvas.text(detail.title, (t.gap * 2, t.gap * 2), size=t.title, bold=True)
    y = t.gap * 2 + t.title + t.gap
    width = r.width - 4 * t.gap
    bottom = r.bottom - t.target - 2 * t.gap
    for line in detail.lines:
        if y + t.body > bottom:
            break
        y = canvas.text(line, (t.gap * 2, y), width=width).bottom + t.gap
    for number in detail.rules:
        y += t.gap
        if y + t.small > bottom:
            break
        y = canvas.text(cite(number), (t.gap * 2, y), size=t.small, width=width,
                        max_lines=4).bottom + t.gap
    canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, r.bottom - t.target - t.gap,
                              3 * t.target, t.target), "Back", close)


def full_text(canvas: Canvas, text: str, close: Callable[[], None]) -> None:
    """A string that was cut short, whole, over the screen it was cut on; "Close" goes back."""
    t = canvas.theme
    r = canvas.rect
    canvas.fill(th.PAPER)
    width = r.width - 4 * t.gap
    room = r.height - t.target - 5 * t.gap
    size = t.title  # as large as the page allows
    while size > th.MIN_TEXT and (len(canvas.painter.wrap(text, size, width))
                                  * canvas.painter.font(size).get_height() > room):
        size -= 1
    lines = max(1, room // canvas.painter.font(size).get_height())
    canvas.text(text, (t.gap * 2, t.gap * 2), size=size, width=width, max_lines=lines)
    canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, r.bottom - t.target - t.gap,
                              3 * t.target, t.target), "Close", close)


def split(rect: pygame.Rect, portrait: bool, gap: int, first: float = 0.58,
          top_share: float = 0.42) -> tuple[pygame.Rect, pygame.Rect]:
    """The screen body as (board, actions and feed): side by side in landscape, one above the
    other in portrait."""
    if portrait:
        top = int(rect.height * top_share)
        return (pygame.Rect(rect.x, rect.y, rect.width, top),
                pygame.Rect(rect.x, rect.y + top + gap, rect.width, rect.height - top - gap))
    left = int(rect.width * first)
    return (pygame.Rect(rect.x, rect.y, left, rect.height),
            pygame.Rect(rect.x + left + gap, rect.y, rect.width - left - gap, rect.height))


def pager(canvas: Canvas, page: int, pages: int, turn: Callable[[int], None], leave_label: str,
          leave: Callable[[], None]) -> None:
    """Previous page, next page and a way out, across the bottom of a long screen."""
    t = canvas.theme
    r = canvas.rect
    bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
    left, middle, right = row(bar, 3, t.gap)
    canvas.button(left, "Previous page", partial(turn, page - 1) if page > 0 else None)
    canvas.button(middle, "Next page", partial(turn, page + 1) if page < pages - 1 else None)
    canvas.button(right, leave_label, leave)


def confirm_page(canvas: Canvas, title: str, said: list[tuple[str, th.Colour]],
                 back: Callable[[], None], go_label: str, go: Callable[[], None], *,
                 title_colour: th.Colour = th.INK, go_colour: th.Colour = th.ACCEPT) -> None:
    """A question asked before something that cannot be taken back: a title, a few
    sentences, "Back" (nothing happens) and the button that goes ahead."""
    t = canvas.theme
    r = canvas.rect
    width = r.width - 4 * t.gap
    y = canvas.text(title, (t.gap * 2, t.gap * 2), size=t.title, bold=True,
                    colour=title_colour).bottom + t.gap
    for text, colour in said:
        y = canvas.text(text, (t.gap * 2, y), width=width, colour=colour,
                        max_lines=4).bottom + t.gap
    height = min(int(t.target * 1.4), max(t.target, r.bottom - y - t.gap * 2))
    cells = row(pygame.Rect(t.gap * 2, max(y + t.gap, r.bottom - height - 2 * t.gap), width,
                            height), 2, 2 * t.gap)
    canvas.button(cells[0], "Back", back, colour=th.PANEL_HI)
    canvas.button(cells[1], go_label, go, colour=go_colour)
