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
by the rules. Pawns of one colour are interchangeable: the session gives them identities from
the game state, then re-binds them to the pawns the readers see
(:meth:`TenkaSessionRules.observe`, :func:`rebind`), so only the counts of each colour and kind
per place matter and a game resumed on real pawns with other numbers is accepted as it stands.
Once the War is fought the session follows it zone by zone (5.II.3): where the zone being
resolved sends its white pawns is said (:meth:`TenkaSessionRules.war_prompt`) and flashed, and
the session holds until the readers see them arrive (:func:`war_steps`, :func:`white_counts`).
Castle tokens are not tagged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from companion.core.events import Event
from companion.core.game import Game
from companion.core.hardware import (
    AntennaLayout,
    DefaultWiring,
    load_antenna_layout,
    load_default_wiring,
)
from companion.core.rules import RuleViolation
from companion.core.table import Hold, Outcome, Piece, Place, PlaceKind, ProposedMove, Ready
from companion.games.tenka_meidou import GAME
from companion.games.tenka_meidou.components import Colour, Tactic, default_board
from companion.games.tenka_meidou.events import (
    DaimyoPlayed,
    Deploy,
    PlayDaimyo,
    PlayTactic,
    SoldiersDeployed,
    TacticPlayed,
    WarFought,
)
from companion.games.tenka_meidou.moves import normalise
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State
from companion.games.tenka_meidou.war import WarResult

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
def default_wiring() -> DefaultWiring:
    """The wiring the placement sheet prints (data/wiring.default.yaml)."""
    return load_default_wiring(GAME, places())


@cache
def antenna_layout() -> AntennaLayout:
    """Where the antennas lie (data/antennas.yaml, generated by the placement sheet)."""
    return load_antenna_layout(GAME, places())


def pawn_kind(pawn: str) -> tuple[str, str]:
    """(colour, "soldier" | "daimyo" | "reinforcement") of a pawn id."""
    colour, _, number = pawn.partition("-")
    if colour == "white":
        return colour, "reinforcement"
    return colour, "daimyo" if number == "daimyo" else "soldier"


def _place(place: str) -> str:
    return RESERVE if place.startswith("reserve_") else place


UNSEEN = "no longer seen"
"""What :func:`observed_moves` says of pawns no reader sees any more (not a move to undo: a
lifted pawn or a dead tag, reported by the table session once it stays so)."""


def _where(place: str) -> str:
    """A place in words (a zone by its id, which the screens name)."""
    if place.startswith("reserve_"):
        return f"{place.removeprefix('reserve_')}'s reserve"
    return "the reinforcement supply" if place == SUPPLY else place


def _pawns(n: int, colour: str, kind: str) -> str:
    noun = {"daimyo": "Daimyo pawn", "reinforcement": "pawn"}.get(kind, kind)
    return f"{n} {colour} {noun}{'s' if n != 1 else ''}"


def observed_moves(before: Sighting, after: Sighting) -> tuple[tuple[PawnMove, ...], list[str]]:
    """The coloured pawns that changed place, and what cannot be read as a move, in words (by
    colour and count, never a pawn's id)."""
    where_before = {p: place for place, pawns in before.items() for p in pawns}
    where_after = {p: place for place, pawns in after.items() for p in pawns}
    moves: list[PawnMove] = []
    odd: Counter[tuple[str, str, str, str]] = Counter()
    for pawn in sorted(set(where_before) | set(where_after)):
        a, b = where_before.get(pawn), where_after.get(pawn)
        if a == b:
            continue
        colour, kind = pawn_kind(pawn)
        if a is None or b is None:
            what, place = ("appeared in", b or "") if a is None else (UNSEEN + " in", a)
            odd[(what, colour, kind, place)] += 1
        elif kind == "reinforcement":
            odd[("moved during deployment", colour, kind, "")] += 1
        elif (a.startswith("reserve_") and b.startswith("reserve_")) or (
                (a.startswith("reserve_") or b.startswith("reserve_"))
                and reserve_place(Colour(colour)) not in (a, b)):
            odd[("went to or from another colour's reserve", colour, kind, "")] += 1
        else:
            moves.append(PawnMove(colour=Colour(colour), pawn=kind,
                                  origin=_place(a), destination=_place(b)))
    problems = [f"{_pawns(n, colour, kind)} {what}" + (f" {_where(place)}" if place else "")
                for (what, colour, kind, place), n in odd.items()]
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


def rebind(slots: Counter[str], ids: Sequence[str], previous: Mapping[str, str],
           seen: Mapping[str, str]) -> dict[str, str]:
    """Interchangeable pawns (one colour and kind): bind ``sum(slots)`` of ``ids`` to the
    places ``slots`` counts (place -> pawns the rules have there) so that as many as possible
    stand where the readers see them (``seen``: pawn -> place). Then a pawn seen where the rules
    want one of its kind is right whatever its number; one seen where none is wanted is bound
    to a place that lacks one (read as moved from there); a place still lacking is filled with
    pawns no reader sees (read as missing). Bindings are kept where they can be
    (``previous``), so a pawn keeps its place from one call to the next."""
    free = Counter({place: n for place, n in slots.items() if n > 0})
    found: dict[str, str] = {}
    # 1. pawns seen where one is wanted, those already bound there first
    for pawn in sorted(ids, key=lambda p: (seen.get(p) != previous.get(p), p)):
        place = seen.get(pawn)
        if place is not None and free[place] > 0:
            found[pawn] = place
            free[place] -= 1
    # 2. the rest fill what is left: seen pawns before unseen ones, each where it was if it can
    rest = sorted((p for p in ids if p not in found), key=lambda p: (p not in seen, p))
    for pawn in rest:
        place = previous.get(pawn)
        if place is not None and free[place] > 0:
            found[pawn] = place
            free[place] -= 1
    left = sorted(free.elements())
    found.update(zip((p for p in rest if p not in found), left, strict=False))
    return found


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


# --------------------------------------------------------------------------- the War at the table


@dataclass(frozen=True)
class WarStep:
    """One zone of the War as the table follows it: its winner sends ``sends`` (destination ->
    white pawns) to the adjacent unresolved zones holding their soldiers; ``from_supply`` of
    them come from the supply, the rest from zones already resolved once it runs out (5.II.3)."""

    zone: str
    value: int
    winner: Colour | None
    sends: dict[str, int]
    from_supply: int

    @property
    def sent(self) -> int:
        return sum(self.sends.values())


def war_steps(war: WarResult, supply: int) -> list[WarStep]:
    """Every zone of the War in resolution order, with where its reinforcements come from."""
    found = []
    for zone in war.zones:
        taken = min(supply, sum(zone.reinforcements.values()))
        supply -= taken
        found.append(WarStep(zone.zone, zone.value, zone.winner, dict(zone.reinforcements),
                             taken))
    return found


def white_counts(steps: Sequence[WarStep], done: int, supply: int,
                 seen: Mapping[str, int]) -> Counter[str]:
    """White pawns per place once the first ``done`` zones are resolved and their
    reinforcements placed (5.II.3). Pawns taken from resolved zones once the supply ran out may
    come from any of them: they are counted as taken where the readers see fewer (``seen``:
    place -> white pawns seen), so any fair choice of the players is what is expected."""
    counts: Counter[str] = Counter({SUPPLY: supply})
    taken = 0
    for step in steps[:done]:
        counts.update(step.sends)
        counts[SUPPLY] -= step.from_supply
        taken += step.sent - step.from_supply
    resolved = [step.zone for step in steps[:done]]
    for fewer in (True, False):
        for zone in resolved:
            cut = min(taken, counts[zone])
            if fewer:
                cut = min(cut, max(0, counts[zone] - seen.get(zone, 0)))
            counts[zone] -= cut
            taken -= cut
    return +counts


def _next_step(steps: Sequence[WarStep], at: int) -> int:
    """The first zone from ``at`` on whose winner sends reinforcements (len(steps): none)."""
    return next((i for i in range(at, len(steps)) if steps[i].sent), len(steps))


def _listed(sends: Mapping[str, int]) -> str:
    return " and ".join(f"{n} to {_places()[z].label}" for z, n in sends.items())


def war_prompt(steps: Sequence[WarStep], at: int, supply: int) -> str:
    """What the players do now in the War at the table (5.II.3)."""
    if at >= len(steps):
        return ("The War is over on the table: every reinforcement is placed; the castle "
                "tokens are taken by hand (they are not tagged) (6)")
    step = steps[at]
    label = _places()[step.zone].label
    text = (f"The War, {label} (castle {step.value}): {step.winner} wins and sends white "
            f"pawns: {_listed(step.sends)} (5.II.3)")
    if step.from_supply < step.sent:
        left = white_counts(steps, at, supply, {})[SUPPLY]
        text += (f"; the supply has {left} left: take {step.sent - step.from_supply} from "
                 "zones already resolved")
    return text + "; castle tokens are not tagged: hand them over yourselves (5.II.2)"


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
    whites: dict[str, str] = field(default_factory=dict)
    """The white pawns in play and where they should be: before the War those the readers see,
    in the supply; in the War all of them, as the zones resolved so far have sent them."""
    war_at: int | None = None
    """In the War: the zone (index in resolution order) whose reinforcements are placed now."""
    _seen: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.game.rules, TenkaRules):
            self.rules = self.game.rules
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
        moved = {p: z for p, z in seen.items() if p in self.positions and expected[p] != z}
        self._submitted = (len(self.game.events), moved)
        return command, []

    def observe(self, seen: Mapping[str, str]) -> None:
        """The readers' placements: pawns of one colour and kind are interchangeable, so the
        ids the rules expect are re-bound to those seen (:func:`rebind`), keeping the counts
        per place the game state gives. A game resumed on real pawns (other numbers than the
        lowest on the board) is then what the readers see; a real difference (a pawn missing,
        one too many in a zone) stays one, with its fix."""
        self._sync()
        self._seen = dict(seen)
        self.positions = self._bound(self.positions, seen)
        steps = self.war_steps()
        if steps is None:
            self.whites = {p: SUPPLY for p in seen if pawn_kind(p)[0] == "white"}
            return
        if self.war_at is None:  # the War begins (or a game resumed in it): skip what is done
            self.war_at = _next_step(steps, 0)
            while (self.war_at < len(steps)
                   and self._white_seen() == self._white_target(steps, self.war_at + 1)):
                self.war_at = _next_step(steps, self.war_at + 1)
        slots = self._white_target(steps, self.war_at)
        ids = sorted({*(f"white-{i:02d}" for i in range(1, self._supply() + 1)),
                      *(p for p in seen if pawn_kind(p)[0] == "white")})
        self.whites = rebind(slots, ids, self.whites, seen)

    # ------------------------------------------------------------------ the War (5.II)

    def _supply(self) -> int:
        return self.rules.components.reinforcement_pawns

    def war_steps(self) -> list[WarStep] | None:
        """The War's zones in resolution order, once it has been fought (None before)."""
        war = self.game.state.war
        return None if war is None else war_steps(war, self._supply())

    def _white_seen(self) -> Counter[str]:
        return Counter(z for p, z in self._seen.items() if pawn_kind(p)[0] == "white")

    def _white_target(self, steps: Sequence[WarStep], done: int) -> Counter[str]:
        return white_counts(steps, done, self._supply(), self._white_seen())

    def war_prompt(self) -> str | None:
        """What the players do now in the War at the table (None before the War)."""
        steps = self.war_steps()
        if steps is None:
            return None
        return war_prompt(steps, _next_step(steps, 0) if self.war_at is None else self.war_at,
                          self._supply())

    def war_progress(self) -> dict[str, tuple[int, int]] | None:
        """For the zone being resolved: destination -> (white pawns the readers see arrived,
        white pawns it gets) (5.II.3); empty once the War is over on the table, None before."""
        steps = self.war_steps()
        if steps is None:
            return None
        at = _next_step(steps, 0) if self.war_at is None else self.war_at
        if at >= len(steps):
            return {}
        before = self._white_target(steps, at)
        seen = self._white_seen()
        return {z: (min(n, max(0, seen[z] - before[z])), n)
                for z, n in steps[at].sends.items()}

    def war_left(self) -> dict[str, int] | None:
        """White pawns still to place, per zone they go to, from the zone being resolved to
        the last (5.II.3); empty once the War is over on the table, None before the War."""
        steps = self.war_steps()
        if steps is None:
            return None
        at = _next_step(steps, 0) if self.war_at is None else self.war_at
        left: Counter[str] = Counter()
        for step in steps[at:]:
            left.update(step.sends)
        for zone, (placed, _wanted) in (self.war_progress() or {}).items():
            left[zone] -= placed
        return dict(+left)

    def _judge_war(self, origin: str, destination: str, pawns: Sequence[str],
                   steps: list[WarStep]) -> Outcome | RuleViolation:
        """Section 5.II.3: white pawns from the supply (or, once it runs out, from zones
        already resolved) to the zones the winner of the zone being resolved reinforces."""
        if any(pawn_kind(p)[0] != "white" for p in pawns):
            return RuleViolation("5.II", "in the War only reinforcements (white pawns) are "
                                 "placed: soldiers stay where they stood")
        at = _next_step(steps, 0) if self.war_at is None else self.war_at
        if at >= len(steps):
            return RuleViolation("5.II.3", "the War is over: every reinforcement is placed")
        step = steps[at]
        said = (f"{step.winner} sends reinforcements from {_places()[step.zone].label}: "
                f"{_listed(step.sends)}")
        if destination not in step.sends:
            return RuleViolation("5.II.3", said)
        before = self._white_target(steps, at)
        seen = self._white_seen()
        arrived = seen[destination] - before[destination]
        if arrived > step.sends[destination]:
            return RuleViolation("5.II.3", f"{arrived} white pawns, too many; {said}")
        resolved = {s.zone for s in steps[:at + 1]}
        if origin == SUPPLY:
            if before[SUPPLY] - seen[SUPPLY] > step.from_supply:
                return RuleViolation("5.II.3", f"the supply gives {step.from_supply} of these "
                                     f"({self._supply()} in all): take the rest from zones "
                                     "already resolved")
        elif origin not in resolved:
            return RuleViolation("5.II.3", f"reinforcements come from the supply; {said}")
        elif step.from_supply == step.sent:
            return RuleViolation("5.II.3", "the supply still has white pawns: take them from "
                                 "there, not from a zone already resolved")
        after = self._white_target(steps, at + 1)
        if seen != after:
            wanted = ", ".join(f"{_places()[z].label} {seen[z] - before[z]} of {n}"
                               for z, n in step.sends.items())
            return Hold(f"reinforcements from {_places()[step.zone].label}: {wanted} white "
                        "pawns placed (5.II.3)")
        return Ready((), "")  # the zone's reinforcements are in place: see commands_for

    def _bound(self, positions: Mapping[str, str], seen: Mapping[str, str]) -> dict[str, str]:
        groups: dict[tuple[str, str], set[str]] = {}
        for pawn in positions:
            groups.setdefault(pawn_kind(pawn), set()).add(pawn)
        manifest = set(pawn_ids())
        for pawn in seen:  # a pawn of a group in play, with another number, may stand in
            if pawn in manifest and pawn_kind(pawn) in groups:
                groups[pawn_kind(pawn)].add(pawn)
        found: dict[str, str] = {}
        for ids in groups.values():
            slots = Counter(positions[p] for p in ids if p in positions)
            found.update(rebind(slots, sorted(ids), positions, seen))
        return found

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
        return {**self.positions, **self.whites}

    def _judge(self, origin: str, destination: str, pawns: Sequence[str]
               ) -> Outcome | RuleViolation:
        self._sync()
        steps = self.war_steps()
        if steps is not None:
            return self._judge_war(origin, destination, pawns, steps)
        if any(pawn_kind(p)[0] == "white" for p in pawns):
            return RuleViolation("5.II.3", "white pawns stay in the reinforcement supply until "
                                 "the War")
        if self.card is not None:
            moved = _sighting(dict.fromkeys(pawns, destination))
            here = _sighting({p: self.positions[p] for p in pawns if p in self.positions})
            odd = [p for p in observed_moves(here, moved)[1] if "reserve" in p]
            if odd:
                return RuleViolation("7", "; ".join(odd))
            return Hold("a card: move its pawns, then tap Done")
        if self.dice is None:
            if not origin.startswith("reserve_"):
                return RuleViolation("5.I", "pawns on the board move only by a card entered "
                                     "on the touchscreen")
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
        steps = self.war_steps()
        if isinstance(verdict, Ready) and steps is not None:
            at = _next_step(steps, 0) if self.war_at is None else self.war_at
            step = steps[at]
            self.war_at = _next_step(steps, at + 1)
            self.whites = {p: z for p, z in self._seen.items() if pawn_kind(p)[0] == "white"}
            return Ready((), f"{_places()[step.zone].label} (castle {step.value}): "
                         f"{step.winner}'s reinforcements are in place (5.II.3). "
                         f"{war_prompt(steps, self.war_at, self._supply())}")
        if isinstance(verdict, Ready):
            self._submitted = (len(self.game.events),
                               dict.fromkeys(move.block_ids, move.destination))
        return verdict

    def group(self, moves: Sequence[ProposedMove]) -> list[ProposedMove]:
        return list(moves)

    def destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        if self.war_steps() is not None:
            return self.flashing() if all(pawn_kind(p)[0] == "white" for p in block_ids) else []
        return self.flashing() if self.dice and origin == reserve_place(self.dice.colour) else []

    def flashing(self) -> list[str]:
        """The zone the dice entered name; in the War, where the zone being resolved sends its
        reinforcements (5.II.3)."""
        steps = self.war_steps()
        if steps is not None:
            at = _next_step(steps, 0) if self.war_at is None else self.war_at
            return list(steps[at].sends) if at < len(steps) else []
        if self.dice is None:
            return []
        try:
            return [self.rules.deploy(self.game.state, self.dice).zone]
        except RuleViolation:
            return []

    def describe(self, event: Event) -> str:
        if isinstance(event, SoldiersDeployed):
            daimyo = " and the Daimyo" if event.daimyo else ""
            plural = "s" if event.soldiers != 1 else ""
            return (f"{event.colour} deployed {event.soldiers} soldier{plural}{daimyo} to "
                    f"{_places()[event.zone].label} (castle {sum(event.pair)}, 5.I.1)")
        if isinstance(event, TacticPlayed):
            return f"{event.colour} plays {event.card.value}: {_describe(event.moves)} (7)"
        if isinstance(event, WarFought):
            steps = war_steps(event.result, self._supply())
            return (f"the War is fought: {event.result.winner} wins with "
                    f"{event.result.scores[event.result.winner]}. "
                    f"{war_prompt(steps, _next_step(steps, 0), self._supply())}")
        if isinstance(event, DaimyoPlayed):
            return f"{event.colour} turns up their Daimyo card: {_describe(event.moves)} (10)"
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

    def antenna_layout(self) -> AntennaLayout:
        return antenna_layout()

    def default_wiring(self) -> DefaultWiring:
        return default_wiring()


TABLE = TenkaTable()
