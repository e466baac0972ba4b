"""A question with many answers (a card played: up to 15 of them) keeps every answer a finger
wide inside the room it is given: two columns when they fit, then a page at a time with
"More answers", and the buttons under it (Undo, Menu) stay on the screen."""

from __future__ import annotations

import pygame
import pytest

from companion.games.sekigahara.components import Side
from ui.sekigahara.control import QuestionShown
from ui.sekigahara.parts import ANSWER_PAGES, answers
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.text import Painter


def _question(n: int, qid: int) -> QuestionShown:
    return QuestionShown(qid, Side.TOKUGAWA, "Which card was played?",
                         tuple(f"a Clan {i} plain card" for i in range(n)))


@pytest.mark.parametrize(("size", "room", "n"), [
    ((800, 480), pygame.Rect(456, 90, 336, 320), 15),   # the battle page's column
    ((800, 480), pygame.Rect(568, 100, 224, 250), 15),  # the board's narrow column
    ((1024, 600), pygame.Rect(582, 100, 432, 420), 12),
    ((720, 1280), pygame.Rect(12, 700, 696, 300), 15),
])
def test_every_answer_is_reachable_a_finger_wide_inside_its_room(
        size: tuple[int, int], room: pygame.Rect, n: int) -> None:
    theme = th.Theme(size)
    q = _question(n, qid=1000 + n + room.width)
    tapped: list[int] = []
    seen: set[str] = set()
    for _ in range(n):  # at most n pages
        canvas = Canvas(pygame.Surface(size), Painter(), theme)
        bottom = answers(canvas, room, q, lambda _q, i: tapped.append(i))
        assert bottom <= room.bottom + theme.gap
        for target in canvas.targets:
            assert room.contains(target.rect), target
            assert min(target.rect.size) >= theme.target
        seen |= {t.label for t in canvas.targets if not t.label.startswith("More answers")}
        more = [t for t in canvas.targets if t.label.startswith("More answers")]
        if not more:
            break
        assert more[0].action is not None
        more[0].action()
        if ANSWER_PAGES.page[q.id] == 0:
            break
    assert seen == set(q.options)
