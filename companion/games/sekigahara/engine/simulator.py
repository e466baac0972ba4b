"""Seeded self-play: two random players at a seeded table, invariants after every command.

The invariants are checked on the state each accepted command leaves, the one every screen and
store sees: a state inside a command, between two of its events, is shown to nobody."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.core.game import Recorder, Rejection
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.invariants import violations
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.state import Phase

MAX_COMMANDS = 20_000


@dataclass
class GameReport:
    seed: int
    winner: Side | None = None
    victory: str | None = None
    instant: bool = False
    commands: int = 0
    events: int = 0
    rejections: list[str] = field(default_factory=list)
    invariant_violations: list[str] = field(default_factory=list)
    error: str | None = None
    game: SekigaharaGame | None = None

    @property
    def completed(self) -> bool:
        return self.winner is not None and self.error is None


def play_game(
    seed: int, *, check: bool = True, max_rejections: int = 50, recorder: Recorder | None = None
) -> GameReport:
    """Play one complete game; never raises (errors are reported). ``recorder`` stores every
    accepted command (``companion selfplay --export``)."""
    rng = random.Random(seed)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    game = new_game()
    game.recorder = recorder
    report = GameReport(seed=seed, game=game)
    try:
        while game.state.phase is not Phase.GAME_OVER and report.commands < MAX_COMMANDS:
            command = player.command(game.state)
            result = game.submit(command)
            report.commands += 1
            if isinstance(result, Rejection):
                report.rejections.append(f"{command.type}: {result}")
                if len(report.rejections) > max_rejections:
                    raise RuntimeError(f"too many rejections, last: {result} for {command}")
                continue
            for event in result.events:
                table.observe(event)
            if check:
                report.invariant_violations += [
                    f"after {command.type}: {v}" for v in violations(game.state)
                ]
                for side in Side:
                    if len(table.hand[side]) != game.state.hand[side]:
                        report.invariant_violations.append(
                            f"{side} table hand {len(table.hand[side])} != "
                            f"{game.state.hand[side]}")
        report.events = len(game.events)
        if game.state.phase is not Phase.GAME_OVER:
            raise RuntimeError("game did not finish")
        report.winner = game.state.winner
        report.victory = game.state.victory
        report.instant = "2.2" not in (game.state.victory or "")
    except Exception as exc:  # self-play reports every failure instead of stopping
        report.error = f"{type(exc).__name__}: {exc}"
    return report
