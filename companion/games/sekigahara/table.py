"""Sekigahara's table for the reader bridge: the :class:`~companion.core.table.GameTable`.

Places: the map's locations, its off-map boxes, and the trays and pads the board data does not
print (each side's deployment tray, the casualty tray, the card pads, the registration antenna);
each side's bag, which no antenna watches. Pieces: the 96 blocks. A registering player names a
block by its face ("mori 3", "tokugawa 1 gun", "ishida leader") or its id ("I07"): blocks with
the same face are interchangeable, so the next unregistered block with that face is taken.

Watching without the engine uses :class:`AdjacencyRules` (moves along one road); a running
game uses the engine's session rules
(:class:`~companion.games.sekigahara.engine.session_rules.TableRules`), imported only then. The
zones' ids and names are in :mod:`companion.games.sekigahara.zones`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from companion.core.hardware import (
    AntennaLayout,
    DefaultWiring,
    load_antenna_layout,
    load_default_wiring,
)
from companion.core.rules import RuleViolation
from companion.core.table import (
    REGISTRATION,
    Piece,
    Place,
    PlaceKind,
    ProposedMove,
    SessionRules,
)
from companion.games.sekigahara import GAME
from companion.games.sekigahara.components import (
    Attack,
    Block,
    BlockFace,
    BlockSet,
    Board,
    Clan,
    SetupSymbol,
    Side,
    default_blocks,
    default_board,
)
from companion.games.sekigahara.zones import (
    CASUALTIES,
    OFF_MAP_ZONES,
    UNWATCHED_NAMES,
    bag_zone,
    deployment_zone,
    is_bag,
    side_colour,
    zone_name,
)

# --------------------------------------------------------------------------- watching


def _recruitment_box(board: Board, side: Side) -> str | None:
    return next((b.id for b in board.boxes.values()
                 if b.id.startswith(side.value) and b.kind.value == "recruitment"), None)


@dataclass
class AdjacencyRules:
    """A small, real :class:`~companion.core.table.WatchRules`: moves along one road.

    Not the game engine: it knows only the board graph and a few off-map zones. A block may move
    to an adjacent location (7.3.1), leave a Recruitment Box for a location (7.2) or the Mori box
    for Osaka (9.3), go to its own side's deployment tray or the casualty tray, and come back
    from the deployment tray to the location it was revealed at. A block in its side's bag may
    be drawn onto a location (set-up, 5.2.2) or into its side's Recruitment Box (the
    Reinforcement Step, 6.2). Useful for testing the bridge's discrepancy logic and for running
    the bridge without the engine (``companion hardware watch``).
    """

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
        positions = {b.id: on_table.get(b.id) or bag_zone(b.side) for b in blocks.blocks}
        return cls(positions, blocks=blocks)

    def expected_positions(self) -> Mapping[str, str]:
        return self.positions

    def summary(self) -> str:
        on_table = sum(1 for z in self.positions.values() if not is_bag(z))
        return (f"watching {len(self.positions)} blocks in play ({on_table} on the table, the "
                "rest in the bags); moves along one road are accepted")

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
        tray = deployment_zone(side)
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


# --------------------------------------------------------------------------- registering tags

_WORD = re.compile(r"[a-z0-9]+")


def _face_matches(face: BlockFace, words: list[str]) -> bool:
    wanted_attack = next((a for a in Attack if a.value in words), None)
    mon = next((int(w) for w in words if w.isdigit()), None)
    clan = next((c for c in Clan if c.value in words), None)
    setup = next((s for s in SetupSymbol if s.value in words), None)
    return (
        (setup is None or face.setup is setup)
        and (clan is None or face.clan is clan)
        and (mon is None or face.mon == mon)
        and face.attack is wanted_attack
        and face.leader == ("leader" in words)
    )


def _describe(face: BlockFace) -> str:
    setup = f" {face.setup.value}" if face.setup else ""
    return face.describe() + setup


def resolve_block(answer: str, taken: Collection[str], blocks: BlockSet | None = None) -> Block:
    """The block a registering user means by ``answer``: a block id, or a face description
    (``taken``: the blocks that have a tag already).

    Raises ValueError with a message for the user when it names no block or several kinds.
    """
    block_set = blocks or default_blocks()
    by_id = block_set.by_id()
    text = answer.strip()
    if text.upper() in by_id:
        return by_id[text.upper()]
    words = _WORD.findall(text.lower())
    if not words or not any(c.value in words for c in Clan):
        raise ValueError(f"{answer!r}: say a block id (I07) or a face: clan, mon, gun/cavalry")
    used = set(taken)
    free = [b for b in block_set.blocks if b.id not in used and _face_matches(b.face, words)]
    if not free:
        raise ValueError(f"no unregistered block has the face {answer!r}")
    faces = {b.face for b in free}
    if len(faces) > 1 and not any(s.value in words for s in SetupSymbol):
        plain = [b for b in free if b.face.setup is None]  # no symbol named: the unmarked one
        if plain and len({b.face for b in plain}) == 1:
            return plain[0]
    if len(faces) > 1:
        options = "; ".join(sorted(_describe(f) for f in faces))
        raise ValueError(f"{answer!r} fits several faces: {options}")
    return free[0]


# --------------------------------------------------------------------------- the table


@cache
def _places() -> dict[str, Place]:
    board = default_board()
    found = {loc.id: Place(loc.id, loc.name, PlaceKind.LOCATION)
             for loc in board.locations.values()}
    found.update({box.id: Place(box.id, box.name, PlaceKind.BOX) for box in board.boxes.values()})
    found.update({z: Place(z, name, PlaceKind.REGISTRATION if z == REGISTRATION else
                           PlaceKind.TRAY) for z, name in OFF_MAP_ZONES.items()})
    found.update({z: Place(z, name, PlaceKind.UNWATCHED) for z, name in UNWATCHED_NAMES.items()})
    return found


@cache
def _pieces() -> tuple[Piece, ...]:
    return tuple(Piece(b.id, b.side.value) for b in default_blocks().blocks)


class SekigaharaTable:
    """Sekigahara as the bridge serves it (see the module docstring)."""

    name = "sekigahara"
    piece_word = "block"
    piece_hint = "face like 'mori 3', or id"
    sides: Mapping[str, str] = {s.value: side_colour(s) for s in Side}

    def places(self) -> Mapping[str, Place]:
        return _places()

    def pieces(self) -> Sequence[Piece]:
        return _pieces()

    def resolve_piece(self, answer: str, taken: Collection[str]) -> str:
        return resolve_block(answer, taken).id

    def describe_piece(self, piece: str) -> str:
        """The face of a block, for the registering player (who holds it)."""
        return default_blocks().by_id()[piece].face.describe()

    def watch_rules(self, on_table: Mapping[str, str]) -> AdjacencyRules:
        return AdjacencyRules.for_game(on_table)

    def session_rules(self, game: Any) -> SessionRules:
        from companion.games.sekigahara.engine.session_rules import TableRules

        return TableRules(game)

    def antenna_layout(self) -> AntennaLayout:
        return _antenna_layout()

    def default_wiring(self) -> DefaultWiring:
        return _default_wiring()


@cache
def _antenna_layout() -> AntennaLayout:
    return load_antenna_layout(GAME, _watched())


@cache
def _default_wiring() -> DefaultWiring:
    return load_default_wiring(GAME, _watched())


def _watched() -> set[str]:
    return {p.id for p in _places().values() if p.watched}


TABLE = SekigaharaTable()
