"""A small, real :class:`~firmware_bridge.discrepancy.MoveRules`: moves along one road.

Not the game engine: it knows only the board graph and a few off-map zones. A block may move to
an adjacent location, leave a Recruitment or Mori box for the location it leads to (or any
location, if the box names none), go to its own side's deployment tray or the casualty tray, and
come back from the deployment tray to the location it was revealed at. Useful for testing the
discrepancy logic and for running the bridge without the engine (``companion hardware watch``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import BlockSet, Board, default_blocks, default_board
from firmware_bridge.discrepancy import ProposedMove
from firmware_bridge.zones import CASUALTIES, deployment_tray, zone_name


@dataclass
class AdjacencyRules:
    """Expected positions plus the road graph; :meth:`apply` adopts a legal move."""

    positions: dict[str, str]
    board: Board = field(default_factory=default_board)
    blocks: BlockSet = field(default_factory=default_blocks)
    _revealed_at: dict[str, str] = field(default_factory=dict)

    def expected_positions(self) -> Mapping[str, str]:
        return self.positions

    def explain_move(
        self, origin: str, destination: str, block_ids: Sequence[str]
    ) -> RuleViolation | None:
        sides = {b.id: b.side for b in self.blocks.blocks}
        for block in block_ids:
            tray = deployment_tray(sides[block])
            if destination in (CASUALTIES, tray):
                continue
            if origin == tray and destination == self._revealed_at.get(block, destination):
                continue
            if origin in self.board.boxes:
                leads_to = self.board.boxes[origin].leads_to
                if destination in self.board.locations and leads_to in (None, destination):
                    continue
            if origin in self.board.locations and destination in self.board.neighbours(origin):
                continue
            return RuleViolation(
                "6.2",
                f"{zone_name(destination)} is not one road away from {zone_name(origin)}",
            )
        return None

    def apply(self, move: ProposedMove) -> None:
        for block in move.block_ids:
            if move.destination.endswith("_deployment"):
                self._revealed_at[block] = move.origin
            self.positions[block] = move.destination
