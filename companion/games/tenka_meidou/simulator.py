"""Seeded self-play: random players at a random table, invariants after every command."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pydantic import TypeAdapter

from companion.core.game import Game, Rejection, replay
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.events import TenkaCommand, TenkaEvent
from companion.games.tenka_meidou.invariants import violations
from companion.games.tenka_meidou.players import RandomPlayer
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State

MAX_COMMANDS = 1_000
EVENT_LOG: TypeAdapter[list[TenkaEvent]] = TypeAdapter(list[TenkaEvent])
TenkaGame = Game[State, TenkaCommand, TenkaEvent]


@dataclass
class GameReport:
    seed: int
    winner: Colour | None = None
    players: int = 0
    advanced: bool = False
    commands: int = 0
    cards: int = 0
    rejections: list[str] = field(default_factory=list)
    invariant_violations: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def completed(self) -> bool:
        return self.winner is not None and self.error is None


def play_game(seed: int, *, check: bool = True, rules: TenkaRules | None = None) -> GameReport:
    """Play one complete game; never raises (errors are reported)."""
    rules = rules or TenkaRules()
    rng = random.Random(seed)
    player = RandomPlayer(rng, rules.board, rules.components)
    game: TenkaGame = Game(rules)
    report = GameReport(seed=seed)
    try:
        while game.state.phase is not Phase.OVER and report.commands < MAX_COMMANDS:
            command = player.command(game.state)
            result = game.submit(command)
            report.commands += 1
            if isinstance(result, Rejection):
                report.rejections.append(f"{command.type}: {result}")
                raise RuntimeError(f"a generated command was rejected: {result}: {command}")
            report.cards += int(command.type in ("tactic", "daimyo"))
            if check:
                report.invariant_violations += [
                    f"after {command.type}: {v}"
                    for v in violations(game.state, rules.board, rules.components)]
        if game.state.phase is not Phase.OVER or game.state.war is None:
            raise RuntimeError("game did not finish")
        if check:
            logged = EVENT_LOG.validate_json(EVENT_LOG.dump_json(list(game.events)))
            if replay(rules, logged) != game.state:
                report.invariant_violations.append("replaying the JSON log gives another state")
        report.winner = game.state.war.winner
        report.players = len(game.state.players)
        report.advanced = game.state.advanced
    except Exception as exc:  # self-play reports every failure instead of stopping
        report.error = f"{type(exc).__name__}: {exc}"
    return report
