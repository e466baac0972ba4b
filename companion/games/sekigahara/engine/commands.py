"""Sekigahara's commands: what a player taps on the touchscreen or the readers infer.

Commands name blocks by id (the readers know every block); a rejection never repeats a hidden
id on the shared screen (see :mod:`.views`). Randomness is physical: commands carry what was
drawn from a bag, the engine checks it could have been.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from companion.core.events import Command as Command
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine.state import Level


class StartGame(Command):
    """5.1: turn marker on week 1, decks shuffled, 5 cards each, setup-symbol blocks placed."""

    type: Literal["start_game"] = "start_game"


class DrawBlocks(Command):
    """Blocks drawn from ``side``'s bag for the zone the engine asked for (5.2.2, 5.2.3, 6.2)."""

    type: Literal["draw_blocks"] = "draw_blocks"
    side: Side
    zone: str
    blocks: tuple[str, ...]


class Bid(Command):
    """6.3: the card laid face down to bid for turn order."""

    type: Literal["bid"] = "bid"
    side: Side
    card: str


class ChooseFirst(Command):
    """6.3: the bid winner picks who moves first in both turns of the week."""

    type: Literal["choose_first"] = "choose_first"
    side: Side
    first: Side


class BuyMovement(Command):
    """7.1: 0, 1 or 2 cards for no, minimal, limited or total movement.

    With ``level`` NONE, ``replace`` cards may be discarded and replenished.
    """

    type: Literal["buy_movement"] = "buy_movement"
    side: Side
    level: Level
    replace: int = 0


class Muster(Command):
    """7.2: blocks from the Recruitment Box to a recruitment location, option A or B."""

    type: Literal["muster"] = "muster"
    side: Side
    location: str
    blocks: tuple[str, ...]
    option: Literal["A", "B"]


class BringMori(Command):
    """9.3: Ishida discards one card per Mori block brought to Osaka (the leader last)."""

    type: Literal["bring_mori"] = "bring_mori"
    side: Side = Side.ISHIDA
    blocks: tuple[str, ...]


class MoveStack(Command):
    """7.3: one stack move. ``paths`` maps each moving block to the locations it passes after
    the origin, ending at its destination (as in the movement rules' ``StackMove``).

    Blocks with the same route prefix travel together; each tuple of ``force_marches`` is a
    group that begins, moves and ends together and force marches on one discarded card.
    """

    type: Literal["move_stack"] = "move_stack"
    side: Side
    origin: str
    paths: dict[str, tuple[str, ...]]
    force_marches: tuple[tuple[str, ...], ...] = ()


class EndPhase(Command):
    """End the active side's Movement or Combat Phase."""

    type: Literal["end_phase"] = "end_phase"
    side: Side


class DeclareCombat(Command):
    """8.1: declare combat at a location. ``inside`` is the castle choice when the declaring
    side owns the castle there (8.9.2); True means it stays inside and no combat occurs."""

    type: Literal["declare_combat"] = "declare_combat"
    side: Side
    location: str
    inside: bool = False


class ChooseInside(Command):
    """8.9.2: the defending castle owner (two blocks or fewer) stays inside or fights outside."""

    type: Literal["choose_inside"] = "choose_inside"
    side: Side
    inside: bool


class CardPlay(Command):
    """A card played face up: clan and kind, and its id when the table knows it."""

    type: Literal["card"] = "card"
    clan: Clan | None
    kind: CardKind
    card_id: str | None = None


class Deploy(Command):
    """8.2.3: deploy one block (two with a double card) with a card, or a leader without one."""

    type: Literal["deploy"] = "deploy"
    side: Side
    card: CardPlay | None
    blocks: tuple[str, ...]


class Challenge(Command):
    """8.6.1: ``side`` plays a Loyalty Challenge against the deployment just made, and the
    deploying side answers: ``refuted`` if it showed a card able to deploy the block. The answer
    is the deploying side's, so the command comes from its device (C19). ``card`` names the
    Loyalty Challenge card and ``shown`` the card shown, when the table knows them."""

    type: Literal["challenge"] = "challenge"
    side: Side
    refuted: bool
    card: str | None = None
    shown: str | None = None


class Finish(Command):
    """8.5: the side holding the initiative deploys no more."""

    type: Literal["finish"] = "finish"
    side: Side


class TakeLosses(Command):
    """8.7.2: the blocks (or disk names) a side chooses to lose."""

    type: Literal["take_losses"] = "take_losses"
    side: Side
    losses: tuple[str, ...]


class Retreat(Command):
    """8.8: the loser's remaining blocks go to ``destination``; up to two may stay in the
    castle instead (8.8.4)."""

    type: Literal["retreat"] = "retreat"
    side: Side
    destination: str | None
    into_castle: tuple[str, ...] = ()


SekigaharaCommand = Annotated[
    StartGame | DrawBlocks | Bid | ChooseFirst | BuyMovement | Muster | BringMori | MoveStack
    | EndPhase | DeclareCombat | ChooseInside | Deploy | Challenge | Finish | TakeLosses
    | Retreat,
    Field(discriminator="type"),
]
COMBAT_COMMANDS = (Deploy, Challenge, Finish, TakeLosses)
