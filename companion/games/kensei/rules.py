"""The numbers the Kensei rulebook prints, read from ``data/rules.yaml`` and validated.

Every modifier carries the heading it is printed under (``rule``), quoted by each ruling, and
the digest section (``section``); ``reading`` names the row of the readings adopted where the
text is ambiguous (docs/kensei.md, "Readings").
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core.datafiles import load_packaged

ClassCode = Literal["H", "E", "G", "A"]
Reach = Literal["short", "medium", "long"]
RangedWeapon = Literal["cerbatana", "shuriken", "granada", "ishitsubute", "ozutsu", "bo-hiya",
                       "arcabuz", "teppo", "yumi", "mosquete"]
MeleePoolId = Literal["base_at", "last_model", "models", "leader", "ranks", "potenciar",
                      "charge", "banner", "used", "fight_reaction", "out_of_coherence",
                      "retreat_or_parapet", "w1_vs_cavalry", "w1_charge", "w2_several",
                      "w2_charged", "w34_vs_w1"]
MeleeHitId = Literal["enemy_cover", "shooting_unit_charged", "flank", "rear", "w5_blunt"]
MeleeWoundId = Literal["armour", "mounted", "w0_basic", "w3_katana", "w5_blunt", "w5_vs_undead"]
ShootPoolId = Literal["base_at", "models", "leader", "short_weapon", "potenciar",
                      "out_of_formation", "medium_at_medium", "long_at_short_or_long",
                      "parapeted"]
ShootHitId = Literal["target_cover", "single_target", "target_ran", "gunpowder_long"]
ShootWoundId = Literal["armour", "mounted", "gunpowder"]
HonourId = Literal["base_ho", "dishonoured", "general_dead", "last_model"]

Id = TypeVar("Id", bound=str)
Small = Annotated[int, Field(ge=0, le=20)]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Modifier(_Data):
    """One printed modifier: how much (``value``; None when it is an attribute) and where."""

    rule: str
    section: str
    says: str
    value: int | None = None
    mounted: int | None = None
    reading: int | None = None


class Table(_Data, Generic[Id]):
    """Modifiers by id; every id the calculators use must be there."""

    rows: dict[Id, Modifier]

    def __getitem__(self, key: Id) -> Modifier:
        return self.rows[key]

    def amount(self, key: Id) -> int:
        """The fixed value of ``key`` (a data error if the file gives none)."""
        value = self.rows[key].value
        if value is None:
            raise ValueError(f"{key}: the rules data gives no value")
        return value


class ClassRow(_Data):
    name: str
    at_melee: Small
    at_ranged: Small
    ho: Small
    hr: Annotated[int, Field(ge=1, le=20)]


class Moves(_Data):
    foot: int
    mounted: int
    ashigaru: int | None = None


class MoveTable(_Data):
    fall_back: Moves
    retreat: Moves
    samurai_fall_back: int


class Weapon(_Data):
    reach: Reach
    gunpowder: bool = False


def _table(name: str, data: object, ids: object) -> object:
    if not isinstance(data, dict):
        return data
    missing = [i for i in get_args(ids) if i not in data]
    if missing:
        raise ValueError(f"{name}: no row for {', '.join(missing)}")
    return {"rows": data}


class KenseiRules(_Data):
    success_target: int
    classes: dict[ClassCode, ClassRow]
    melee_pool: Table[MeleePoolId]
    melee_hit: Table[MeleeHitId]
    melee_wound: Table[MeleeWoundId]
    shoot_pool: Table[ShootPoolId]
    shoot_hit: Table[ShootHitId]
    shoot_wound: Table[ShootWoundId]
    honour: Table[HonourId]
    stunned_per_wound: dict[Literal["default", "undead"], int]
    protect_success: int
    moves: MoveTable
    ranges: dict[Reach, int]
    ranged_weapons: dict[RangedWeapon, Weapon]
    command_deck: dict[Annotated[int, Field(ge=0, le=3)], int]
    hand_sizes: dict[int, int]

    @model_validator(mode="before")
    @classmethod
    def _wrap_tables(cls, data: object) -> object:
        if not isinstance(data, dict):
            return data
        ids = {"melee_pool": MeleePoolId, "melee_hit": MeleeHitId, "melee_wound": MeleeWoundId,
               "shoot_pool": ShootPoolId, "shoot_hit": ShootHitId,
               "shoot_wound": ShootWoundId, "honour": HonourId}
        return {k: _table(k, v, ids[k]) if k in ids else v for k, v in data.items()}

    @model_validator(mode="after")
    def _complete(self) -> KenseiRules:
        for name, ids in (("classes", ClassCode), ("ranged_weapons", RangedWeapon),
                          ("ranges", Reach)):
            missing = set(get_args(ids)) - set(getattr(self, name))
            if missing:
                raise ValueError(f"{name}: no entry for {', '.join(sorted(missing))}")
        return self


@cache
def rules() -> KenseiRules:
    """The bundled rules data (read once)."""
    return load_packaged(__package__ or "companion.games.kensei", "rules.yaml", KenseiRules)
