"""Kensei battle commands: what the players (or the app acting for them) ask the referee.

Everything spatial is the players' assertion and every die is given as rolled: the engine
never measures and never rolls (B18). Card ids are "a-00".."a-23" (B1.1).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.core.events import Command
from companion.games.kensei.armylist import ArmyList
from companion.games.kensei.profiles import Profile

Side = Literal["a", "b"]
Die = Annotated[int, Field(ge=1, le=6)]
Role = Literal["attacker", "defender"]
OrderKind = Literal[
    "move", "run", "regroup", "fight", "charge", "disengage", "challenge", "shoot", "empower",
    "reload", "take_cover", "interact", "flee", "fight_reaction", "opportunity_charge",
    "stand_and_shoot", "leave_unit",
]
"""B4's orders: Mover, Correr, Reagrupar, Combatir, Cargar, Destrabar, Retar a duelo, Disparar,
Potenciar, Recargar, Parapetar, Interactuar, Huir, Combatir as a reaction, Carga de oportunidad,
Aguantar y disparar, and leaving a unit (B2.7)."""
MarkerName = Literal["used", "stunned", "retreat", "dishonoured", "parapeted", "unloaded", "ran",
                     "immobilised", "poisoned", "cursed"]
"""The markers a troop can carry (B1.1, K13); wound markers are counts, kept apart. The last
three come from skills the players apply by hand."""


class Army(BaseModel):
    """A list and the full profile of every entry, so a record stands on its own."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    list: ArmyList
    profiles: dict[str, Profile]


class Situation(BaseModel):
    """The players' assertions about the troop's position when an order is given (B4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    in_melee: bool = False
    """Its base is in melee (within 1 cm of an enemy base, locked in a fight)."""
    stunned: bool = False
    out_of_coherence: bool = False
    out_of_formation: bool = False
    difficult_terrain: bool = False
    """It starts the move in difficult terrain (CORRER)."""
    charged: bool = False
    """It is the target of a charge just declared."""
    in_zoc_of_enemy: bool = False
    enemy_crossed_zoc: bool = False
    """An enemy's non-charge move crossed its zone of control (CARGA DE OPORTUNIDAD)."""
    in_contact: bool = False
    """Its base is within 1 cm of the target's (COMBATIR)."""
    target_in_melee_with_friend: bool = False
    """The shooting target is in melee with a friendly troop (DISPARAR)."""
    disengaged_from_target: bool = False
    """The target disengaged from this troop this turn (CARGAR)."""
    obstacle_blocks: bool = False
    """An obstacle blocks the whole disengage move (DESTRABAR)."""


class _Cmd(Command):
    pass


# --- pre-game (B1.3) ---------------------------------------------------------------------

class Begin(_Cmd):
    """B1.3 step 1: both lists (same size) and the scenario, or None to roll it."""

    type: Literal["begin"] = "begin"
    armies: dict[Side, Army]
    scenario: Annotated[int, Field(ge=1, le=6)] | None = None


class ScenarioRoll(_Cmd):
    """B15: 1D6 on the scenario table, when none was agreed."""

    type: Literal["scenario_roll"] = "scenario_roll"
    die: Die


class StrategyRoll(_Cmd):
    """B1.3 step 2: each player's 1D6; the commander levels are added by the engine."""

    type: Literal["strategy_roll"] = "strategy_roll"
    dice: dict[Side, Die]


class ChooseSide(_Cmd):
    """B1.3 step 2: the strategy winner takes a table side and the scenario role."""

    type: Literal["choose_side"] = "choose_side"
    side: Side
    role: Role


class SceneryRoll(_Cmd):
    """B1.3 step 3: 1D6+1 generic pieces, plus the commander levels' extras."""

    type: Literal["scenery_roll"] = "scenery_roll"
    die: Die


class SecondaryMission(_Cmd):
    """B1.3 step 4, SECRET: the 1D6 naming the scenario whose secondary mission is this
    player's (B15)."""

    type: Literal["secondary_mission"] = "secondary_mission"
    side: Side
    die: Die


class Deploy(_Cmd):
    """B1.3 step 5: one troop, in alternation from the strategy winner, units first."""

    type: Literal["deploy"] = "deploy"
    side: Side
    troop: str


class HoldBack(_Cmd):
    """B12: a troop kept in the reserve tray (Kuroi-te, Hattori); which one is SECRET for
    the Kuroi-te."""

    type: Literal["hold_back"] = "hold_back"
    side: Side
    troop: str


# --- the turn (B3) -------------------------------------------------------------------------

class DrawCards(_Cmd):
    """B3.1 step 2 and B9.1: the hand is discarded and these cards drawn from the pile;
    Taisho and Daimyo draw one or two more and put ``under`` back beneath the deck."""

    type: Literal["draw_cards"] = "draw_cards"
    side: Side
    cards: list[str]
    under: list[str] = Field(default_factory=list)


class RetreatHonour(_Cmd):
    """B3.1 step 3: the honour roll of a troop carrying a Retreat marker (a 2nd die: the
    general's re-roll)."""

    type: Literal["retreat_honour"] = "retreat_honour"
    troop: str
    dice: Annotated[list[Die], Field(min_length=1, max_length=2)]
    in_melee: bool = False
    general_near: bool = False


class InitiativeRoll(_Cmd):
    """B3.2: both players' 1D6; a tie is rolled again."""

    type: Literal["initiative_roll"] = "initiative_roll"
    dice: dict[Side, Die]


class CommandDuel(_Cmd):
    """B9.1 Duelo de mando: a face-down bid; the side without the initiative calls."""

    type: Literal["command_duel"] = "command_duel"
    side: Side
    cards: list[str]


class Activate(_Cmd):
    """B3.3 step 1: a side names one of its troops without a Used marker."""

    type: Literal["activate"] = "activate"
    side: Side
    troop: str


class OrderRoll(_Cmd):
    """B3.3 step 2: 1D6 + INI for the active troop's orders."""

    type: Literal["order_roll"] = "order_roll"
    side: Side
    die: Die


class Order(_Cmd):
    """B3.3 step 3 and B4: an action or reaction order, checked for legality."""

    type: Literal["order"] = "order"
    side: Side
    troop: str
    order: OrderKind
    target: str | None = None
    situation: Situation = Situation()


class Melee(_Cmd):
    """B5, B7: the melee calculator's input for the fight just declared; each side may name
    its troop with ``"troop"`` and the engine fills what it knows."""

    type: Literal["melee"] = "melee"
    input: dict[str, Any]


class Shoot(_Cmd):
    """B6, B7: the shoot calculator's input; ``shooter`` and ``target`` name their troops."""

    type: Literal["shoot"] = "shoot"
    input: dict[str, Any]


class Offering(_Cmd):
    """B9.1 Ofrendas: a card spent on a roll, to re-roll (face down) or add its value."""

    type: Literal["offering"] = "offering"
    side: Side
    card: str
    kind: Literal["reroll", "add"]
    on: str


class SetMarker(_Cmd):
    """A marker placed or cleared by hand, for what the engine does not follow itself."""

    type: Literal["marker"] = "marker"
    troop: str
    marker: MarkerName
    on: bool


class EndActivation(_Cmd):
    """B3.3 step 4: both active troops, and every troop given an order, become Used."""

    type: Literal["end_activation"] = "end_activation"


class CommanderActivation(_Cmd):
    """B3.3 step 5: discard the whole hand to activate one more troop."""

    type: Literal["commander_activation"] = "commander_activation"
    side: Side


class EndTurn(_Cmd):
    """B3.3 step 5: the turn ends; the next maintenance starts with the rout check (B3.1)."""

    type: Literal["end_turn"] = "end_turn"


class Score(_Cmd):
    """B15: what scenarios 2 to 6 need from the table (scenario 1 scores from the state)."""

    type: Literal["score"] = "score"
    inputs: dict[str, Any]


class Concede(_Cmd):
    type: Literal["concede"] = "concede"
    side: Side


KenseiCommand = Annotated[
    Begin | ScenarioRoll | StrategyRoll | ChooseSide | SceneryRoll | SecondaryMission | Deploy
    | HoldBack | DrawCards | RetreatHonour | InitiativeRoll | CommandDuel | Activate | OrderRoll
    | Order | Melee | Shoot | Offering | SetMarker | EndActivation | CommanderActivation
    | EndTurn | Score | Concede,
    Field(discriminator="type"),
]
