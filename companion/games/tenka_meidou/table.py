"""At the table: the wiring map and tag registry for this board, pure checks that compare
what the readers saw with what the rules expect, and the game's
:class:`~companion.core.table.GameTable` (:data:`TABLE`) through which the bridge serves it.

The readers report, for each place (a zone, a colour's reserve tray), the pawns whose tags they
see. A deployment is checked from the change between two sightings against the dice entered on
the touchscreen (right zone, right count, section 5.I.1); a card against the pawns that moved
(sections 7 and 10). Nothing here does I/O: the bridge feeds the sightings in.

The bridge's table session follows deployments (:class:`TenkaSessionRules`): the dice are
entered first (:meth:`TenkaSessionRules.enter_dice`), then the pawns the readers see leave the
reserve are checked with :func:`check_deployment`, and the deployment is submitted once all of
them stand in the zone the dice name. A card is entered too
(:meth:`TenkaSessionRules.enter_card`); its pawns are moved, and when the players say they are
done the pawns that moved are the card's effect (:meth:`TenkaSessionRules.card_command`), judged
by the rules. Pawns of one colour are interchangeable, so the session gives them identities from
the game state when it starts (a game resumed mid-way assumes the lowest numbers are on the
board); reinforcements and the War phase are not followed on the table yet.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from companion.core.datafiles import (
    load_packaged,
)
from companion.core.events import Event
from companion.core.game import Game
from companion.core.rules import RuleViolation
from companion.core.table import Hold, Outcome, Piece, Place, PlaceKind, ProposedMove, Ready
from companion.games.tenka_meidou.components import Colour, Tactic, default_board
from companion.games.tenka_meidou.events import (
    Deploy,
    PlayDaimyo,
    PlayTactic,
    SoldiersDeployed,
)
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
    return load_packaged(__package__, "wiring.default.yaml", TableWiring)


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


# --------------------------------------------------------------------------- the bridge's table

SOLDIERS = 18
REINFORCEMENTS = 30


def pawn_ids() -> tuple[str, ...]:
    """Every pawn: each colour's soldiers and Daimyo pawn, then the white reinforcements."""
    coloured = (f"{c.value}-{n}" for c in Colour
                for n in (*(f"{i:02d}" for i in range(1, SOLDIERS + 1)), "daimyo"))
    return (*coloured, *(f"white-{i:02d}" for i in range(1, REINFORCEMENTS + 1)))


@cache
def _places() -> dict[str, Place]:
    found = {z.id: Place(z.id, z.name, PlaceKind.LOCATION, wide=True)
             for z in default_board().zones}
    found.update({reserve_place(c): Place(reserve_place(c), f"{c.value.capitalize()}'s reserve",
                                          PlaceKind.TRAY) for c in Colour})
    found[SUPPLY] = Place(SUPPLY, "the reinforcement supply", PlaceKind.TRAY)
    found[REGISTRATION] = Place(REGISTRATION, "the registration pad", PlaceKind.REGISTRATION)
    return found


def _sighting(positions: Mapping[str, str]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for pawn, place in positions.items():
        found.setdefault(place, set()).add(pawn)
    return {place: frozenset(pawns) for place, pawns in found.items()}


def _moved(positions: Mapping[str, str], destination: str, pawns: Sequence[str]
           ) -> dict[str, str]:
    return {**positions, **dict.fromkeys(pawns, destination)}


@dataclass
class PawnWatch:
    """Watch rules without the engine: pawns go anywhere but another colour's reserve."""

    positions: dict[str, str]

    def expected_positions(self) -> Mapping[str, str]:
        return self.positions

    def summary(self) -> str:
        return (f"watching {len(self.positions)} pawns on the table; a pawn may go anywhere "
                "but another colour's reserve")

    def explain_move(self, origin: str, destination: str, block_ids: Sequence[str]
                     ) -> RuleViolation | None:
        before = _sighting({p: self.positions[p] for p in block_ids if p in self.positions})
        after = _sighting(dict.fromkeys(block_ids, destination))
        problems = [p for p in observed_moves(before, after)[1] if "reserve" in p]
        return RuleViolation("5.I.1", "; ".join(problems)) if problems else None

    def apply(self, move: ProposedMove) -> None:
        self.positions.update(dict.fromkeys(move.block_ids, move.destination))


def _initial_positions(state: State) -> dict[str, str]:
    """Identities for the pawns the state counts: the lowest numbers on the board, zone by
    zone, the rest in the colour's reserve (pawns of one colour are interchangeable)."""
    found: dict[str, str] = {}
    for colour in state.players:
        ids = [f"{colour.value}-{i:02d}" for i in range(1, SOLDIERS + 1)]
        places = [z for z, counts in state.soldiers.items() for _ in range(counts.get(colour, 0))]
        places += [reserve_place(colour)] * state.reserve.get(colour, 0)
        found.update(zip(ids, places, strict=False))
        if state.advanced:
            found[f"{colour.value}-daimyo"] = state.daimyo_at.get(colour, reserve_place(colour))
    return found


@dataclass
class TenkaSessionRules:
    """A running Tenka Meidou game as the bridge's table session follows it (see the module
    docstring): deployments checked against the dice entered, and cards whose pawns are moved
    and then confirmed on the touchscreen."""

    game: Game[State, Any, Any]
    rules: TenkaRules = field(default_factory=TenkaRules)
    positions: dict[str, str] = field(default_factory=dict)
    dice: Deploy | None = None
    """The dice entered for the deployment being made, until it is accepted."""
    card: tuple[Colour, Tactic | None] | None = None
    """The card being played (a tactic, or None for one's Daimyo card), until it is accepted:
    pawns may move anywhere but another colour's reserve; :meth:`card_command` reads them."""
    _submitted: tuple[int, dict[str, str]] | None = None
    """(the events before, where the pawns stand once it is accepted) for a command submitted."""

    def __post_init__(self) -> None:
        if not self.positions:
            self.positions = _initial_positions(self.game.state)

    def enter_dice(self, dice: Deploy) -> SoldiersDeployed:
        """The dice as rolled, entered on the touchscreen: the pawns to expect (RuleViolation
        if the dice or the turn are wrong)."""
        event = self.rules.deploy(self.game.state, dice)
        self.dice, self.card, self._submitted = dice, None, None
        return event

    def enter_card(self, colour: Colour, card: Tactic | None) -> None:
        """A card is being played (``card`` None: ``colour``'s Daimyo card): its pawns are moved
        on the table, then :meth:`card_command` reads the effect (sections 7, 10)."""
        self.dice, self.card, self._submitted = None, (colour, card), None

    def cancel(self) -> None:
        """Nothing entered: pawns moved now are discrepancies again."""
        self.dice, self.card, self._submitted = None, None, None

    def table_moves(self, seen: Mapping[str, str]) -> tuple[tuple[PawnMove, ...], list[str]]:
        """The pawns in play that ``seen`` (pawn -> place, the readers' placements) has moved
        from where the rules have them, and what cannot be read as a move."""
        expected = self.expected_positions()
        return observed_moves(_sighting(expected),
                              _sighting({p: z for p, z in seen.items() if p in expected}))

    def card_command(self, seen: Mapping[str, str]) -> tuple[PlayTactic | PlayDaimyo | None,
                                                              list[str]]:
        """The card entered, its effect read from the pawns ``seen`` moved: the command to
        submit (the pawns are then where the readers saw them), or the problems."""
        if self.card is None:
            return None, ["choose the card on the touchscreen first"]
        moves, problems = self.table_moves(seen)
        if problems:
            return None, problems
        colour, card = self.card
        command: PlayTactic | PlayDaimyo = (
            PlayTactic(colour=colour, card=card, moves=moves) if card is not None
            else PlayDaimyo(colour=colour, moves=moves))
        expected = self.expected_positions()
        moved = {p: z for p, z in seen.items() if p in expected and expected[p] != z}
        self._submitted = (len(self.game.events), moved)
        return command, []

    def _sync(self) -> None:
        """Once the command submitted is accepted, its pawns are where the rules have them; a
        game started since gives its pawns their places."""
        if not self.positions and self.game.state.players:
            self.positions = _initial_positions(self.game.state)
        if self._submitted is not None and len(self.game.events) > self._submitted[0]:
            self.positions = {**self.positions, **self._submitted[1]}
            self.dice, self.card, self._submitted = None, None, None

    def expected_positions(self) -> Mapping[str, str]:
        self._sync()
        return self.positions

    def _judge(self, origin: str, destination: str, pawns: Sequence[str]
               ) -> Outcome | RuleViolation:
        self._sync()
        if self.card is not None:
            moved = _sighting(dict.fromkeys(pawns, destination))
            here = _sighting({p: self.positions[p] for p in pawns if p in self.positions})
            odd = [p for p in observed_moves(here, moved)[1] if "reserve" in p]
            if odd:
                return RuleViolation("7", "; ".join(odd))
            return Hold("a card: move its pawns, then tap Done")
        if self.dice is None:
            return RuleViolation("5.I.1", "enter the dice on the touchscreen, then place the pawns")
        before = _sighting(self.positions)
        after = _sighting(_moved(self.positions, destination, pawns))
        problems = check_deployment(self.rules, self.game.state, self.dice, before, after)
        if not problems:
            return Ready((self.dice,))
        event = self.rules.deploy(self.game.state, self.dice)
        seen, odd = observed_moves(before, after)
        wanted = event.soldiers + int(event.daimyo)
        if not odd and all(m.colour is event.colour and m.destination == event.zone
                           and m.origin == RESERVE for m in seen) and len(pawns) < wanted:
            return Hold(f"{len(pawns)} of {wanted} pawns placed")
        return RuleViolation("5.I.1", "; ".join(problems))

    def explain_move(self, origin: str, destination: str, block_ids: Sequence[str]
                     ) -> RuleViolation | None:
        verdict = self._judge(origin, destination, block_ids)
        return verdict if isinstance(verdict, RuleViolation) else None

    def commands_for(self, move: ProposedMove) -> Outcome:
        verdict = self._judge(move.origin, move.destination, move.block_ids)
        if isinstance(verdict, RuleViolation):
            raise ValueError(str(verdict))
        if isinstance(verdict, Ready):
            self._submitted = (len(self.game.events),
                               dict.fromkeys(move.block_ids, move.destination))
        return verdict

    def group(self, moves: Sequence[ProposedMove]) -> list[ProposedMove]:
        return list(moves)

    def destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        return self.flashing() if self.dice and origin == reserve_place(self.dice.colour) else []

    def flashing(self) -> list[str]:
        """The zone the dice entered name."""
        if self.dice is None:
            return []
        try:
            return [self.rules.deploy(self.game.state, self.dice).zone]
        except RuleViolation:
            return []

    def describe(self, event: Event) -> str:
        if isinstance(event, SoldiersDeployed):
            daimyo = " and the Daimyo" if event.daimyo else ""
            return (f"{event.colour} deployed {event.soldiers} soldier(s){daimyo} to "
                    f"{_places()[event.zone].label} (castle {sum(event.pair)}, 5.I.1)")
        data = event.model_dump(mode="json")
        data.pop("card", None)  # a Daimyo chosen stays hidden
        return f"{data.pop('type', 'event')}: {data}"


class TenkaTable:
    """Tenka Meidou as the bridge serves it."""

    name = "tenka-meidou"
    piece_word = "pawn"
    piece_hint = "colour like 'red', 'red daimyo', 'white', or id like 'red-07'"
    sides: Mapping[str, str] = {**{c.value: c.value for c in Colour}, "white": "white"}

    def places(self) -> Mapping[str, Place]:
        return _places()

    def pieces(self) -> Sequence[Piece]:
        return tuple(Piece(p, pawn_kind(p)[0]) for p in pawn_ids())

    def resolve_piece(self, answer: str, taken: Collection[str]) -> str:
        text = answer.strip().lower()
        if _PAWN.fullmatch(text):
            return text
        words = text.split()
        colour = next((w for w in words if w in self.sides), None)
        if colour is None:
            raise ValueError(f"{answer!r}: say a colour (red, blue, yellow, black, white), "
                             "'red daimyo', or a pawn id (red-07)")
        kind = ("reinforcement" if colour == "white" else
                "daimyo" if "daimyo" in words else "soldier")
        free = [p for p in pawn_ids() if p not in taken and pawn_kind(p) == (colour, kind)]
        if not free:
            raise ValueError(f"every {colour} {kind} has a tag already")
        return free[0]

    def describe_piece(self, piece: str) -> str:
        colour, kind = pawn_kind(piece)
        return f"{colour} {kind}"

    def watch_rules(self, on_table: Mapping[str, str]) -> PawnWatch:
        return PawnWatch(dict(on_table))

    def session_rules(self, game: Any) -> TenkaSessionRules:
        return TenkaSessionRules(game)


TABLE = TenkaTable()
