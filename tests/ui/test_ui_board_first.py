"""Board first (issue 15): at every screen size the map is the largest part of the set-up and
board screens, its words are at least 14 px high as rendered (the font's line height, what
``--record`` writes as "px") and never cover one another, counts clearly larger than names, the
Mōri box's faces always shown, and every tap target a finger wide: the whole map zooms where it
is tapped, and zoomed every location there is a full target with its name."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from ui_helpers import RecordingPainter, app_options

from companion.games.sekigahara.components import default_board
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.state import Phase
from companion.games.sekigahara.engine.views import PublicState, public_view
from ui.sekigahara import mapview
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo
from ui.sekigahara.mapview import MapLayout, draw_board
from ui.sekigahara.playlayout import board_rects
from ui.shell import theme as th
from ui.shell.canvas import Canvas

SIZES = [(800, 480), (1024, 600), (1280, 720), (720, 1280)]


MIN_PX = 14
"""The least rendered line height of any word on the map (issue 15)."""


class SizedPainter(RecordingPainter):
    """Also keeps each string's rendered line height (px), as the recorder writes it."""

    def __init__(self) -> None:
        super().__init__()
        self.sized: list[tuple[str, pygame.Rect, int]] = []

    def text(self, surface: pygame.Surface, text: str, pos: tuple[int, int], **kw: object
             ) -> pygame.Rect:
        rect = super().text(surface, text, pos, **kw)
        px = self.font(int(kw["size"]), bool(kw.get("bold"))).get_height()  # type: ignore[call-overload]
        self.sized.append((text, rect.move(surface.get_abs_offset()), px))
        return rect


def _canvas(size: tuple[int, int]) -> tuple[Canvas, SizedPainter]:
    painter = SizedPainter()
    surface = pygame.Surface(size)
    return Canvas(surface, painter, th.Theme(size)), painter


def _overview(size: tuple[int, int]) -> MapLayout:
    return board_rects(th.Theme(size), pygame.Rect((0, 0), size), default_board()).map


def _public(game: SekigaharaGame) -> PublicState:
    return public_view(game.state).payload


def _overlaps(sized: list[tuple[str, pygame.Rect, int]]) -> list[tuple[str, str]]:
    return [(a, b) for (a, ra, _), (b, rb, _) in itertools.combinations(sized, 2)
            if ra.colliderect(rb)]


@pytest.mark.parametrize("size", SIZES)
def test_the_map_is_the_largest_part_of_the_screen(size: tuple[int, int]) -> None:
    theme = th.Theme(size)
    screen = pygame.Rect((0, 0), size)
    rects = board_rects(theme, screen, default_board())
    area = rects.map.map_rect.width * rects.map.map_rect.height
    for part in (rects.side, rects.feed, rects.bar):
        assert area > part.width * part.height
    assert rects.map.map_rect.width >= (0.95 if theme.portrait else 0.68) * size[0]
    parts = [rects.bar, rects.map.strip, rects.map.map_rect, rects.side, rects.feed,
             rects.whole, rects.menu]
    for a, b in itertools.combinations(parts, 2):
        assert not a.colliderect(b)
    assert all(screen.contains(p) for p in parts)
    assert rects.feed.height >= theme.target and rects.whole.height >= theme.target


@pytest.mark.parametrize("size", SIZES)
def test_on_the_whole_map_words_are_legible_and_never_overlap(
        midgame: SekigaharaGame, size: tuple[int, int]) -> None:
    public = _public(midgame)
    canvas, painter = _canvas(size)
    layout = _overview(size)
    draw_board(canvas, layout, public, on_area=lambda _: None)
    assert painter.sized
    assert [(t, px) for t, _, px in painter.sized if px < MIN_PX] == []
    names = {loc.name for loc in default_board().locations.values()}
    name_px = max(px for t, _, px in painter.sized if t in names)
    counts = [(t, px) for t, r, px in painter.sized if t.isdigit()
              and (layout.map_rect.contains(r) or r.x < layout.strip.x + layout.strip.width // 4)]
    assert counts and all(px >= name_px * 1.2 for _, px in counts), (name_px, counts)
    assert _overlaps(painter.sized) == []
    assert not {"Castle", "Road", "Highway"} & set(painter.drawn)  # the key is a page ("Key")
    shown = names & set(painter.drawn)
    assert len(shown) >= len(names) // 2  # the rest zoomed (below)
    board = default_board()
    occupied = {board.locations[loc].name for loc, s in public.locations.items()
                if s.ishida or s.tokugawa}
    plain = {loc.name for loc in board.locations.values()
             if not (loc.castle or loc.resource or loc.recruitment or loc.capital)}
    assert len(occupied & shown) / len(occupied) > len(plain & shown) / len(plain)
    for target in canvas.targets:
        assert min(target.rect.size) >= canvas.theme.target, target
        assert target.label.startswith("Zoom in on ")
    covered = canvas.targets[0].rect.unionall([t.rect for t in canvas.targets])
    assert covered == layout.map_rect


@pytest.mark.parametrize("size", SIZES)
def test_zoomed_on_any_location_each_place_there_is_a_target_with_its_name(
        midgame: SekigaharaGame, size: tuple[int, int]) -> None:
    public = _public(midgame)
    overview = _overview(size)
    board = default_board()
    target = th.Theme(size).target
    for loc in board.locations.values():
        layout = overview.zoom(loc.xy, public)
        assert loc.id in layout.shown and layout.map_rect == overview.map_rect
        canvas, painter = _canvas(size)
        tapped: list[str] = []
        assert draw_board(canvas, layout, public, on_location=tapped.append,
                          on_area=lambda _: None) == layout
        assert [(t, px) for t, _, px in painter.sized if px < MIN_PX] == []
        assert _overlaps(painter.sized) == [], loc.id
        by_label = {t.label: t for t in canvas.targets}
        for shown in layout.shown:
            name = board.locations[shown].name
            assert name in painter.drawn, (loc.id, name)
            assert by_label[name].rect.collidepoint(layout.point(shown))
        assert all(min(t.rect.size) >= target for t in canvas.targets)
        spots = [t.rect for t in canvas.targets if t.label in {board.locations[s].name
                                                               for s in layout.shown}]
        assert all(a.collidelist([b]) == -1 for a, b in itertools.combinations(spots, 2))
        by_label[loc.name].action()  # type: ignore[misc]
        assert tapped == [loc.id]


@pytest.mark.parametrize("size", SIZES)
def test_the_mori_box_shows_each_face_up_block(midgame: SekigaharaGame,
                                               size: tuple[int, int]) -> None:
    public = _public(midgame)
    assert len(public.mori_box) >= 4
    layout = _overview(size)
    for shown in (layout, layout.zoom(default_board().locations["osaka"].xy, public)):
        canvas, painter = _canvas(size)
        draw_board(canvas, shown, public)
        in_strip = [(t, r, s) for t, r, s in painter.sized if layout.strip.contains(r)]
        assert not [t for t, _, _ in in_strip if t.startswith("+")]
        mons = sorted(t for t, r, _ in in_strip
                      if t.isdigit() and r.centerx > layout.strip.centerx - layout.strip.width
                      // 5 and r.centerx < layout.strip.centerx + layout.strip.width // 5)
        # the Mōri box's count, then one mon per face
        assert sorted(mons) == sorted([str(len(public.mori_box)),
                                       *(str(f.mon) for f in public.mori_box)])


# --------------------------------------------------------------------------- the whole app


@pytest.fixture
def sized_app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TableApp]:
    options = app_options(tmp_path)
    options.size = request.param
    app = TableApp(options)
    try:
        yield app
    finally:
        app.close()


@pytest.mark.parametrize("sized_app", [(800, 480), (720, 1280)], indirect=True)
def test_every_target_of_the_set_up_and_board_screens_is_a_finger_wide(
        sized_app: TableApp) -> None:
    app = sized_app.app
    small: list[tuple[str, str]] = []

    def frame(_at: float) -> None:
        if app.painter.screen in ("setup", "board"):
            small.extend((app.painter.screen, t.label) for t in app.targets
                         if min(t.rect.size) < app.theme.target)

    app.on_frame = frame
    demo = Demo(sized_app, seed=1)
    demo.play(1, until=lambda: demo.state.phase is Phase.MOVEMENT)
    app.draw()
    assert app.painter.screen == "board" and small == []
    at = board_rects(app.theme, pygame.Rect((0, 0), app.size), default_board()).map.point("kiyosu")
    zoom = next(t for t in app.targets if t.rect.collidepoint(at))
    assert zoom.label.startswith("Zoom in on ")
    app.touch(zoom.rect.center)
    app.pump()
    app.draw()
    assert app.find("Whole map") is not None
    kiyosu = app.find("Kiyosu")
    assert kiyosu is not None and min(kiyosu.rect.size) >= app.theme.target
    assert "Kiyosu" in [text for _, text in app.drawn]
    assert small == []
    assert app.tap("Whole map")
    app.draw()
    assert app.find("Whole map") is None and app.find("Kiyosu") is None
    assert app.find(zoom.label) is not None
    assert app.tap("Key")  # what the map's marks mean: a page, not a legend too small to read
    app.draw()
    assert mapview.KEY_TITLE in [text for _, text in app.drawn]
    assert app.painter.screen == "detail"
    assert app.tap("Back")
    app.draw()
    assert app.painter.screen == "board"
    # zoomed, a discrepancy brings the whole map back: its blink may be outside the view
    app.touch(zoom.rect.center)
    app.pump()
    app.draw()
    assert app.find("Whole map") is not None
    block, origin = next((b, z) for b, z in sorted(demo.state.pos.items())
                         if z in ("edo", "osaka"))
    demo._place((block,), "sendai" if origin == "osaka" else "himeji")
    demo.wait(lambda: any("The table differs" in text for _, text in app.drawn),
              "the discrepancy")
    assert app.find("Whole map") is None


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_zoomed_the_marks_still_show(midgame: SekigaharaGame, size: tuple[int, int]) -> None:
    """Legal destinations lit, a discrepancy blinking, the battle, the disks and control."""
    public = _public(midgame)
    assert public.battle is not None
    board = default_board()
    layout = _overview(size).zoom(board.locations[public.battle.location].xy, public)
    battle = public.battle.location
    assert battle in layout.shown
    lit = next(loc for loc in sorted(layout.shown) if loc != battle)
    x, y = layout.point(lit)

    def pixel(at: tuple[int, int], **kw: object) -> tuple[int, int, int]:
        canvas, _ = _canvas(size)
        draw_board(canvas, layout, public, **kw)  # type: ignore[arg-type]
        return tuple(canvas.surface.get_at(at))[:3]  # type: ignore[return-value]

    ring = (x + layout.radius + 3, y)
    assert pixel(ring, lit=frozenset({lit})) == th.LIT != pixel(ring)
    far = (x + layout.radius + max(6, layout.radius // 2) + 3 - 2, y)
    assert pixel(far, blinking=frozenset({lit}), blink_on=True) == th.WARN
    assert pixel(far, blinking=frozenset({lit}), blink_on=False) != th.WARN
    canvas, painter = _canvas(size)
    draw_board(canvas, layout, public)
    assert ("SIEGE" if public.battle.siege else "BATTLE") in painter.drawn
    for disk, where in public.disks.items():
        if where in layout.shown:
            assert {"hideyori": "H", "sanada": "S"}[disk] in painter.drawn


def _positions(seed: int, every: int) -> Iterator[PublicState]:
    """Every ``every``-th public position of a whole seeded self-play game."""
    from companion.games.sekigahara.engine.game import SekigaharaRules
    from companion.games.sekigahara.engine.simulator import play_game

    report = play_game(seed, check=False)
    rules = SekigaharaRules()
    state = rules.initial_state()
    for i, event in enumerate(report.game.events):
        state = rules.apply(state, event)
        if i % every == 0:
            yield public_view(state).payload


@pytest.mark.parametrize("size", SIZES)
def test_through_whole_games_no_count_hides_another(size: tuple[int, int]) -> None:
    """Crowded corners (Sendai, Nihonmatsu) once put one count over another: through whole
    games, at every size, no count covers another count or a name."""
    layout = _overview(size)
    painter = SizedPainter()
    checked = 0
    for seed in (12, 21):  # seeds whose games once put a count over another at 800x480
        for public in _positions(seed, 2):
            plan = mapview.plan_board(painter, layout.named(public), public)
            counts = [b.rect for b in plan.badges]
            names = [rect for rect, _ in plan.labels.values()]
            for a, b in itertools.combinations(counts, 2):
                assert not a.colliderect(b), (a, b)
            for count in counts:
                assert count.collidelist(names) == -1
            checked += 1
    assert checked > 300
