"""Kensei battle events: what happened. Events are the record; ``KenseiRules.apply`` rebuilds
the state from them alone. The command deck's own events (``battle.deck``) join the union."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.core.events import Event
from companion.games.kensei.battle import deck
from companion.games.kensei.battle.commands import (
    Army,
    MarkerName,
    OrderKind,
    Role,
    Side,
    Situation,
)

EndReason = Literal["turns", "rout", "concede"]


class _Ev(Event):
    pass


class BattleBegun(_Ev):
    """B1.3 step 1. ``scenario`` None: it is rolled next."""

    type: Literal["battle_begun"] = "battle_begun"
    armies: dict[Side, Army]
    scenario: int | None


class ScenarioRolled(_Ev):
    type: Literal["scenario_rolled"] = "scenario_rolled"
    die: int
    scenario: int


class StrategyRolled(_Ev):
    """B1.3 step 2: ``totals`` = die + commander level; ``winner`` None on a tie (re-roll)."""

    type: Literal["strategy_rolled"] = "strategy_rolled"
    dice: dict[Side, int]
    totals: dict[Side, int]
    winner: Side | None


class SideChosen(_Ev):
    type: Literal["side_chosen"] = "side_chosen"
    side: Side
    role: Role


class SceneryRolled(_Ev):
    """B1.3 step 3: ``generic`` = die + 1; ``extra`` each side's commander level pieces."""

    type: Literal["scenery_rolled"] = "scenery_rolled"
    die: int
    generic: int
    extra: dict[Side, int]


class SecondaryRolled(_Ev):
    """SECRET (B1.3 step 4, B17): the die names the scenario whose secondary mission this
    side holds. Public views and words show only that the side rolled."""

    type: Literal["secondary_rolled"] = "secondary_rolled"
    side: Side
    die: int


class TroopDeployed(_Ev):
    """B1.3 step 5: ``troops`` the troop and the leaders deployed inside it."""

    type: Literal["troop_deployed"] = "troop_deployed"
    side: Side
    troop: str
    troops: tuple[str, ...]


class TroopHeldBack(_Ev):
    """B12: kept in the reserve tray. SECRET which troop when ``hidden`` (Kuroi-te)."""

    type: Literal["troop_held_back"] = "troop_held_back"
    side: Side
    troop: str
    hidden: bool


class TurnBegun(_Ev):
    """B3: a new turn opens with maintenance (B3.1)."""

    type: Literal["turn_begun"] = "turn_begun"
    turn: int


class RetreatRolled(_Ev):
    """B3.1 step 3: pass removes the Retreat marker, a fail removes the troop (casualties
    caused by the enemy)."""

    type: Literal["retreat_rolled"] = "retreat_rolled"
    troop: str
    dice: tuple[int, ...]
    target: int
    passed: bool
    removed: tuple[str, ...]


class MarkersCleared(_Ev):
    """B3.1 step 4: Used and Stunned markers removed from both armies (and Ran)."""

    type: Literal["markers_cleared"] = "markers_cleared"


class InitiativeRolled(_Ev):
    """B3.2: ``holder`` None on a tie (re-roll)."""

    type: Literal["initiative_rolled"] = "initiative_rolled"
    dice: dict[Side, int]
    holder: Side | None


class TroopActivated(_Ev):
    type: Literal["troop_activated"] = "troop_activated"
    side: Side
    troop: str


class OrderItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    value: int
    rule: str


class OrderRolled(_Ev):
    """B3.3 step 2: ``total`` = die + INI items; ``orders`` 1 or 2; ``ki`` at 6+."""

    type: Literal["order_rolled"] = "order_rolled"
    side: Side
    troop: str
    die: int
    items: tuple[OrderItem, ...]
    total: int
    orders: int
    fumble: bool
    ki: bool


class OrderGiven(_Ev):
    """B4: an order accepted; ``cost`` orders spent; ``markers`` set on the troop."""

    type: Literal["order_given"] = "order_given"
    side: Side
    troop: str
    order: OrderKind
    target: str | None
    situation: Situation
    cost: int
    combat: bool
    """An action combat order (one per activation, B3.3)."""
    markers: tuple[MarkerName, ...] = ()
    cleared: tuple[MarkerName, ...] = ()


class TroopChange(BaseModel):
    """What a melee or a shot did to one troop (B7)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    troop: str
    casualties: int = 0
    models_after: int
    wound_markers_after: int
    stunned_after: int
    leader: str | None = None
    leader_wounds_after: int = 0
    leader_killed: bool = False
    markers: tuple[MarkerName, ...] = ()
    unloaded: bool = False
    wiped_out: bool = False


class MeleeFought(_Ev):
    """B5, B7: the calculator's input as completed by the engine, its full ruling, and what
    it did to each troop."""

    type: Literal["melee_fought"] = "melee_fought"
    troops: dict[Side, str]
    input: dict[str, Any]
    ruling: dict[str, Any]
    changes: tuple[TroopChange, ...]
    general_killed: tuple[Side, ...] = ()


class ShotFired(_Ev):
    """B6, B7: as :class:`MeleeFought`, for a shot."""

    type: Literal["shot_fired"] = "shot_fired"
    shooter: str
    target: str
    input: dict[str, Any]
    ruling: dict[str, Any]
    changes: tuple[TroopChange, ...]
    general_killed: tuple[Side, ...] = ()


class MarkerSet(_Ev):
    type: Literal["marker_set"] = "marker_set"
    troop: str
    marker: MarkerName
    on: bool


class ActivationEnded(_Ev):
    """B3.3 step 4: these troops are now Used."""

    type: Literal["activation_ended"] = "activation_ended"
    used: tuple[str, ...]


class ExtraActivation(_Ev):
    """B3.3 step 5: ``side`` may activate one more troop alone (``commander``: bought with the
    hand)."""

    type: Literal["extra_activation"] = "extra_activation"
    side: Side
    commander: bool


class TurnEnded(_Ev):
    type: Literal["turn_ended"] = "turn_ended"
    turn: int


class ArmyRouted(_Ev):
    """B3.1 step 1: at least 75 % of the starting army points lost."""

    type: Literal["army_routed"] = "army_routed"
    side: Side
    lost: int
    starting: int


class ScoreLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    vp: int
    rule: str
    detail: str = ""


class BattleScored(_Ev):
    """B15: each side's victory points, line by line, and the winner (None: a draw)."""

    type: Literal["battle_scored"] = "battle_scored"
    scenario: int
    lines: dict[Side, tuple[ScoreLine, ...]]
    vp: dict[Side, int]
    winner: Side | None
    inputs: dict[str, Any] = Field(default_factory=dict)


class BattleEnded(_Ev):
    type: Literal["battle_ended"] = "battle_ended"
    reason: EndReason
    turn: int
    side: Side | None = None
    """The routed or conceding side."""


class Conceded(_Ev):
    type: Literal["conceded"] = "conceded"
    side: Side


BattleEvent = (
    BattleBegun | ScenarioRolled | StrategyRolled | SideChosen | SceneryRolled | SecondaryRolled
    | TroopDeployed | TroopHeldBack | TurnBegun | RetreatRolled | MarkersCleared
    | InitiativeRolled | TroopActivated | OrderRolled | OrderGiven | MeleeFought | ShotFired
    | MarkerSet | ActivationEnded | ExtraActivation | TurnEnded | ArmyRouted | BattleScored
    | BattleEnded | Conceded
)
"""The engine's own events."""
KenseiEvent = Annotated[
    BattleEvent | deck.CardsDrawn | deck.HandDiscarded | deck.DeckReshuffled | deck.DuelBid
    | deck.DuelRevealed | deck.OfferingMade | deck.CommanderActivated | deck.DeckPairReset,
    Field(discriminator="type"),
]
"""Every event of a battle: the engine's and the command deck's (``battle.deck``)."""
