"""Line charts: title, legend, labels and last values drawn; awkward data survives."""

from __future__ import annotations

import pygame
import pytest
from ui_helpers import make_canvas

from ui.shell import theme as th
from ui.shell.plots import Series, line_chart

WEEKS = [f"Week {i}" for i in range(1, 8)]
HALF = pygame.Rect(0, 0, 400, 480)  # half of the 800x480 screen


def _colour_in(surface: pygame.Surface, rect: pygame.Rect, colour: th.Colour) -> int:
    return sum(1 for x in range(rect.left, rect.right, 2) for y in range(rect.top, rect.bottom, 2)
               if tuple(surface.get_at((x, y)))[:3] == colour)


def test_chart_draws_title_legend_labels_ticks_and_last_values() -> None:
    canvas, painter = make_canvas((800, 480))
    line_chart(canvas, HALF, "Victory points", WEEKS,
               [Series("Ishida", th.GOLD, [0, 2, 3, 3, 5, 4, 6]),
                Series("Tokugawa", th.TOKUGAWA, [1, 1, 4, None, 6, 9, 7])], y_label="points")
    drawn = painter.drawn
    assert drawn[0] == "Victory points"
    assert {"Ishida", "Tokugawa", "points"} <= set(drawn)
    weeks = [w for w in WEEKS if w in drawn]  # thinned evenly when 14 px labels do not fit
    assert weeks[0] == "Week 1" and weeks[-1] == "Week 7" and len(weeks) >= 4
    ticks = [t for t, r in painter.placed if r.right < 60 and t.lstrip("-").isdigit()]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert max(int(t) for t in ticks) >= 9
    ends = [t for t, r in painter.placed if r.left > 300]
    assert "6" in ends and "7" in ends
    assert _colour_in(canvas.surface, HALF, th.GOLD) > 20
    assert _colour_in(canvas.surface, HALF, th.TOKUGAWA) > 20


@pytest.mark.parametrize("series", [
    [],
    [Series("Ishida", th.GOLD, [])],
    [Series("Ishida", th.GOLD, [None, None])],
])
def test_chart_without_data_says_so(series: list[Series]) -> None:
    canvas, painter = make_canvas((800, 480))
    line_chart(canvas, HALF, "Castles held", WEEKS[:2], series)
    assert "Castles held" in painter.drawn and "No data yet" in painter.drawn


def test_chart_with_a_single_point_labels_it() -> None:
    canvas, painter = make_canvas((800, 480))
    line_chart(canvas, HALF, "Castles held", WEEKS[:1], [Series("Ishida", th.GOLD, [3])])
    assert "Week 1" in painter.drawn and "3" in painter.drawn
    assert "No data yet" not in painter.drawn
    assert _colour_in(canvas.surface, HALF, th.GOLD) > 3


def test_equal_lines_are_both_visible_and_both_labelled() -> None:
    canvas, painter = make_canvas((800, 480))
    line_chart(canvas, HALF, "Cards in hand", WEEKS,
               [Series("Ishida", th.GOLD, [5] * 7), Series("Tokugawa", th.TOKUGAWA, [5] * 7)])
    fives = [r for t, r in painter.placed if t == "5" and r.left > 300]
    assert len(fives) == 2 and not fives[0].colliderect(fives[1])
    assert _colour_in(canvas.surface, HALF, th.GOLD) > 20
    assert _colour_in(canvas.surface, HALF, th.TOKUGAWA) > 20


def test_many_x_labels_are_thinned_not_overlapped() -> None:
    canvas, painter = make_canvas((800, 480))
    labels = [f"Turn {i}" for i in range(1, 41)]
    line_chart(canvas, pygame.Rect(0, 0, 400, 240), "Blocks on the map", labels,
               [Series("Ishida", th.GOLD, list(range(40)))])
    shown = [r for t, r in painter.placed if t in labels]
    assert 2 <= len(shown) < 40
    assert all(not a.colliderect(b) for i, a in enumerate(shown) for b in shown[i + 1:])


def test_tiny_rect_draws_title_without_failing() -> None:
    canvas, painter = make_canvas((800, 480))
    line_chart(canvas, pygame.Rect(0, 0, 120, 60), "Points", WEEKS,
               [Series("Ishida", th.GOLD, [1, 2])])
    assert painter.drawn[0] == "Points"
