"""Kensei's virtual table (B18), driven by real touches through the app's event queue: what a
finger does to the chips is what the simulated readers see, a troop dragged off its reserve
tray is deployed through the real bridge and table session, and face-down cards never show a
value: the panel's strings and pixels are the same whichever cards lie on a pad."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.core.events import Event
from companion.core.game import Game
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.deck import card_ids, card_value
from companion.games.kensei.battle.events import TroopDeployed
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.simulator import events_of
from companion.games.kensei.battle.state import State
from companion.games.kensei.table import (
    FIELD,
    TABLE,
    place_id,
    troop_name,
    troop_tag,
)
from companion.games.kensei.table_session import KenseiSessionRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.zones import active_table, use_table
from ui.kensei.virtual_table import VirtualTable
from ui.shell.app import App

WAIT_S = 20.0
"""Bounds a failure only: every wait ends as soon as its condition holds."""
RULES = KenseiRules()
EVENTS = events_of(3)
KenseiGame = Game[State, Any, Event]


def _game_at(done: Callable[[State], bool]) -> KenseiGame:
    state = RULES.initial_state()
    for n, event in enumerate(EVENTS):
        state = RULES.apply(state, event)
        if done(state):
            return Game(RULES, EVENTS[:n + 1])
    raise AssertionError("the battle never got there")


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[SimulatedTable]:
    before = active_table()
    use_table("kensei")
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=16, rate_hz=50,
                               seed=3) as running:
        yield running
    use_table(before)


@pytest.fixture
def app() -> Iterator[App]:
    application = App((800, 480), panel_size=(900, 600), desktop=(1920, 1080))
    try:
        yield application
    finally:
        application.close()


def _rules(game: KenseiGame) -> KenseiSessionRules:
    rules = TABLE.session_rules(game)
    rules.assign_in_order()
    return rules


def _shown(app: App, table: VirtualTable) -> VirtualTable:
    app.panel = table
    app.draw()
    return table


def _drag(app: App, start: tuple[int, int] | None, end: tuple[int, int] | None) -> None:
    assert start is not None and end is not None
    app.touch(start, end)
    app.pump()
    app.draw()


def test_tags_laid_out_are_on_the_readers_and_the_field_is_not_read(
        sim: SimulatedTable) -> None:
    game = _game_at(lambda s: s.phase == "deployment")
    rules = _rules(game)
    table = VirtualTable(sim)
    table.lay_out(rules)
    unit = next(t for t in game.state.side_troops("a") if t.id in rules.models)
    reserve = place_id("reserve", "a")
    assert {troop_tag(unit.id), *rules.models[unit.id]} <= set(sim.blocks_on(reserve))
    table.move(troop_tag(unit.id), FIELD)
    assert troop_tag(unit.id) not in sim.blocks_on(reserve)
    assert table.where(troop_tag(unit.id)) == FIELD
    assert all(place != FIELD for place in table.on_readers().values())
    with pytest.raises(ValueError, match="no place"):
        table.move("a-03", "atlantis")


def test_dragging_moves_a_whole_troop_off_the_reserve_then_one_model_or_its_card(
        app: App, sim: SimulatedTable) -> None:
    game = _game_at(lambda s: s.phase == "deployment")
    rules = _rules(game)
    table = _shown(app, VirtualTable(sim))
    table.lay_out(rules)
    app.draw()
    unit = next(t for t in game.state.side_troops("a") if t.id in rules.models)
    name = troop_name(game.state, unit)
    tags = {troop_tag(unit.id), *rules.models[unit.id]}
    reserve, tray, pad = (place_id(k, "a") for k in ("reserve", "casualties", "command"))
    _drag(app, table.drawn_at(reserve, name, "a"), table.drawn_at(FIELD))
    assert tags.isdisjoint(sim.blocks_on(reserve)) and set(table.tags_at(FIELD)) >= tags
    _drag(app, table.drawn_at(FIELD, name, "a"), table.drawn_at(tray))
    on_tray = sim.blocks_on(tray)
    assert len(on_tray) == 1 and on_tray[0] in rules.models[unit.id]  # one model
    _drag(app, table.drawn_at(FIELD, name, "a"), table.drawn_at(pad))
    assert sim.blocks_on(pad) == [troop_tag(unit.id)]  # the unit card taps the pad
    assert any(text == f"{name} 1" for _screen, text in app.drawn)  # a model on the tray


def _cards_on_the_pad(app: App, sim: SimulatedTable, cards: tuple[str, ...]
                      ) -> tuple[list[str], bytes]:
    game = _game_at(lambda s: s.phase == "maintenance")
    table = _shown(app, VirtualTable(sim))
    table.lay_out(_rules(game))
    for card in cards:
        table.move(card, place_id("cards", "a"))
    app.draw()
    rect = app.panel_rect
    assert rect is not None
    pixels = pygame.image.tobytes(app.window.subsurface(rect), "RGB")
    return [text for screen, text in app.drawn if screen == table.name], pixels


def test_b17_face_down_cards_show_no_value_in_words_or_pixels(app: App,
                                                            sim: SimulatedTable) -> None:
    low = tuple(c for c in card_ids("a") if card_value(c) == 0)[:3]
    high = tuple(c for c in card_ids("a") if card_value(c) == 3)[:3]
    words_low, pixels_low = _cards_on_the_pad(app, sim, low)
    words_high, pixels_high = _cards_on_the_pad(app, sim, high)
    assert words_low == words_high and pixels_low == pixels_high
    assert "cards 3" in words_low and "cards 21" in words_low
    assert not any(card in text for text in words_low for card in card_ids("a"))


def test_b1_3_a_troop_dragged_off_the_reserve_tray_is_deployed_by_the_bridge(
        app: App, sim: SimulatedTable) -> None:
    game = _game_at(lambda s: s.phase == "deployment")
    first: Side | None = game.state.deploy_next
    assert first is not None
    with Bridge(sim.ports, wiring=sim.wiring, registry=sim.registry,
                missing_after_s=0.5) as bridge, TableSession(bridge, game) as session:
        rules = session.rules
        assert isinstance(rules, KenseiSessionRules)
        session.tell(lambda r: r.assign_in_order())  # type: ignore[attr-defined]
        table = _shown(app, VirtualTable(sim))
        table.lay_out(rules)
        app.draw()
        session.wait_for(lambda s: (len(bridge.placements()) == len(table.on_readers())
                                    and s.discrepancies == ()) or None, WAIT_S)
        unit = next(t for t in game.state.side_troops(first)
                    if t.id in rules.models and not t.leader)
        _drag(app, table.drawn_at(place_id("reserve", first), troop_name(game.state, unit),
                                  first), table.drawn_at(FIELD))
        session.wait_for(lambda s: (any(isinstance(e, TroopDeployed) and e.troop == unit.id
                                        for e in s.game.events)
                                    and s.discrepancies == ()) or None, WAIT_S)
