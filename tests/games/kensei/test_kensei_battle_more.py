"""The Kensei battle's later rules, each with a case that breaks it: offerings that change the
engine's own rolls (B9.1), honour duels (B9.4), undead regeneration (B9.3) and the units kept
off the table (B12)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import TypeAdapter
from test_kensei_battle import (
    RULES,
    activated,
    armies,
    deployed,
    draw_both,
    in_turn,
    order,
    refused,
    submit,
)

from companion.core.game import Game, Rejection, replay
from companion.games.kensei.battle import deck, pregame, views
from companion.games.kensei.battle.commands import (
    Activate,
    Army,
    Begin,
    ChooseSide,
    Deploy,
    DrawCards,
    DuelAnswer,
    EndActivation,
    EndTurn,
    EnterReserve,
    HoldBack,
    InitiativeRoll,
    Melee,
    Offering,
    OrderRoll,
    Regeneration,
    RetreatHonour,
    SceneryRoll,
    SecondaryMission,
    SetMarker,
    StrategyRoll,
)
from companion.games.kensei.battle.events import KenseiEvent, OrderRolled, RollChanged
from companion.games.kensei.battle.examples import kuge, kuroi_te
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.simulator import settle
from companion.games.kensei.battle.state import State
from companion.games.kensei.battle.troops import eligible, name

KenseiGame = Game[State, Any, Any]


def rolled(a_die: int, b_die: int = 5) -> KenseiGame:
    """Teppo Ashigaru (a3, INI 1) and Yumi Samurai (b3) active; b rolled first, so a's order
    roll is the roll just made (a holds the initiative)."""
    game = in_turn()
    submit(game, Activate(side="a", troop="a3"))
    submit(game, Activate(side="b", troop="b3"))
    submit(game, OrderRoll(side="b", die=b_die))
    submit(game, OrderRoll(side="a", die=a_die))
    return game


def card(game: KenseiGame, side: str, best: bool = True) -> str:
    hand = game.state.command_decks.side(side).hand  # type: ignore[arg-type]
    return (max if best else min)(hand, key=deck.card_value)


def changed(events: list[Any]) -> RollChanged:
    [change] = [e for e in events if isinstance(e, RollChanged)]
    return change


def finish(game: KenseiGame) -> None:
    """Every troop on the table activated in pairs with 3s, then the turn ends."""
    while game.state.phase == "activation":
        state = game.state
        free = {s: [t.id for t in state.side_troops(s) if eligible(state, t)] for s in "ab"}
        if free["a"] and free["b"]:
            submit(game, Activate(side="a", troop=free["a"][0]))
            submit(game, Activate(side="b", troop=free["b"][0]))
            for side in "ab":
                if side not in game.state.activation.orders:  # type: ignore[union-attr]
                    submit(game, OrderRoll(side=side, die=3))
            submit(game, EndActivation())
        else:
            submit(game, EndTurn())


# --- offerings on the engine's rolls (B9.1) ------------------------------------------------

def test_a_reroll_replaces_the_order_die_and_the_orders_follow() -> None:
    game = rolled(a_die=2)                       # 2 + INI 1 = 3: one order
    assert game.state.activation.left["a"] == 1  # type: ignore[union-attr]
    assert views.due(game.state)["roll"] == "order_roll:a"
    change = changed(submit(game, Offering(side="a", card=card(game, "a"), kind="reroll",
                                           on="order_roll:a", new_die=5)))
    assert (change.before, change.after) == (2, 5)
    assert isinstance(change.outcome, OrderRolled) and change.outcome.ki
    assert game.state.activation.left["a"] == 2  # type: ignore[union-attr]
    # the holder has made its offering: the other player may no longer
    assert refused(game, Offering(side="b", card=card(game, "b"), kind="reroll",
                                  on="order_roll:a", new_die=1)).rule == \
        "B9.1 OFRENDA A LOS DIOSES"
    assert replay(RULES, list(game.events)) == game.state


def test_an_add_raises_the_total_but_a_natural_one_stays_a_fumble() -> None:
    game = rolled(a_die=4)
    value = deck.card_value(card(game, "a"))
    assert value > 0
    change = changed(submit(game, Offering(side="a", card=card(game, "a"), kind="add",
                                           on="order_roll:a")))
    assert change.after == 4 + value
    assert change.outcome.total == 4 + 1 + value  # type: ignore[union-attr]
    fumble = rolled(a_die=1)
    out = changed(submit(fumble, Offering(side="a", card=card(fumble, "a"), kind="add",
                                          on="order_roll:a"))).outcome
    assert out.fumble and out.orders == 1  # type: ignore[union-attr]


def test_an_add_is_on_ones_own_die_and_a_later_reroll_keeps_it() -> None:
    game = in_turn()                              # a holds the initiative
    submit(game, Activate(side="a", troop="a3"))
    submit(game, Activate(side="b", troop="b3"))
    submit(game, OrderRoll(side="a", die=5))
    submit(game, OrderRoll(side="b", die=1))      # b's roll is open: b declares first
    assert refused(game, Offering(side="a", card=card(game, "a"), kind="add",
                                  on="order_roll:b")).rule == "B9.1 OFRENDA A LOS DIOSES"
    value = deck.card_value(card(game, "b"))
    submit(game, Offering(side="b", card=card(game, "b"), kind="add", on="order_roll:b"))
    change = changed(submit(game, Offering(side="a", card=card(game, "a", best=False),
                                           kind="reroll", on="order_roll:b", new_die=3)))
    assert change.after == 3 + value              # the card's value is added again
    assert change.outcome.total == 3 + 2 + value  # type: ignore[union-attr]


def test_the_roll_closes_at_the_next_command_and_calculator_dice_come_after() -> None:
    game = rolled(a_die=2)
    submit(game, order("a", "a3", "move"))
    rejection = refused(game, Offering(side="b", card=card(game, "b"), kind="reroll",
                                       on="order_roll:a", new_die=6))
    assert "closed" in rejection.message
    assert "entered after" in refused(game, Offering(
        side="b", card=card(game, "b"), kind="reroll", on="melee", die=0, new_die=6)).message
    events = submit(game, Offering(side="b", card=card(game, "b"), kind="reroll", on="melee"))
    assert [e.type for e in events] == ["offering_made"]   # recorded against that roll only


def test_a_reroll_of_a_failed_retreat_roll_brings_the_unit_back() -> None:
    game = in_turn()
    submit(game, SetMarker(troop="a2", marker="retreat", on=True))
    finish(game)
    draw_both(game, random.Random(3))
    submit(game, RetreatHonour(troop="a2", dice=[6]))   # HO 5 (the hero leads): failed
    assert not game.state.troops["a2"].alive and game.state.phase == "initiative"
    assert views.due(game.state) == {"commands": ["initiative_roll"], "sides": [],
                                     "roll": "retreat_honour:a2"}
    submit(game, Offering(side="a", card=card(game, "a"), kind="reroll",
                          on="retreat_honour:a2", new_die=2))
    a1, a2 = game.state.troops["a1"], game.state.troops["a2"]
    assert a2.alive and a2.models == 10 and a1.alive and a1.inside == "a2"
    assert not a2.retreat
    assert replay(RULES, list(game.events)) == game.state


def test_a_reroll_can_take_the_initiative_or_tie_it() -> None:
    game = _to_initiative()
    submit(game, InitiativeRoll(dice={"a": 5, "b": 2}))
    assert game.state.initiative == "a"
    assert "which die" in refused(game, Offering(side="b", card=card(game, "b"), kind="reroll",
                                                 on="initiative_roll", new_die=1)).message
    submit(game, Offering(side="b", card=card(game, "b"), kind="reroll",
                          on="initiative_roll", die=0, new_die=1))
    assert game.state.initiative == "b" and game.state.phase == "activation"
    submit(game, Offering(side="a", card=card(game, "a"), kind="reroll",
                          on="initiative_roll", die=1, new_die=1))
    assert game.state.initiative is None and game.state.phase == "initiative"
    assert views.due(game.state)["commands"] == ["initiative_roll"]
    log = TypeAdapter(list[KenseiEvent])
    assert replay(RULES, log.validate_json(log.dump_json(list(game.events)))) == game.state


def _to_initiative() -> KenseiGame:
    game = deployed()
    draw_both(game, random.Random(5))
    return game


def test_no_offering_on_the_strategy_roll_before_any_card_is_drawn() -> None:
    game: KenseiGame = Game(RULES)
    submit(game, Begin(armies=armies(), scenario=1))
    submit(game, StrategyRoll(dice={"a": 6, "b": 1}))
    assert "hand is empty" in refused(game, Offering(
        side="b", card="b-00", kind="reroll", on="strategy_roll", die=1, new_die=6)).message


def test_swapped_world_a_reroll_cards_value_never_reaches_the_public() -> None:
    """Two battles that differ only in the card b spends on a re-roll (worth 0 or 3)."""
    views_seen = []
    for spent in ("b-00", "b-21"):
        game = _hand_with(spent)
        submit(game, InitiativeRoll(dice={"a": 5, "b": 2}))
        submit(game, Offering(side="b", card=spent, kind="reroll", on="initiative_roll",
                              die=1, new_die=6))
        views_seen.append(([views.public_event(e) for e in game.events],
                           views.public_view(game.state)))
    assert views_seen[0] == views_seen[1]
    assert game.state.initiative == "b"


def _hand_with(spent: str) -> KenseiGame:
    """The example battle's maintenance, b drawing ``spent`` among its cards."""
    game = deployed()
    pile_a = list(game.state.command_decks.a.pile)
    submit(game, DrawCards(side="a", cards=pile_a[7:11]))
    rest = [c for c in ("b-01", "b-10", "b-16", "b-22") if c != spent][:3]
    submit(game, DrawCards(side="b", cards=[spent, *rest, "b-12"], under=["b-12"]))
    return game


# --- honour duels (B9.4) -----------------------------------------------------------------

def challenged() -> KenseiGame:
    """The Yari Ashigaru led by the Kuge Hero (a2) challenge the Buke Taisho (b1)."""
    game = activated(a="a2", b="b1")
    submit(game, order("a", "a2", "challenge", "b1", in_contact=True))
    submit(game, order("a", "a2", "charge", "b1"))
    return game


def test_a_challenge_is_a_leaders_two_orders_against_an_enemy_leader_in_contact() -> None:
    game = activated(a="a3", b="b1")
    assert "no leader" in refused(game, order("a", "a3", "challenge", "b1",
                                              in_contact=True)).message
    game = activated(a="a2", b="b3")
    assert "no leader" in refused(game, order("a", "a2", "challenge", "b3",
                                              in_contact=True)).message
    assert refused(game, order("a", "a2", "challenge", "b1")).rule == "B9.4 RETAR A DUELO"
    short = activated(a="a2", b="b1", dice=(1, 5))
    assert "two orders" in refused(short, order("a", "a2", "challenge", "b1",
                                                in_contact=True)).message


def test_an_accepted_duel_takes_both_leaders_out_to_fight_alone() -> None:
    game = challenged()
    assert views.due(game.state) == {"commands": ["duel_answer"], "sides": ["b"]}
    assert refused(game, EndActivation()).rule == "B9.4 DUELOS DE HONOR"
    assert refused(game, DuelAnswer(side="a", accept=True)).rule == "B9.4 DUELOS DE HONOR"
    assert refused(game, DuelAnswer(side="b", accept=True), by="a").rule == "B17"
    submit(game, DuelAnswer(side="b", accept=True), by="b")
    assert game.state.troops["a1"].inside is None and game.state.troops["a2"].leader is None
    assert game.state.activation.combat_order["b"]  # type: ignore[union-attr]
    duel = {"a": {"troop": "a1", "order": "charge"}, "b": {"troop": "b1",
                                                            "order": "fight_reaction"}}
    fight = settle(RULES, game.state, Melee(input=duel), lambda: 4)
    assert not isinstance(fight, Rejection), fight
    submit(game, fight)


def test_a_declined_duel_dishonours_the_leader_and_is_not_fought() -> None:
    game = challenged()
    submit(game, DuelAnswer(side="b", accept=False))
    b1 = game.state.troops["b1"]
    assert b1.dishonoured and b1.used and game.state.activation.left["b"] == 0  # type: ignore[union-attr]
    data = {"a": {"troop": "a2", "order": "charge"}, "b": {"troop": "b1",
                                                            "order": "fight_reaction"}}
    assert refused(game, Melee(input=data)).rule == "B9.4 DUELOS DE HONOR"
    assert refused(game, DuelAnswer(side="b", accept=True)).rule == "B9.4 DUELOS DE HONOR"
    submit(game, EndActivation())


# --- undead regeneration (B9.3) and the reserve (B12) ------------------------------------

def kuroi_battle(hide: str | None = None, rules: KenseiRules = RULES,
                 a: Army | None = None) -> KenseiGame:
    """Kuge (a) against the Kuroi-te (b, ``hide`` kept hidden), at turn 1's initiative."""
    game: KenseiGame = Game(rules)
    submit(game, Begin(armies={"a": a or kuge(), "b": kuroi_te()}, scenario=1))
    submit(game, StrategyRoll(dice={"a": 6, "b": 1}))
    submit(game, ChooseSide(side="a", role="attacker"))
    submit(game, SceneryRoll(die=3))
    submit(game, SecondaryMission(side="a", die=1))
    submit(game, SecondaryMission(side="b", die=1))
    while game.state.phase == "deployment":
        side = pregame.deployer(game.state)
        assert side is not None
        waiting = [t.id for t in pregame.waiting(game.state, side)]
        held = [t for t in (hide, a and a.list.clan == "hattori" and "a3") if t in waiting]
        cmd = (HoldBack(side=side, troop=held[0]) if held
               else Deploy(side=side, troop=waiting[0]))
        submit(game, cmd)
    draw_both(game, random.Random(5))
    submit(game, InitiativeRoll(dice={"a": 5, "b": 2}))
    return game


def test_an_undead_unit_that_lost_models_rolls_to_regenerate_before_the_turn_goes_on() -> None:
    game = kuroi_battle()
    submit(game, Activate(side="a", troop="a4"))
    submit(game, Activate(side="b", troop="b2"))
    submit(game, OrderRoll(side="a", die=5))
    submit(game, OrderRoll(side="b", die=5))
    submit(game, order("a", "a4", "charge", "b2"))
    data = {"a": {"troop": "a4", "order": "charge", "models_in_melee": 5,
                  "charge_outside_zoc": True},
            "b": {"troop": "b2", "order": "fight_reaction", "models_in_melee": 3}}
    dice = random.Random(1)
    fight = settle(RULES, game.state, Melee(input=data), lambda: dice.randint(1, 6))
    assert not isinstance(fight, Rejection), fight
    submit(game, fight)
    lost = 10 - game.state.troops["b2"].models
    assert lost > 0 and game.state.troops["b2"].alive
    submit(game, EndActivation())
    finish(game)
    draw_both(game, random.Random(7))
    assert game.state.phase == "maintenance"     # the roll is owed
    assert views.due(game.state)["commands"] == ["regeneration"]
    assert views.due(game.state)["troops"] == ["b2"]
    assert refused(game, Regeneration(troop="b3", die=6)).rule == "B9.3 TRATOS"
    assert refused(game, Regeneration(troop="b2", die=6, leader=True)).rule == "B9.3 TRATOS"
    submit(game, Regeneration(troop="b2", die=6))
    assert game.state.troops["b2"].models == 11 - lost
    assert game.state.phase == "initiative"
    assert replay(RULES, list(game.events)) == game.state


def test_a_regenerated_unit_leader_comes_back_with_one_wound_left() -> None:
    game = kuroi_battle()
    state = game.state
    troops = dict(state.troops)
    troops["b1"] = troops["b1"].model_copy(update={"models": 0, "removed": True})
    state = state.model_copy(update={"phase": "maintenance", "troops": troops,
                                     "regeneration": {"b2": "b1"}})
    back = RULES.handle(state, Regeneration(troop="b2", die=6, leader=True))[0]
    after = RULES.apply(state, back)
    assert after.troops["b1"].alive and after.troops["b1"].inside == "b2"
    assert after.troops["b1"].wound_markers == 3 - 1 and after.troops["b2"].leader == "b1"


def test_the_hidden_kuroi_te_unit_rises_used_and_takes_no_orders() -> None:
    game = kuroi_battle(hide="b2")
    hidden = name(game.state, game.state.troops["b2"])
    rejection = refused(game, Activate(side="b", troop="b2"))
    assert hidden not in rejection.message  # the shared screen shows the message (B17)
    assert rejection.private is not None and hidden in rejection.private
    assert "cannot be activated" in rejection.private
    rejection = refused(game, SetMarker(troop="b2", marker="parapeted", on=True))
    assert hidden not in rejection.message and rejection.rule == "B12 Desde las profundidades"
    finish(game)
    draw_both(game, random.Random(7))
    submit(game, InitiativeRoll(dice={"a": 5, "b": 2}))
    submit(game, Activate(side="a", troop="a3"))
    events = submit(game, Activate(side="b", troop="b2"))
    assert [e.type for e in events] == ["troop_activated", "troop_emerged"]
    assert game.state.troops["b2"].used and game.state.troops["b2"].deployed
    assert refused(game, OrderRoll(side="b", die=6)).rule == "B3.3 TIRADA DE ÓRDENES"
    submit(game, OrderRoll(side="a", die=4))
    assert refused(game, order("b", "b2", "fight_reaction", "a3", charged=True)).rule == \
        "B12 Desde las profundidades"
    submit(game, EndActivation())
    assert "b2" in [t["id"] for t in views.public_view(game.state)["troops"]]


def hattori() -> Army:
    army = kuge()
    return Army(list=army.list.model_copy(update={"clan": "hattori", "name": "Hana's Hattori"}),
                profiles=army.profiles)


def test_the_hattori_unit_enters_from_a_chosen_edge_at_the_start_of_turn_two() -> None:
    rules = KenseiRules(lists=lambda army, profiles: [])
    game = kuroi_battle(rules=rules, a=hattori())
    assert game.state.troops["a3"].held_back
    assert refused(game, Activate(side="a", troop="a3")).rule == "B3.3 ACTIVACIÓN DE UNIDADES"
    finish(game)
    draw_both(game, random.Random(7))
    assert game.state.phase == "maintenance"
    assert views.due(game.state)["commands"] == ["enter"]
    assert refused(game, EnterReserve(side="a", troop="a4", edge="left")).rule == \
        "B12 Prácticas clandestinas"
    submit(game, EnterReserve(side="a", troop="a3", edge="left"))
    assert game.state.troops["a3"].deployed and game.state.phase == "initiative"


def test_only_a_unit_of_several_models_is_kept_off_the_table() -> None:
    rules = KenseiRules(lists=lambda army, profiles: [])
    game: KenseiGame = Game(rules)
    army = hattori()
    solo = army.list.model_copy(update={"entries": tuple(
        e.model_copy(update={"joins": None}) for e in army.list.entries)})
    submit(game, Begin(armies={"a": Army(list=solo, profiles=army.profiles),
                               "b": kuroi_te()}, scenario=1))
    submit(game, StrategyRoll(dice={"a": 6, "b": 1}))
    submit(game, ChooseSide(side="a", role="attacker"))
    submit(game, SceneryRoll(die=3))
    submit(game, SecondaryMission(side="a", die=1))
    submit(game, SecondaryMission(side="b", die=1))
    for side, troop in (("a", "a2"), ("b", "b2"), ("a", "a3"), ("b", "b3"), ("a", "a4"),
                        ("b", "b1")):
        submit(game, Deploy(side=side, troop=troop))
    rejection = refused(game, HoldBack(side="a", troop="a1"))
    assert rejection.rule == "B12 Prácticas clandestinas" and "several models" in \
        rejection.message
    submit(game, Deploy(side="a", troop="a1"))
    assert game.state.phase == "maintenance"
