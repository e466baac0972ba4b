"""Sekigahara's components as validated data: the board, the two decks and the block set.

The printed components live in YAML files beside this module (``data/``) and are loaded into
frozen pydantic models, so that no rule function ever hard-codes a location, a road or a card.
Every loader takes an optional path, so a user can supply their own file (a corrected block
manifest for their copy, say); a malformed file raises :class:`DataFileError` naming the file
and the field at fault.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from companion.core.datafiles import (
    DataFileError,
    describe_validation_error,
    parse_yaml,
    read_yaml,
    validate,
)


class Side(StrEnum):
    """The two coalitions (3.1): gold Ishida and black Tokugawa."""

    ISHIDA = "ishida"
    TOKUGAWA = "tokugawa"

    @property
    def opponent(self) -> Side:
        return Side.TOKUGAWA if self is Side.ISHIDA else Side.ISHIDA


class Clan(StrEnum):
    """The daimyo whose mon appear on blocks and cards (3.2)."""

    TOKUGAWA = "tokugawa"
    FUKUSHIMA = "fukushima"
    DATE = "date"
    MAEDA = "maeda"
    II = "ii"
    ISHIDA = "ishida"
    MORI = "mori"
    UKITA = "ukita"
    KOBAYAKAWA = "kobayakawa"
    UESUGI = "uesugi"

    @property
    def side(self) -> Side:
        return Side.TOKUGAWA if self in _TOKUGAWA_CLANS else Side.ISHIDA

    @property
    def is_wildcard(self) -> bool:
        """The sole Ishida and Ii blocks deploy with any non-loyalty card of their deck (8.2.2)."""
        return self in (Clan.ISHIDA, Clan.II)


_TOKUGAWA_CLANS = frozenset({Clan.TOKUGAWA, Clan.FUKUSHIMA, Clan.DATE, Clan.MAEDA, Clan.II})


class Attack(StrEnum):
    """The Special Attack symbol some blocks carry (8.4.1)."""

    GUN = "gun"
    CAVALRY = "cavalry"


class CardKind(StrEnum):
    """What a card does in combat (8.2.2, 8.4.1, 8.4.2, 8.6)."""

    PLAIN = "plain"
    SPECIAL = "special"
    DOUBLE = "double"
    LOYALTY = "loyalty"


class SetupSymbol(StrEnum):
    """The symbol in a block's lower right corner that places it at setup (5.2.1)."""

    SQUARE = "square"
    CIRCLE = "circle"
    STAR = "star"
    TRIANGLE = "triangle"


class RoadKind(StrEnum):
    HIGHWAY = "highway"
    ROAD = "road"


class Disk(StrEnum):
    """The two disks (3.4): Toyotomi Hideyori at Osaka (9.1), Sanada Masayuki at Ueda (9.2)."""

    HIDEYORI = "hideyori"
    SANADA = "sanada"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


BLOCKS_A_SIDE = 48
"""The blocks of each side (1): no count in a data file may pass what the box holds."""
CARDS_A_DECK = 55
"""The cards of each deck (3.3)."""
Pieces = Annotated[int, Field(strict=True, ge=0, le=BLOCKS_A_SIDE)]
"""A number of blocks printed on the map or the turn track (a whole integer, never a flag)."""


# --------------------------------------------------------------------------- board


class SetupMarkers(_Frozen):
    """The setup tiles printed at a location or box: ``+N`` random draws and setup symbols."""

    random: dict[Side, Pieces] = Field(default_factory=dict)
    fixed: dict[Side, dict[SetupSymbol, Pieces]] = Field(default_factory=dict)


class Location(_Frozen):
    """A circle on the map (4.1)."""

    id: str
    name: str
    xy: tuple[int, int]
    resource: bool = False
    capital: Side | None = None
    castle: Side | None = None
    disk: Disk | None = None
    recruitment: tuple[Clan, ...] = ()
    setup: SetupMarkers = SetupMarkers()

    @model_validator(mode="after")
    def _capital_is_resource(self) -> Location:
        if self.capital is not None and not self.resource:
            raise ValueError(f"capital {self.id} must be a Resource Location (4.5)")
        if self.disk is not None and self.castle is None:
            raise ValueError(f"disk at {self.id} needs a castle (3.4)")
        return self


class Road(_Frozen):
    a: str
    b: str
    kind: RoadKind

    @property
    def key(self) -> frozenset[str]:
        return frozenset((self.a, self.b))

    def other_end(self, location: str) -> str:
        return self.b if location == self.a else self.a


class BoxKind(StrEnum):
    RECRUITMENT = "recruitment"
    MORI = "mori"


class Box(_Frozen):
    """An off-map box (4.4): a side's Recruitment Box or the Mori box (9.3)."""

    id: str
    name: str
    side: Side
    kind: BoxKind
    xy: tuple[int, int]
    setup: SetupMarkers = SetupMarkers()
    leads_to: str | None = None


class TurnTrack(_Frozen):
    weeks: Annotated[int, Field(strict=True, ge=1, le=99)]
    recruitment: tuple[Pieces, ...]
    xy_weeks: tuple[tuple[int, int], ...] = ()

    @model_validator(mode="after")
    def _one_entry_a_week(self) -> TurnTrack:
        if len(self.recruitment) != self.weeks:
            raise ValueError("turn_track.recruitment needs one entry per week")
        return self


class ImpactTrack(_Frozen):
    min: int
    max: int


class Board(_Frozen):
    """The printed map: locations, roads, off-map boxes and tracks."""

    map_size: tuple[int, int]
    locations: dict[str, Location]
    roads: tuple[Road, ...]
    boxes: dict[str, Box]
    turn_track: TurnTrack
    impact_track: ImpactTrack
    _adjacency: dict[str, list[Road]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_file_layout(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for key in ("locations", "boxes"):
            entries = data.get(key)
            if isinstance(entries, dict):
                data[key] = {
                    k: ({"id": k, **v} if isinstance(v, dict) else v) for k, v in entries.items()
                }
        roads = data.get("roads")
        if isinstance(roads, list):
            data["roads"] = [
                {"a": r[0], "b": r[1], "kind": r[2]} if isinstance(r, list) and len(r) == 3 else r
                for r in roads
            ]
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Board:
        seen: set[frozenset[str]] = set()
        for road in self.roads:
            for end in (road.a, road.b):
                if end not in self.locations:
                    raise ValueError(f"road {road.a}-{road.b} names unknown location {end!r}")
            if road.a == road.b:
                raise ValueError(f"road {road.a}-{road.b} loops on itself")
            if road.key in seen:
                raise ValueError(f"road {road.a}-{road.b} is listed twice")
            seen.add(road.key)
        for box in self.boxes.values():
            if box.leads_to is not None and box.leads_to not in self.locations:
                raise ValueError(f"box {box.id} leads to unknown location {box.leads_to!r}")
        return self

    def model_post_init(self, context: Any, /) -> None:
        table: dict[str, list[Road]] = {loc: [] for loc in self.locations}
        for road in self.roads:
            # model_post_init runs before the "after" validators that reject unknown ends
            table.setdefault(road.a, []).append(road)
            table.setdefault(road.b, []).append(road)
        self._adjacency = table

    def roads_from(self, location: str) -> list[Road]:
        """Every road with one end at ``location``."""
        return self._adjacency[location]

    def neighbours(self, location: str) -> list[str]:
        return [road.other_end(location) for road in self.roads_from(location)]

    def road_between(self, a: str, b: str) -> Road | None:
        for road in self.roads_from(a):
            if road.other_end(a) == b:
                return road
        return None

    def recruitment_box(self, side: Side) -> Box:
        return next(
            b for b in self.boxes.values() if b.kind is BoxKind.RECRUITMENT and b.side is side
        )

    @property
    def mori_box(self) -> Box:
        return next(b for b in self.boxes.values() if b.kind is BoxKind.MORI)

    @property
    def castles(self) -> list[Location]:
        return [loc for loc in self.locations.values() if loc.castle is not None]

    @property
    def resource_locations(self) -> list[Location]:
        return [loc for loc in self.locations.values() if loc.resource]


# --------------------------------------------------------------------------- cards


class Card(_Frozen):
    """One card of a deck (3.3). ``clan`` is None for a Loyalty Challenge card."""

    id: str
    side: Side
    kind: CardKind
    clan: Clan | None
    bid: int

    @model_validator(mode="after")
    def _clan_matches_kind(self) -> Card:
        if (self.kind is CardKind.LOYALTY) != (self.clan is None):
            raise ValueError(f"card {self.id}: loyalty cards have no clan, all others have one")
        if self.clan is not None and self.clan.side is not self.side:
            raise ValueError(f"card {self.id}: clan {self.clan} is not of the {self.side} deck")
        if self.clan is not None and self.clan.is_wildcard:
            raise ValueError(f"card {self.id}: there are no {self.clan} cards (8.2.2)")
        return self


class Deck(_Frozen):
    side: Side
    cards: tuple[Card, ...]

    @model_validator(mode="after")
    def _bids_never_tie(self) -> Deck:
        parity = 0 if self.side is Side.TOKUGAWA else 1
        for card in self.cards:
            if card.bid % 2 != parity:
                wanted = "even" if parity == 0 else "odd"
                raise ValueError(f"card {card.id}: {self.side} bids must be {wanted} (C11)")
        return self


class _CardEntry(_Frozen):
    kind: CardKind
    clan: Clan | None = None
    count: Annotated[int, Field(strict=True, ge=1, le=CARDS_A_DECK)]
    bid: Annotated[int, Field(strict=True, ge=0, le=99)]


class _CardsFile(_Frozen):
    """``cards.yaml``: each side's card faces, with how many copies its deck holds."""

    tokugawa: tuple[_CardEntry, ...] = ()
    ishida: tuple[_CardEntry, ...] = ()

    @model_validator(mode="after")
    def _fits_the_box(self) -> _CardsFile:
        for side in Side:
            cards = sum(e.count for e in getattr(self, side.value))
            if cards > CARDS_A_DECK:
                raise ValueError(f"{side.value}: {cards} cards, a deck holds {CARDS_A_DECK} "
                                 "(3.3)")
        return self


def _expand_deck(side: Side, entries: list[_CardEntry]) -> Deck:
    cards: list[Card] = []
    for entry in entries:
        stem = f"{side.value[0].upper()}-{entry.clan.value if entry.clan else 'loyalty'}"
        if entry.clan is not None:
            stem += f"-{entry.kind.value}"
        start = sum(1 for c in cards if c.id.startswith(stem + "-")) + 1
        for n in range(start, start + entry.count):
            cards.append(
                Card(id=f"{stem}-{n}", side=side, kind=entry.kind, clan=entry.clan, bid=entry.bid)
            )
    return Deck(side=side, cards=tuple(cards))


# --------------------------------------------------------------------------- blocks


class BlockFace(_Frozen):
    """What a block's face shows (3.2): clan mon, strength, gun or cavalry, banner, setup symbol."""

    clan: Clan
    mon: int = Field(ge=1, le=4)
    attack: Attack | None = None
    leader: bool = False
    setup: SetupSymbol | None = None

    @property
    def side(self) -> Side:
        return self.clan.side

    @property
    def is_wildcard(self) -> bool:
        return self.clan.is_wildcard

    @property
    def is_protagonist(self) -> bool:
        """Tokugawa Ieyasu or Ishida Mitsunari, whose death ends the game (2.1)."""
        return self.leader and self.clan in (Clan.TOKUGAWA, Clan.ISHIDA)

    def describe(self) -> str:
        parts = [f"{self.clan.value} {self.mon}-mon"]
        if self.attack:
            parts.append(self.attack.value)
        if self.leader:
            parts.append("leader")
        return " ".join(parts)


class Block(_Frozen):
    """One physical block: an opaque id and its face."""

    id: str
    face: BlockFace

    @property
    def side(self) -> Side:
        return self.face.side


class _FaceEntry(BlockFace):
    count: Annotated[int, Field(strict=True, ge=1, le=BLOCKS_A_SIDE)]


class BlockSet(_Frozen):
    """The 96 blocks of a copy of the game, checked against every constraint the rules fix."""

    blocks: tuple[Block, ...]

    def by_id(self) -> dict[str, Block]:
        return {b.id: b for b in self.blocks}

    def of_side(self, side: Side) -> list[Block]:
        return [b for b in self.blocks if b.side is side]

    def check_against(self, board: Board) -> None:
        """Raise ValueError unless this set fits the board's setup markers and the rules."""
        problems: list[str] = []
        for side in Side:
            own = self.of_side(side)
            if len(own) != BLOCKS_A_SIDE:
                problems.append(f"{side}: {len(own)} blocks, the game has {BLOCKS_A_SIDE} a "
                                "side (1)")
            for b in own:
                if b.face.attack and b.face.mon != 1:
                    problems.append(f"{b.id}: gun and cavalry are on 1-mon blocks only")
        faces = [b.face for b in self.blocks]
        for clan, rule in ((Clan.ISHIDA, "9.5"), (Clan.II, "9.4")):
            n = sum(1 for f in faces if f.clan is clan)
            if n != 1:
                problems.append(f"{n} {clan} blocks, the game has exactly one ({rule})")
        if any(f.clan is Clan.II and f.mon != 4 for f in faces):
            problems.append("the Ii block has four mon (9.4)")
        if any(f.mon == 4 and f.clan is not Clan.II for f in faces):
            problems.append("only the Ii block has four mon (9.4)")
        for clan in (Clan.TOKUGAWA, Clan.ISHIDA):
            n = sum(1 for f in faces if f.clan is clan and f.leader)
            if n != 1:
                problems.append(
                    f"{n} {clan} leaders, the game has exactly one protagonist each (2.1)"
                )
        mori_leaders = [f for f in faces if f.clan is Clan.MORI and f.leader]
        if len(mori_leaders) != 1:
            problems.append("the game has exactly one Mori leader (9.3)")
        printed: Counter[tuple[Side, SetupSymbol]] = Counter()
        for markers in [loc.setup for loc in board.locations.values()] + [
            box.setup for box in board.boxes.values()
        ]:
            for side, symbols in markers.fixed.items():
                for symbol, count in symbols.items():
                    printed[(side, symbol)] += count
        carried = Counter((f.side, f.setup) for f in faces if f.setup is not None)
        for key in set(printed) | set(carried):
            if printed[key] != carried[key]:
                side, symbol = key
                problems.append(
                    f"{carried[key]} {side} blocks carry the {symbol} setup symbol, "
                    f"the map prints {printed[key]} (5.2.1)"
                )
        mori_box = board.mori_box.setup.fixed.get(Side.ISHIDA, {})
        for symbol in mori_box:
            if any(
                f.setup is symbol and f.side is Side.ISHIDA and f.clan is not Clan.MORI
                for f in faces
            ):
                problems.append(f"{symbol} blocks start in the Mori box and must be Mori (9.3)")
            if mori_leaders and mori_leaders[0].setup is not symbol:
                problems.append("the Mori leader starts in the Mori box (9.3)")
        if problems:
            raise ValueError("; ".join(problems))


def _expand_blocks(raw: dict[str, list[dict[str, Any]]]) -> BlockSet:
    blocks: list[Block] = []
    for side in Side:
        entries = raw.get(side.value)
        if not isinstance(entries, list):
            raise ValueError(f"missing list of {side.value} faces")
        prefix = "T" if side is Side.TOKUGAWA else "I"
        n = 0
        for index, entry in enumerate(entries):
            try:
                parsed = _FaceEntry.model_validate(entry)
            except ValidationError as exc:
                problem = describe_validation_error(exc)
                raise ValueError(f"{side.value}[{index}]: {problem}") from None
            if parsed.side is not side:
                raise ValueError(f"{side.value}[{index}]: clan {parsed.clan} is not {side.value}")
            face = BlockFace.model_validate(parsed.model_dump(exclude={"count"}))
            if n + parsed.count > BLOCKS_A_SIDE:
                raise ValueError(f"{side.value}: more than {BLOCKS_A_SIDE} blocks, the game "
                                 f"has {BLOCKS_A_SIDE} a side (1)")
            for _ in range(parsed.count):
                n += 1
                blocks.append(Block(id=f"{prefix}{n:02d}", face=face))
    return BlockSet(blocks=tuple(blocks))


# --------------------------------------------------------------------------- loading


def _read_yaml(path: Path | None, default_name: str) -> tuple[Any, str]:
    if path is None:
        text = resources.files(__package__).joinpath("data", default_name).read_text("utf-8")
        name = f"built-in {default_name}"
        return parse_yaml(text, name), name
    return read_yaml(path), str(path)


def load_board(path: Path | None = None) -> Board:
    raw, name = _read_yaml(path, "board.yaml")
    return validate(Board, raw, name)


def load_decks(path: Path | None = None) -> dict[Side, Deck]:
    raw, name = _read_yaml(path, "cards.yaml")
    if not isinstance(raw, dict):
        raise DataFileError(f"{name}: expected one list of card faces per side")
    faces = validate(_CardsFile, raw, name)
    try:
        decks = {side: _expand_deck(side, list(getattr(faces, side.value))) for side in Side}
    except ValidationError as exc:
        raise DataFileError(f"{name}: {describe_validation_error(exc)}") from None
    return decks


def load_blocks(path: Path | None = None, board: Board | None = None) -> BlockSet:
    raw, name = _read_yaml(path, "blocks.yaml")
    if not isinstance(raw, dict):
        raise DataFileError(f"{name}: expected one list of block faces per side")
    try:
        blocks = _expand_blocks(raw)
        blocks.check_against(board or default_board())
    except ValueError as exc:
        raise DataFileError(f"{name}: {exc}") from None
    return blocks


@cache
def default_board() -> Board:
    return load_board()


@cache
def default_decks() -> dict[Side, Deck]:
    return load_decks()


@cache
def default_blocks() -> BlockSet:
    return load_blocks()
