"""The virtual table, driven by real touches through the app's event queue: what a finger does to
the blocks is what the simulated readers see, and no face is shown unless its side peeks."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pygame
import pytest
from ui_helpers import leaks

from companion.games.sekigahara.components import SetupSymbol, Side, default_blocks, default_board
from companion.games.sekigahara.zones import GAME_BOX
from firmware_bridge.simtable import SimulatedTable
from ui.sekigahara.virtual_table import (
    DRAG_TICK_MS,
    HAND,
    VirtualTable,
    face_words,
    side_to_move,
)
from ui.shell.app import App

ISHIDA = [b.id for b in default_blocks().of_side(Side.ISHIDA)]
TOKUGAWA = [b.id for b in default_blocks().of_side(Side.TOKUGAWA)]


@pytest.fixture
def app() -> Iterator[App]:
    application = App((800, 480), panel_size=(900, 600), desktop=(1920, 1080))
    try:
        yield application
    finally:
        application.close()


def _table(app: App, sim: SimulatedTable, seed: int = 0) -> VirtualTable:
    table = VirtualTable(sim, default_board(), random.Random(seed))
    app.panel = table
    app.draw()
    return table


def _drag(app: App, start: tuple[int, int], end: tuple[int, int]) -> None:
    app.touch(start, end)
    app.pump()


def test_blocks_start_in_the_box_and_place_puts_them_on_the_readers(
        sim: SimulatedTable) -> None:
    table = VirtualTable(sim, default_board())
    assert table.where("I01") == GAME_BOX
    table.place("I01", "gifu")
    assert sim.blocks_on("gifu") == ["I01"] and table.blocks_at("gifu") == ["I01"]
    table.to_bag("I01", Side.ISHIDA)
    assert sim.blocks_on("gifu") == [] and table.bag(Side.ISHIDA) == ["I01"]
    assert table.where("I01") == "ishida_bag"
    table.place("I01", "ishida_recruitment")
    assert sim.blocks_on("ishida_recruitment") == ["I01"]
    table.place("I01", GAME_BOX)
    assert list(sim.occupied()) == []
    with pytest.raises(ValueError):
        table.to_bag("T01", Side.ISHIDA)
    with pytest.raises(ValueError):
        table.place("I01", "atlantis")
    sim.put("T05", "edo")
    assert VirtualTable(sim, default_board()).where("T05") == "edo"


def test_dragging_a_stack_moves_every_block_on_the_readers(app: App,
                                                           sim: SimulatedTable) -> None:
    table = _table(app, sim)
    for block in ("I01", "I02", "T03"):
        table.place(block, "gifu")
    app.draw()
    _drag(app, table.point_of("gifu"), table.point_of("kiso"))
    assert sim.blocks_on("kiso") == ["I01", "I02", "T03"]
    assert sim.blocks_on("gifu") == []
    assert table.where("T03") == "kiso"
    _drag(app, table.point_of("kiso"), table.point_of("casualties"))
    assert sim.blocks_on("casualties") == ["I01", "I02", "T03"]
    assert table.blocks_at("kiso") == []


def test_a_stack_released_nowhere_goes_back(app: App, sim: SimulatedTable) -> None:
    table = _table(app, sim)
    table.place("T10", "edo")
    app.draw()
    title = (app.panel_rect.x + 20, 10) if app.panel_rect else (0, 0)
    _drag(app, table.point_of("edo"), title)
    assert sim.blocks_on("edo") == ["T10"] and table.where("T10") == "edo"


def test_a_held_stack_follows_the_finger_and_asks_for_frames(app: App,
                                                             sim: SimulatedTable) -> None:
    table = _table(app, sim)
    table.place("I04", "osaka")
    app.draw()
    assert table.tick_ms() is None
    table.press(table.point_of("osaka"))
    assert table.tick_ms() is None  # a press alone is not a drag
    table.motion(table.point_of("kyoto"))
    assert table.tick_ms() == DRAG_TICK_MS
    assert table.where("I04") == HAND and sim.blocks_on("osaka") == []
    table.release(table.point_of("kyoto"))
    assert table.tick_ms() is None and sim.blocks_on("kyoto") == ["I04"]


def test_a_tap_spreads_a_stack_and_one_block_can_be_taken(app: App,
                                                          sim: SimulatedTable) -> None:
    table = _table(app, sim)
    for block in ("I05", "I06", "I07"):
        table.place(block, "sawayama")
    app.draw()
    app.touch(table.point_of("sawayama"))
    app.pump()
    assert table.spread == "sawayama"
    assert sim.blocks_on("sawayama") == ["I05", "I06", "I07"], "a tap lifts nothing"
    assert any("Sawayama: 3 blocks" in text for _, text in app.drawn)
    chips = table.chip_points()
    assert sorted(chips) == ["I05", "I06", "I07"]
    _drag(app, chips["I06"], table.point_of("tsuruga"))
    assert sim.blocks_on("tsuruga") == ["I06"]
    assert sim.blocks_on("sawayama") == ["I05", "I07"]
    assert table.spread == "sawayama" and sorted(table.chip_points()) == ["I05", "I07"]
    app.touch(table.point_of("ishida_cards"))  # a tap elsewhere closes it
    app.pump()
    assert table.spread is None and table.chip_points() == {}


def test_pressing_a_bag_draws_one_block_at_random(app: App, sim: SimulatedTable) -> None:
    table = _table(app, sim, seed=7)
    for block in ISHIDA[:10]:
        table.to_bag(block, Side.ISHIDA)
    app.draw()
    _drag(app, table.point_of("ishida_bag"), table.point_of("osaka"))
    drawn = sim.blocks_on("osaka")
    assert len(drawn) == 1 and drawn[0] in ISHIDA[:10]
    assert len(table.bag(Side.ISHIDA)) == 9 and drawn[0] not in table.bag(Side.ISHIDA)
    _drag(app, table.point_of("osaka"), table.point_of("ishida_bag"))
    assert len(table.bag(Side.ISHIDA)) == 10 and sim.blocks_on("osaka") == []


def test_the_same_seed_draws_the_same_blocks(app: App, sim: SimulatedTable) -> None:
    drawn: list[list[str]] = []
    for _ in range(2):
        table = _table(app, sim, seed=3)
        for block in TOKUGAWA[:12]:
            table.to_bag(block, Side.TOKUGAWA)
        app.draw()
        for _ in range(3):
            _drag(app, table.point_of("tokugawa_bag"), table.point_of("edo"))
        drawn.append(table.blocks_at("edo"))
        for block in TOKUGAWA[:12]:
            table.place(block, GAME_BOX)
    assert drawn[0] == drawn[1] and len(drawn[0]) == 3


def _lay_out(table: VirtualTable) -> None:
    for i, block in enumerate(ISHIDA[:20]):
        table.place(block, ["osaka", "ishida_recruitment", "mori_box", "gifu"][i % 4])
    for i, block in enumerate(TOKUGAWA[:20]):
        table.place(block, ["edo", "tokugawa_recruitment", "gifu", "casualties"][i % 4])
    for block in ISHIDA[20:30]:
        table.to_bag(block, Side.ISHIDA)


def test_no_face_is_drawn_unless_its_side_peeks(app: App, sim: SimulatedTable) -> None:
    table = _table(app, sim)
    _lay_out(table)
    app.draw()
    app.touch(table.point_of("gifu"))
    app.pump()
    assert table.spread == "gifu"
    strings = [text for _, text in app.drawn]
    assert "Show Ishida faces" in strings and "Show Tokugawa faces" in strings
    assert leaks(strings) == []
    faces = default_blocks().by_id()
    here = table.blocks_at("gifu")
    ishida_faces = {face_words(faces[b].face) for b in here if b in ISHIDA}
    tokugawa_faces = {face_words(faces[b].face) for b in here if b in TOKUGAWA}
    assert app.tap("Show Ishida faces")
    strings = [text for _, text in app.drawn]
    assert ishida_faces <= set(strings)
    assert not tokugawa_faces & set(strings)
    assert leaks(strings)
    assert app.tap("Show Ishida faces") and app.tap("Show Tokugawa faces")
    strings = [text for _, text in app.drawn]
    assert tokugawa_faces <= set(strings) and not ishida_faces & set(strings)
    assert app.tap("Show Tokugawa faces")
    assert leaks([text for _, text in app.drawn]) == []


def test_the_spread_takes_presses_but_not_drops(app: App, sim: SimulatedTable) -> None:
    table = _table(app, sim)
    table.place("T20", "kanazawa")  # on the north coast, under the spread-out chips
    table.place("I20", "kumano")
    app.draw()
    app.touch(table.point_of("kumano"))
    app.pump()
    assert table.spread == "kumano"
    assert table.zone_at(_local(app, table.point_of("kanazawa"))) is None, "under the spread"
    _drag(app, table.point_of("kanazawa"), table.point_of("toyama"))
    assert sim.blocks_on("kanazawa") == ["T20"] and sim.blocks_on("toyama") == []


def _local(app: App, point: tuple[int, int]) -> tuple[int, int]:
    assert app.panel_rect is not None
    return point[0] - app.panel_rect.x, point[1] - app.panel_rect.y


@pytest.mark.parametrize("under", ["kyoto", "osaka", "kanazawa", "aizu", "sendai"])
def test_a_block_dragged_out_of_the_spread_lands_where_the_spread_was(
        app: App, sim: SimulatedTable, under: str) -> None:
    """Issue 15: the spread covered Kyoto, Osaka, Kanazawa, Aizu and Sendai and undid drops
    there; it is put away while a block is held, so every drop target shows."""
    table = _table(app, sim)
    app.touch(table.point_of(GAME_BOX))  # every block: the spread covers most of the map
    app.pump()
    assert table.spread == GAME_BOX
    target = table.point_of(under)
    assert table.zone_at(_local(app, target)) is None, f"{under} is under the spread"
    chip = table.chip_points()[TOKUGAWA[3]]
    app.touch(chip, target)
    app.pump()
    assert sim.blocks_on(under) == [TOKUGAWA[3]] and table.where(TOKUGAWA[3]) == under
    assert table.spread == GAME_BOX, "the spread comes back for the next block"
    assert TOKUGAWA[3] not in table.chip_points()


def test_lifting_a_location_lifts_only_the_side_to_move(sim: SimulatedTable) -> None:
    app = App((800, 480), panel_size=(900, 600), desktop=(1920, 1080))
    mover: list[Side | None] = [Side.TOKUGAWA]
    try:
        table = VirtualTable(sim, default_board(), random.Random(0), to_move=lambda: mover[0])
        app.panel = table
        for block in ("I01", "I02", "T03", "T04"):
            table.place(block, "gifu")
        app.draw()
        _drag(app, table.point_of("gifu"), table.point_of("kiso"))
        assert sim.blocks_on("kiso") == ["T03", "T04"]
        assert sim.blocks_on("gifu") == ["I01", "I02"], "Ishida's blocks stay where they are"
        table.place("T03", "gifu")
        mover[0] = Side.ISHIDA
        app.draw()
        _drag(app, table.point_of("gifu"), table.point_of("ogaki" if "ogaki" in
                                                                 table.board.locations
                                                                 else "iwamura"))
        assert sorted(b for b in table.blocks_at("gifu")) == ["T03"]
        mover[0] = None  # both sides may act: the finger is asked which blocks
        for block in ("I01", "I02"):
            table.place(block, "gifu")
        app.draw()
        _drag(app, table.point_of("gifu"), table.point_of("kiso"))
        assert sorted(sim.blocks_on("gifu")) == ["I01", "I02", "T03"], "nothing lifted"
        assert table.spread == "gifu"
        assert any("both sides" in text for _, text in app.drawn)
    finally:
        app.close()


def test_a_stack_of_one_side_is_lifted_whoever_moves(sim: SimulatedTable) -> None:
    app = App((800, 480), panel_size=(900, 600), desktop=(1920, 1080))
    try:
        table = VirtualTable(sim, default_board(), to_move=lambda: Side.TOKUGAWA)
        app.panel = table
        table.place("I01", "osaka")
        app.draw()
        _drag(app, table.point_of("osaka"), table.point_of("kyoto"))
        assert sim.blocks_on("kyoto") == ["I01"]
    finally:
        app.close()


def test_faces_are_in_plain_words() -> None:
    faces = {face_words(b.face) for b in default_blocks().blocks}
    assert "Mōri 1 mon, leader" in faces and "Fukushima 1 mon, cavalry" in faces
    assert all(f[0].isupper() and "mori" not in f.lower() for f in faces)


def test_side_to_move_is_the_one_side_the_prompt_waits_for() -> None:
    assert side_to_move({Side.ISHIDA: "move"}) is Side.ISHIDA
    assert side_to_move({Side.ISHIDA: "bid", Side.TOKUGAWA: "bid"}) is None
    assert side_to_move({}) is None


SYMBOLS = {b.id: b.face.setup for b in default_blocks().blocks}


def test_shown_faces_carry_their_set_up_symbols(app: App, sim: SimulatedTable) -> None:
    """Issue 15 item 2: which block carries which set-up symbol (5.2.1), on shown faces only."""
    table = _table(app, sim)
    marked = [b for b in ISHIDA if SYMBOLS[b] is not None][:3]
    plain = [b for b in ISHIDA if SYMBOLS[b] is None][:2]
    for block in marked:
        table.place(block, "ishida_recruitment")
    for block in [*plain, "T01"]:
        table.place(block, "osaka")
    app.draw()
    assert table.symbols == []
    assert app.tap("Show Ishida faces")
    assert sorted(table.symbols) == sorted((b, SYMBOLS[b]) for b in marked)
    app.touch(table.point_of("osaka"))
    app.pump()
    assert table.spread == "osaka" and len(table.chip_points()) == 3
    assert sorted(table.symbols) == sorted((b, SYMBOLS[b]) for b in marked), "plain: none"
    app.touch(table.point_of("ishida_recruitment"))
    app.pump()
    assert table.spread == "ishida_recruitment"
    assert sorted(table.symbols) == sorted((b, SYMBOLS[b]) for b in marked * 2), (
        "in the tray and on the chips")
    assert app.tap("Show Ishida faces")
    assert table.symbols == []


def test_hidden_faces_draw_the_same_pixels_whatever_the_block(sim: SimulatedTable) -> None:
    """A block with a set-up symbol and one without look alike while faces are hidden."""
    marked = next(b for b in ISHIDA if SYMBOLS[b] is not None)
    plain = next(b for b in ISHIDA if SYMBOLS[b] is None)
    pictures = []
    for block in (marked, plain):
        app = App((800, 480), panel_size=(900, 600), desktop=(1920, 1080))
        try:
            table = VirtualTable(sim, default_board())
            app.panel = table
            table.place(block, "ishida_recruitment")
            table.spread = "ishida_recruitment"
            app.draw()
            assert app.panel_rect is not None
            pictures.append(pygame.image.tobytes(app.window.subsurface(app.panel_rect), "RGB"))
            table.place(block, GAME_BOX)
        finally:
            app.close()
    assert pictures[0] == pictures[1]


def test_the_board_shows_where_set_up_symbols_go(app: App, sim: SimulatedTable) -> None:
    """The map's printed set-up symbols (5.2.1) are public: drawn with faces hidden or shown."""
    table = _table(app, sim)
    printed = {(loc.id, symbol) for loc in default_board().locations.values()
               for symbols in loc.setup.fixed.values() for symbol in symbols}
    printed |= {("mori_box", symbol)
                for symbols in default_board().boxes["mori_box"].setup.fixed.values()
                for symbol in symbols}
    assert ("osaka", SetupSymbol.SQUARE) in printed and ("kiyosu", SetupSymbol.STAR) in printed
    assert set(table.marks) == printed and table.symbols == []
    assert app.tap("Show Tokugawa faces")
    assert set(table.marks) == printed
