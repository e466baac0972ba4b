"""Sekigahara's events: what happened, the single source of truth for a game.

Events carry block identities (the engine knows them); they are referee-level records. Only
:mod:`.views` turns them into what a public screen may show.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from companion.core.events import Event as Event
from companion.games.sekigahara.components import Disk, Side
from companion.games.sekigahara.engine.state import Level, Phase


class GameStarted(Event):
    """5.1: week 1, decks shuffled, five cards each."""

    type: Literal["game_started"] = "game_started"


class BlocksPlaced(Event):
    """Blocks put into a zone at setup or as reinforcements (5.2, 6.2)."""

    type: Literal["blocks_placed"] = "blocks_placed"
    side: Side
    zone: str
    blocks: tuple[str, ...]
    random: bool


class CardsDrawn(Event):
    """``count`` cards drawn; the discard pile is reshuffled first when the draw pile runs out."""

    type: Literal["cards_drawn"] = "cards_drawn"
    side: Side
    count: int
    rule: str


class CardsDiscarded(Event):
    """Cards leaving a hand for the discard pile (``played``: via the table, face up)."""

    type: Literal["cards_discarded"] = "cards_discarded"
    side: Side
    count: int
    rule: str
    cards: tuple[str, ...] = ()
    from_table: bool = False


class PhaseBegan(Event):
    type: Literal["phase_began"] = "phase_began"
    phase: Phase
    week: int
    turn: str
    active: Side | None = None
    draws_due: tuple[tuple[Side, str, int], ...] = ()


class BidPlaced(Event):
    """6.3: a bid card laid face down (its identity is revealed only with the other bid)."""

    type: Literal["bid_placed"] = "bid_placed"
    side: Side
    card: str


class BidsRevealed(Event):
    type: Literal["bids_revealed"] = "bids_revealed"
    cards: dict[Side, str]
    winner: Side


class FirstPlayerChosen(Event):
    type: Literal["first_player_chosen"] = "first_player_chosen"
    side: Side
    first: Side


class MovementBought(Event):
    """7.1: the degree of movement and the cards discarded for it."""

    type: Literal["movement_bought"] = "movement_bought"
    side: Side
    level: Level
    cards: int


class Mustered(Event):
    """7.2: blocks placed from the Recruitment Box; option A shows them to the opponent."""

    type: Literal["mustered"] = "mustered"
    side: Side
    location: str
    blocks: tuple[str, ...]
    option: Literal["A", "B"]


class MoriArrived(Event):
    """9.3: Mori blocks from the (face-up) Mori box appear in Osaka."""

    type: Literal["mori_arrived"] = "mori_arrived"
    blocks: tuple[str, ...]
    attacked: bool


class StackMoved(Event):
    """7.3: one stack move; ``paths`` give each block's route after the origin."""

    type: Literal["stack_moved"] = "stack_moved"
    side: Side
    origin: str
    paths: dict[str, tuple[str, ...]]
    force_marches: int
    leadership: bool
    segments: tuple[tuple[str, str], ...]


class Overrun(Event):
    """7.4: the units of ``side`` at ``location`` are destroyed."""

    type: Literal["overrun"] = "overrun"
    location: str
    side: Side
    blocks: tuple[str, ...]


class ResourceControlled(Event):
    type: Literal["resource_controlled"] = "resource_controlled"
    location: str
    side: Side


class CombatDeclared(Event):
    """8.1: the phasing player declares combat at a location."""

    type: Literal["combat_declared"] = "combat_declared"
    location: str
    attacker: Side
    owner: Side | None
    from_retreat: bool = False


class CombatOpened(Event):
    """The combat at the declared location begins: a siege if the owner stays inside (8.9.1)."""

    type: Literal["combat_opened"] = "combat_opened"
    location: str
    siege: bool
    inside: tuple[str, ...]


class StayedInside(Event):
    """8.9.2: the castle's owner stays inside (or, for the active owner, no combat occurs)."""

    type: Literal["stayed_inside"] = "stayed_inside"
    location: str
    side: Side
    inside: bool
    combat: bool


class CombatActed(Event):
    """One action inside a combat (8.2-8.7), passed to the combat rules."""

    type: Literal["combat_acted"] = "combat_acted"
    side: Side
    action: dict[str, Any]


class CombatEnded(Event):
    """A combat is over: its losses are taken, its cards go to the discard piles (8.10)."""

    type: Literal["combat_ended"] = "combat_ended"
    location: str
    winner: Side | None
    losses: dict[Side, tuple[str, ...]]
    disks_lost: tuple[Disk, ...]
    castle_falls: bool
    siege: bool
    retreating: Side | None
    draws: dict[Side, int] = Field(default_factory=dict)


class Retreated(Event):
    """8.8: the loser's remaining blocks leave the location (up to two into the castle)."""

    type: Literal["retreated"] = "retreated"
    side: Side
    origin: str
    destination: str | None
    blocks: tuple[str, ...]
    into_castle: tuple[str, ...]
    join_castle: bool = False
    """8.8.5: the retreating blocks join friendly besieged blocks inside the castle there."""


class LocationResolved(Event):
    type: Literal["location_resolved"] = "location_resolved"
    location: str


class GameWon(Event):
    """2.1 instant victory or 2.2 victory points."""

    type: Literal["game_won"] = "game_won"
    winner: Side
    reason: str
    score: dict[Side, int] = Field(default_factory=dict)


SekigaharaEvent = Annotated[
    GameStarted | BlocksPlaced | CardsDrawn | CardsDiscarded | PhaseBegan | BidPlaced
    | BidsRevealed | FirstPlayerChosen | MovementBought | Mustered | MoriArrived | StackMoved
    | Overrun | ResourceControlled | CombatDeclared | CombatOpened | StayedInside | CombatActed
    | CombatEnded | Retreated | LocationResolved | GameWon,
    Field(discriminator="type"),
]
