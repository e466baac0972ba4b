"""The state of a game of Sekigahara, copy-on-write.

Blocks live in zones: a location id, or one of the off-map zones below. ``pos`` says where each
block is and ``at`` which blocks each zone holds (the same facts turned round, so a question about
one location reads its few blocks instead of all 96); both change only through
:meth:`State.place`. ``inside`` holds the
blocks inside a castle (besieged or harboured after a retreat, 8.8.4, 8.9.6). Cards are tracked
as counts only (hands are hidden and untagged); the identities of cards played face up travel in
the events, and those known are kept while they lie face up on the table (``table_cards``) and
then in the discard pile (``discarded``) until it is reshuffled (3.3, 6.3, 8.10).
:meth:`State.copy` gives an independent copy; ``apply`` always works on one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.games.sekigahara.components import Disk, Side

BAG = "@bag"
RECRUITMENT = "@recruitment"
MORI_BOX = "@mori"
DEAD = "@dead"
ASIDE = "@aside"  # not yet placed at setup
OFF_MAP = frozenset({BAG, RECRUITMENT, MORI_BOX, DEAD, ASIDE})


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    SETUP = "setup"
    REINFORCEMENT = "reinforcement"
    BID = "bid"
    CHOOSE_FIRST = "choose_first"
    MOVEMENT = "movement"
    COMBAT = "combat"
    GAME_OVER = "game_over"


class Level(StrEnum):
    """The degree of movement bought with cards (7.1)."""

    NONE = "none"
    MINIMAL = "minimal"
    LIMITED = "limited"
    TOTAL = "total"


class Stage(StrEnum):
    """Where a combat in progress stands."""

    CASTLE_CHOICE = "castle_choice"
    FIGHTING = "fighting"
    RETREAT = "retreat"


@dataclass
class PendingCombat:
    """The one combat being resolved (8.1: combats resolve one at a time)."""

    location: str
    attacker: Side
    owner: Side | None  # castle owner before the combat (8.9.1), None without a castle
    stage: Stage
    siege: bool = False
    combat: Any = None  # the combat module's CombatState
    retreating: Side | None = None
    from_retreat: bool = False
    draws: dict[Side, int] = field(default_factory=dict)  # 8.10 replenishment after the retreat

    def copy(self) -> PendingCombat:
        return PendingCombat(
            self.location, self.attacker, self.owner, self.stage, self.siege, self.combat,
            self.retreating, self.from_retreat, dict(self.draws),
        )


def _sides(value: int) -> dict[Side, int]:
    return {Side.ISHIDA: value, Side.TOKUGAWA: value}


def _ids() -> dict[Side, tuple[str, ...]]:
    return {Side.ISHIDA: (), Side.TOKUGAWA: ()}


def _no_ids() -> dict[Side, frozenset[str]]:
    return {Side.ISHIDA: frozenset(), Side.TOKUGAWA: frozenset()}


@dataclass
class State:
    phase: Phase = Phase.NOT_STARTED
    week: int = 1
    turn: str = "A"
    first: Side | None = None
    active: Side | None = None
    pos: dict[str, str] = field(default_factory=dict)
    at: dict[str, frozenset[str]] = field(default_factory=dict)  # zone -> blocks; none: absent
    inside: set[str] = field(default_factory=set)
    disks: dict[Disk, str | None] = field(default_factory=dict)
    casualties: list[str] = field(default_factory=list)
    resource_control: dict[str, Side | None] = field(default_factory=dict)
    castle_owner: dict[str, Side] = field(default_factory=dict)
    hand: dict[Side, int] = field(default_factory=lambda: _sides(0))
    draw: dict[Side, int] = field(default_factory=lambda: _sides(0))
    discard: dict[Side, int] = field(default_factory=lambda: _sides(0))
    table: dict[Side, int] = field(default_factory=lambda: _sides(0))
    # known ids of the cards face up on the table, then in the discard pile (3.3, 6.3, 8.10)
    table_cards: dict[Side, tuple[str, ...]] = field(default_factory=lambda: _ids())
    discarded: dict[Side, frozenset[str]] = field(default_factory=lambda: _no_ids())
    # setup and reinforcement: draws still owed, in order: (side, zone, count)
    draws_due: list[tuple[Side, str, int]] = field(default_factory=list)
    bids: dict[Side, str] = field(default_factory=dict)
    bid_winner: Side | None = None
    # movement phase of the active side
    level: Level | None = None
    moves_left: int = 0
    muster_left: int = 0
    mustered: bool = False
    moved: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)  # origins of this phase's moves (C13)
    immobile: set[str] = field(default_factory=set)
    used_segments: set[tuple[str, str]] = field(default_factory=set)
    entered_from: dict[str, set[str]] = field(default_factory=dict)  # loc -> origins (active)
    # combat phase
    resolved: set[str] = field(default_factory=set)
    pending: PendingCombat | None = None
    # end of game
    winner: Side | None = None
    victory: str | None = None
    score: dict[Side, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.pos and not self.at:  # a state built from positions alone (tests, referee)
            self.at = index_of(self.pos)

    def place(self, block: str, zone: str) -> None:
        """Put ``block`` in ``zone``: the one way a block changes zone, so ``at`` stays
        ``pos`` turned round."""
        old = self.pos.get(block)
        if old == zone:
            return
        self.pos[block] = zone
        if old is not None:
            rest = self.at[old] - {block}
            if rest:
                self.at[old] = rest
            else:
                del self.at[old]
        self.at[zone] = self.at.get(zone, frozenset()) | {block}

    def copy(self) -> State:
        return State(
            phase=self.phase, week=self.week, turn=self.turn, first=self.first,
            active=self.active, pos=dict(self.pos), at=dict(self.at), inside=set(self.inside),
            disks=dict(self.disks), casualties=list(self.casualties),
            resource_control=dict(self.resource_control),
            castle_owner=dict(self.castle_owner), hand=dict(self.hand), draw=dict(self.draw),
            discard=dict(self.discard), table=dict(self.table),
            table_cards=dict(self.table_cards), discarded=dict(self.discarded),
            draws_due=list(self.draws_due),
            bids=dict(self.bids), bid_winner=self.bid_winner, level=self.level,
            moves_left=self.moves_left, muster_left=self.muster_left, mustered=self.mustered,
            moved=set(self.moved), sources=set(self.sources), immobile=set(self.immobile),
            used_segments=set(self.used_segments),
            entered_from={k: set(v) for k, v in self.entered_from.items()},
            resolved=set(self.resolved),
            pending=self.pending.copy() if self.pending else None,
            winner=self.winner, victory=self.victory, score=dict(self.score),
        )


def index_of(pos: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """The blocks in each zone, from every block's zone: what ``at`` must equal."""
    found: dict[str, set[str]] = {}
    for block, zone in pos.items():
        found.setdefault(zone, set()).add(block)
    return {zone: frozenset(blocks) for zone, blocks in found.items()}


def index_agrees(state: State) -> bool:
    """Whether ``at`` is ``pos`` turned round, by a full scan: ``at`` read back block by block
    gives ``pos``, no block is in two zones' sets and no set is empty (the same verdict as
    comparing with :func:`index_of`, at a third of the cost)."""
    turned: dict[str, str] = {}
    total = 0
    for zone, blocks in state.at.items():
        if not blocks:
            return False
        turned.update(dict.fromkeys(blocks, zone))
        total += len(blocks)
    return total == len(turned) and turned == state.pos
