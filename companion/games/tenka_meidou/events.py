"""Tenka Meidou's commands (what a player asks) and events (what happened).

Randomness is physical: the commands carry what happened at the table (the castle tokens as
they fell, the offers as dealt, the dice as rolled).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from companion.core.events import Command, Event
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.state import PawnMove
from companion.games.tenka_meidou.war import WarResult

Roll = tuple[int, int, int]


class StartGame(Command):
    """Section 3: the players clockwise from the first player, and the table as laid out."""

    type: Literal["start"] = "start"
    players: tuple[Colour, ...]
    advanced: bool = False
    castles: dict[str, int]
    tactic_offer: tuple[Tactic, ...]
    daimyo_offer: tuple[Daimyo, ...] = ()


class ChooseDaimyo(Command):
    """Section 9: take one Daimyo card from the offer, face down."""

    type: Literal["choose_daimyo"] = "choose_daimyo"
    colour: Colour
    card: Daimyo


class Deploy(Command):
    """Section 5.I.1: the dice as rolled (one roll, or two if all three were re-rolled), the
    die kept single, and whether the Daimyo pawn replaces one of the soldiers (section 9)."""

    type: Literal["deploy"] = "deploy"
    colour: Colour
    rolls: tuple[Roll, ...]
    single: int
    daimyo: bool = False


class PlayTactic(Command):
    """Section 5.I.2 and 7: take a card from the offer and carry out its whole effect."""

    type: Literal["tactic"] = "tactic"
    colour: Colour
    card: Tactic
    moves: tuple[PawnMove, ...]


class PlayDaimyo(Command):
    """Section 9 and 10: turn one's Daimyo card face up and carry out its effect."""

    type: Literal["daimyo"] = "daimyo"
    colour: Colour
    moves: tuple[PawnMove, ...]


TenkaCommand = Annotated[
    StartGame | ChooseDaimyo | Deploy | PlayTactic | PlayDaimyo, Field(discriminator="type")
]


class GameStarted(Event):
    type: Literal["game_started"] = "game_started"
    players: tuple[Colour, ...]
    advanced: bool
    castles: dict[str, int]
    tactic_offer: tuple[Tactic, ...]
    daimyo_offer: tuple[Daimyo, ...]
    soldiers_per_colour: int


class DaimyoChosen(Event):
    """Hidden: the public view shows who chose, never which card (section 9)."""

    type: Literal["daimyo_chosen"] = "daimyo_chosen"
    colour: Colour
    card: Daimyo


class SoldiersDeployed(Event):
    type: Literal["deployed"] = "deployed"
    colour: Colour
    rolls: tuple[Roll, ...]
    pair: tuple[int, int]
    single: int
    zone: str
    soldiers: int
    daimyo: bool


class TacticPlayed(Event):
    type: Literal["tactic_played"] = "tactic_played"
    colour: Colour
    card: Tactic
    moves: tuple[PawnMove, ...]


class DaimyoPlayed(Event):
    type: Literal["daimyo_played"] = "daimyo_played"
    colour: Colour
    card: Daimyo
    moves: tuple[PawnMove, ...]


class SwordTaken(Event):
    type: Literal["sword_taken"] = "sword_taken"
    colour: Colour
    sword: int


class WarFought(Event):
    type: Literal["war_fought"] = "war_fought"
    result: WarResult


TenkaEvent = Annotated[
    GameStarted | DaimyoChosen | SoldiersDeployed | TacticPlayed | DaimyoPlayed | SwordTaken
    | WarFought,
    Field(discriminator="type"),
]
