"""Whole Kensei battles: seeded self-play to the end with the invariants, replay of the
record, and the swapped world (B17): hidden hands and missions never change a public view."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _kensei_kit import call
from pydantic import TypeAdapter
from test_kensei_battle import RULES, armies, deployed, refused, submit

from companion.core.game import Game, replay
from companion.games.kensei.battle import deck, views
from companion.games.kensei.battle.commands import (
    Begin,
    ChooseSide,
    Deploy,
    DrawCards,
    HoldBack,
    InitiativeRoll,
    SceneryRoll,
    SecondaryMission,
    StrategyRoll,
)
from companion.games.kensei.battle.events import KenseiEvent
from companion.games.kensei.battle.examples import kuroi_te
from companion.games.kensei.battle.invariants import violations
from companion.games.kensei.battle.selfplay import run
from companion.games.kensei.battle.simulator import play_battle
from companion.games.kensei.battle.state import State

LOG: TypeAdapter[list[Any]] = TypeAdapter(list[KenseiEvent])


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_a_seeded_battle_runs_to_the_end_with_no_invariant_broken(seed: int) -> None:
    report = play_battle(seed, rules=RULES)
    assert report.error is None, report.error
    assert report.invariant_violations == []
    assert report.completed and report.end in ("turns", "rout", "concede")
    assert report.combats > 0


def test_replaying_the_record_rebuilds_the_state_exactly() -> None:
    report = play_battle(2, rules=RULES)
    logged = LOG.validate_json(LOG.dump_json(report.events))
    rebuilt = replay(RULES, logged)
    assert rebuilt.phase == "over"
    assert rebuilt == replay(RULES, report.events)
    assert rebuilt.troops == replay(RULES, logged).troops
    assert rebuilt.winner == (None if report.winner is None or report.winner.value == "draw"
                              else report.winner.value)


def test_a_melee_event_alone_carries_its_casualties() -> None:
    report = play_battle(2, rules=RULES)
    fights = [i for i, e in enumerate(report.events) if e.type == "melee_fought"
              and any(c.casualties for c in e.changes)]  # type: ignore[attr-defined]
    assert fights
    before = replay(RULES, report.events[:fights[0]])
    after = replay(RULES, report.events[:fights[0] + 1])
    fight = report.events[fights[0]]
    for change in fight.changes:  # type: ignore[attr-defined]
        lost = before.troops[change.troop].models - after.troops[change.troop].models
        assert lost == change.casualties


def test_selfplay_summary_counts_every_battle() -> None:
    summary = run(3, 10, rules=RULES)
    assert summary["games"] == 3 and summary["completed"] == 3
    assert summary["errors"] == 0 and summary["invariant_violations"] == 0
    assert sum(summary["winners"].values()) == 3


def test_invariants_catch_a_card_in_two_places() -> None:
    game = deployed()
    draw_both_sorted(game)
    state = game.state
    decks = state.command_decks
    broken = decks.model_copy(update={"a": decks.a.model_copy(
        update={"hand": (*decks.a.hand, decks.a.pile[0])})})
    found = violations(state.model_copy(update={"decks": broken}))
    assert any("two places" in v for v in found)
    assert any("cards in hand" in v for v in found)


def draw_both_sorted(game: Game[State, Any, Any], flip: bool = False) -> None:
    """Each side draws from its pile: the first cards, or (``flip``) the last ones."""
    for side in ("a", "b"):
        army = game.state.army(side).list
        need = deck.hand_size(army.size) + deck.extra_draws(army.commander_level)
        pile = list(game.state.command_decks.side(side).pile)
        cards = pile[-need:] if flip else pile[:need]
        submit(game, DrawCards(side=side, cards=cards, under=cards[deck.hand_size(army.size):]))


def test_swapped_world_hands_and_missions_leave_the_public_view_alone() -> None:
    """Two battles that differ only in the cards drawn and the secret mission dice show the
    same public view after every event."""
    worlds = []
    for flip in (False, True):
        game: Game[State, Any, Any] = Game(RULES)
        submit(game, Begin(armies=armies(), scenario=1))
        submit(game, StrategyRoll(dice={"a": 6, "b": 1}))
        submit(game, ChooseSide(side="a", role="attacker"))
        submit(game, SceneryRoll(die=3))
        submit(game, SecondaryMission(side="a", die=2 if flip else 1))
        submit(game, SecondaryMission(side="b", die=6 if flip else 3))
        for side, troop in (("a", "a2"), ("b", "b2"), ("a", "a3"), ("b", "b3"), ("a", "a4"),
                            ("b", "b4"), ("b", "b1")):
            submit(game, Deploy(side=side, troop=troop))
        draw_both_sorted(game, flip)
        submit(game, InitiativeRoll(dice={"a": 5, "b": 2}))
        worlds.append(list(game.events))
    a, b = worlds
    assert len(a) == len(b)
    assert a != b
    sa, sb = RULES.initial_state(), RULES.initial_state()
    for ea, eb in zip(a, b, strict=True):
        sa, sb = RULES.apply(sa, ea), RULES.apply(sb, eb)
        assert views.public_view(sa) == views.public_view(sb), ea.type
        assert views.public_event(ea) == views.public_event(eb), ea.type
        words = [deck.public_words(e, {"a": "Ana", "b": "Ben"}) for e in (ea, eb)
                 if isinstance(e, deck.EVENT_CLASSES)]
        assert len(set(words)) <= 1
    assert views.side_view(sa, "a")["hand"] != views.side_view(sb, "a")["hand"]
    assert views.side_view(sa, "a")["secondary_die"] == 1


def test_the_public_view_names_no_card_and_no_mission_before_the_end() -> None:
    game = deployed()
    draw_both_sorted(game)
    text = json.dumps(views.public_view(game.state))
    assert "a-0" not in text and "b-0" not in text and "b-1" not in text
    assert views.public_view(game.state)["secondary"] == {"a": "rolled", "b": "rolled"}
    assert views.side_view(game.state, "b")["secondary_die"] == 5
    assert views.referee_view(game.state)["secondary"] == {"a": 1, "b": 5}
    hand = views.side_view(game.state, "a")["hand"]
    assert json.dumps(hand).count("a-") >= 4


def test_a_public_record_names_no_card_no_mission_and_no_hidden_troop() -> None:
    report = play_battle(3, rules=RULES)
    text = json.dumps([views.public_event(e) for e in report.events])
    assert '"a-' not in text and '"b-' not in text
    assert not any("die" in views.public_event(e) for e in report.events
                   if e.type == "secondary_rolled")
    drawn = [views.public_event(e) for e in report.events if e.type == "cards_drawn"]
    assert drawn and all(isinstance(d["cards"], int) for d in drawn)


def test_the_missions_are_revealed_at_the_end() -> None:
    report = play_battle(1, rules=RULES)
    final = replay(RULES, report.events)
    assert all(isinstance(d, int) for d in views.public_view(final)["secondary"].values())


def test_a_hidden_kuroi_te_troop_stays_off_the_public_view() -> None:
    game: Game[State, Any, Any] = Game(RULES)
    submit(game, Begin(armies=armies(a=kuroi_te()), scenario=1))
    submit(game, StrategyRoll(dice={"a": 6, "b": 1}))
    submit(game, ChooseSide(side="a", role="attacker"))
    submit(game, SceneryRoll(die=3))
    submit(game, SecondaryMission(side="a", die=1))
    submit(game, SecondaryMission(side="b", die=1))
    rejection = refused(game, HoldBack(side="a", troop="a1"), by="a")
    assert rejection.private and "a1" not in rejection.message   # units first, said privately
    submit(game, HoldBack(side="a", troop="a3"), by="a")
    public = views.public_view(game.state)
    assert all(t["id"] != "a3" for t in public["troops"])
    assert public["off_table"]["a"] == 3   # the hidden Yurei counts with the two still to come
    assert any(t["id"] == "a3" and t["in_reserve"]
               for t in views.side_view(game.state, "a")["own_troops"])


def test_cli_selfplay_prints_the_tally(capsys: pytest.CaptureFixture[str]) -> None:
    status = call(["kensei", "selfplay", "--games", "2", "--seed", "3"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["games"] == 2 and out["completed"] == 2
