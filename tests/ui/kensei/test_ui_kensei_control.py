"""The battle's hold on the calculators: what a melee form opens with (B5, B18)."""

from __future__ import annotations

from companion.games.kensei.battle.commands import Begin
from companion.games.kensei.battle.examples import buke, kuge
from ui.kensei.control import KenseiControl


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
