"""The state of a game of Tenka Meidou, rebuilt from the event log by ``engine.apply``."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.war import WarResult

RESERVE = "reserve"


class Phase(StrEnum):
    SETUP = "setup"              # before the table is laid out (section 3)
    DAIMYO = "daimyo"            # advanced game: choosing Daimyo cards (section 9)
    DEPLOYMENT = "deployment"    # section 5.I
    OVER = "over"                # the War phase has been fought (5.II, 6)


class PawnMove(BaseModel):
    """``count`` pawns of one colour and kind going from one place to another.

    A place is a zone id or ``"reserve"`` (the colour's own reserve).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    colour: Colour
    pawn: Literal["soldier", "daimyo"] = "soldier"
    origin: str
    destination: str
    count: int = Field(default=1, ge=1)


class State(BaseModel):
    model_config = ConfigDict(frozen=True)

    phase: Phase = Phase.SETUP
    players: tuple[Colour, ...] = ()          # clockwise, the first player first
    advanced: bool = False
    castles: dict[str, int] = {}              # zone -> large castle value
    tactic_offer: tuple[Tactic, ...] = ()
    tactic_used: dict[Colour, Tactic] = {}
    daimyo_offer: tuple[Daimyo, ...] = ()
    daimyo: dict[Colour, Daimyo] = {}         # chosen, face down until used
    daimyo_used: tuple[Colour, ...] = ()      # face up
    soldiers: dict[str, dict[Colour, int]] = {}   # zone -> colour -> soldier pawns
    daimyo_at: dict[Colour, str] = {}         # zone of each Daimyo pawn on the board
    reserve: dict[Colour, int] = {}           # soldier pawns left to place
    swords: dict[Colour, int] = {}
    last_actor: Colour | None = None
    war: WarResult | None = None

    def on_board(self, zone: str, colour: Colour) -> int:
        return self.soldiers.get(zone, {}).get(colour, 0)

    def daimyo_in_reserve(self, colour: Colour) -> bool:
        return self.advanced and colour not in self.daimyo_at

    def pawns_left(self, colour: Colour) -> int:
        """Pawns still to deploy: soldiers, plus the Daimyo in the advanced game (section 9)."""
        return self.reserve.get(colour, 0) + int(self.daimyo_in_reserve(colour))

    @property
    def locked(self) -> bool:
        """Once anyone has placed all their pawns, no more cards (sections 5.I.2, 8, 9)."""
        return bool(self.swords)

    @property
    def current(self) -> Colour | None:
        """Whose turn it is: clockwise from the first player, skipping finished players."""
        if self.phase is not Phase.DEPLOYMENT:
            return None
        n = len(self.players)
        start = 0 if self.last_actor is None else self.players.index(self.last_actor) + 1
        for i in range(n):
            colour = self.players[(start + i) % n]
            if colour not in self.swords:
                return colour
        return None

    def daimyo_chooser(self) -> Colour | None:
        """Advanced set-up: from the first player's right, counter-clockwise (section 9)."""
        if self.phase is not Phase.DAIMYO:
            return None
        for colour in reversed(self.players):
            if colour not in self.daimyo:
                return colour
        return None
