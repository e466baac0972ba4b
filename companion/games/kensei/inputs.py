"""The strict inputs of ``companion kensei melee|shoot|duel`` (docs/kensei.md).

Unknown keys and wrong types are refused; booleans default to false and counts to 0. A value
no table can hold (a count of 500, a leader already dead) is a format fault too.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.games.kensei.rules import ClassCode, RangedWeapon, rules

Count = Annotated[int, Field(ge=0, le=99)]
Attr = Annotated[int, Field(ge=0, le=20)]
Hr = Annotated[int, Field(ge=1, le=20)]
Models = Annotated[int, Field(ge=1, le=15)]
"""A unit is 3 to 15 models (B2.6); casualties may have left fewer."""
Dice = Annotated[list[int], Field(max_length=100)]
Ranks = Annotated[list[Annotated[int, Field(ge=1, le=15)]], Field(min_length=1, max_length=16)]
Trait = Annotated[str, Field(max_length=40)]
SideName = Literal["a", "b"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def attack(klass: ClassCode, at: int | None, ranged: bool = False) -> int:
    """The AT used: the profile's when given, else the class table's (B2.4)."""
    row = rules().classes[klass]
    return at if at is not None else row.at_ranged if ranged else row.at_melee


def honour(klass: ClassCode, ho: int | None) -> int:
    return ho if ho is not None else rules().classes[klass].ho


def wounds(klass: ClassCode, hr: int | None) -> int:
    return hr if hr is not None else rules().classes[klass].hr


def stunned_per_wound(trait: str | None) -> int:
    """Two Stunned markers make a wound, three for the undead (B5.2, TRATOS)."""
    table = rules().stunned_per_wound
    return table["undead"] if trait == "undead" else table["default"]


class MeleeLeader(_Strict):
    klass: ClassCode = Field(alias="class")
    at: Attr | None = None
    ho: Attr | None = None
    hr: Hr | None = None
    contact: Literal["direct", "support", "none"]
    in_front: bool = False
    wounds: Count = 0
    adjacent: Count = 0
    general: bool = False

    @property
    def hr_value(self) -> int:
        return wounds(self.klass, self.hr)

    @model_validator(mode="after")
    def _alive(self) -> MeleeLeader:
        if self.wounds >= self.hr_value:
            raise ValueError(f"wounds: a leader with {self.wounds} wounds is dead")
        return self


class HonourKeys(_Strict):
    """What the honour roll needs (TIRADA DE HONOR), shared by a melee side and a target."""

    dishonoured: bool = False
    general_dead: bool = False
    general_in_range: bool = False
    hold: bool = False
    samurai_choice: Literal["stay", "fall_back"] | None = None
    ranks_after: Ranks | None = None


class MeleeDice(_Strict):
    combat: Dice = []
    wound: Dice = []
    protect: Dice = []
    honour: Dice = []


class MeleeSide(HonourKeys):
    klass: ClassCode = Field(alias="class")
    at: Attr | None = None
    ho: Attr | None = None
    hr: Hr | None = None
    models: Models
    single: bool = False
    mounted: bool = False
    armour: bool = False
    skirmishers: bool = False
    trait: Trait | None = None
    weapon: Annotated[int, Field(ge=0, le=7)]
    models_in_melee: Count = 0
    leader: MeleeLeader | None = None
    ranks: Ranks | None = None
    rear_ranks_in_melee: bool = False
    order: Literal["charge", "fight", "fight_reaction"]
    charge_outside_zoc: bool = False
    out_of_formation: bool = False
    out_of_coherence: bool = False
    used: bool = False
    retreat_marker: bool = False
    parapeted: bool = False
    potenciar: bool = False
    banner_in_front: bool = False
    in_cover: bool = False
    shooting_unit: bool = False
    several_enemies_in_contact: bool = False
    attacks: Literal["front", "flank", "rear"] = "front"
    stunned: Count = 0
    wound_markers: Count = 0
    crits_to_leader: Count = 0
    dice: MeleeDice = MeleeDice()

    @property
    def hr_value(self) -> int:
        return wounds(self.klass, self.hr)

    @property
    def last_model(self) -> bool:
        """The last model of a unit, its leader gone (TROPAS AISLADAS, reading 20)."""
        return not self.single and self.models == 1 and self.leader is None

    @property
    def solo(self) -> bool:
        return self.single or self.last_model

    @model_validator(mode="after")
    def _consistent(self) -> MeleeSide:
        if self.single and (self.models != 1 or self.leader is not None):
            raise ValueError("single: a single troop is one model, without a unit leader")
        if self.wound_markers >= self.hr_value:
            raise ValueError(f"wound_markers: {self.wound_markers} wounds would have removed "
                             "a model already")
        if self.stunned >= stunned_per_wound(self.trait):
            raise ValueError(f"stunned: {self.stunned} Stunned markers would have become a "
                             "wound already")
        if self.leader is not None and self.leader.adjacent > self.models:
            raise ValueError("leader.adjacent: more models beside the leader than in the unit")
        return self


class MeleeInput(_Strict):
    turn_initiative: SideName
    a: MeleeSide
    b: MeleeSide


class ShooterLeader(_Strict):
    klass: ClassCode = Field(alias="class")
    at: Attr | None = None
    los: bool = False


class Shooter(_Strict):
    klass: ClassCode = Field(alias="class")
    at: Attr | None = None
    single: bool = False
    weapon: RangedWeapon
    distance_cm: Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)]
    models_with_los: Count = 0
    leader: ShooterLeader | None = None
    potenciar: bool = False
    out_of_formation: bool = False
    parapeted: bool = False
    in_melee: bool = False
    charged: bool = False
    unloaded: bool = False


class TargetLeader(_Strict):
    klass: ClassCode = Field(alias="class")
    ho: Attr | None = None
    hr: Hr | None = None
    wounds: Count = 0
    in_front: bool = False
    affected: bool = False
    general: bool = False

    @property
    def hr_value(self) -> int:
        return wounds(self.klass, self.hr)

    @model_validator(mode="after")
    def _alive(self) -> TargetLeader:
        if self.wounds >= self.hr_value:
            raise ValueError(f"wounds: a leader with {self.wounds} wounds is dead")
        return self


class Target(HonourKeys):
    klass: ClassCode = Field(alias="class")
    ho: Attr | None = None
    hr: Hr | None = None
    models: Models
    visible: Count
    single: bool = False
    armour: bool = False
    mounted: bool = False
    trait: Trait | None = None
    wound_markers: Count = 0
    leader: TargetLeader | None = None
    in_cover: bool = False
    parapeted: bool = False
    ran: bool = False
    in_melee_with_friend: bool = False

    @property
    def hr_value(self) -> int:
        return wounds(self.klass, self.hr)

    @property
    def solo(self) -> bool:
        return self.single or (self.models == 1 and self.leader is None)

    @model_validator(mode="after")
    def _consistent(self) -> Target:
        if self.single and (self.models != 1 or self.leader is not None):
            raise ValueError("single: a single troop is one model, without a unit leader")
        if self.visible > self.models:
            raise ValueError("visible: more visible models than models")
        if self.wound_markers >= self.hr_value:
            raise ValueError(f"wound_markers: {self.wound_markers} wounds would have removed "
                             "a model already")
        return self


class ShootDice(_Strict):
    shoot: Dice = []
    wound: Dice = []
    honour: Dice = []


class ShootInput(_Strict):
    shooter: Shooter
    target: Target
    crits_to_leader: Count = 0
    dice: ShootDice = ShootDice()


class Bids(_Strict):
    a: Annotated[list[int], Field(max_length=24)]
    b: Annotated[list[int], Field(max_length=24)]


class DuelInput(_Strict):
    initiative: SideName
    caller: SideName
    bids: Bids
    battle_points: Annotated[int, Field(ge=0, le=100_000)] | None = None
    duel_this_pair: bool = False


def two_complete_ranks(ranks: list[int] | None) -> bool:
    """The front and second ranks complete (FORMACIÓN CERRADA): the front holds 3 or more, a
    later rank at least one fewer than the front and at least 3."""
    if ranks is None or len(ranks) < 2:
        return False
    return ranks[0] >= 3 and ranks[1] >= max(ranks[0] - 1, 3)
