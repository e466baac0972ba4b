"""The battle's hold on the screens: what a melee form opens with (B5, B18), the feed's words, the
demo's answers to refusals and the end of the turn (B3.3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kensei_taps import make

from companion.games.kensei.battle.commands import (
    Activate,
    Begin,
    ChooseSide,
    Deploy,
    DrawCards,
    InitiativeRoll,
    Melee,
    Order,
    OrderRoll,
    SceneryRoll,
    SecondaryMission,
    Situation,
    StrategyRoll,
)
from companion.games.kensei.battle.events import OrderRolled, RollChanged, TroopEmerged
from companion.games.kensei.battle.examples import buke, kuge, kuroi_te
from ui.kensei.control import KenseiControl
from ui.kensei.demo import KenseiDemo

CARD = re.compile(r"\b[ab]-\d\d\b")


def _begun() -> KenseiControl:
    control = KenseiControl(seed=1)
    assert control.submit(Begin(armies={"a": kuge(), "b": buke()}, scenario=1)) is None
    return control


def test_a_melee_form_opens_with_the_front_rank_in_contact() -> None:
    """A unit of ten opens with its front rank of five in melee, a single hero with himself:
    a starting value the players correct, never 0 (a pool without the models, B5)."""
    control = _begun()
    state = control.state
    unit = next(t for t in state.side_troops("a") if t.models_start == 10)
    hero = next(t for t in state.side_troops("b") if t.models_start == 1)
    small = next(t for t in state.side_troops("b") if t.models_start == 4)
    data = control.melee_prefill(unit.id, hero.id, "charge")
    assert data["a"]["models_in_melee"] == 5
    assert data["b"]["models_in_melee"] == 1
    data = control.melee_prefill(unit.id, small.id, "fight")
    assert data["b"]["models_in_melee"] == 4


def test_the_demo_answers_each_refusal_once_and_its_melees_cost_models(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 4 (it once showed the same "ranks after" refusal twice at the end of turn 5, and
    rolled its melees with no model in contact): every calculator refusal is answered by
    changing the control it names, never met twice in a row in one fight; no button offers
    an activation the end of the turn refuses (FIN DEL TURNO); melees take models."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = make(tmp_path, seed=4)
    try:
        demo = KenseiDemo(app, 4)
        demo.run()
        control = demo.flow.control
        assert control.state.phase == "over"
        pairs = zip(demo.refusals, demo.refusals[1:], strict=False)
        assert not [a for a, b in pairs if a == b]
        assert any("ranks after" in words for _, words in demo.refusals)
        control.snapshot()
        assert not [line.text for line in control.feed if "last activation" in line.text]
        fallen = [sum(c["casualties"] for c in e.model_dump()["changes"])
                  for e in control.events if e.type == "melee_fought"]
        assert fallen and sum(fallen) > 0
    finally:
        app.close()


def test_no_activation_is_offered_once_the_last_one_of_the_turn_is_spent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """FIN DEL TURNO: a side with troops left after the other ran out activates one more,
    once; then the screen offers the commander activation and the end of the turn, not an
    activation the engine refuses (the seed-4 demo once tapped it a thousand times)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = make(tmp_path, seed=3)
    try:
        demo = KenseiDemo(app, 3)

        def spent() -> bool:
            snap = demo.flow.control.snapshot()
            return (snap.phase == "activation" and snap.view["activation"] is None
                    and any(snap.eligible(s) for s in ("a", "b"))
                    and "activate" not in snap.view["due"]["commands"])

        demo.run(until=spent)
        assert spent()
        assert not [x for x in demo.labels() if x.endswith(": activate a troop")]
        assert "End the turn" in demo.labels()
    finally:
        app.close()


def test_a_refused_melee_is_said_in_the_forms_words() -> None:
    """The engine's refusal names the form's key ("b.weapon"); the feed says it as the form
    does, with the army's name."""
    control = _begun()
    for command in (StrategyRoll(dice={"a": 6, "b": 1}), ChooseSide(side="a", role="attacker"),
                    SceneryRoll(die=3), SecondaryMission(side="a", die=1),
                    SecondaryMission(side="b", die=5)):
        assert control.submit(command) is None
    while (side := control.deployer()) is not None:
        assert control.submit(Deploy(side=side, troop=control.deployable(side)[0][0])) is None
    for side in ("a", "b"):
        cards, extra = control.deal(side)
        assert control.submit(DrawCards(side=side, cards=cards,
                                        under=cards[len(cards) - extra:])) is None
    assert control.submit(InitiativeRoll(dice={"a": 5, "b": 2})) is None
    assert control.submit(Activate(side="a", troop="a4")) is None
    assert control.submit(Activate(side="b", troop="b4")) is None
    assert control.submit(OrderRoll(side="a", die=5)) is None
    assert control.submit(OrderRoll(side="b", die=5)) is None
    assert control.submit(Order(side="a", troop="a4", order="charge", target="b4",
                                situation=Situation())) is None
    data = control.melee_prefill("a4", "b4", "charge")
    data["b"]["weapon"] = 3
    assert control.submit(Melee(input=data)) is not None
    said = control.feed[-1]
    assert said.kind == "refused"
    assert said.text.startswith("Ben's Buke, weapon: "), said.text


def test_the_feed_says_a_hidden_troop_rising_and_a_changed_die() -> None:
    """Events the feed once left out (B12 Desde las profundidades, B9.1 an offering's die)
    are said in the record's public words, never a card."""
    control = KenseiControl(seed=1)
    assert control.submit(Begin(armies={"a": kuge(), "b": kuroi_te()}, scenario=1)) is None
    rose = control.describe(TroopEmerged(side="b", troop="b2", troops=("b2",)))
    assert rose is not None and "rises" in rose.text and rose.rule
    changed = control.describe(RollChanged(
        roll="order_roll:a", side="a", kind="reroll", die=0, before=2, after=5,
        outcome=OrderRolled(side="a", troop="a2", die=5, items=(), total=5, orders=2,
                            fumble=False, ki=False)))
    assert changed is not None and "2 becomes 5" in changed.text
    assert not CARD.search(changed.text)
