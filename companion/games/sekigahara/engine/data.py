"""The printed components as the engine looks them up: board, block faces, cards."""

from __future__ import annotations

from functools import cache

from companion.games.sekigahara.components import (
    Block,
    BlockFace,
    Board,
    Card,
    Clan,
    Disk,
    Side,
    default_blocks,
    default_board,
    default_decks,
)

BOARD: Board = default_board()
BLOCKS: dict[str, Block] = default_blocks().by_id()
FACES: dict[str, BlockFace] = {b.id: b.face for b in BLOCKS.values()}
CARDS: dict[str, Card] = {c.id: c for d in default_decks().values() for c in d.cards}
DECK_SIZE: dict[Side, int] = {s: len(d.cards) for s, d in default_decks().items()}
TOTAL_CARDS = sum(DECK_SIZE.values())
TOTAL_BLOCKS = len(BLOCKS)
DISK_SIDE: dict[Disk, Side] = {Disk.HIDEYORI: Side.ISHIDA, Disk.SANADA: Side.ISHIDA}
OSAKA = BOARD.mori_box.leads_to or "osaka"
BLOCK_SIDE: dict[str, Side] = {b: f.side for b, f in FACES.items()}
CASTLES: tuple[str, ...] = tuple(loc.id for loc in BOARD.castles)
SIDE_BLOCKS: dict[Side, frozenset[str]] = {
    side: frozenset(b for b, f in FACES.items() if f.side is side) for side in Side
}
ISHIDA_LEADER = next(b for b, f in FACES.items() if f.is_protagonist and f.clan is Clan.ISHIDA)
TOKUGAWA_LEADER = next(
    b for b, f in FACES.items() if f.is_protagonist and f.clan is Clan.TOKUGAWA
)
MORI_LEADER = next(b for b, f in FACES.items() if f.clan is Clan.MORI and f.leader)


def side_of(block: str) -> Side:
    return BLOCK_SIDE[block]


@cache
def segment(a: str, b: str) -> tuple[str, str]:
    """A road segment as an ordered pair, direction-free."""
    return (a, b) if a < b else (b, a)


def is_highway(a: str, b: str) -> bool:
    road = BOARD.road_between(a, b)
    return road is not None and road.kind.value == "highway"


def recruitment_locations(side: Side) -> list[str]:
    """Locations labelled with the mon of a daimyo of ``side`` (7.2)."""
    return [
        loc.id for loc in BOARD.locations.values() if any(c.side is side for c in loc.recruitment)
    ]
