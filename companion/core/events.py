"""The game-neutral event base.

A game is a state plus an append-only list of events (boardgame.io style). Every concrete event
is a frozen pydantic model with a ``type`` literal, so that a game's events form a discriminated
union that serialises to JSON and back without loss.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Event(BaseModel):
    """One thing that happened. Subclasses set ``type: Literal["..."] = "..."``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str


class Command(BaseModel):
    """One thing a player (or a sensor acting for one) asks to do."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
