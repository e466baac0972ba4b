"""The command duel (DUELO DE MANDO, B9.1): bids of command cards for the turn initiative.

The player without the initiative calls; each lays one or more cards face down; the higher sum
takes the initiative, and "en caso de empate el jugador que tenía la iniciativa la mantiene".
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import DuelInput
from companion.games.kensei.rules import rules


class PerSide(BaseModel):
    model_config = ConfigDict(frozen=True)

    a: int
    b: int


class DuelRuling(BaseModel):
    model_config = ConfigDict(frozen=True)

    sums: PerSide
    tie: bool
    initiative_after: str
    discarded: PerSide


def hand_size(battle_points: int) -> int:
    """USANDO LA BARAJA DE MANDO: 4 cards from 200 pe, 5 from 400, 6 from 600."""
    sizes = [n for at_least, n in sorted(rules().hand_sizes.items()) if battle_points >= at_least]
    if not sizes:
        raise KenseiError(f"battle_points: the hand size is given from {min(rules().hand_sizes)} "
                          "pe up", "USANDO LA BARAJA DE MANDO")
    return sizes[-1]


def check_duel(inp: DuelInput) -> None:
    deck = rules().command_deck
    for side, bid in (("a", inp.bids.a), ("b", inp.bids.b)):
        for value, copies in sorted(Counter(bid).items()):
            if value not in deck:
                raise KenseiError(f"bids.{side}: a card is worth 0 to 3",
                                  "PREPARA TU BARAJA DE MANDO")
            if copies > deck[value]:
                raise KenseiError(f"bids.{side}: a deck holds {deck[value]} cards of "
                                  f"{value}, {copies} bid", "PREPARA TU BARAJA DE MANDO")
    if inp.battle_points is not None:
        most = hand_size(inp.battle_points)
        for side, bid in (("a", inp.bids.a), ("b", inp.bids.b)):
            if len(bid) > most:
                raise KenseiError(f"bids.{side}: {len(bid)} cards bid, the hand holds {most} at "
                                  f"{inp.battle_points} pe", "USANDO LA BARAJA DE MANDO")
    if inp.caller == inp.initiative:
        raise KenseiError("caller: the player without the initiative calls the duel",
                          "DUELO DE MANDO")
    if not inp.bids.a or not inp.bids.b:
        raise KenseiError("bids: each player lays one card or more", "DUELO DE MANDO")
    if inp.duel_this_pair:
        raise KenseiError("duel_this_pair: one command duel per activation pair",
                          "DUELO DE MANDO")


def duel(inp: DuelInput) -> DuelRuling:
    """The duel of ``inp``, which must have passed ``check_duel``."""
    a, b = sum(inp.bids.a), sum(inp.bids.b)
    winner = inp.initiative if a == b else "a" if a > b else "b"
    return DuelRuling(sums=PerSide(a=a, b=b), tie=a == b, initiative_after=winner,
                      discarded=PerSide(a=len(inp.bids.a), b=len(inp.bids.b)))
