"""Pieces every Sekigahara screen shares: the status bar, the rulings feed, questions and
discrepancies as large buttons, and the detail page a tap on any ruling opens.

Everything here draws from a :class:`~ui.sekigahara.control.Snapshot` (the public view and the
session's public lines), never from the game's state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pygame

from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.facade import (
    PublicState,
    citation,
    count_words,
    default_rules,
    plain_words,
    side_name,
)
from companion.games.sekigahara.facade import (
    victory_points as points,
)
from firmware_bridge.table_session import LogLine
from ui.sekigahara.control import QuestionShown, Snapshot
from ui.shell import pages
from ui.shell import theme as th
from ui.shell.canvas import Canvas, column, grid, row
from ui.shell.pages import Detail, split

PHASES = {
    "not_started": "Not started", "setup": "Set-up", "reinforcement": "Reinforcements",
    "bid": "Turn order: bidding", "choose_first": "Turn order", "movement": "Movement Phase",
    "combat": "Combat Phase", "game_over": "Game over",
}
FEED_KINDS = frozenset({"command", "rejected", "answer", "correction"})
"""Questions and discrepancies stand in the action area while open; the feed keeps rulings."""
KIND_COLOUR = {"command": th.INK, "rejected": th.DANGER, "question": th.LIT,
               "answer": th.LIT, "discrepancy": th.WARN, "ignored": th.DIM,
               "correction": th.WARN}


def side_colour(side: Side) -> th.Colour:
    return th.GOLD if side is Side.ISHIDA else th.TOKUGAWA


def rule_text(number: str) -> str:
    """The project's summary of a rule, for the detail page."""
    return default_rules().cite(number)


def victory_points(view: PublicState) -> dict[Side, int]:
    """Points if the game ended now (2.2), from the castles and Resource Locations shown."""
    return {
        side: points(sum(1 for c in view.castles.values() if c is side),
                     sum(1 for r in view.resources.values() if r is side))
        for side in Side
    }


def reinforcements_due(week: int) -> int:
    """Blocks each side draws at the start of the next week (6.2, the turn track)."""
    track = default_board().turn_track.recruitment
    return track[week] if week < len(track) else 0


def status_bar(canvas: Canvas, rect: pygame.Rect, snap: Snapshot,
               open_detail: Callable[[Detail], None]) -> None:
    """Week, turn, phase and who plays; each side's cards, piles and points."""
    t = canvas.theme
    v = snap.view.payload
    canvas.fill(th.PANEL, rect)
    who = ""
    if v.battle is not None and v.battle.initiative is not None:
        who = f" · initiative: {side_name(v.battle.initiative)}"
    elif v.active is not None:
        who = f" · {side_name(v.active)} to play"
    head = f"Week {v.week} of 7 · Turn {v.turn} · {PHASES.get(v.phase, v.phase)}{who}"
    canvas.text(head, (rect.x + t.gap, rect.y + 2), size=t.small, bold=True)
    points = victory_points(v)
    due = reinforcements_due(v.week)
    lower = pygame.Rect(rect.x + t.gap, rect.y + t.small + 4, rect.width - 2 * t.gap,
                        rect.height - t.small - 4)
    cells = column(lower, 2, 0) if t.portrait else row(lower, 2, t.gap)
    for cell, side in zip(cells, Side, strict=True):
        text = (f"{side_name(side)}: {count_words(v.hand[side], 'card')} · "
                f"draw {v.draw_pile[side]} · "
                f"discard {v.discard_pile[side]} · {points[side]} VP")
        canvas.text(text, (cell.x, cell.y), size=canvas.painter.fit_size(text, t.small,
                    cell.width), colour=side_colour(side))
    lines = (f"Victory points if the game ended now: Ishida {points[Side.ISHIDA]}, "
             f"Tokugawa {points[Side.TOKUGAWA]} (two a castle, one a Resource Location)",
             f"Blocks drawn as reinforcements at the start of next week: {due} each")
    canvas.tap_area(rect, "Status", lambda: open_detail(Detail("Status", lines, ("2.2", "6.2"))))


def feed(canvas: Canvas, rect: pygame.Rect, lines: tuple[LogLine, ...],
         open_detail: Callable[[Detail], None], newest_first: bool = True) -> None:
    """The rulings feed: the newest lines that fit, each a tap from its rule."""
    t = canvas.theme
    canvas.fill(th.PANEL, rect, radius=t.gap)
    y = rect.y + t.gap // 2
    shown = [ln for ln in lines if ln.kind in FEED_KINDS]
    ordered = list(reversed(shown)) if newest_first else shown
    for line in ordered:
        line = replace(line, text=plain_words(line.text))
        wrapped = canvas.painter.wrap(line.text, t.small, rect.width - 2 * t.gap)[:2]
        height = max(t.target, len(wrapped) * (t.small + 2) + 4)  # each line a finger's target
        if y + height > rect.bottom:
            break
        cell = pygame.Rect(rect.x, y, rect.width, height)
        canvas.text(line.text, (rect.x + t.gap, y + 2), size=t.small,
                    colour=KIND_COLOUR.get(line.kind, th.INK), width=rect.width - 2 * t.gap,
                    max_lines=2)
        canvas.tap_area(cell, line.text, _opener(open_detail, line))
        y += height
        pygame.draw.line(canvas.surface, th.LINE, (rect.x + t.gap, y - 1),
                         (rect.right - t.gap, y - 1))


def _opener(open_detail: Callable[[Detail], None], line: LogLine) -> Callable[[], None]:
    rule = citation(line.text)
    kind = {"command": "Ruling", "rejected": "Not allowed", "discrepancy": "The table differs",
            "question": "Question", "answer": "Answer", "correction": "Correction"}
    return lambda: open_detail(Detail(kind.get(line.kind, "Note"), (line.text,),
                                      (rule,) if rule else ()))


def questions_and_discrepancies(canvas: Canvas, rect: pygame.Rect, snap: Snapshot,
                                answer: Callable[[int, int], None],
                                accept: Callable[[int], None],
                                put_back: Callable[[int], None],
                                skip_missing: bool = False,
                                open_detail: Callable[[Detail], None] | None = None) -> int:
    """The first open question, else the first discrepancy, as large buttons; the height used.
    ``skip_missing``: leave out blocks missing from where the rules have them (a caller whose
    own guide says where they go)."""
    t = canvas.theme
    found = [d for d in snap.discrepancies if not (skip_missing and d.kind == "missing")]
    if snap.questions:
        q = snap.questions[0]
        asked = q.text[:1].lower() + q.text[1:]  # "Ishida: which route did the stack take…"
        head = sentence(canvas, f"{side_name(q.side)}: {asked}", (rect.x, rect.y), rect.width,
                        open_detail, title="Question", size=t.body, bold=True,
                        colour=side_colour(q.side))
        y = head.bottom + t.gap
        return answers(canvas, pygame.Rect(rect.x, y, rect.width, rect.bottom - y), q,
                       answer) - rect.y
    if found:
        d = found[0]
        more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
        rule = f" ({d.rule})" if d.rule and not citation(d.text) else ""
        head = sentence(canvas, f"The table differs{more}: {d.text}{rule}", (rect.x, rect.y),
                        rect.width, open_detail, title="The table differs", size=t.body,
                        bold=True, colour=th.WARN)
        fix = sentence(canvas, f"To fix: {d.fix[:1].upper()}{d.fix[1:]}",
                       (rect.x, head.bottom + 2), rect.width, open_detail, title="To fix",
                       size=t.small)
        y = fix.bottom + t.gap
        left, right = row(pygame.Rect(rect.x, y, rect.width, t.target), 2, t.gap)
        canvas.button(left, "Accept what is on the table", _bind1(accept, d.index),
                      colour=th.WARN, size=t.small)
        canvas.button(right, "Put it back", _bind1(put_back, d.index), colour=th.ACCEPT,
                      size=t.small)
        return y + t.target + t.gap - rect.y
    return 0


class AnswerPages:
    """Which page of a long list of answers each open question shows ("More answers")."""

    def __init__(self) -> None:
        self.page: dict[int, int] = {}

    def turn(self, question: int, pages: int) -> None:
        self.page[question] = (self.page.get(question, 0) + 1) % pages


ANSWER_PAGES = AnswerPages()


def answers(canvas: Canvas, rect: pygame.Rect, q: QuestionShown,
            answer: Callable[[int, int], None]) -> int:
    """A question's answers as buttons a finger wide, in two columns when one does not hold
    them and the column is wide enough, a page at a time with "More answers" when even that
    does not fit ``rect`` (a card question can have 15 answers); the next y."""
    t = canvas.theme
    step = t.target + t.gap
    rows = max(1, (rect.height + t.gap) // step)
    n = len(q.options)
    columns = 2 if n > rows and rect.width >= 5 * t.target else 1
    per_page = rows * columns
    pages = 1
    if n > per_page:
        per_page = max(1, per_page - 1)  # one cell for "More answers"
        pages = -(-n // per_page)
    page = ANSWER_PAGES.page.get(q.id, 0) % pages
    shown = list(enumerate(q.options))[page * per_page:(page + 1) * per_page]
    cells = grid(rect, len(shown) + (pages > 1), columns, t.gap, t.target)
    for cell, (i, label) in zip(cells, shown, strict=False):
        canvas.button(cell, label, _bind2(answer, q.id, i), colour=th.ACCEPT, size=t.small)
    if pages > 1:
        canvas.button(cells[-1], f"More answers ({page + 1} of {pages})",
                      lambda: ANSWER_PAGES.turn(q.id, pages), size=t.small)
    return (cells[-1].bottom if cells else rect.y) + t.gap


_RULE = re.compile(r"(?<![\w.])(\d+\.\d+(?:\.\d+)*|C\d+)(?![\w.])")


def rules_in(text: str) -> tuple[str, ...]:
    """The rule numbers a sentence cites ("(5.2.1)", "(8.2.3, 8.5)"), each once, in order."""
    return tuple(dict.fromkeys(_RULE.findall(text)))


def sentence(canvas: Canvas, text: str, pos: tuple[int, int], width: int,
             open_detail: Callable[[Detail], None] | None, *, title: str = "Note",
             size: int | None = None, bold: bool = False, colour: th.Colour = th.INK,
             max_lines: int = 3) -> pygame.Rect:
    """A sentence cut to ``max_lines``; when it is cut, a tap on it opens it in full."""
    size = size or canvas.theme.body
    rect = canvas.text(text, pos, size=size, bold=bold, colour=colour, width=width,
                       max_lines=max_lines)
    if open_detail is not None and len(canvas.painter.wrap(text, size, width, bold)) > max_lines:
        detail = Detail(title, (text,), rules_in(text))
        canvas.tap_area(rect, text, lambda: open_detail(detail))
    return rect


def _bind1(call: Callable[[int], None], a: int) -> Callable[[], None]:
    return lambda: call(a)


def _bind2(call: Callable[[int, int], None], a: int, b: int) -> Callable[[], None]:
    return lambda: call(a, b)


def detail_page(canvas: Canvas, detail: Detail, close: Callable[[], None]) -> None:
    """The shell's detail page with Sekigahara's rule summaries."""
    pages.detail_page(canvas, detail, close, rule_text)


__all__ = ["Detail", "column", "detail_page", "feed", "questions_and_discrepancies",
           "rule_text", "sentence", "side_colour", "side_name", "split", "status_bar",
           "victory_points"]
