"""Kensei troop profiles as user data (B2.3, B2.4, B16).

The rulebook's army-list annex is empty (B19.1): no unit profile survives in the text, so
profiles are data a player types in from the printed book or the publisher's army builder.
The package ships only the class defaults the rulebook prints and a few profiles made up for
the examples, each marked ``example: true``: nothing invented is presented as official.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.games.kensei.rules import RangedWeapon

ProfileClass = Literal["H", "E", "G", "A", "K", "O", "C", "M", "I"]
"""Hero, Elite, Warrior (Guerrero), Villager (Aldeano), Komuso, Onmyouji, and the Colossal,
Major and Inferior creatures (B2.3)."""
TroopType = Literal["infantry", "cavalry", "skirmishers", "spiritual", "creature", "machine"]
Availability = Literal["normal", "unique", "legendary"]
Clan = Literal["kuge", "buke", "sohei", "otokodate", "kuroi-te", "hattori", "common"]
Trait = Literal["samurai", "ashigaru", "ninja", "monk", "undead", "spirit", "villager", "senshi"]
Attribute = Annotated[int, Field(ge=0, le=20)]


class Profile(BaseModel):
    """One troop profile (B2.3). ``cost`` is per model."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)]
    name: Annotated[str, Field(min_length=1, max_length=80)]
    clan: Clan
    cls: ProfileClass = Field(alias="class")
    mov: Attribute
    at: Attribute
    at_ranged: Attribute
    ini: Attribute
    ho: Attribute
    hr: Annotated[int, Field(ge=1, le=20)]
    troop_type: TroopType
    mounted: bool = False
    weapon: Annotated[int, Field(ge=0, le=7)] | None = None
    ranged: RangedWeapon | None = None
    armour: Literal["none", "samurai"] = "none"
    trait: Trait | None = None
    skills: tuple[Annotated[str, Field(max_length=60)], ...] = ()
    volume: Annotated[int, Field(ge=1, le=4)] = 2
    leader: bool = False
    availability: Availability = "normal"
    cost: Annotated[int, Field(ge=0, le=1000)]
    equipment: tuple[Annotated[str, Field(max_length=60)], ...] = ()
    example: bool = False
    source: Annotated[str, Field(max_length=200)] = ""
