"""A small, real :class:`~firmware_bridge.discrepancy.MoveRules`: moves along one road.

Not the game engine: it knows only the board graph and a few off-map zones. A block may move to
an adjacent location (7.3.1), leave a Recruitment Box for a location (7.2) or the Mori box for
Osaka (9.3), go to its own side's deployment tray or the casualty tray, and come back from the
deployment tray to the location it was revealed at. A block in its side's bag may be drawn onto
a location (set-up, 5.2.2) or into its side's Recruitment Box (the Reinforcement Step, 6.2).
Useful for testing the discrepancy logic and for running the bridge without the engine
(``companion hardware watch``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import (
    BlockSet,
    Board,
    Side,
    default_blocks,
    default_board,
)
from firmware_bridge.discrepancy import ProposedMove
from firmware_bridge.zones import CASUALTIES, bag, deployment_tray, is_bag, zone_name


def _recruitment_box(board: Board, side: Side) -> str | None:
    return next((b.id for b in board.boxes.values()
                 if b.id.startswith(side.value) and b.kind.value == "recruitment"), None)


@dataclass
class AdjacencyRules:
    """Expected positions plus the road graph; :meth:`apply` adopts a legal move."""

    positions: dict[str, str]
    board: Board = field(default_factory=default_board)
    blocks: BlockSet = field(default_factory=default_blocks)
    _revealed_at: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_game(cls, on_table: Mapping[str, str], blocks: BlockSet | None = None
                 ) -> AdjacencyRules:
        """Every block of the game in play: those on the table where they are, the others in
        their side's bag (not watched), so a block drawn later is judged, not "not in play"."""
        blocks = blocks or default_blocks()
        positions = {b.id: on_table.get(b.id) or bag(b.side) for b in blocks.blocks}
        return cls(positions, blocks=blocks)

    def expected_positions(self) -> Mapping[str, str]:
        return self.positions

    def explain_move(
        self, origin: str, destination: str, block_ids: Sequence[str]
    ) -> RuleViolation | None:
        sides = {b.id: b.side for b in self.blocks.blocks}
        for block in block_ids:
            verdict = self._judge(block, sides[block], origin, destination)
            if verdict is not None:
                return verdict
        return None

    def _judge(self, block: str, side: Side, origin: str, destination: str
               ) -> RuleViolation | None:
        tray = deployment_tray(side)
        if destination in (CASUALTIES, tray):
            return None
        if origin == tray and destination == self._revealed_at.get(block, destination):
            return None
        if is_bag(origin):
            if destination in self.board.locations:
                return None  # a set-up draw (5.2.2)
            if destination == _recruitment_box(self.board, side):
                return None  # a Reinforcement Step draw (6.2)
            return RuleViolation("6.2", f"blocks drawn from the bag go to "
                                 f"{zone_name(_recruitment_box(self.board, side) or '')}")
        if origin in self.board.boxes:
            box = self.board.boxes[origin]
            rule = "9.3" if box.kind.value == "mori" else "7.2"
            if destination in self.board.locations and box.leads_to in (None, destination):
                return None
            where = zone_name(box.leads_to) if box.leads_to else "a location on the map"
            return RuleViolation(rule, f"blocks leave {zone_name(origin)} for {where} only")
        if origin in self.board.locations and destination in self.board.neighbours(origin):
            return None
        return RuleViolation(
            "7.3.1", f"{zone_name(destination)} is not one road away from {zone_name(origin)}"
        )

    def apply(self, move: ProposedMove) -> None:
        for block in move.block_ids:
            if move.destination.endswith("_deployment"):
                self._revealed_at[block] = move.origin
            self.positions[block] = move.destination
