"""The state of a Kensei battle, rebuilt from the events by ``KenseiRules.apply``.

Immutable: every apply returns a new state (``model_copy(update=...)``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.battle.commands import Army, Role, Side
from companion.games.kensei.battle.deck import Decks

Phase = Literal[
    "setup",        # no battle yet: waiting for ``begin``
    "scenario",     # B15: the scenario is rolled
    "strategy",     # B1.3 step 2
    "side",         # the strategy winner chooses side and role
    "scenery",      # B1.3 step 3
    "secondary",    # B1.3 step 4 (secret rolls)
    "deployment",   # B1.3 step 5
    "maintenance",  # B3.1: cards and retreat honour rolls
    "initiative",   # B3.2
    "activation",   # B3.3
    "scoring",      # B15: the battle is over, waiting for the scenario's inputs
    "over",
]
SIDES: tuple[Side, Side] = ("a", "b")


def other(side: Side) -> Side:
    return "b" if side == "a" else "a"


class Troop(BaseModel):
    """One troop of a list (a unit, or a single model) and the markers on it (B1.1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str                       # "a1": side + list position
    side: Side
    entry: int                    # 1-based list position
    profile: str
    models_start: int
    models: int
    points: int                   # starting points (models x cost)
    general: bool = False
    banner: bool = False
    inside: str | None = None     # a leader deployed inside this unit (B2.7)
    leader: str | None = None     # the unit's leader, a troop of its own
    deployed: bool = False
    held_back: bool = False
    removed: bool = False         # wiped out, or removed by a failed retreat roll
    wound_markers: int = 0        # a leader's wounds are his own wound markers
    stunned: int = 0
    used: bool = False
    retreat: bool = False
    dishonoured: bool = False
    parapeted: bool = False
    unloaded: bool = False
    ran: bool = False
    immobilised: bool = False
    poisoned: bool = False
    cursed: bool = False

    @property
    def alive(self) -> bool:
        return not self.removed and self.models > 0


class Activation(BaseModel):
    """The pair being activated (B3.3): each side's troop, orders rolled and left."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    troops: dict[Side, str] = {}
    orders: dict[Side, int] = {}          # orders rolled
    left: dict[Side, int] = {}            # orders left
    ki: dict[Side, bool] = {}
    combat_order: dict[Side, bool] = {}   # an action combat order given (one per activation)
    given: dict[Side, tuple[str, ...]] = {}   # orders given this activation, by kind
    ordered: tuple[str, ...] = ()         # every troop given an order (all become Used)
    solo: Side | None = None              # an extra activation by one side alone (B3.3 step 5)


class State(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    phase: Phase = "setup"
    armies: dict[Side, Army] = {}
    scenario: int | None = None
    strategy_winner: Side | None = None
    roles: dict[Side, Role] = {}
    scenery: int | None = None            # generic pieces, extras included
    secondary: dict[Side, int] = {}       # SECRET: each side's secondary-mission die
    troops: dict[str, Troop] = {}
    deploy_next: Side | None = None
    turn: int = 0
    drawn: tuple[Side, ...] = ()          # sides that drew their hand this maintenance
    initiative: Side | None = None
    activation: Activation | None = None
    activated: tuple[str, ...] = ()       # troops activated this turn, in order
    extra: Side | None = None             # the side allowed one more activation alone
    extra_done: tuple[Side, ...] = ()
    general_dead: dict[Side, bool] = {}
    routed: Side | None = None
    conceded: Side | None = None
    end_reason: str | None = None
    vp: dict[Side, int] = {}
    winner: Side | None = None
    decks: Decks | None = None
    """The command decks (B9.1), None before the battle."""

    @property
    def command_decks(self) -> Decks:
        """The decks of a battle under way (B9.1)."""
        if self.decks is None:
            raise ValueError("no battle under way")
        return self.decks

    def army(self, side: Side) -> Army:
        return self.armies[side]

    def side_troops(self, side: Side) -> list[Troop]:
        return [t for t in self.troops.values() if t.side == side]
