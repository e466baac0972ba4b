"""Tenka Meidou's components as validated data: the board and the component tables.

The board (zones, land and sea borders) and the components (pawn counts, castle tokens, swords,
the die table, the per-player-count tables, the card lists) are YAML files in ``data/``, loaded
into frozen pydantic models. A user can correct the board for their copy and pass the file; a
malformed file raises :class:`DataFileError` naming the file and the field at fault.
"""

from __future__ import annotations

import re
from collections import Counter
from enum import StrEnum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core.datafiles import (
    DataFileError,
    parse_yaml,
    read_yaml,
    validate,
)


class Colour(StrEnum):
    """The four player colours (section 3, step 5)."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    BLACK = "black"


class Tactic(StrEnum):
    """The 12 tactic cards (section 7), by their Spanish names."""

    EXPLORAR = "explorar"
    CRUZAR_MONTANA = "cruzar_montana"
    CRUZAR_MAR = "cruzar_mar"
    DIVIDIR_EJERCITO = "dividir_ejercito"
    NINJA = "ninja"
    OCUPAR_KIOTO = "ocupar_kioto"
    APOYO = "apoyo"
    REBELION = "rebelion"
    EXILIO = "exilio"
    PRISIONERO = "prisionero"
    SENUELO = "senuelo"
    RETIRADA = "retirada"


class Daimyo(StrEnum):
    """The 6 Daimyo cards of the advanced game (section 10)."""

    UESUGI_KENSHIN = "uesugi_kenshin"
    ODA_NOBUNAGA = "oda_nobunaga"
    TAKEDA_SHINGEN = "takeda_shingen"
    MORI_MOTONARI = "mori_motonari"
    CHOSOKABE_MOTOCHIKA = "chosokabe_motochika"
    OTOMO_SORIN = "otomo_sorin"


Border = Literal["land", "sea"]
_ZONE_ID = re.compile(r"[a-z][a-z0-9_]*")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Zone(_Frozen):
    id: str
    name: str
    name_ja: str = ""
    geometry: str = ""


class Adjacency(_Frozen):
    land: tuple[tuple[str, str], ...]
    sea: tuple[tuple[str, str], ...]


class Board(_Frozen):
    """The 11 zones and their borders (section 4)."""

    schema_version: Literal[1]
    zones: tuple[Zone, ...]
    kyoto: str
    adjacency: Adjacency

    @model_validator(mode="after")
    def _consistent(self) -> Board:
        ids = [z.id for z in self.zones]
        known = set(ids)
        for i, zone_id in enumerate(ids):
            if _ZONE_ID.fullmatch(zone_id) is None:
                raise ValueError(f"zones.{i}.id: {zone_id!r} must be lower-case a-z, 0-9, _")
        twice = [z for z, n in Counter(ids).items() if n > 1]
        if twice:
            raise ValueError(f"zones: {twice[0]!r} is listed twice")
        if self.kyoto not in known:
            raise ValueError(f"kyoto: unknown zone {self.kyoto!r}")
        seen: dict[frozenset[str], str] = {}
        for kind in ("land", "sea"):
            for i, (a, b) in enumerate(getattr(self.adjacency, kind)):
                where = f"adjacency.{kind}.{i}"
                for z in (a, b):
                    if z not in known:
                        raise ValueError(f"{where}: unknown zone {z!r}")
                if a == b:
                    raise ValueError(f"{where}: {a} cannot border itself")
                pair = frozenset((a, b))
                if pair in seen:
                    raise ValueError(f"{where}: {a}-{b} is already listed as {seen[pair]}")
                seen[pair] = where
        return self

    @property
    def zone_ids(self) -> tuple[str, ...]:
        return tuple(z.id for z in self.zones)

    def border(self, a: str, b: str) -> Border | None:
        """The kind of border between two zones, or None if they are not adjacent."""
        return _borders(self).get(frozenset((a, b)))

    def neighbours(self, zone: str, kind: Border | None = None) -> tuple[str, ...]:
        """Adjacent zones (section 4), of one kind of border or of either."""
        return tuple(
            z for z in self.zone_ids
            if z != zone and (k := self.border(zone, z)) is not None and kind in (None, k)
        )


@cache
def _borders(board: Board) -> dict[frozenset[str], Border]:
    out: dict[frozenset[str], Border] = {}
    for a, b in board.adjacency.land:
        out[frozenset((a, b))] = "land"
    for a, b in board.adjacency.sea:
        out[frozenset((a, b))] = "sea"
    return out


class CardName(_Frozen):
    id: str
    es: str
    en: str


Pawns = Annotated[int, Field(strict=True, ge=0, le=99)]
"""A number of pawns (or a token's value): a whole number, never more than the box could hold
(section 2), so no count in a data file can make the companion build millions of pieces."""
Cards = Annotated[int, Field(strict=True, ge=1, le=12)]
"""An offer of cards: there are 12 tactic cards (section 7) and 6 Daimyo (section 10)."""


class PlayerCount(_Frozen):
    tactic_offer: Cards
    daimyo_offer: Cards
    swords: tuple[Pawns, ...]
    small_castles: bool
    reinforcements_per_zone: Pawns


class Components(_Frozen):
    """Pawns, tokens, the die table and the per-player-count tables (sections 2, 3, 5, 9)."""

    schema_version: Literal[1]
    colours: tuple[Colour, ...]
    soldier_pawns_per_colour: Annotated[int, Field(strict=True, ge=1, le=99)]
    advanced_soldier_pawns_per_colour: Annotated[int, Field(strict=True, ge=1, le=99)]
    reinforcement_pawns: Pawns
    large_castle_tokens: tuple[Pawns, ...]
    small_castle_tokens: tuple[Pawns, ...]
    die_to_soldiers: dict[int, Pawns]
    by_player_count: dict[int, PlayerCount]
    tactic_cards: tuple[CardName, ...]
    daimyo_cards: tuple[CardName, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Components:
        if sorted(self.die_to_soldiers) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("die_to_soldiers: give the soldiers for each face 1-6")
        if any(n < 1 for n in self.die_to_soldiers.values()):
            raise ValueError("die_to_soldiers: every face places at least one soldier")
        if sorted(self.large_castle_tokens) != list(range(2, 13)):
            raise ValueError("large_castle_tokens: one token per sum of two dice, 2-12")
        needed = Counter(v // 2 for v in self.large_castle_tokens)
        if Counter(self.small_castle_tokens) < needed:
            raise ValueError("small_castle_tokens: one floor(v/2) token is needed per large token")
        if sorted(self.by_player_count) != [2, 3, 4]:
            raise ValueError("by_player_count: give the tables for 2, 3 and 4 players")
        for n, row in self.by_player_count.items():
            if len(row.swords) != n or len(set(row.swords)) != n:
                raise ValueError(f"by_player_count.{n}.swords: {n} different swords")
        for field, enum in (("tactic_cards", Tactic), ("daimyo_cards", Daimyo)):
            ids = sorted(c.id for c in getattr(self, field))
            if ids != sorted(e.value for e in enum):
                raise ValueError(f"{field}: the card ids must be exactly {sorted(enum)}")
        return self

    def table(self, players: int) -> PlayerCount:
        return self.by_player_count[players]

    def soldiers_per_colour(self, advanced: bool) -> int:
        return (
            self.advanced_soldier_pawns_per_colour if advanced else self.soldier_pawns_per_colour
        )


def _load(model: type[Any], data: Any, name: str) -> Any:
    return validate(model, data, name)


def load_board(path: Path | None = None) -> Board:
    """The board from ``path``, or the bundled ``data/board.yaml``."""
    if path is None:
        return default_board()
    board: Board = _load(Board, read_yaml(path), str(path))
    return board


def load_components(path: Path | None = None) -> Components:
    if path is None:
        return default_components()
    components: Components = _load(Components, read_yaml(path), str(path))
    return components


def _bundled(name: str) -> Any:
    text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
    return parse_yaml(text, name)


@cache
def default_board() -> Board:
    board: Board = _load(Board, _bundled("board.yaml"), "board.yaml")
    return board


@cache
def default_components() -> Components:
    components: Components = _load(Components, _bundled("components.yaml"), "components.yaml")
    return components


def check_fit(board: Board, components: Components) -> None:
    """One large castle token per zone (section 3, step 2)."""
    if len(board.zones) != len(components.large_castle_tokens):
        raise DataFileError(
            f"board: {len(board.zones)} zones but {len(components.large_castle_tokens)} "
            "large castle tokens; each zone takes one"
        )


def soldiers_for_die(die: int, components: Components | None = None) -> int:
    """Soldiers placed for the single die (the table printed on the board, section 5.I.1)."""
    return (components or default_components()).die_to_soldiers[die]
