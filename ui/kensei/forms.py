"""The three calculators' forms (melee, shoot, duel): every key of the strict inputs of
:mod:`companion.games.kensei.inputs` as a field of the form, in the game's words.

A form holds the calculator input dict it edits (:meth:`CalcForm.value`), so the battle screens
open one prefilled from a troop's state (``MeleeForm({"a": {"models": 7, ...}})``) and get the
input back. Keys a prefill gives that no field shows are kept as given. How many dice a roll
needs comes from the calculators' own pool arithmetic (:meth:`CalcForm.needs`); nothing here
adds to the rulebook.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from companion.games.kensei import melee as melee_calc
from companion.games.kensei import shoot as shoot_calc
from companion.games.kensei.calculator import Kind
from companion.games.kensei.dice import dice_to_roll, successes, target
from companion.games.kensei.inputs import MeleeInput, ShootInput, honour, wounds
from companion.games.kensei.inputs import attack as class_attack
from companion.games.kensei.rules import rules
from ui.kensei import words as w

FieldKind = Literal["toggle", "step", "choice", "pick", "list"]
Path = tuple[str, ...]
Data = dict[str, Any]


@dataclass(frozen=True)
class Field:
    """One control of a form: the key it sets (``path`` into the input dict) and how."""

    path: Path
    label: str
    kind: FieldKind
    options: tuple[tuple[Any, str], ...] = ()
    low: int = 0
    high: int = 99
    default: Callable[[Data], int] | None = None
    """An optional number (a profile's AT): the value shown while the class's is used."""
    when: Callable[[Data], bool] | None = None
    """Shown only when this holds (a leader's keys, with a leader)."""
    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    """What a list's pad offers (dice; ranks of 1 to 15)."""
    roll: str = ""
    """A list of dice: the roll (``combat``, ``wound``...) whose count :meth:`needs` knows."""
    by: int = 1
    """A stepper's step (5 cm for a distance: only its band counts)."""

    @property
    def span(self) -> int:
        """Cells of a row: a stepper with a long name takes two, to say it whole."""
        return 2 if self.kind == "step" and len(self.label) > 16 else 1

    @property
    def wide(self) -> bool:
        """A choice's buttons, and a list of dice, take a whole row."""
        return self.kind == "choice" or (self.kind == "list" and bool(self.roll))


@dataclass(frozen=True)
class Page:
    title: str
    fields: tuple[Field, ...]
    note: str = ""
    """Said under the title (what the players must know before filling the page)."""


def get(data: Data, path: Path) -> Any:
    node: Any = data
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def put(data: Data, path: Path, value: Any) -> None:
    node = data
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    node[path[-1]] = value


CLASS_OPTIONS = tuple(w.CLASSES.items())
LEADER_OPTIONS: tuple[tuple[Any, str], ...] = ((None, "No leader"), *CLASS_OPTIONS)
SIDES = ("a", "b")


def _has_leader(side: str) -> Callable[[Data], bool]:
    return lambda d: isinstance(get(d, (side, "leader")), dict)


def _class_default(path: Path, of: Callable[[str, int | None], int]) -> Callable[[Data], int]:
    return lambda d: of(get(d, (*path, "class")) or "G", None)


# The form's class is one of its class buttons ("G", "E", ...): a ProfileClass, typed str.
def _at(ranged: bool) -> Callable[[str, int | None], int]:
    return lambda klass, at: class_attack(klass, at, ranged)  # type: ignore[arg-type]


def _ho(klass: str, ho: int | None) -> int:
    return honour(klass, ho)  # type: ignore[arg-type]


def _hr(klass: str, hr: int | None) -> int:
    return wounds(klass, hr)  # type: ignore[arg-type]


@dataclass
class CalcForm:
    """What every calculator's form shares: the input being edited, its pages, the app's own
    dice (``seed``: the tests' and the demo's)."""

    prefill: Data | None = None
    names: dict[str, str] | None = None
    """The sides as the players know them ("Ana's Kuge"); "Side A" and "Side B" by default."""
    seed: int | None = None
    data: Data = field(default_factory=dict)
    kind: Kind = "melee"
    title: str = ""

    def __post_init__(self) -> None:
        self.data = self.blank()
        _merge(self.data, copy.deepcopy(self.prefill or {}))
        self.random = random.Random(self.seed)
        self.pages = self.layout()

    def blank(self) -> Data:
        raise NotImplementedError

    def layout(self) -> tuple[Page, ...]:
        raise NotImplementedError

    def side(self, side: str) -> str:
        return w.side_name(side, self.names)

    def value(self) -> Data:
        """The calculator input as it stands (``companion kensei KIND`` would read it)."""
        out = copy.deepcopy(self.data)
        _drop_empty_ranks(out)
        return out

    def shown(self, f: Field) -> bool:
        return f.when is None or f.when(self.data)

    def set(self, f: Field, value: Any) -> None:
        if f.path[-1] == "leader":  # a leader chosen by class, or none
            put(self.data, f.path, None if value is None else
                {**(get(self.data, f.path) or {"contact": "direct"}), "class": value})
            return
        put(self.data, f.path, value)

    def needs(self, f: Field) -> int | None:
        """How many dice the roll of ``f`` takes, as the calculator counts them; None when the
        rest of the form does not say yet, or the players choose (protect, honour)."""
        return None

    def roll(self, f: Field) -> list[int]:
        """"Roll for me": the dice still missing (one when the count is the players' to say)."""
        have = list(get(self.data, f.path) or [])
        need = self.needs(f)
        count = need - len(have) if need is not None and need > len(have) else 1
        return have + [self.random.randint(1, 6) for _ in range(count)]


def _merge(into: Data, extra: Data) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _drop_empty_ranks(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("ranks", "ranks_after") and value == []:
                node[key] = None
            else:
                _drop_empty_ranks(value)


# ---------------------------------------------------------------------------- melee

def _melee_side(s: str, name: str) -> tuple[Page, ...]:
    leader = _has_leader(s)
    troop = Page(f"{name}: the troop", (
        Field((s, "class"), "Class", "choice", CLASS_OPTIONS),
        Field((s, "models"), "Models", "step", low=1, high=15),
        Field((s, "weapon"), "Weapon", "pick", tuple(w.WEAPONS.items())),
        Field((s, "trait"), "Trait", "pick", tuple(w.TRAITS.items())),
        Field((s, "single"), "Single troop", "toggle"),
        Field((s, "mounted"), "Mounted", "toggle"),
        Field((s, "armour"), "Samurai armour", "toggle"),
        Field((s, "skirmishers"), "Skirmishers", "toggle"),
        Field((s, "at"), "AT", "step", high=20, default=_class_default((s,), _at(False))),
        Field((s, "ho"), "HO", "step", high=20, default=_class_default((s,), _ho)),
        Field((s, "hr"), "HR", "step", low=1, high=20, default=_class_default((s,), _hr)),
    ))
    order = Page(f"{name}: the order", (
        Field((s, "order"), "Order", "choice", tuple(w.ORDERS.items())),
        Field((s, "attacks"), "Attacks the enemy's", "choice", tuple(w.ATTACKS.items())),
        Field((s, "models_in_melee"), "Models in melee", "step", high=15),
        Field((s, "ranks"), "Ranks", "list", values=tuple(range(1, 16))),
        Field((s, "charge_outside_zoc"), "Charged from outside the zone of control", "toggle"),
        Field((s, "banner_in_front"), "Banner in front", "toggle"),
        Field((s, "potenciar"), "Potenciar", "toggle"),
        Field((s, "rear_ranks_in_melee"), "Rear ranks in melee", "toggle"),
        Field((s, "several_enemies_in_contact"), "Several enemies in contact", "toggle"),
        Field((s, "shooting_unit"), "Shooting unit", "toggle"),
    ))
    markers = Page(f"{name}: markers and terrain", (
        Field((s, "used"), "Used", "toggle"),
        Field((s, "retreat_marker"), "Retreat marker", "toggle"),
        Field((s, "parapeted"), "Parapeted", "toggle"),
        Field((s, "in_cover"), "In cover", "toggle"),
        Field((s, "out_of_formation"), "Out of formation", "toggle"),
        Field((s, "out_of_coherence"), "Out of coherence", "toggle"),
        Field((s, "dishonoured"), "Dishonoured", "toggle"),
        Field((s, "stunned"), "Stunned markers", "step", high=2),
        Field((s, "wound_markers"), "Wound markers", "step", high=19),
    ))
    chief = Page(f"{name}: the unit leader", (
        Field((s, "leader"), "Leader", "choice", LEADER_OPTIONS),
        Field((s, "leader", "contact"), "Contact", "choice", tuple(w.CONTACT.items()), when=leader),
        Field((s, "leader", "in_front"), "Leader in front", "toggle", when=leader),
        Field((s, "leader", "general"), "He is the general", "toggle", when=leader),
        Field((s, "leader", "wounds"), "Leader's wounds", "step", high=19, when=leader),
        Field((s, "leader", "adjacent"), "Models beside him", "step", high=15, when=leader),
        Field((s, "leader", "at"), "Leader's AT", "step", high=20, when=leader,
              default=_class_default((s, "leader"), _at(False))),
        Field((s, "leader", "ho"), "Leader's HO", "step", high=20, when=leader,
              default=_class_default((s, "leader"), _ho)),
        Field((s, "leader", "hr"), "Leader's HR", "step", low=1, high=20, when=leader,
              default=_class_default((s, "leader"), _hr)),
    ))
    honour_page = Page(f"{name}: honour", (
        Field((s, "general_in_range"), "General near (re-roll)", "toggle"),
        Field((s, "general_dead"), "General dead", "toggle"),
        Field((s, "hold"), "Hold (a leader's unit)", "toggle"),
        Field((s, "samurai_choice"), "Samurai who fail", "choice",
              tuple(w.SAMURAI_CHOICE.items())),
        Field((s, "ranks_after"), "Ranks after casualties", "list", values=tuple(range(1, 16))),
        Field((s, "crits_to_leader"), "Criticals on the enemy leader", "step"),
    ))
    return troop, order, markers, chief, honour_page


def _dice_page(s: str, name: str, rolls: tuple[tuple[str, str], ...],
               extra: tuple[Field, ...] = ()) -> Page:
    return Page(f"{name}: the dice as rolled", (*extra, *(
        Field((s, "dice", roll), label, "list", roll=roll) for roll, label in rolls)))


MELEE_ROLLS = (("combat", "Combat dice"), ("wound", "Wound dice"),
               ("protect", "Protect the leader"), ("honour", "Honour dice"))


class MeleeForm(CalcForm):
    """A melee between two troops (COMBATE CUERPO A CUERPO, B5; resolution, B7)."""

    def __init__(self, prefill: Data | None = None, names: dict[str, str] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(prefill, names, seed, kind="melee", title="Melee")

    def blank(self) -> Data:
        side = {"class": "G", "models": 5, "weapon": 4, "order": "fight"}
        return {"turn_initiative": "a", "a": {**side, "order": "charge"}, "b": dict(side)}

    def layout(self) -> tuple[Page, ...]:
        turn = Field(("turn_initiative",), "Turn initiative", "choice",
                     tuple((s, self.side(s)) for s in SIDES))
        return (*_melee_side("a", self.side("a")), *_melee_side("b", self.side("b")),
                _dice_page("a", self.side("a"), MELEE_ROLLS, (turn,)),
                _dice_page("b", self.side("b"), MELEE_ROLLS))

    def needs(self, f: Field) -> int | None:
        if f.roll not in ("combat", "wound"):
            return None
        try:
            inp = MeleeInput.model_validate(self.value())
        except ValidationError:
            return None
        s = f.path[0]
        me, foe = (inp.a, inp.b) if s == "a" else (inp.b, inp.a)
        pool = sum(i.dice for i in melee_calc.pool_items(me, foe))
        if f.roll == "combat":
            return dice_to_roll(pool)
        if len(me.dice.combat) != dice_to_roll(pool):
            return None
        goal = target(rules().success_target, melee_calc.hit_items(me, foe))
        return successes(me.dice.combat, goal, pool <= 0)


# ---------------------------------------------------------------------------- shoot

class ShootForm(CalcForm):
    """A shot (DISPARAR, B6)."""

    def __init__(self, prefill: Data | None = None, names: dict[str, str] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(prefill, names, seed, kind="shoot", title="Shooting")

    def blank(self) -> Data:
        return {"shooter": {"class": "G", "weapon": "yumi", "distance_cm": 30,
                            "models_with_los": 3},
                "target": {"class": "G", "models": 5, "visible": 5}}

    def side(self, side: str) -> str:
        return {"shooter": "Shooter", "target": "Target"}.get(side) or super().side(side)

    def layout(self) -> tuple[Page, ...]:
        sh, tg = "shooter", "target"
        lead, tlead = _has_leader(sh), _has_leader(tg)
        return (
            Page("Shooter: the troop", (
                Field((sh, "class"), "Class", "choice", CLASS_OPTIONS),
                Field((sh, "weapon"), "Weapon", "pick", tuple(w.RANGED.items())),
                Field((sh, "distance_cm"), "Distance in cm", "step", high=200, by=5),
                Field((sh, "models_with_los"), "Models that see the target", "step", high=15),
                Field((sh, "at"), "Ranged AT", "step", high=20,
                      default=_class_default((sh,), _at(True))),
                Field((sh, "single"), "Single troop", "toggle"),
                Field((sh, "potenciar"), "Potenciar", "toggle"),
                Field((sh, "out_of_formation"), "Out of formation", "toggle"),
                Field((sh, "parapeted"), "Parapeted", "toggle"),
            )),
            Page("Shooter: leader and state", (
                Field((sh, "unloaded"), "Unloaded", "toggle"),
                Field((sh, "in_melee"), "In melee", "toggle"),
                Field((sh, "charged"), "Charged", "toggle"),
                Field((sh, "leader"), "Leader", "choice", LEADER_OPTIONS),
                Field((sh, "leader", "los"), "Leader sees the target", "toggle", when=lead),
                Field((sh, "leader", "at"), "Leader's ranged AT", "step", high=20, when=lead,
                      default=_class_default((sh, "leader"), _at(True))),
            )),
            Page("Target: the troop", (
                Field((tg, "class"), "Class", "choice", CLASS_OPTIONS),
                Field((tg, "models"), "Models", "step", low=1, high=15),
                Field((tg, "visible"), "Visible models", "step", high=15),
                Field((tg, "trait"), "Trait", "pick", tuple(w.TRAITS.items())),
                Field((tg, "wound_markers"), "Wound markers", "step", high=19),
                Field((tg, "single"), "Single troop", "toggle"),
                Field((tg, "armour"), "Samurai armour", "toggle"),
                Field((tg, "mounted"), "Mounted", "toggle"),
                Field((tg, "in_cover"), "In cover", "toggle"),
                Field((tg, "parapeted"), "Parapeted", "toggle"),
                Field((tg, "ran"), "Ran this turn", "toggle"),
                Field((tg, "in_melee_with_friend"), "In melee with a friend", "toggle"),
            )),
            Page("Target: the leader", (
                Field((tg, "leader"), "Leader", "choice", LEADER_OPTIONS),
                Field((tg, "leader", "in_front"), "Leader in front", "toggle", when=tlead),
                Field((tg, "leader", "affected"), "Leader can be hit", "toggle", when=tlead),
                Field((tg, "leader", "general"), "He is the general", "toggle", when=tlead),
                Field((tg, "leader", "wounds"), "Leader's wounds", "step", high=19, when=tlead),
                Field((tg, "leader", "ho"), "Leader's HO", "step", high=20, when=tlead,
                      default=_class_default((tg, "leader"), _ho)),
                Field((tg, "leader", "hr"), "Leader's HR", "step", low=1, high=20, when=tlead,
                      default=_class_default((tg, "leader"), _hr)),
            )),
            Page("Target: honour and wounds", (
                Field((tg, "ho"), "HO", "step", high=20, default=_class_default((tg,), _ho)),
                Field((tg, "hr"), "HR", "step", low=1, high=20,
                      default=_class_default((tg,), _hr)),
                Field((tg, "general_in_range"), "General near (re-roll)", "toggle"),
                Field((tg, "dishonoured"), "Dishonoured", "toggle"),
                Field((tg, "general_dead"), "General dead", "toggle"),
                Field((tg, "hold"), "Hold (a leader's unit)", "toggle"),
                Field((tg, "samurai_choice"), "Samurai who fail", "choice",
                      tuple(w.SAMURAI_CHOICE.items())),
            )),
            Page("The dice as rolled", (
                Field(("crits_to_leader",), "Criticals on the leader", "step"),
                Field(("dice", "shoot"), "Shooting dice", "list", roll="shoot"),
                Field(("dice", "wound"), "Wound dice", "list", roll="wound"),
                Field(("dice", "honour"), "Honour dice", "list", roll="honour"),
                Field(("target", "ranks_after"), "Target's ranks after casualties", "list",
                      values=tuple(range(1, 16))),
            )),
        )

    def needs(self, f: Field) -> int | None:
        if f.roll not in ("shoot", "wound"):
            return None
        try:
            inp = ShootInput.model_validate(self.value())
        except ValidationError:
            return None
        if not shoot_calc.in_range(inp):
            return 0
        pool = sum(i.dice for i in shoot_calc.pool_items(inp))
        if f.roll == "shoot":
            return dice_to_roll(pool)
        if len(inp.dice.shoot) != dice_to_roll(pool):
            return None
        goal = target(rules().success_target, shoot_calc.hit_items(inp))
        return successes(inp.dice.shoot, goal, pool <= 0)


# ---------------------------------------------------------------------------- duel

class DuelForm(CalcForm):
    """A command duel (DUELO DE MANDO, B9.1): each player's bid, card values 0 to 3."""

    def __init__(self, prefill: Data | None = None, names: dict[str, str] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(prefill, names, seed, kind="duel", title="Command duel")

    def blank(self) -> Data:
        return {"initiative": "a", "caller": "b", "bids": {"a": [], "b": []},
                "battle_points": 200}

    def layout(self) -> tuple[Page, ...]:
        sides = tuple((s, self.side(s)) for s in SIDES)
        return (Page("The bids", (
            Field(("initiative",), "Initiative", "choice",
                  tuple((s, f"{name} holds it") for s, name in sides)),
            Field(("caller",), "Called by", "choice",
                  tuple((s, f"{name} calls") for s, name in sides)),
            Field(("battle_points",), "Battle size", "choice",
                  tuple((n, f"{n} points") for n in sorted(rules().hand_sizes))),
            Field(("bids", "a"), f"{self.side('a')} bids", "list", values=(0, 1, 2, 3)),
            Field(("bids", "b"), f"{self.side('b')} bids", "list", values=(0, 1, 2, 3)),
            Field(("duel_this_pair",), "A duel already this pair", "toggle"),
        ), "The bids are laid face down: enter them once both are turned up."),)


FORMS: dict[Kind, Callable[[], CalcForm]] = {"melee": MeleeForm, "shoot": ShootForm,
                                             "duel": DuelForm}
