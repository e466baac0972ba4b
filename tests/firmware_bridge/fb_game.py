"""A real game for the table-session tests: the engine's own setup at a seeded table (as
self-play does), and the simulated table laid out to match it."""

from __future__ import annotations

from fb_helpers import WAIT_S

from companion.core.game import Accepted
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.players import play_until
from companion.games.sekigahara.engine.session_rules import TableRules
from companion.games.sekigahara.engine.state import Level, Phase
from companion.games.sekigahara.zones import is_bag
from firmware_bridge.bridge import Bridge
from firmware_bridge.simtable import SimulatedTable


def seeded_movement(seed: int = 5) -> SekigaharaGame:
    """Up to the first Movement Phase; the active side buys Total Movement (7.1)."""
    game = play_until(seed, lambda s: s.phase is Phase.MOVEMENT and s.level is None)
    assert game.state.active is not None
    result = game.submit(cm.BuyMovement(side=game.state.active, level=Level.TOTAL))
    assert isinstance(result, Accepted), result
    return game


def lay_out(table: SimulatedTable, bridge: Bridge, game: SekigaharaGame) -> dict[str, str]:
    """Put every block the engine has out of the bags where the engine has it; wait until the
    bridge sees them all."""
    wanted = {b: z for b, z in TableRules(game).expected_positions().items() if not is_bag(z)}
    for block, zone in wanted.items():
        table.put(block, zone)
    bridge.wait_for(lambda b: b.placements() == wanted, WAIT_S * 2)
    return wanted
