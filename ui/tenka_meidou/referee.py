"""Tenka Meidou's referee page, behind the referee PIN (:class:`ui.shell.referee.RefereeScreen`).

It alone draws what the rules hide: each player's face-down Daimyo card, the Daimyo cards
offered and left, and the event log in the referee's words (a Daimyo choice names its card),
each ruling with its section; a tap on a line shows the section's summary. "Verify this game"
re-adjudicates the stored game (:mod:`companion.core.records`) and says the result. The page is
given callables by the app (:class:`~ui.tenka_meidou.app.TenkaApp`), never the game itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from companion.core.views import RefereeView
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.events import DaimyoChosen, DaimyoPlayed, TenkaEvent
from companion.games.tenka_meidou.rulebook import cite
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.shell.pages import Detail, detail_page, split
from ui.tenka_meidou.control import FeedLine, describe
from ui.tenka_meidou.words import TEXT_COLOUR, card_name, colour_name, short_zone


def referee_lines(events: Sequence[TenkaEvent]) -> list[FeedLine]:
    """Every accepted event with its section, in the referee's words: a Daimyo choice names
    the card chosen (section 9)."""
    lines: list[FeedLine] = []
    for event in events:
        if isinstance(event, DaimyoChosen):
            lines.append(FeedLine("ruling", f"{colour_name(event.colour)} chose the Daimyo card "
                                  f"{card_name(event.card)}, face down (9)", "9"))
        else:
            lines += describe(event)
    return lines


def hidden_lines(v: Table, played: frozenset[Colour] = frozenset()
                 ) -> list[tuple[str, th.Colour]]:
    """What the shared screen does not show, and the rest of each player's position."""
    lines: list[tuple[str, th.Colour]] = []
    for colour in v.players:
        parts = []
        card = v.daimyo.get(colour)
        if card is not None:
            shown = "played, face up" if colour in played else "face down"
            parts.append(f"Daimyo card {card_name(card)} ({shown})")
        elif v.daimyo:
            parts.append("no Daimyo card yet")
        where = v.daimyo_at.get(colour)
        if where:
            parts.append(f"Daimyo pawn on {short_zone(where)}")
        parts.append(f"{v.reserve.get(colour, 0)} in reserve")
        if colour in v.swords:
            parts.append(f"sword {v.swords[colour]}")
        if colour in v.tactic_used:
            parts.append(f"used {card_name(v.tactic_used[colour])}")
        lines.append((f"{colour_name(colour)}: " + ", ".join(parts), TEXT_COLOUR[colour]))
    if v.daimyo_offer:
        lines.append(("Daimyo cards offered, not taken: "
                      + ", ".join(card_name(c) for c in v.daimyo_offer) + " (9)", th.INK))
    if v.tactic_offer:
        lines.append(("Tactic offer: " + ", ".join(card_name(c) for c in v.tactic_offer)
                      + " (3.3)", th.INK))
    return lines


@dataclass
class TenkaReferee:
    """The referee's page: the hidden cards, the event log, "Verify this game"."""

    view: Callable[[], RefereeView[Table]]
    events: Callable[[], Sequence[TenkaEvent]]
    verify: Callable[[], tuple[bool, str]]
    """Re-adjudicate the stored game: (it holds, what to say)."""
    page: int = 0
    """The event log's page, 0 the newest."""
    verdict: tuple[bool, str] | None = None
    detail: Detail | None = None

    def draw(self, canvas: Canvas, leave: Callable[[], None]) -> None:
        if self.detail is not None:
            detail_page(canvas, self.detail, self._close, cite)
            return
        t = canvas.theme
        r = canvas.rect
        v = self.view().payload
        y = canvas.text("Referee view: the hidden cards shown. Not for the players' eyes.",
                        (t.gap, t.gap), size=t.small, bold=True, colour=th.WARN,
                        width=r.width - 2 * t.gap, max_lines=2).bottom + t.gap // 2
        if self.verdict is not None:
            ok, said = self.verdict
            y = canvas.text(said, (t.gap, y), size=t.small, colour=th.ACCEPT if ok else th.DANGER,
                            width=r.width - 2 * t.gap, max_lines=3).bottom + t.gap // 2
        bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
        body = pygame.Rect(t.gap, y, r.width - 2 * t.gap, bar.y - y - t.gap)
        left, right = split(body, t.portrait, 2 * t.gap, 0.42, 0.4)
        events = self.events()
        played = frozenset(e.colour for e in events if isinstance(e, DaimyoPlayed))
        for text, colour in hidden_lines(v, played):
            if left.y + t.small > left.bottom:
                break
            left.y = canvas.text(text, left.topleft, size=t.small, colour=colour,
                                 width=left.width, max_lines=3).bottom + t.gap // 2
        pages = self._log(canvas, right, events)
        verify, older, newer, out = row(bar, 4, t.gap)
        canvas.button(verify, "Verify this game", self._verify, colour=th.ACCEPT, size=t.small)
        canvas.button(older, "Older", self._turn(1) if self.page < pages - 1 else None,
                      size=t.small)
        canvas.button(newer, "Newer", self._turn(-1) if self.page > 0 else None, size=t.small)
        canvas.button(out, "Lock and leave", leave, size=t.small)

    def _log(self, canvas: Canvas, rect: pygame.Rect, events: Sequence[TenkaEvent]) -> int:
        """The event log, newest first, a page at a time; the number of pages."""
        t = canvas.theme
        canvas.fill(th.PANEL, rect, radius=t.gap)
        lines = list(reversed(referee_lines(events)))
        width = rect.width - 2 * t.gap
        heights = [len(canvas.painter.wrap(line.text, t.small, width)[:2]) * (t.small + 2)
                   + t.gap for line in lines]
        pages: list[list[int]] = [[]]
        used = t.gap // 2
        for i, height in enumerate(heights):
            if pages[-1] and used + height > rect.height:
                pages.append([])
                used = t.gap // 2
            pages[-1].append(i)
            used += height
        self.page = min(self.page, len(pages) - 1)
        y = rect.y + t.gap // 2
        if not lines:
            canvas.text("No move yet", (rect.x + t.gap, y), size=t.small, colour=th.DIM)
        for i in pages[self.page]:
            line = lines[i]
            canvas.text(line.text, (rect.x + t.gap, y), size=t.small, width=width, max_lines=2)
            canvas.tap_area(pygame.Rect(rect.x, y - t.gap // 2, rect.width, heights[i]),
                            line.text, self._opener(line))
            y += heights[i]
            pygame.draw.line(canvas.surface, th.LINE, (rect.x + t.gap, y - t.gap // 2 - 1),
                             (rect.right - t.gap, y - t.gap // 2 - 1))
        pages_count = len(pages)
        return pages_count

    def _opener(self, line: FeedLine) -> Callable[[], None]:
        def open_() -> None:
            self.detail = Detail("Ruling", (line.text,), (line.rule,) if line.rule else ())
        return open_

    def _close(self) -> None:
        self.detail = None

    def _turn(self, step: int) -> Callable[[], None]:
        def turn() -> None:
            self.page += step
        return turn

    def _verify(self) -> None:
        self.verdict = self.verify()
