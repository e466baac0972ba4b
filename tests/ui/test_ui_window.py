"""The window on a desktop (issue 15 item 5): it fits the desktop with the virtual table beside
or below the touchscreen, it can be resized, and a tap or click on the window still lands on the
button drawn under it. The desktop's size is given, never the dummy driver's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from companion.games.sekigahara.components import default_board
from firmware_bridge.simtable import SimulatedTable
from ui.cli import installed_games
from ui.sekigahara.virtual_table import VirtualTable
from ui.shell.app import App, panel_size
from ui.shell.chooser import ChooserScreen
from ui.shell.window import PANEL_MIN, TAB_PX, fit, free_area

SIZES = [(800, 480), (1024, 600), (1280, 720), (720, 1280)]
DESKTOPS = [(1366, 768), (1920, 1080)]


@pytest.fixture
def chosen() -> Iterator[list[str]]:
    yield []


def _app(size: tuple[int, int], desktop: tuple[int, int], sim: SimulatedTable,
         chosen: list[str]) -> App:
    app = App(size, panel_size=panel_size(size), desktop=desktop)
    app.panel = VirtualTable(sim, default_board(), random.Random(0))
    app.show(ChooserScreen(installed_games(), chosen.append))
    app.draw()
    return app


@pytest.mark.parametrize("desktop", DESKTOPS)
@pytest.mark.parametrize("size", SIZES)
def test_the_window_fits_the_desktop_with_the_virtual_table(
        size: tuple[int, int], desktop: tuple[int, int], sim: SimulatedTable,
        chosen: list[str]) -> None:
    app = _app(size, desktop, sim, chosen)
    try:
        layout = app.layout
        free = free_area(desktop)
        window = pygame.display.get_surface().get_size()
        assert window == layout.window
        assert window[0] <= free[0] and window[1] <= free[1], f"{window} on {desktop}"
        assert layout.screen == pygame.Rect((0, 0), size)
        panel = app.panel_rect
        assert panel is not None and panel.width >= PANEL_MIN[0] and (
            panel.height >= PANEL_MIN[1])
        picture = app.window.get_rect()
        assert picture.size == layout.logical and picture.contains(panel)
        assert not panel.colliderect(layout.screen)
        assert "Hide table" in {t.label for t in app.targets}
        targets = [t for t in app.targets if t.action is not None]
        assert {t.label for t in targets} >= {"Sekigahara", "Tenka Meidou",
                                              "Show Ishida faces"}
        assert layout.tab is not None and picture.contains(layout.tab)
        for target in targets:
            assert any(part.contains(target.rect) for part in (layout.screen, panel,
                                                               layout.tab)), target.label
        shown = layout.shown
        assert pygame.Rect((0, 0), window).contains(shown)
        if size[0] + TAB_PX + PANEL_MIN[0] <= free[0] and size[1] <= free[1]:
            assert layout.scale == 1, "the touchscreen keeps its size when it fits"
    finally:
        app.close()


@pytest.mark.parametrize("desktop", DESKTOPS)
@pytest.mark.parametrize("size", SIZES)
def test_with_real_hubs_the_screen_alone_fits_the_desktop(
        size: tuple[int, int], desktop: tuple[int, int], chosen: list[str]) -> None:
    app = App(size, desktop=desktop)
    try:
        app.show(ChooserScreen(installed_games(), chosen.append))
        app.draw()
        free = free_area(desktop)
        window = pygame.display.get_surface().get_size()
        assert window[0] <= free[0] and window[1] <= free[1]
        assert app.panel_rect is None and app.layout.tab is None
        assert app.window.get_size() == size
        fits = size[0] <= free[0] and size[1] <= free[1]
        assert (app.layout.scale == 1) == fits
        _click(app, "Tenka Meidou")
        assert chosen == ["tenka-meidou"]
    finally:
        app.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_kiosk_is_the_panel_and_nothing_else(size: tuple[int, int]) -> None:
    layout = fit(size, size, panel=False)
    assert layout.direct and layout.panel is None and layout.logical == size
    app = App(size, fullscreen=True, desktop=(1366, 768))
    try:
        assert app.panel_rect is None and app.window.get_size() == size
        assert app.layout.panel is None and app.layout.scale <= 1
        _resize(app, (size[0] // 2, size[1] // 2))  # a kiosk is never resized
        assert app.window.get_size() == size
    finally:
        app.close()


def test_a_kiosk_draws_straight_on_the_panel() -> None:
    pygame.display.init()
    panel = pygame.display.get_desktop_sizes()[0]  # the dummy's full screen
    app = App(panel, fullscreen=True)
    try:
        assert app.layout.direct and app.window is app.display
        assert app.display.get_size() == panel
    finally:
        app.close()


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720)])
def test_hiding_the_virtual_table_gives_the_screen_room(size: tuple[int, int],
                                                        sim: SimulatedTable,
                                                        chosen: list[str]) -> None:
    app = _app(size, (1366, 768), sim, chosen)
    try:
        shown = app.layout.scale
        assert shown < 0.9 and app.panel_rect is not None
        _click(app, "Hide table")
        layout = app.layout
        assert app.panel_rect is None and layout.scale > shown + 0.05
        assert pygame.display.get_surface().get_size() == layout.window
        free = free_area((1366, 768))
        assert layout.window[0] <= free[0] and layout.window[1] <= free[1]
        assert not any(text == "Virtual table" for _, text in app.drawn)
        _click(app, "Tenka Meidou")
        assert chosen == ["tenka-meidou"]
        _click(app, "Show table")
        assert app.panel_rect is not None and app.layout.scale == shown
        assert any(text == "Virtual table" for _, text in app.drawn)
    finally:
        app.close()


def _click(app: App, label: str) -> None:
    """A mouse click where the window shows the button, worked out from the layout alone."""
    target = app.find(label)
    assert target is not None
    layout = app.layout
    x = layout.offset[0] + target.rect.centerx * layout.scale
    y = layout.offset[1] + target.rect.centery * layout.scale
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=(round(x), round(y)), button=1,
                                             touch=False))
    app.pump()


def _resize(app: App, window: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=window, w=window[0],
                                         h=window[1]))
    app.pump()


@pytest.mark.parametrize("window", [(900, 500), (2400, 1300), (1100, 1000), (640, 900)])
def test_a_resize_keeps_taps_on_the_right_buttons(window: tuple[int, int],
                                                  sim: SimulatedTable,
                                                  chosen: list[str]) -> None:
    app = _app((800, 480), (1920, 1080), sim, chosen)
    try:
        _resize(app, window)
        layout = app.layout
        assert pygame.display.get_surface().get_size() == window == layout.window
        assert pygame.Rect((0, 0), window).contains(layout.shown)
        beside = window[0] >= 800 + TAB_PX + PANEL_MIN[0] and window[1] >= max(480,
                                                                                PANEL_MIN[1])
        below = window[1] >= 480 + TAB_PX + PANEL_MIN[1] and window[0] >= max(800,
                                                                               PANEL_MIN[0])
        assert (layout.scale == 1) == (beside or below), layout
        _click(app, "Tenka Meidou")
        assert chosen == ["tenka-meidou"]
        before = app.panel
        assert isinstance(before, VirtualTable) and not before.peek[next(iter(before.peek))]
        _click(app, "Show Ishida faces")
        assert any(before.peek.values()), "a click on the panel lands on its button"
        _click(app, "Sekigahara")
        assert chosen == ["tenka-meidou", "sekigahara"]
    finally:
        app.close()


def test_a_finger_on_a_scaled_window_is_mapped_back(sim: SimulatedTable,
                                                    chosen: list[str]) -> None:
    app = _app((720, 1280), (1366, 768), sim, chosen)
    try:
        layout = app.layout
        assert layout.scale < 0.6
        target = app.find("Tenka Meidou")
        assert target is not None
        w, h = app.display.get_size()
        x = (layout.offset[0] + target.rect.centerx * layout.scale) / w
        y = (layout.offset[1] + target.rect.centery * layout.scale) / h
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            pygame.event.post(pygame.event.Event(kind, touch_id=1, finger_id=1, x=x, y=y,
                                                 dx=0.0, dy=0.0, pressure=1.0))
        app.pump()
        assert chosen == ["tenka-meidou"]
    finally:
        app.close()


MAP_NAMES = {loc.name for loc in default_board().locations.values()}
"""The board's own names, drawn by the map at the map's size (ui/sekigahara/mapview.py)."""


def test_the_hide_table_words_are_at_least_14_px(sim: SimulatedTable, chosen: list[str]
                                                 ) -> None:
    app = _app((800, 480), (1366, 768), sim, chosen)
    try:
        words = [d for d in app.placed if d.text in ("Hide", "table")]
        assert len(words) == 2 and all(d.px >= 14 for d in words)
        assert app.layout.tab is not None
        assert all(app.layout.tab.contains(pygame.Rect(d.rect)) for d in words)
    finally:
        app.close()


@pytest.mark.parametrize("desktop", DESKTOPS)
def test_the_virtual_tables_own_words_are_at_least_14_px(
        desktop: tuple[int, int], sim: SimulatedTable, chosen: list[str]) -> None:
    app = _app((800, 480), desktop, sim, chosen)
    try:
        table = app.panel
        assert isinstance(table, VirtualTable)
        for block in ("I01", "I02", "T01", "T02"):
            table.place(block, "osaka")
        for block in ("I10", "I11"):
            table.place(block, "ishida_recruitment")
        table.peek = dict.fromkeys(table.peek, True)
        table.spread = "osaka"
        app.draw()
        own = [(d.text, d.px) for d in app.placed
               if d.screen == table.name and d.text not in MAP_NAMES]
        assert {"Virtual table", "Ishida Recruitment", "Game box"} <= {t for t, _ in own}
        assert any(text.startswith("Osaka: 4 blocks") for text, _ in own)
        small = [(text, size) for text, size in own if size < 14]
        assert not small, small
    finally:
        app.close()


def test_the_table_app_fits_a_laptop_and_knows_who_moves(tmp_path: Path) -> None:
    from ui_helpers import app_options

    from ui.sekigahara.app import TableApp

    options = replace(app_options(tmp_path), virtual_table=True, desktop=(1366, 768))
    table_app = TableApp(options)
    try:
        app = table_app.app
        assert app.panel is table_app.virtual is not None
        assert app.layout.window[0] <= 1366 and app.layout.window[1] <= 768
        assert app.layout.scale == 1 and app.panel_rect is not None
        to_move = table_app.virtual.to_move
        assert to_move is not None and to_move() is None, "nobody moves before the game"
        table_app.control.start_game()
        waiting = table_app.control.snapshot().prompt.waiting
        assert len(waiting) == 1 and to_move() is next(iter(waiting))
    finally:
        table_app.close()


def test_tenka_meidous_virtual_table_words_are_at_least_14_px(tmp_path: Path) -> None:
    from companion.games.tenka_meidou.components import Colour
    from companion.games.tenka_meidou.components import default_board as tenka_board
    from firmware_bridge.zones import active_table, use_table
    from ui.tenka_meidou.boardview import BREAKS
    from ui.tenka_meidou.virtual_table import VirtualTable as TenkaTable
    from ui.tenka_meidou.words import short_zone

    served = active_table()
    use_table("tenka-meidou")
    tenka_sim = SimulatedTable.create(tmp_path / "hubs", hubs=2, rate_hz=50)
    app = App((800, 480), panel_size=panel_size((800, 480)), desktop=(1366, 768))
    try:
        table = TenkaTable(tenka_sim)
        table.lay_out(tuple(Colour)[:4], 16, True)
        app.panel = table
        app.draw()
        zones = {short_zone(z.id) for z in tenka_board().zones} | set(BREAKS.values())
        own = [(d.text, d.px) for d in app.placed
               if d.screen == table.name and d.text not in zones and not d.text.isdigit()
               and d.text != "D"]  # the board's zones and pawn counts are drawn by boardview
        assert any(text.endswith("reserve") for text, _ in own)
        small = [(text, size) for text, size in own if size < 14]
        assert not small, small
    finally:
        app.close()
        use_table(served)
