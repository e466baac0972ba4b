"""The honour roll and what a failure does (TIRADA DE HONOR, B7; TRATOS, B9.3).

1D6 against the HO used: passed iff the die is at most the target; no fumble, no critical.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.dice import ModItem, mod_item
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import (
    HonourKeys,
    MeleeSide,
    Target,
    honour,
    two_complete_ranks,
)
from companion.games.kensei.rules import rules

RULE = "TIRADA DE HONOR"
Outcome = Literal["passed", "hold", "stay", "fall_back", "retreat", "extra_wound"]
Marker = Literal["used", "retreat", "dishonoured"]


class HonourRuling(BaseModel):
    model_config = ConfigDict(frozen=True)

    target: int
    ho_items: list[ModItem]
    dice: list[int]
    rerolled: bool
    passed: bool
    outcome: Outcome
    move: str | None
    """"2D6": the distance moved in cm, rolled by the player."""
    markers: list[Marker]
    extra_casualties: int


@dataclass(frozen=True)
class Standing:
    """The troop as it stands after casualties, when it rolls."""

    keys: HonourKeys
    ho: int
    """The HO used: the leader's if he is in front and alive, else the troop's."""
    trait: str | None
    mounted: bool
    single: bool
    solo: bool
    hr: int
    models_left: int
    leader_alive: bool
    general_alive: bool
    led_by_general: bool
    """Its leader is the living general: it re-rolls wherever it stands."""
    wound_markers: int
    keys_at: str
    """Where the troop's keys are in the input ("b.", "target."), for the messages."""
    dice_at: str
    """Where its honour dice are ("b.dice.honour", "dice.honour")."""


def standing(t: MeleeSide | Target, left: int, leader_killed: bool, wound_markers: int,
             keys_at: str, dice_at: str) -> Standing | None:
    """Troop ``t`` when it rolls, ``left`` models standing; None when nothing is left of it.
    The leader lends his HO when in front and alive (LÍDER DE UNIDAD); a leader left alone
    ("Si toda la unidad es retirada y queda solo") is a single model on his own HO; a general
    killed in this combat re-rolls nothing (reading 16)."""
    leader_alive = t.leader is not None and not leader_killed
    if left == 0 and not leader_alive:
        return None
    alone = left == 0
    leads = t.leader if t.leader is not None and leader_alive and (
        t.leader.in_front or alone) else None
    ho = honour(leads.klass, leads.ho) if leads else honour(t.klass, t.ho)
    general_alive = not (t.leader is not None and t.leader.general and leader_killed)
    return Standing(keys=t, ho=ho, trait=t.trait, mounted=t.mounted, single=t.single,
                    solo=t.solo or alone, hr=t.hr_value, models_left=left,
                    leader_alive=leader_alive,
                    general_alive=general_alive,
                    led_by_general=leader_alive and t.leader is not None and t.leader.general,
                    wound_markers=wound_markers,
                    keys_at=keys_at, dice_at=dice_at)


def _items(s: Standing) -> list[ModItem]:
    table = rules().honour
    items = [mod_item("base_ho", table["base_ho"], s.ho)]
    if s.keys.dishonoured:
        items.append(mod_item("dishonoured", table["dishonoured"], table.amount("dishonoured")))
    if s.keys.general_dead:
        items.append(mod_item("general_dead", table["general_dead"],
                              table.amount("general_dead")))
    if not s.single and s.models_left == 1 and not s.leader_alive:
        items.append(mod_item("last_model", table["last_model"], table.amount("last_model")))
    return items


def _dice(s: Standing, target: int, dice: list[int]) -> bool:
    """Whether the roll passed; refuses dice in the wrong number (Repetir la tirada de honor:
    a second die only after a failed first one, with the general near and alive)."""
    if not dice:
        raise KenseiError(f"{s.dice_at}: the troop takes an honour roll; give its die", RULE)
    if len(dice) > 2:
        raise KenseiError(f"{s.dice_at}: one die, and a second only to re-roll a failure",
                          RULE)
    if len(dice) == 2:
        if dice[0] <= target:
            raise KenseiError(f"{s.dice_at}: the first die passed; there is nothing to re-roll",
                              RULE)
        near = s.keys.general_in_range or s.led_by_general
        if not (near and s.general_alive and not s.keys.general_dead):
            raise KenseiError(f"{s.dice_at}: only a troop within reach of its living general "
                              "re-rolls a failed honour roll", RULE)
    return dice[-1] <= target


def roll_honour(s: Standing, dice: list[int]) -> HonourRuling:
    """The honour roll of a troop that must take one, and its outcome."""
    items = _items(s)
    target = sum(i.mod for i in items)
    passed = _dice(s, target, dice)
    outcome: Outcome = "passed" if passed else _outcome(s)
    moves = rules().moves
    move: int | None = None
    markers: list[Marker] = []
    if outcome == "fall_back" and s.trait == "samurai":
        move, markers = moves.samurai_fall_back, ["used", "dishonoured"]
    elif outcome == "fall_back":
        move = moves.fall_back.mounted if s.mounted else moves.fall_back.foot
        markers = ["used"]
    elif outcome == "retreat":
        r = moves.retreat
        ashigaru = r.ashigaru if s.trait == "ashigaru" and r.ashigaru is not None else r.foot
        move, markers = (r.mounted if s.mounted else ashigaru), ["used", "retreat"]
    extra = 0
    if outcome in ("hold", "stay", "extra_wound"):
        extra = min((s.wound_markers + 1) // s.hr, s.models_left)
    return HonourRuling(target=target, ho_items=items, dice=dice, rerolled=len(dice) == 2,
                        passed=passed, outcome=outcome,
                        move=None if move is None else f"{move}D6",
                        markers=markers, extra_casualties=extra)


def _outcome(s: Standing) -> Outcome:
    """The first line that applies to a failed roll."""
    if s.trait in ("undead", "spirit"):
        return "extra_wound"
    if s.trait == "samurai":  # the trait replaces the general outcome (reading 4)
        if s.keys.samurai_choice is None:
            raise KenseiError(f"{s.keys_at}samurai_choice: a samurai troop that fails "
                              "chooses to stay or to fall back", RULE)
        return s.keys.samurai_choice
    if s.keys.hold:
        if not s.leader_alive or s.models_left == 0:  # the wound is never the leader's
            raise KenseiError(f"{s.keys_at}hold: only a unit with a living leader and a "
                              "model left to take the wound holds", RULE)
        return "hold"
    if s.solo:
        return "retreat"
    ranks = s.keys.ranks_after
    bases = s.models_left + s.leader_alive
    if ranks is None:
        left = f"{bases} base" if bases == 1 else f"{bases} bases"
        raise KenseiError(f"{s.keys_at}ranks_after: give the ranks of the {left} left, front "
                          "first: two complete ranks fall back, fewer retreat", RULE)
    if sum(ranks) != bases:
        raise KenseiError(f"{s.keys_at}ranks_after: the ranks hold {sum(ranks)} bases but "
                          f"{bases} remain", RULE)
    return "fall_back" if two_complete_ranks(ranks) else "retreat"
