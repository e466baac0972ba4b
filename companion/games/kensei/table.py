"""Kensei at the reader table (B18 "Sensing reality"): trays and pads beside an open table.

Readers cannot place miniatures on a 90 x 120 cm table, so the battlefield itself is
**unwatched** (:data:`FIELD`): what the readers see are each player's trays and pads
(:func:`place_id`): a **command pad** (a tagged base or unit card laid on it selects that
troop, and activates it when its side must name a troop, B3.3), a **reserve tray** (troops not
yet deployed or held back, B1.3 step 5, B12), a **casualty tray** (models removed, B7), a
**card pad** (tagged command cards laid face down: a duel bid or a draw, B9.1) and an
**ammunition pad** (face-down artillery ammunition markers, B11), plus the registration pad.

The tags (:func:`piece_ids`): each side's troop tags (one per troop of the list, by list
position: a unit card or a leader's base), model tags (which troop each belongs to is set when
the list is entered, ``KenseiSessionRules.assign``), its 24 command cards (the deck's ids,
``a-00``..``a-23``) and its ammunition markers. A card id reveals its value: no card id, value
or count of a kind ever reaches the shared screen's words (B17).

The bridge's table session follows a running battle through
:class:`~companion.games.kensei.table_session.KenseiSessionRules` (deployment from the reserve
tray, the command pad, the casualty tray against the rulings, the card pad). Nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

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
)
from companion.games.kensei import GAME
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.deck import card_ids, card_value
from companion.games.kensei.battle.state import State, Troop

if TYPE_CHECKING:
    from companion.games.kensei.table_session import KenseiSessionRules

SIDES: tuple[Side, Side] = ("a", "b")
TROOP_SLOTS = 24
"""Troop tags per side: more than the largest list has troops (B14)."""
MODEL_SLOTS = 120
"""Model tags per side: enough for a 600-pe army's unit models (B14)."""
AMMO_SLOTS = 8
"""Artillery ammunition markers per side (B11)."""

FIELD = "field"
"""The open table, "the field": no reader watches it (B18)."""
BOX = "box"
"""Tags not in play this battle (a troop the list does not have, a model not assigned)."""

PadKind = Literal["command", "reserve", "casualties", "cards", "ammo"]
PAD_KINDS: tuple[PadKind, ...] = ("command", "reserve", "casualties", "cards", "ammo")
_PAD_WORDS: dict[PadKind, str] = {
    "command": "command pad", "reserve": "reserve tray", "casualties": "casualty tray",
    "cards": "card pad", "ammo": "ammunition pad"}
DEFAULT_OWNERS: dict[Side, str] = {"a": "the left player's", "b": "the right player's"}
"""Whose a place or tag is before the armies are known ("the": a piece's first word must
not read as a proper name to the legibility check, ui.shell.legibility)."""
TURN_PHASES = ("maintenance", "initiative", "activation")
_PIECE = re.compile(r"([ab])-(?:(troop)-(\d\d)|(model)-(\d{3})|(ammo)-(\d\d)|(\d\d))")


def place_id(kind: PadKind, side: Side) -> str:
    """``command_a``, ``reserve_b``, ..."""
    return f"{kind}_{side}"


def hand_place(side: Side) -> str:
    """Where a side's cards and ammunition markers are when on no pad (unwatched)."""
    return f"hand_{side}"


def split_place(place: str) -> tuple[str, Side | None]:
    kind, _, side = place.rpartition("_")
    return (kind, side) if side in SIDES else (place, None)


# --------------------------------------------------------------------------- the pieces


def troop_tag(troop: str) -> str:
    """The tag of troop ``a3``: ``a-troop-03``."""
    return f"{troop[0]}-troop-{int(troop[1:]):02d}"


def model_tags(side: Side) -> tuple[str, ...]:
    return tuple(f"{side}-model-{n:03d}" for n in range(1, MODEL_SLOTS + 1))


def ammo_tags(side: Side) -> tuple[str, ...]:
    return tuple(f"{side}-ammo-{n:02d}" for n in range(1, AMMO_SLOTS + 1))


def piece_ids() -> tuple[str, ...]:
    """The manifest: per side its troop tags, model tags, 24 command cards and ammunition."""
    found: list[str] = []
    for side in SIDES:
        found += [troop_tag(f"{side}{n}") for n in range(1, TROOP_SLOTS + 1)]
        found += [*model_tags(side), *card_ids(side), *ammo_tags(side)]
    return tuple(found)


Kind = Literal["troop", "model", "card", "ammo"]


def piece_kind(piece: str) -> tuple[Side, Kind]:
    """(side, kind) of a tag id; ValueError for none of this game's."""
    found = _PIECE.fullmatch(piece)
    if found is None:
        raise ValueError(f"{piece!r} is not a Kensei tag")
    side: Side = "a" if found[1] == "a" else "b"
    kind: Kind = ("troop" if found[2] else "model" if found[4] else "ammo" if found[6]
                  else "card")
    return side, kind


def tag_troop(piece: str) -> str:
    """The troop a troop tag stands for: ``a-troop-03`` -> ``a3``."""
    side, _, number = piece.split("-")
    return f"{side}{int(number)}"


# --------------------------------------------------------------------------- words


def player_word(army_name: str) -> str:
    """ "Ana's Kuge" -> "Ana's"; a name without an owner is the army's own ("Kuge Host's")."""
    owner, sep, _ = army_name.partition("'s ")
    return f"{owner}'s" if sep and owner else f"{army_name}'s"


def troop_name(state: State, troop: Troop) -> str:
    """The profile's name, with the list position when two troops share a profile."""
    same = [t for t in state.side_troops(troop.side) if t.profile == troop.profile]
    base = state.army(troop.side).profiles[troop.profile].name
    return base if len(same) == 1 else f"{base} ({troop.entry})"


def counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# --------------------------------------------------------------------------- the table


class KenseiTable:
    """Kensei as the bridge serves it. Labels name the players once a battle's armies are known
    (:meth:`name_sides`); before, "left player's" and "right player's"."""

    name = "kensei"
    piece_word = "tag"
    piece_hint = ("side and kind like 'left troop 3', 'right model', 'left card 2' (its value), "
                  "'right ammunition', or id like 'a-troop-03'")

    def __init__(self) -> None:
        self.owners: dict[Side, str] = dict(DEFAULT_OWNERS)

    sides: Mapping[str, str] = {"a": "left player's", "b": "right player's"}
    """What the bridge's counts call a side's tags ("two left player's tags"): the player's
    name would need "an" before a vowel, which the counts cannot say."""

    def name_sides(self, army_names: Mapping[Side, str]) -> None:
        """The players' words for the labels ("Ana's command pad")."""
        self.owners = {s: player_word(army_names[s]) if s in army_names else DEFAULT_OWNERS[s]
                       for s in SIDES}

    def label(self, place: str) -> str:
        kind, side = split_place(place)
        if side is None:
            return {FIELD: "the field", BOX: "the tag box",
                    REGISTRATION: "the registration pad"}.get(place, place)
        if kind == "hand":
            return f"{self.owners[side]} hand"
        return f"{self.owners[side]} {_PAD_WORDS[kind]}"  # type: ignore[index]

    def places(self) -> Mapping[str, Place]:
        found = {place_id(k, s): Place(place_id(k, s), self.label(place_id(k, s)),
                                       PlaceKind.TRAY)
                 for s in SIDES for k in PAD_KINDS}
        found[REGISTRATION] = Place(REGISTRATION, self.label(REGISTRATION),
                                    PlaceKind.REGISTRATION)
        for unwatched in (FIELD, BOX, *(hand_place(s) for s in SIDES)):
            found[unwatched] = Place(unwatched, self.label(unwatched), PlaceKind.UNWATCHED)
        return found

    def pieces(self) -> Sequence[Piece]:
        return tuple(Piece(p, p[0]) for p in piece_ids())

    def resolve_piece(self, answer: str, taken: Collection[str]) -> str:
        text = answer.strip().lower()
        if _PIECE.fullmatch(text):
            if text in taken:
                raise ValueError(f"{self.describe_piece(text)} has a tag already")
            return text
        words = text.replace("'s", "").split()
        side = self._side_in(words)
        if side is None:
            raise ValueError(f"{answer!r}: say whose it is ('left' or 'right'), then 'troop 3', "
                             "'model', 'card 2' or 'ammunition'")
        number = next((int(w) for w in words if w.isdigit()), None)
        if "troop" in words:
            if number is None or not 1 <= number <= TROOP_SLOTS:
                raise ValueError(f"say the troop's place in the list, 1 to {TROOP_SLOTS}")
            piece = troop_tag(f"{side}{number}")
            if piece in taken:
                raise ValueError(f"{self.describe_piece(piece)} has a tag already")
            return piece
        if "card" in words:
            if number is None or not 0 <= number <= 3:
                raise ValueError("say the card's value, 0 to 3 (B1.1)")
            pool = [c for c in card_ids(side) if card_value(c) == number]
            what = f"{self.owners[side]} command card worth {number}"
        elif "model" in words:
            pool, what = list(model_tags(side)), f"{self.owners[side]} model tag"
        elif any(w.startswith("ammo") or w.startswith("ammunition") for w in words):
            pool, what = list(ammo_tags(side)), f"{self.owners[side]} ammunition marker"
        else:
            raise ValueError(f"{answer!r}: say 'troop 3', 'model', 'card 2' or 'ammunition'")
        free = [p for p in pool if p not in taken]
        if not free:
            raise ValueError(f"every {what} has a tag already")
        return free[0]

    def _side_in(self, words: Sequence[str]) -> Side | None:
        for side in SIDES:
            names = {side, "left" if side == "a" else "right",
                     self.owners[side].removesuffix("'s").lower()}
            if names & set(words):
                return side
        return None

    def describe_piece(self, piece: str) -> str:
        side, kind = piece_kind(piece)
        owner = self.owners[side]
        if kind == "troop":
            return f"{owner} troop {int(piece.rsplit('-', 1)[1])}"
        if kind == "model":
            return f"{owner} model {int(piece.rsplit('-', 1)[1])}"
        if kind == "card":
            return f"{owner} command card, face down"
        return f"{owner} ammunition marker, face down"

    def watch_rules(self, on_table: Mapping[str, str]) -> KenseiWatch:
        return KenseiWatch(dict(on_table), self)

    def session_rules(self, game: Any) -> KenseiSessionRules:
        from companion.games.kensei.table_session import KenseiSessionRules

        return KenseiSessionRules(game, self)

    def antenna_layout(self) -> AntennaLayout:
        return antenna_layout()

    def default_wiring(self) -> DefaultWiring:
        return default_wiring()


def watched_places() -> frozenset[str]:
    return frozenset(p.id for p in KenseiTable().places().values() if p.watched)


@cache
def antenna_layout() -> AntennaLayout:
    """Where the antennas lie (data/antennas.yaml, generated by the placement sheet)."""
    return load_antenna_layout(GAME, watched_places())


@cache
def default_wiring() -> DefaultWiring:
    """The wiring the build guide prints (data/wiring.default.yaml)."""
    return load_default_wiring(GAME, watched_places())


def _foreign(piece: str, place: str) -> bool:
    """A tag on the other player's tray or pad (a command pad takes any troop: a target)."""
    kind, side = split_place(place)
    return side is not None and side != piece[0] and not (
        kind == "command" and piece_kind(piece)[1] in ("troop", "model"))


@dataclass
class KenseiWatch:
    """Watch rules without the engine: a tag goes anywhere but the other player's trays and
    pads (a command pad takes an enemy troop: a target)."""

    positions: dict[str, str]
    table: KenseiTable

    def expected_positions(self) -> Mapping[str, str]:
        return self.positions

    def summary(self) -> str:
        return (f"watching {len(self.positions)} tags on the trays and pads; the field itself "
                "is not watched")

    def explain_move(self, origin: str, destination: str, block_ids: Sequence[str]
                     ) -> RuleViolation | None:
        if any(_foreign(p, destination) for p in block_ids):
            return RuleViolation("B18", f"{self.table.label(destination)} takes only that "
                                 "player's own tags")
        return None

    def apply(self, move: ProposedMove) -> None:
        self.positions.update(dict.fromkeys(move.block_ids, move.destination))


TABLE = KenseiTable()
