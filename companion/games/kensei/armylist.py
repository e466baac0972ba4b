"""A Kensei army list (B14): the troops a player brings, by profile.

Checking a list against every restriction the rulebook gives is :func:`check_list`."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

CommanderLevel = Literal["hatamoto", "taisho", "daimyo"]
"""The commander level, bought with points (B14): Hatamoto 0, Taisho 10, Daimyo 20."""


class ListEntry(BaseModel):
    """One troop of a list: a unit of ``models`` of one profile, or a single model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    profile: Annotated[str, Field(max_length=60)]
    models: Annotated[int, Field(ge=1, le=15)]
    general: bool = False
    """This hero is the army's general (B2.7)."""
    banner: bool = False
    """The unit carries a Hata-Jurushi (B2.6)."""
    joins: Annotated[int, Field(ge=1, le=40)] | None = None
    """A leader deployed inside entry ``joins`` (1-based) as its unit leader (B2.7)."""


class ArmyList(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=60)]
    clan: Literal["kuge", "buke", "sohei", "otokodate", "kuroi-te", "hattori"]
    commander_level: CommanderLevel
    size: Annotated[int, Field(ge=100, le=2000, multiple_of=100)]
    entries: Annotated[tuple[ListEntry, ...], Field(min_length=1, max_length=40)]
