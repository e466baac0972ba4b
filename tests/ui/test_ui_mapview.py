"""The board drawn from the board data: hit-testing, and only public things on a real position."""

from __future__ import annotations

import math

import pygame
import pytest
from ui_helpers import leaks, make_canvas

from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.views import PublicState, Stack, public_view
from ui.sekigahara.mapview import MapLayout, draw_board
from ui.shell import theme as th

SIZES = [(800, 480), (560, 340), (1280, 720)]


def _public(game: SekigaharaGame) -> PublicState:
    return public_view(game.state).payload


@pytest.mark.parametrize("size", SIZES)
def test_hit_finds_every_location_at_its_centre_and_nothing_far_away(
        size: tuple[int, int]) -> None:
    board = default_board()
    layout = MapLayout.fit(pygame.Rect((0, 0), size), board, th.Theme(size))
    for loc in board.locations:
        assert layout.hit(layout.point(loc)) == loc
        x, y = layout.point(loc)
        assert layout.hit((x + layout.radius - 1, y)) == loc
    assert layout.hit((-1000, -1000)) is None
    corner = layout.map_rect.bottomleft  # the empty sea off Kii
    assert min(math.dist(corner, p) for p in layout.points.values()) > layout.target // 2
    assert layout.hit(corner) is None


@pytest.mark.parametrize("size", SIZES)
def test_layout_keeps_the_aspect_ratio_and_stays_inside(size: tuple[int, int]) -> None:
    board = default_board()
    rect = pygame.Rect((10, 20), size)
    layout = MapLayout.fit(rect, board)
    assert rect.contains(layout.map_rect) and rect.contains(layout.strip)
    assert not layout.strip.colliderect(layout.map_rect)
    for loc in board.locations.values():
        assert layout.map_rect.collidepoint(layout.point(loc.id))
    tanabe, sendai = board.locations["tanabe"], board.locations["sendai"]
    kanazawa, edo = board.locations["kanazawa"], board.locations["edo"]
    sx = (layout.point("sendai")[0] - layout.point("tanabe")[0]) / (sendai.xy[0] - tanabe.xy[0])
    sy = (layout.point("edo")[1] - layout.point("kanazawa")[1]) / (edo.xy[1] - kanazawa.xy[1])
    assert sx == pytest.approx(sy, rel=0.02)


def _near(placed: list[tuple[str, pygame.Rect]], text: str, point: tuple[int, int],
          reach: int) -> bool:
    return any(t == text and math.dist(r.center, point) <= reach for t, r in placed)


@pytest.mark.parametrize("size", SIZES)
def test_board_shows_each_sides_count_at_each_occupied_location(
        midgame: SekigaharaGame, size: tuple[int, int]) -> None:
    public = _public(midgame)
    canvas, painter = make_canvas(size)
    layout = MapLayout.fit(canvas.rect, default_board(), canvas.theme)
    draw_board(canvas, layout, public)
    occupied = {loc: s for loc, s in public.locations.items() if s.ishida or s.tokugawa}
    assert len(occupied) > 10
    reach = 3 * layout.radius + 2 * layout.label_size
    for loc, stack in occupied.items():
        for count in (stack.ishida, stack.tokugawa):
            if count:
                assert _near(painter.placed, str(count), layout.point(loc), reach), loc
    for loc in default_board().locations.values():  # on the whole map, else zoomed there
        if loc.name not in painter.drawn:
            zoomed, zoom_painter = make_canvas(size)
            draw_board(zoomed, layout.zoom(loc.xy), public)
            assert loc.name in zoom_painter.drawn
    assert "Ishida Recruitment" in painter.drawn and "Tokugawa Recruitment" in painter.drawn
    assert str(public.recruitment_box[Side.TOKUGAWA]) in painter.drawn


def test_board_draws_no_block_identity(midgame: SekigaharaGame) -> None:
    public = _public(midgame)
    assert public.mori_box, "the position should have face-up Mori blocks"
    canvas, painter = make_canvas((800, 480))
    draw_board(canvas, MapLayout.fit(canvas.rect, default_board()), public)
    assert painter.drawn
    assert leaks(painter.drawn) == []


def test_battle_in_progress_and_inside_the_castle(midgame: SekigaharaGame) -> None:
    public = _public(midgame)
    assert public.battle is not None
    canvas, painter = make_canvas((800, 480))
    layout = MapLayout.fit(canvas.rect, default_board())
    draw_board(canvas, layout, public)
    assert ("SIEGE" if public.battle.siege else "BATTLE") in painter.drawn
    besieged = public.model_copy(update={"locations": {
        **public.locations, "osaka": Stack(ishida=3, tokugawa=5, inside={Side.ISHIDA: 2})}})
    canvas, painter = make_canvas((800, 480))
    draw_board(canvas, layout, besieged)
    x, y = layout.point("osaka")
    inside = [r for t, r in painter.placed if t == "2" and r.collidepoint(x, y)]
    assert inside, "the count inside the castle is drawn on the castle"
    assert _near(painter.placed, "5", (x, y), 3 * layout.radius)


def test_lit_and_blinking_locations_are_marked(midgame: SekigaharaGame) -> None:
    public = _public(midgame)
    layout = MapLayout.fit(pygame.Rect(0, 0, 800, 480), default_board())
    x, y = layout.point("toyama")
    ring = (x + layout.radius + 3, y)

    def pixel(**kw: object) -> tuple[int, int, int]:
        canvas, _ = make_canvas((800, 480))
        draw_board(canvas, layout, public, **kw)  # type: ignore[arg-type]
        return tuple(canvas.surface.get_at(ring))[:3]  # type: ignore[return-value]

    plain = pixel()
    assert pixel(lit=frozenset({"toyama"})) == th.LIT
    far = (x + layout.radius + max(6, layout.radius // 2) + 3 - 2, y)  # inside the ring
    canvas, _ = make_canvas((800, 480))
    draw_board(canvas, layout, public, blinking=frozenset({"toyama"}), blink_on=True)
    assert tuple(canvas.surface.get_at(far))[:3] == th.WARN
    canvas, _ = make_canvas((800, 480))
    draw_board(canvas, layout, public, blinking=frozenset({"toyama"}), blink_on=False)
    assert tuple(canvas.surface.get_at(far))[:3] != th.WARN
    assert plain != th.LIT


def test_each_location_is_a_tap_target_when_asked(midgame: SekigaharaGame) -> None:
    public = _public(midgame)
    canvas, _ = make_canvas((800, 480))
    layout = MapLayout.fit(canvas.rect, default_board(), canvas.theme)
    draw_board(canvas, layout, public)
    assert canvas.targets == []
    tapped: list[str] = []
    draw_board(canvas, layout, public, on_location=tapped.append)
    board = default_board()
    by_label = {t.label: t for t in canvas.targets}
    assert set(by_label) == {loc.name for loc in board.locations.values()}
    for loc in board.locations.values():
        target = by_label[loc.name]
        assert target.rect.collidepoint(layout.point(loc.id))
        assert target.action is not None
        target.action()
    assert tapped == list(board.locations)
