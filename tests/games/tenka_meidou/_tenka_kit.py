"""Shared helpers for the Tenka Meidou tests."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

from companion.core.store import Store
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import StartGame
from companion.games.tenka_meidou.players import RandomPlayer, random_start
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, Phase

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


def play_stored(store: Store, seed: int, commands: int | None = None,
                advanced: bool | None = None) -> int:
    """A seeded random game recorded in ``store`` (``commands`` of them, or to the end); its
    id. ``advanced``: the seed must deal that game (the advanced rules, section 9)."""
    rules = TenkaRules()
    rng = random.Random(seed)
    game_id, game = records.start(store, rules)
    start = random_start(rng, rules.board, rules.components)
    assert advanced is None or start.advanced is advanced
    game.submit(start)
    player = RandomPlayer(rng, rules.board, rules.components)
    while game.state.phase is not Phase.OVER and (commands is None or commands > 0):
        game.submit(player.command(game.state))
        commands = None if commands is None else commands - 1
    records.finish_if_over(store, game_id, game)
    return game_id
