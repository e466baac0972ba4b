"""Shared helpers for the Tenka Meidou tests."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import StartGame
from companion.games.tenka_meidou.state import RESERVE, PawnMove

R, B, Y, K = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.BLACK

# A fixed layout of the large castle tokens (zone -> value), used by the rules tests.
CASTLES = {"tsutsujigasaki": 2, "oko": 3, "yoshida_koriyama": 4, "kyoto": 5, "tokuyama": 6,
           "yonezawa": 7, "kasugayama": 8, "odawara": 9, "usuki": 10, "shuri": 11, "kiyosu": 12}


DAIMYO_ORDER = (Daimyo.ODA_NOBUNAGA, Daimyo.MORI_MOTONARI, Daimyo.UESUGI_KENSHIN,
                Daimyo.TAKEDA_SHINGEN, Daimyo.CHOSOKABE_MOTOCHIKA, Daimyo.OTOMO_SORIN)


def rulebook_example() -> dict[str, Any]:
    text = resources.files("companion.games.tenka_meidou").joinpath(
        "examples", "rulebook-war.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def start(players: tuple[Colour, ...] = (R, B, Y), *, advanced: bool = False,
          offer: tuple[Tactic, ...] | None = None) -> StartGame:
    n = len(players) + 1
    return StartGame(players=players, advanced=advanced, castles=CASTLES,
                     tactic_offer=offer or tuple(list(Tactic)[:n]),
                     daimyo_offer=DAIMYO_ORDER[:n] if advanced else ())


def mv(colour: Colour, origin: str, destination: str, count: int = 1,
       pawn: str = "soldier") -> PawnMove:
    return PawnMove(colour=colour, origin=origin, destination=destination,
                    count=count, pawn=pawn)  # type: ignore[arg-type]


__all__ = ["CASTLES", "RESERVE", "B", "K", "R", "Y", "mv", "rulebook_example", "start"]
