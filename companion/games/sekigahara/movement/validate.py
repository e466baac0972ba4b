"""Validation of one stack's move (7.3.1-7.3.5, 7.4 as it affects movement, 4.1, 4.2)."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Board
from companion.games.sekigahara.movement import _messages as say
from companion.games.sekigahara.movement._graph import BoardIndex, board_index
from companion.games.sekigahara.movement.distance import can_overrun, movement_allowance
from companion.games.sekigahara.movement.model import (
    EMPTY_SITUATION,
    BlockMove,
    MoveAnalysis,
    MoveSituation,
    Overrun,
    Segment,
    StackMove,
)

Prefix = tuple[str, ...]


def validate_stack_move(
    board: Board, move: StackMove, situation: MoveSituation = EMPTY_SITUATION
) -> MoveAnalysis:
    """Check one stack's move and say what it does, or raise :class:`RuleViolation`.

    Checks, each citing its rule: paths follow roads (4.1) and are non-empty (7.3.1); no road is
    traversed twice in the move or used earlier this phase, and groups only split, never merge:
    blocks sharing a road segment travelled it together, with identical paths up to it (7.3.1);
    force-march groups move together, one march per block (7.3.3); each block keeps within its
    allowance (7.3.3-7.3.5: size penalty of the largest group it travelled in, i.e. the group on
    its first segment; highway bonus only for a path wholly on highways, C9; leadership at the
    origin, 7.3.4); blocks stop on entering enemy units unless they Overrun them (7.3.2, 7.4).

    Split groups are taken to move one after another in ``paths`` order, each finishing before
    the next continues, so an earlier group that stopped at a location counts towards a later
    group's Overrun there (7.4.1: blocks present), and a location once Overrun is free for the
    rest of the move (7.4.2).
    """
    index = board_index(board)
    origin = move.origin
    if origin not in board.locations:
        raise RuleViolation("4.1", f"{origin!r} is not a location on the map")
    if not move.paths:
        raise RuleViolation("7.3.1", "a move needs at least one moving block")

    tree = _Tree(index, origin)
    highway: dict[str, bool] = {}
    for block, path in move.paths.items():
        highway[block] = tree.add(block, path, situation.used_segments)

    forced = _force_march_groups(index, move)

    blocks: dict[str, BlockMove] = {}
    for block, path in move.paths.items():
        group = len(tree.members[path[:1]])
        allowance = movement_allowance(
            group,
            leadership=move.leadership,
            highway=highway[block],
            force_march=block in forced,
        )
        if len(path) > allowance:
            ruling = say.too_far(
                group,
                len(path),
                leadership=move.leadership,
                highway=highway[block],
                force_march=block in forced,
            )
            same = sum(1 for p in move.paths.values() if p == path)
            raise RuleViolation(
                ruling.rule,
                f"{say.blocks(same)} moving {say.locations(len(path))} from {index.name(origin)} "
                f"to {index.name(path[-1])}: {ruling.text}",
            )
        blocks[block] = BlockMove(
            path=path,
            group_size=group,
            allowance=allowance,
            highway=highway[block],
            leadership=move.leadership,
            force_march=block in forced,
        )

    return _walk(index, move, tree, situation, blocks)


class _Tree:
    """The move as a tree of path prefixes: each node is a group that travelled together."""

    def __init__(self, index: BoardIndex, origin: str) -> None:
        self.index = index
        self.origin = origin
        self.members: dict[Prefix, list[str]] = {}
        self.children: dict[Prefix, list[str]] = {}
        self.segment_of: dict[Prefix, Segment] = {}
        self._first_prefix: dict[Segment, Prefix] = {}

    def add(self, block: str, path: Prefix, used: frozenset[Segment]) -> bool:
        """Add one block's path; return whether it is wholly on highways."""
        name = self.index.name
        if not path:
            raise RuleViolation(
                "7.3.1",
                f"a moving block must move at least one location from {name(self.origin)}",
            )
        at = self.origin
        all_highway = True
        own: set[Segment] = set()
        for k, loc in enumerate(path):
            step = next((s for s in self.index.steps.get(at, ()) if s.to == loc), None)
            if step is None:
                if loc not in self.index.names:
                    raise RuleViolation("4.1", f"{loc!r} is not a location on the map")
                raise RuleViolation(
                    "4.1", f"no road joins {name(at)} and {name(loc)}: blocks move along roads"
                )
            segment = step.segment
            road = self.index.segment_name(segment)
            if segment in own:
                raise RuleViolation(
                    "7.3.1", f"road {road} may be traversed only once per Movement Phase"
                )
            own.add(segment)
            if segment in used:
                raise RuleViolation("7.3.1", say.road_used(road).text)
            prefix = path[: k + 1]
            first = self._first_prefix.setdefault(segment, prefix)
            if first != prefix:
                raise RuleViolation(
                    "7.3.1",
                    f"road {road} is travelled twice in this move: groups of a stack may split "
                    "but never rejoin, and no road may be traversed more than once",
                )
            all_highway = all_highway and step.highway
            if prefix not in self.members:
                self.members[prefix] = []
                self.children.setdefault(path[:k], []).append(loc)
                self.segment_of[prefix] = segment
            self.members[prefix].append(block)
            at = loc
        return all_highway


def _force_march_groups(index: BoardIndex, move: StackMove) -> set[str]:
    """The blocks that force-march; each group must begin, move and finish together (7.3.3)."""
    forced: set[str] = set()
    for group in move.force_marches:
        if not group:
            raise RuleViolation("7.3.3", "a force march applies to a group of blocks")
        for block in group:
            if block not in move.paths:
                raise RuleViolation("7.3.3", "a force march applies only to blocks that move")
            if block in forced:
                raise RuleViolation(
                    "7.3.3", "only one force march can be in effect for any given block"
                )
        forced |= group
        routes = {move.paths[block] for block in group}
        if len(routes) > 1:
            raise RuleViolation(
                "7.3.3",
                f"a force-marching group must begin, move and finish together: "
                f"{say.blocks(len(group))} force-marching from {index.name(move.origin)} "
                f"went {len(routes)} different ways",
            )
    return forced


def _walk(
    index: BoardIndex,
    move: StackMove,
    tree: _Tree,
    situation: MoveSituation,
    blocks: dict[str, BlockMove],
) -> MoveAnalysis:
    """Replay the move group by group: stops, Overruns, segments and resources (7.3.2, 7.4, 4.2)."""
    cleared: set[str] = set()
    arrived: dict[str, int] = {}
    overruns: list[Overrun] = []
    segments: list[Segment] = []
    resources: list[str] = []
    holds = situation.enemy_holds_castle

    def visit(prefix: Prefix) -> None:
        for loc in tree.children.get(prefix, ()):
            here = (*prefix, loc)
            group = tree.members[here]
            segments.append(tree.segment_of[here])
            if loc in index.resources and loc not in resources:
                resources.append(loc)
            stopping = sum(1 for block in group if len(move.paths[block]) == len(here))
            enemy = 0 if loc in cleared else situation.enemy_count.get(loc, 0)
            castle = loc in holds
            if enemy > 0 or castle:
                present = situation.friendly_count.get(loc, 0) + arrived.get(loc, 0) + len(group)
                if can_overrun(present, enemy, enemy_holds_castle=castle):
                    overruns.append(
                        Overrun(
                            location=loc,
                            moving_blocks=len(group),
                            blocks_present=present,
                            enemy_units=enemy,
                            group=frozenset(group),
                        )
                    )
                    cleared.add(loc)
                elif stopping < len(group):
                    ruling = say.must_stop(index.name(loc), present, enemy, castle=castle)
                    raise RuleViolation(
                        ruling.rule,
                        f"{say.blocks(len(group) - stopping)} moved on from "
                        f"{index.name(loc)}: {ruling.text}",
                    )
            arrived[loc] = arrived.get(loc, 0) + stopping
            visit(here)

    visit(())
    engagements: list[str] = []
    for block_move in blocks.values():
        loc = block_move.destination
        if loc not in cleared and situation.enemy_at(loc) and loc not in engagements:
            engagements.append(loc)
    return MoveAnalysis(
        side=move.side,
        origin=move.origin,
        blocks=blocks,
        overruns=tuple(overruns),
        segments=tuple(segments),
        resources=tuple(resources),
        engagements=tuple(engagements),
        force_march_cards=len(move.force_marches),
    )
