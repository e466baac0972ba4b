"""The plain data a move is described with and the results the movement rules return."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

from companion.core.rules import RuleViolation, Ruling
from companion.games.sekigahara.components import Side

Segment = frozenset[str]
"""A road segment, named by its two ends (7.3.1)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MoveSituation(_Frozen):
    """What the board looks like to the moving side when a stack moves (7.3.1, 7.3.2, 7.4).

    ``friendly_count``: blocks of the moving side already at each location, not counting the
    moving stack (forces committed to battle there lend their strength, 7.4.2, and so do the
    mover's blocks inside a castle there against besiegers outside, 7.4.3: fold them in).
    ``enemy_count``: enemy units at each location; disks are units (8.9.3) and blocks inside a
    castle lend their strength against besiegers outside (7.4.3): fold them in.
    ``enemy_holds_castle``: locations whose castle the enemy controls; they cannot be Overrun
    (7.4.3) and moving blocks must stop there.
    ``used_segments``: road segments other stacks already traversed this Movement Phase (7.3.1).
    """

    friendly_count: Mapping[str, int] = Field(default_factory=dict)
    enemy_count: Mapping[str, int] = Field(default_factory=dict)
    enemy_holds_castle: frozenset[str] = frozenset()
    used_segments: frozenset[Segment] = frozenset()

    def enemy_at(self, location: str) -> bool:
        return self.enemy_count.get(location, 0) > 0 or location in self.enemy_holds_castle


EMPTY_SITUATION = MoveSituation()


class StackMove(_Frozen):
    """One stack's move (7.3.1), as the engine saw it or the player declared it.

    ``paths`` maps each moving block (an opaque id) to the locations it passed through after the
    origin, ending at its destination; blocks that stay are not listed. Blocks whose paths share
    a road segment travelled it together, so paths must form a tree from the origin (groups split,
    never merge). When groups split, they are taken to move one after another in the order their
    first block appears in ``paths`` (a group finishes its move before the next one continues):
    that order decides which blocks are present for an Overrun (7.4.2).
    ``force_marches``: the groups that force-march, one card each (7.3.3).
    ``leadership``: whether Leadership is present at the origin (7.3.4); see ``leadership_at``.
    """

    side: Side
    origin: str
    paths: dict[str, tuple[str, ...]]
    force_marches: tuple[frozenset[str], ...] = ()
    leadership: bool = False

    @classmethod
    def together(
        cls,
        side: Side,
        route: Route,
        blocks: Iterable[str],
        *,
        leadership: bool,
        force_march: bool = False,
    ) -> StackMove:
        """The move of ``blocks`` travelling together along ``route`` (e.g. the route a player
        picked from ``explain_move``), force-marching as one group if ``force_march``."""
        group = frozenset(blocks)
        return cls(
            side=side,
            origin=route.origin,
            paths=dict.fromkeys(sorted(group), route.path),
            force_marches=(group,) if force_march else (),
            leadership=leadership,
        )


class BlockMove(_Frozen):
    """How one block moved and the allowance it had (7.3.3-7.3.5)."""

    path: tuple[str, ...]
    group_size: int
    """The largest group the block travelled in (7.3.5): the group on its first segment."""
    allowance: int
    highway: bool
    leadership: bool
    force_march: bool

    @property
    def destination(self) -> str:
        return self.path[-1]


class Overrun(_Frozen):
    """An Overrun a move triggers (7.4): the engine destroys the enemy units at ``location``."""

    location: str
    moving_blocks: int
    """The size of the moving group at the moment it arrived."""
    blocks_present: int
    """Moving group + friendly blocks already there (including earlier groups of this stack)."""
    enemy_units: int
    group: frozenset[str]
    """The moving blocks that arrived together and triggered it."""


class MoveAnalysis(_Frozen):
    """What a legal stack move does, for the engine to apply and report."""

    side: Side
    origin: str
    blocks: dict[str, BlockMove]
    overruns: tuple[Overrun, ...]
    """In the order they happen; each location is then free of enemy units (7.4.2)."""
    segments: tuple[Segment, ...]
    """Every road segment the stack used, for the phase's ``used_segments`` (7.3.1)."""
    resources: tuple[str, ...]
    """Resource Locations moved onto or through, in path order: the mover controls them (4.2)."""
    engagements: tuple[str, ...]
    """Destinations where enemy units remain: combat must be declared there (8.1)."""
    force_march_cards: int

    @property
    def destinations(self) -> dict[str, str]:
        return {block: move.destination for block, move in self.blocks.items()}


class Route(_Frozen):
    """One way for a group moving together to go from ``origin`` to ``path[-1]``."""

    origin: str
    path: tuple[str, ...]
    """The locations after the origin, ending at the destination (as in ``StackMove.paths``)."""
    segments: tuple[Segment, ...]
    all_highway: bool
    """Whether the whole route is on highways, so the highway bonus applies (7.3.3, C9)."""
    overruns: tuple[str, ...]
    """Locations whose enemy units the group Overruns on the way, in order (7.4)."""
    resources: tuple[str, ...]
    """Resource Locations moved onto or through, in order (4.2)."""
    allowance_used: int
    """Locations moved: ``len(path)``."""
    allowance: int
    """The group's allowance on this route (force march counted if one was allowed)."""
    needs_force_march: bool
    """Whether the route is only within reach with a force march card (7.3.3)."""
    needs_leader: bool = False
    """Whether the route is only within reach with a hidden leader's Leadership, which the move
    then declares (7.3.4, C10, C12). Set by the engine's queries; the movement rules leave it
    False because they are told only whether Leadership is present."""

    @property
    def destination(self) -> str:
        return self.path[-1]


class MoveExplanation(_Frozen):
    """Whether and how a group could have gone from ``origin`` to ``destination``."""

    origin: str
    destination: str
    group_size: int
    routes: tuple[Route, ...]
    """Every legal route, shortest first: the player picks one when there are several."""
    violation: Ruling | None = None
    """Why no route is legal, citing the most informative rule; None when some route is."""

    @property
    def legal(self) -> bool:
        return bool(self.routes)

    @property
    def needs_force_march(self) -> bool:
        """True when every legal route needs a force march card."""
        return self.legal and all(r.needs_force_march for r in self.routes)

    @property
    def reason(self) -> str | None:
        """``"7.3.5: a group of 9 blocks moves at most 2 locations here"``, or None if legal."""
        return None if self.violation is None else f"{self.violation.rule}: {self.violation.text}"

    def raise_if_illegal(self) -> None:
        if self.violation is not None:
            raise RuleViolation(self.violation.rule, self.violation.text)
