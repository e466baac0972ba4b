"""At the table: the wiring map and tag registry for this board, and pure checks that compare
what the readers saw with what the rules expect.

The readers report, for each place (a zone, a colour's reserve tray), the pawns whose tags they
see. A deployment is checked from the change between two sightings against the dice entered on
the touchscreen (right zone, right count, section 5.I.1); a card against the pawns that moved
(sections 7 and 10). Nothing here does I/O: the bridge feeds the sightings in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from companion.core.datafiles import DataFileError, describe_validation_error, parse_yaml
from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Colour, default_board
from companion.games.tenka_meidou.events import Deploy
from companion.games.tenka_meidou.moves import normalise
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State

SUPPLY = "reinforcements"
REGISTRATION = "registration"
_PAWN = re.compile(r"(red|blue|yellow|black)-(0[1-9]|1[0-8]|daimyo)|white-(0[1-9]|[12][0-9]|30)")
_UID = re.compile(r"[0-9A-F]{16}")
_ANTENNA = re.compile(r"A[0-9]{2,3}")

Sighting = Mapping[str, frozenset[str]]   # place -> pawn ids the readers see there


def reserve_place(colour: Colour) -> str:
    return f"reserve_{colour.value}"


def places() -> frozenset[str]:
    """Every place a reader may watch."""
    return frozenset((*default_board().zone_ids, *(reserve_place(c) for c in Colour),
                      SUPPLY, REGISTRATION))


class TableWiring(BaseModel):
    """hub id -> antenna name (``A03``) -> place. A zone may span several antennas."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hubs: dict[str, dict[str, str]]

    @field_validator("hubs")
    @classmethod
    def _known(cls, hubs: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        known = places()
        for hub, antennas in hubs.items():
            for antenna, place in antennas.items():
                if _ANTENNA.fullmatch(antenna) is None:
                    raise ValueError(f"{hub}.{antenna}: antenna must be A00..A127")
                if place not in known:
                    raise ValueError(f"{hub}.{antenna}: unknown place {place!r}")
        return hubs


class PawnRegistry(BaseModel):
    """tag uid -> pawn id: ``red-01``..``red-18``, ``red-daimyo``, ``white-01``..``white-30``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tags: dict[str, str]

    @field_validator("tags")
    @classmethod
    def _valid(cls, tags: dict[str, str]) -> dict[str, str]:
        owner: dict[str, str] = {}
        for uid, pawn in tags.items():
            if _UID.fullmatch(uid) is None:
                raise ValueError(f"{uid!r} is not a tag uid (16 upper-case hex digits)")
            if _PAWN.fullmatch(pawn) is None:
                raise ValueError(f"{uid}: unknown pawn {pawn!r}")
            if pawn in owner:
                raise ValueError(f"{uid}: pawn {pawn} already has tag {owner[pawn]}")
            owner[pawn] = uid
        return tags


@cache
def default_wiring() -> TableWiring:
    text = resources.files(__package__).joinpath("data", "wiring.default.yaml").read_text("utf-8")
    try:
        return TableWiring.model_validate(parse_yaml(text, "wiring.default.yaml"))
    except ValidationError as exc:
        raise DataFileError(f"wiring.default.yaml: {describe_validation_error(exc)}") from None


def pawn_kind(pawn: str) -> tuple[str, str]:
    """(colour, "soldier" | "daimyo" | "reinforcement") of a pawn id."""
    colour, _, number = pawn.partition("-")
    if colour == "white":
        return colour, "reinforcement"
    return colour, "daimyo" if number == "daimyo" else "soldier"


def _place(place: str) -> str:
    return RESERVE if place.startswith("reserve_") else place


def observed_moves(before: Sighting, after: Sighting) -> tuple[tuple[PawnMove, ...], list[str]]:
    """The coloured pawns that changed place, and what cannot be read as a move."""
    where_before = {p: place for place, pawns in before.items() for p in pawns}
    where_after = {p: place for place, pawns in after.items() for p in pawns}
    moves: list[PawnMove] = []
    problems: list[str] = []
    for pawn in sorted(set(where_before) | set(where_after)):
        a, b = where_before.get(pawn), where_after.get(pawn)
        if a == b:
            continue
        colour, kind = pawn_kind(pawn)
        if a is None or b is None:
            problems.append(f"{pawn} appeared in {b}" if a is None else f"{pawn} vanished from {a}")
            continue
        if kind == "reinforcement":
            problems.append(f"reinforcement pawn {pawn} moved during deployment")
            continue
        if (a.startswith("reserve_") and b.startswith("reserve_")) or (
                (a.startswith("reserve_") or b.startswith("reserve_"))
                and reserve_place(Colour(colour)) not in (a, b)):
            problems.append(f"{pawn} went to or from another colour's reserve ({a} -> {b})")
            continue
        moves.append(PawnMove(colour=Colour(colour), pawn=kind,
                              origin=_place(a), destination=_place(b)))
    return normalise(moves), problems


def _describe(moves: tuple[PawnMove, ...]) -> str:
    return "; ".join(f"{m.count} {m.colour} {m.pawn} {m.origin} -> {m.destination}"
                     for m in moves) or "nothing"


def check_deployment(rules: TenkaRules, state: State, command: Deploy, before: Sighting,
                     after: Sighting) -> list[str]:
    """Section 5.I.1: the pawns that left the reserve are the right colour, in the zone the
    pair of dice names, as many as the single die gives (or what was left)."""
    try:
        event = rules.deploy(state, command)
    except RuleViolation as exc:
        return [f"{exc.message} (rule {exc.rule})"]
    expected = []
    if event.soldiers:
        expected.append(PawnMove(colour=event.colour, origin=RESERVE, destination=event.zone,
                                 count=event.soldiers))
    if event.daimyo:
        expected.append(PawnMove(colour=event.colour, pawn="daimyo", origin=RESERVE,
                                 destination=event.zone))
    seen, problems = observed_moves(before, after)
    want = normalise(expected)
    if Counter(seen) != Counter(want):
        problems.append(f"the dice say {_describe(want)} (zone {event.zone}, castle "
                        f"{sum(event.pair)}); the readers saw {_describe(seen)}")
    return problems


def check_card(expected: tuple[PawnMove, ...], before: Sighting, after: Sighting) -> list[str]:
    """Sections 7 and 10: the pawns that moved are exactly the card's effect as accepted."""
    seen, problems = observed_moves(before, after)
    want = normalise(expected)
    if Counter(seen) != Counter(want):
        problems.append(f"the card moves {_describe(want)}; the readers saw {_describe(seen)}")
    return problems
