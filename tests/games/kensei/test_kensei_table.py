"""Kensei at the reader table (B18): the tag manifest, the hardware data, and a running battle
followed on the trays and pads: deployment from the reserve tray through the real bridge
reading simulated hubs, activation on the command pad, the casualty tray against the rulings,
the card pad's face-down bids, and plain words for a tag where the rules want none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.core.events import Event
from companion.core.game import Accepted, Game
from companion.core.rules import RuleViolation
from companion.core.table import REGISTRATION, GameTable, Hold, PlaceKind, ProposedMove, Ready
from companion.games.kensei.battle.commands import Activate, Deploy, DrawCards, Side
from companion.games.kensei.battle.deck import card_ids, card_value, extra_draws, hand_size
from companion.games.kensei.battle.events import MeleeFought, ShotFired, TroopDeployed
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.simulator import events_of
from companion.games.kensei.battle.state import State
from companion.games.kensei.table import (
    FIELD,
    TABLE,
    antenna_layout,
    default_wiring,
    piece_ids,
    piece_kind,
    place_id,
    troop_tag,
)
from companion.games.kensei.table_session import KenseiSessionRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.zones import active_table, use_table

WAIT_S = 20.0
"""Bounds a failure only: every wait ends as soon as its condition holds."""
KenseiGame = Game[State, Any, Event]
RULES = KenseiRules()
EVENTS = events_of(3)


def _game_at(done: Callable[[State], bool]) -> KenseiGame:
    """The seeded self-play battle up to the first event after which ``done(state)`` holds."""
    state = RULES.initial_state()
    for n, event in enumerate(EVENTS):
        state = RULES.apply(state, event)
        if done(state):
            return Game(RULES, EVENTS[:n + 1])
    raise AssertionError("the battle never got there")


def _deployment() -> KenseiGame:
    return _game_at(lambda s: s.phase == "deployment")


def _session(game: KenseiGame) -> KenseiSessionRules:
    rules = TABLE.session_rules(game)
    rules.assign_in_order()
    rules.observe({p: z for p, z in rules.expected_positions().items()
                   if not z.startswith(("field", "box", "hand"))})
    return rules


def _laid(rules: KenseiSessionRules, pieces: tuple[str, ...], place: str) -> Ready | Hold:
    """The readers see ``pieces`` arrive on ``place``: what the session makes of it."""
    origin = rules.expected_positions()[pieces[0]]
    assert rules.explain_move(origin, place, pieces) is None
    outcome = rules.commands_for(ProposedMove(origin, place, pieces))
    assert isinstance(outcome, Ready | Hold)
    seen = {**rules._seen, **dict.fromkeys(pieces, place)}
    rules.observe(seen)
    return outcome


# --------------------------------------------------------------------------- the manifest


def test_the_manifest_holds_every_command_card_once_and_names_tags_in_plain_words() -> None:
    ids = piece_ids()
    assert len(ids) == len(set(ids))
    for side in ("a", "b"):
        assert set(card_ids(side)) <= set(ids) and len(card_ids(side)) == 24
        kinds = Counter(piece_kind(p)[1] for p in ids if p[0] == side)
        assert kinds == {"troop": 24, "model": 120, "card": 24, "ammo": 8}
    assert {p.side for p in TABLE.pieces()} == {"a", "b"}
    TABLE.name_sides({"a": "Ana's Kuge", "b": "Ben's Buke"})
    assert TABLE.resolve_piece("ana troop 3", ()) == "a-troop-03"
    assert TABLE.describe_piece("a-troop-03") == "Ana's troop 3"
    card = TABLE.resolve_piece("right card 2", ())
    assert card_value(card) == 2 and card.startswith("b-")
    assert TABLE.describe_piece(card) == "Ben's command card, face down"  # never its value
    taken = {c for c in card_ids("b") if card_value(c) == 3}
    with pytest.raises(ValueError, match="every Ben's command card worth 3 has a tag"):
        TABLE.resolve_piece("right card 3", taken)
    assert TABLE.resolve_piece("left model", {"a-model-001"}) == "a-model-002"
    assert TABLE.resolve_piece("left ammunition", ()) == "a-ammo-01"
    with pytest.raises(ValueError, match="say whose it is"):
        TABLE.resolve_piece("troop 3", ())
    assert TABLE.places()["command_a"].label == "Ana's command pad"
    assert TABLE.places()[FIELD].kind is PlaceKind.UNWATCHED


def test_the_hardware_data_loads_and_watches_every_tray_and_pad() -> None:
    watched = {p.id for p in TABLE.places().values() if p.watched}
    assert set(antenna_layout().zones) == watched == default_wiring().zones()
    assert {place_id("casualties", "a"), place_id("cards", "b"), REGISTRATION} <= watched
    assert FIELD not in watched  # the battlefield itself is never sensed (B18)
    hubs = default_wiring().hubs
    assert all(z.endswith("_a") for z in hubs["hub-1"].values())  # each player's own hub


# --------------------------------------------------------------------------- the real bridge


@pytest.fixture
def kensei() -> Iterator[GameTable]:
    before = active_table()
    yield use_table("kensei")
    use_table(before)


@pytest.fixture
def sim(kensei: GameTable, tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=16, rate_hz=50,
                               seed=5) as running:
        yield running


@pytest.fixture
def bridge(sim: SimulatedTable) -> Iterator[Bridge]:
    with Bridge(sim.ports, wiring=sim.wiring, registry=sim.registry,
                missing_after_s=0.5) as running:
        running.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield running


def test_b1_3_a_troop_leaving_the_reserve_tray_is_deployed_through_the_bridge(
    sim: SimulatedTable, bridge: Bridge
) -> None:
    game = _deployment()
    first = game.state.deploy_next
    assert first is not None
    second: Side = "b" if first == "a" else "a"
    with TableSession(bridge, game).start() as session:
        rules = session.rules
        assert isinstance(rules, KenseiSessionRules)
        models = session.tell(lambda r: r.assign_in_order())  # type: ignore[attr-defined]
        in_reserve = {p: z for p, z in rules.expected_positions().items()
                      if z.startswith("reserve_")}
        for piece, place in in_reserve.items():
            sim.put(piece, place)
        session.wait_for(lambda s: (len(bridge.placements()) == len(in_reserve)
                                    and s.discrepancies == ()) or None, WAIT_S)
        assert rules.flashing() == [place_id("reserve", first)]

        # out of turn: a unit of the side not deploying leaves its tray: held, in plain words
        theirs = next(t for t in game.state.side_troops(second) if t.id in models)
        sim.lift(troop_tag(theirs.id))
        found = session.wait_for(lambda s: [line for line in s.log if line.kind == "ignored"
                                            and "left the reserve tray, but" in line.text],
                                 WAIT_S)
        assert "put it back" in found[0].text and "troop" not in found[0].text.split(":")[0]
        assert not any(isinstance(e, TroopDeployed) for e in game.events)
        sim.put(troop_tag(theirs.id), place_id("reserve", second))
        session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)

        # the unit due: its card, its models and the leader inside it leave the tray, and it
        # is deployed (B1.3); the leader with it
        ours = next(t for t in game.state.side_troops(first) if t.id in models and t.leader)
        leader = game.state.troops[ours.leader or ""]
        for piece in (troop_tag(ours.id), *models[ours.id]):
            sim.lift(piece)
        session.wait_for(lambda s: any(isinstance(e, TroopDeployed) and e.troop == ours.id
                                       for e in s.game.events) or None, WAIT_S)
        wrong = session.wait_for(lambda s: s.discrepancies or None, WAIT_S)
        assert wrong[0].kind == "illegal_move" and "is on the battlefield" in wrong[0].text
        assert wrong[0].text.startswith(f"a {TABLE.sides[first]} tag moved from the field to "
                                        f"{TABLE.owners[first]} reserve tray")
        assert wrong[0].fix == "put it back in the field"
        assert leader.id not in wrong[0].text and "troop-" not in wrong[0].text
        sim.lift(troop_tag(leader.id))
        session.wait_for(lambda s: (any(isinstance(e, TroopDeployed) and e.troop == ours.id
                                        for e in s.game.events)
                                    and s.discrepancies == ()) or None, WAIT_S)
        assert rules.expected_positions()[troop_tag(ours.id)] == FIELD
        assert any(line.kind == "command" and line.text.endswith("deployed (B1.3)")
                   for line in session.log)

        # a troop laid on the command pad during deployment is picked, not deployed
        sim.put(troop_tag(ours.id), place_id("command", first))
        session.wait_for(lambda s: rules.picked(first) == ours.id or None, WAIT_S)
        assert session.discrepancies == ()


# --------------------------------------------------------------------------- in the battle


def test_b3_3_a_troop_laid_on_its_command_pad_when_due_is_activated() -> None:
    game = _game_at(lambda s: s.phase == "activation" and s.activation is None)
    rules = _session(game)
    assert rules.must_activate("a") and rules.must_activate("b")
    # the leader's base names the unit he leads (B2.7): the unit is activated
    led = next(t for t in game.state.side_troops("a") if t.leader and t.deployed
               and game.state.troops[t.leader].inside == t.id)
    outcome = _laid(rules, (troop_tag(led.leader or ""),), place_id("command", "a"))
    assert isinstance(outcome, Ready)
    assert outcome.commands == (Activate(side="a", troop=led.id),)
    assert isinstance(game.submit(outcome.commands[0]), Accepted)
    assert not rules.must_activate("a") and rules.picked("a") == led.id
    # an enemy troop laid on the same pad only selects it (a target)
    enemy = next(t for t in game.state.side_troops("b") if t.deployed and t.id in rules.models)
    outcome = _laid(rules, rules.models[enemy.id][:1], place_id("command", "a"))
    assert isinstance(outcome, Ready) and outcome.commands == ()
    assert rules.picked("a") == enemy.id
    assert outcome.note is not None and "picked" in outcome.note
    assert rules.must_activate("b")  # b still names its troop


def _first_casualties() -> tuple[KenseiGame, str, int]:
    """The battle just after the first ruling that removed models: the game, the troop that
    lost them and how many."""
    def done(state: State) -> bool:
        return any(t.models < t.models_start and t.models_start > 1
                   for t in state.troops.values())

    game = _game_at(done)
    last = game.events[-1]
    assert isinstance(last, MeleeFought | ShotFired)
    change = next(c for c in last.changes if c.casualties
                  and game.state.troops[c.troop].models_start > 1)
    return game, change.troop, change.casualties


def test_b7_the_casualty_tray_is_counted_against_the_ruling() -> None:
    game, troop_id, removed = _first_casualties()
    rules = _session(game)
    troop = game.state.troops[troop_id]
    side = troop.side
    name = game.state.army(side).profiles[troop.profile].name
    tray = place_id("casualties", side)
    models = rules.models[troop_id]
    none_yet = (f"the casualty tray holds 0 of {TABLE.owners[side]} {name}, the ruling "
                f"removed {removed}")
    assert none_yet in rules.casualty_discrepancies()
    outcome = _laid(rules, models[:removed + 1], tray)  # one too many
    assert isinstance(outcome, Ready) and outcome.commands == ()
    assert rules.casualties_seen(troop_id) == removed + 1
    assert outcome.note == (f"the casualty tray holds {removed + 1} of {TABLE.owners[side]} "
                            f"{name}, the ruling removed {removed}")
    assert outcome.note in rules.casualty_discrepancies()
    assert none_yet not in rules.casualty_discrepancies()
    # one model put back on the field: the tray and the ruling agree
    rules.observe({p: z for p, z in rules._seen.items() if p != models[0]})
    assert rules.casualties_seen(troop_id) == removed
    assert not any(f"{TABLE.owners[side]} {name}," in line
                   for line in rules.casualty_discrepancies())


def test_b9_1_the_card_pad_reads_a_draw_face_down_and_never_says_a_value() -> None:
    game = _game_at(lambda s: s.phase == "maintenance")
    side: Side = "a" if "a" not in game.state.drawn else "b"
    army = game.state.army(side).list
    keep = hand_size(army.size)
    count = keep + extra_draws(army.commander_level)  # B9.1: Taisho and Daimyo draw more
    pile = game.state.command_decks.side(side).pile
    low = tuple(c for c in pile if card_value(c) == 0)[:count]
    high = tuple(sorted(pile, key=card_value, reverse=True))[:count]
    assert {card_value(c) for c in low} != {card_value(c) for c in high}
    notes = []
    for cards in (low, high):  # the swapped world: other cards, the same words
        rules = _session(Game(RULES, game.events))
        outcome = _laid(rules, cards, place_id("cards", side))
        assert isinstance(outcome, Ready) and outcome.commands == ()
        assert rules.pad_cards(side) == tuple(sorted(cards))
        notes.append(outcome.note)
    assert notes[0] == notes[1] == f"{TABLE.owners[side]} card pad: {count} cards face down"
    assert not any(c in (notes[0] or "") for c in card_ids(side))
    # the screens' Done submits the draw with the cards the pad read (the player says which
    # extra ones go under the deck)
    read = list(rules.pad_cards(side))
    result = game.submit(DrawCards(side=side, cards=read, under=read[keep:]))
    assert isinstance(result, Accepted), result
    lines = [rules.describe(e) for e in result.events]
    assert any(f"draws {keep} command cards" in line for line in lines), lines
    assert not any(c in line for line in lines for c in card_ids(side))


def test_b18_a_tag_where_the_rules_want_none_gets_plain_words() -> None:
    game = _game_at(lambda s: s.phase == "maintenance")
    rules = _session(game)
    theirs = next(t for t in game.state.side_troops("b") if t.id in rules.models)
    verdicts = {
        "a card on the other player's pad": rules.explain_move("hand_a", "cards_b", ("a-03",)),
        "a troop on the other casualty tray": rules.explain_move(
            FIELD, "casualties_a", (troop_tag(theirs.id),)),
        "a deployed troop back in its reserve": rules.explain_move(
            FIELD, "reserve_b", (troop_tag(theirs.id),)),
        "a tag of no troop of the list": rules.explain_move("box", "command_a",
                                                            ("a-troop-20",)),
        "a tag on the registration pad": rules.explain_move(FIELD, REGISTRATION,
                                                            (troop_tag(theirs.id),)),
    }
    words = {}
    for what, verdict in verdicts.items():
        assert verdict is not None, what
        assert "Traceback" not in verdict.message and "a-" not in verdict.message, what
        assert "_" not in verdict.message, what
        words[what] = verdict.message
    assert words["a card on the other player's pad"].startswith(
        "a command card is laid face down on its owner's card pad")
    assert "is on the battlefield" in words["a deployed troop back in its reserve"]
    assert "belongs to no troop" in words["a tag of no troop of the list"]
    # a troop tag gone from the reserve out of deployment is no deployment at all
    assert all(m.destination != FIELD for m in rules.group([]))
    deploy = Deploy(side="a", troop="a1")
    with pytest.raises(RuleViolation, match="not due now"):
        RULES.handle(game.state, deploy)


def test_b11_ammunition_markers_lie_face_down_on_their_owners_pad() -> None:
    game = _game_at(lambda s: s.phase == "activation")
    rules = _session(game)
    outcome = _laid(rules, ("b-ammo-02", "b-ammo-05"), place_id("ammo", "b"))
    assert isinstance(outcome, Ready) and outcome.commands == ()
    assert outcome.note == f"{TABLE.owners['b']} ammunition pad: 2 ammunition markers face down"
    assert rules.ammo_pad("b") == ("b-ammo-02", "b-ammo-05") and rules.ammo_pad("a") == ()
    refused = rules.explain_move("hand_b", "ammo_a", ("b-ammo-01",))
    assert refused is not None and refused.rule == "B11"
    rules.observe({})  # lifted off the pad: back in the hand, none read
    assert rules.ammo_pad("b") == ()


def test_watching_without_the_engine_keeps_each_players_tags_off_the_others_trays() -> None:
    watch = TABLE.watch_rules({"a-model-001": "reserve_a", "b-15": "cards_b"})
    assert watch.explain_move("reserve_a", "casualties_a", ("a-model-001",)) is None
    assert watch.explain_move("reserve_a", "command_b", ("a-model-001",)) is None  # a target
    refused = watch.explain_move("cards_b", "cards_a", ("b-15",))
    assert refused is not None and "takes only that player's own tags" in refused.message
    assert "not watched" in watch.summary()


def test_the_simulator_deals_every_tag_round_the_trays_for_a_check_without_a_script(
        sim: SimulatedTable) -> None:
    """``companion hardware check --game kensei --simulate``: no map, so the trays take them."""
    sim.populate()
    dealt = dict(sim.occupied())
    assert sum(len(tags) for tags in dealt.values()) == len(piece_ids())
    assert set(dealt) <= {p.id for p in TABLE.places().values() if p.watched}
