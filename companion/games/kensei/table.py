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
the list is entered, :meth:`KenseiSessionRules.assign`), its 24 command cards (the deck's ids,
``a-00``..``a-23``) and its ammunition markers. A card id reveals its value: no card id, value
or count of a kind ever reaches the shared screen's words (B17).

The bridge's table session follows a running battle through :class:`KenseiSessionRules`: a
troop tag leaving the reserve tray while deployment is due readies ``Deploy`` (the bridge sees
a tag vanish, not a move, so :meth:`~KenseiSessionRules.group` adds that move itself); a troop
laid on a command pad readies ``Activate`` or just selects it (:meth:`~KenseiSessionRules.
picked`); models on a casualty tray are counted per troop against the rulings
(:meth:`~KenseiSessionRules.casualty_discrepancies`); cards on a card pad wait for the
screens' Done (:meth:`~KenseiSessionRules.pad_cards`). Nothing here does I/O.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from companion.core.events import Command, Event
from companion.core.game import Game
from companion.core.hardware import (
    AntennaLayout,
    DefaultWiring,
    load_antenna_layout,
    load_default_wiring,
)
from companion.core.rules import RuleViolation
from companion.core.table import (
    REGISTRATION,
    Hold,
    Outcome,
    Piece,
    Place,
    PlaceKind,
    ProposedMove,
    Ready,
)
from companion.games.kensei import GAME
from companion.games.kensei.battle.commands import Activate, Deploy, Side
from companion.games.kensei.battle.deck import EVENT_CLASSES, card_ids, card_value, public_words
from companion.games.kensei.battle.events import (
    TroopActivated,
    TroopDeployed,
    TroopHeldBack,
)
from companion.games.kensei.battle.state import State, Troop

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
_DEFAULT_OWNER: dict[Side, str] = {"a": "left player's", "b": "right player's"}
_TURN_PHASES = ("maintenance", "initiative", "activation")
_PIECE = re.compile(r"([ab])-(?:(troop)-(\d\d)|(model)-(\d{3})|(ammo)-(\d\d)|(\d\d))")


def place_id(kind: PadKind, side: Side) -> str:
    """``command_a``, ``reserve_b``, ..."""
    return f"{kind}_{side}"


def hand_place(side: Side) -> str:
    """Where a side's cards and ammunition markers are when on no pad (unwatched)."""
    return f"hand_{side}"


def _split(place: str) -> tuple[str, Side | None]:
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


def _count(n: int, one: str, many: str) -> str:
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
        self.owners: dict[Side, str] = dict(_DEFAULT_OWNER)

    sides: Mapping[str, str] = {"a": _DEFAULT_OWNER["a"], "b": _DEFAULT_OWNER["b"]}
    """What the bridge's counts call a side's tags ("two left player's tags"): the player's
    name would need "an" before a vowel, which the counts cannot say."""

    def name_sides(self, army_names: Mapping[Side, str]) -> None:
        """The players' words for the labels ("Ana's command pad")."""
        self.owners = {s: player_word(army_names[s]) if s in army_names else _DEFAULT_OWNER[s]
                       for s in SIDES}

    def label(self, place: str) -> str:
        kind, side = _split(place)
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
    kind, side = _split(place)
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
        return (f"watching {len(self.positions)} tags on the trays and pads; the battlefield "
                "itself is not watched")

    def explain_move(self, origin: str, destination: str, block_ids: Sequence[str]
                     ) -> RuleViolation | None:
        if any(_foreign(p, destination) for p in block_ids):
            return RuleViolation("B18", f"{self.table.label(destination)} takes only that "
                                 "player's own tags")
        return None

    def apply(self, move: ProposedMove) -> None:
        self.positions.update(dict.fromkeys(move.block_ids, move.destination))


# --------------------------------------------------------------------------- a running battle


@dataclass
class KenseiSessionRules:
    """A running battle as the bridge's table session follows it (module docstring)."""

    game: Game[State, Any, Event]
    table: KenseiTable
    models: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """troop -> its model tags (:meth:`assign`)."""
    adopted: dict[str, str] = field(default_factory=dict)
    """Tags the rules accepted on a pad or tray, while the readers see them there."""
    _picked: dict[Side, str] = field(default_factory=dict)
    _seen: dict[str, str] = field(default_factory=dict)
    _gone: set[str] = field(default_factory=set)
    _owner: dict[str, str] = field(default_factory=dict)
    """model tag -> its troop (:attr:`models` read the other way)."""
    """Troop tags the readers saw on a reserve tray and see nowhere now."""

    # ------------------------------------------------------------------ the list's tags

    @property
    def state(self) -> State:
        state = self.game.state
        if state.armies:
            self.table.name_sides({s: a.list.name for s, a in state.armies.items()})
        return state

    def assign(self, side: Side, troop: str, tags: Sequence[str]) -> None:
        """B18: the model tags of ``troop`` (``a2``), as the list is entered (tags belong to the
        list, not to profiles). ValueError in plain words for another side's tag, a tag that
        is not a model's, or one another troop has."""
        if troop[:1] != side or not troop[1:].isdigit() \
                or not 1 <= int(troop[1:]) <= TROOP_SLOTS:
            raise ValueError(f"{troop!r} is not a troop of the {self.table.owners[side]} list")
        for tag in tags:
            if tag not in model_tags(side):
                raise ValueError(f"{tag!r} is not one of the {self.table.owners[side]} model "
                                 "tags")
            other = next((t for t, held in self.models.items() if tag in held and t != troop),
                         None)
            if other is not None:
                raise ValueError(f"{self.table.describe_piece(tag)} belongs to troop "
                                 f"{other[1:]} already")
        self.models[troop] = tuple(tags)
        self._owner = {tag: t for t, held in self.models.items() for tag in held}

    def assign_in_order(self) -> dict[str, tuple[str, ...]]:
        """Model tags given out in list order, one per model of every unit (a one-model troop's
        own tag is its troop tag); the assignment made."""
        state = self.state
        for side in SIDES:
            free = iter(model_tags(side))
            for troop in sorted(state.side_troops(side), key=lambda t: t.entry):
                if troop.models_start > 1:
                    self.assign(side, troop.id, [next(free) for _ in range(troop.models_start)])
        return dict(self.models)

    def troop_of(self, piece: str) -> Troop | None:
        """The troop a troop or model tag stands for in this battle (None: none)."""
        kind = piece_kind(piece)[1]
        if kind == "troop":
            return self.state.troops.get(tag_troop(piece))
        if kind == "model":
            owner = self._owner.get(piece)
            return None if owner is None else self.state.troops.get(owner)
        return None

    # ------------------------------------------------------------------ where tags belong

    def _home(self, piece: str) -> str:
        side, kind = piece_kind(piece)
        if kind in ("card", "ammo"):
            return hand_place(side)
        troop = self.troop_of(piece)
        if troop is None:
            return BOX
        return FIELD if troop.deployed else place_id("reserve", side)

    def expected_positions(self) -> Mapping[str, str]:
        return {p: self.adopted.get(p) or self._home(p) for p in piece_ids()}

    def observe(self, seen: Mapping[str, str]) -> None:
        """A tag lifted off the pad or tray it was accepted on is back where it belongs; the
        selection stays until another troop is laid on the pad."""
        was = self._seen
        self._gone = {p for p in self._gone | {p for p, z in was.items()
                                               if z.startswith("reserve_")}
                      if p not in seen and piece_kind(p)[1] == "troop"}
        self._seen = dict(seen)
        self.adopted = {p: z for p, z in self.adopted.items() if seen.get(p) == z}

    # ------------------------------------------------------------------ judging

    def hidden(self, troop: Troop) -> bool:
        """A troop kept back in secret (Kuroi-te, B12): never named on a shared screen."""
        return troop.held_back and any(e.hidden for e in self.game.events
                                       if isinstance(e, TroopHeldBack) and e.troop == troop.id)

    def _name(self, troop: Troop) -> str:
        if self.hidden(troop):
            return f"a troop {self.table.owners[troop.side]} keeps hidden"
        return f"{self.table.owners[troop.side]} {troop_name(self.state, troop)}"

    def _verdict(self, piece: str, destination: str) -> RuleViolation | None:
        side, kind = piece_kind(piece)
        place, owner = _split(destination)
        label = self.table.label(destination)
        started = bool(self.state.armies)
        if destination == REGISTRATION:
            return RuleViolation("B18", "the registration pad is for registering tags before "
                                 "the battle: take it off")
        if not started:
            return RuleViolation("B1.3", "the battle has not begun: tags go on the trays once "
                                 "the lists are entered")
        if kind == "card":
            if destination != place_id("cards", side):
                return RuleViolation("B9.1", f"a command card is laid face down on its "
                                     f"owner's card pad, not on {label}")
            if self.state.phase not in _TURN_PHASES:
                return RuleViolation("B3.1", "command cards are drawn from the first turn's "
                                     "maintenance on")
            return None
        if kind == "ammo":
            if destination != place_id("ammo", side):
                return RuleViolation("B11", f"an ammunition marker lies face down on its "
                                     f"owner's ammunition pad, not on {label}")
            return None
        troop = self.troop_of(piece)
        if troop is None:
            what = "troop" if kind == "troop" else "model"
            return RuleViolation("B18", f"this {what} tag belongs to no troop of the "
                                 f"{self.table.owners[side]} list: put it away")
        name = self._name(troop)
        if place == "command":
            return None
        if place == "casualties":
            if owner != side:
                return RuleViolation("B7", f"{name} goes on its own player's casualty tray")
            if not troop.deployed:
                return RuleViolation("B7", f"{name} is not on the battlefield yet")
            return None
        if place == "reserve" and owner == side and troop.deployed:
            return RuleViolation("B1.3", f"{name} is on the battlefield: a deployed troop does "
                                 "not go back to the reserve tray")
        return RuleViolation("B18", f"{name} has no place on {label}")

    def explain_move(self, origin: str, destination: str, block_ids: Sequence[str]
                     ) -> RuleViolation | None:
        del origin
        for piece in block_ids:
            verdict = self._verdict(piece, destination)
            if verdict is not None:
                return verdict
        return None

    def must_activate(self, side: Side) -> bool:
        """``side`` is to name a troop for the activation pair now (B3.3 step 1)."""
        state = self.state
        act = state.activation
        return state.phase == "activation" and (
            act is None or (side not in act.troops and act.solo is None))

    def _dry_run(self, command: Command) -> RuleViolation | None:
        try:
            self.game.rules.handle(self.state, command)
        except RuleViolation as exc:
            return exc
        return None

    def commands_for(self, move: ProposedMove) -> Outcome:
        if move.destination == FIELD:
            return self._deploy(move)
        verdict = self.explain_move(move.origin, move.destination, move.block_ids)
        if verdict is not None:
            raise ValueError(str(verdict))
        kind, side = _split(move.destination)
        assert side is not None
        label = self.table.label(move.destination)
        if kind == "command":
            return self._lay_on_pad(side, move)
        self.adopted.update(dict.fromkeys(move.block_ids, move.destination))
        if kind == "cards":
            n = len(self.pad_cards(side))
            return Ready((), f"{label}: {_count(n, 'card', 'cards')} face down")
        if kind == "ammo":
            n = len(self.ammo_pad(side))
            return Ready((), f"{label}: {_count(n, 'ammunition marker', 'ammunition markers')}"
                         " face down")
        troops = {t.id: t for p in move.block_ids if (t := self.troop_of(p)) is not None}
        return Ready((), "; ".join(self.casualty_line(t) for t in troops.values()))

    def _lay_on_pad(self, side: Side, move: ProposedMove) -> Outcome:
        troops = {t.id: t for p in move.block_ids if (t := self.troop_of(p)) is not None}
        if len(troops) != 1:
            return Hold(f"lay one troop at a time on {self.table.label(place_id('command', side))}")
        troop = next(iter(troops.values()))
        self.adopted.update(dict.fromkeys(move.block_ids, move.destination))
        self._picked[side] = troop.id
        name = self._name(troop)
        if troop.side == side and self.must_activate(side):
            command = Activate(side=side, troop=troop.id)
            refused = self._dry_run(command)
            if refused is None:
                return Ready((command,))
            return Ready((), f"{name} picked, not activated: {refused.message} "
                         f"({refused.rule})")
        return Ready((), f"{self.table.owners[side]} command pad: {name} picked")

    def _deploy(self, move: ProposedMove) -> Outcome:
        troop = self.troop_of(move.block_ids[0])
        assert troop is not None
        command = Deploy(side=troop.side, troop=troop.id)
        refused = self._dry_run(command)
        if refused is None:
            return Ready((command,))
        return Hold(f"{self._name(troop)} left the reserve tray, but {refused.message} "
                    f"({refused.rule}): put it back")

    def group(self, moves: Sequence[ProposedMove]) -> list[ProposedMove]:
        """The readers' moves, and a troop tag the readers saw on its reserve tray and see
        nowhere now while deployment is due (not one never seen yet): the troop is set on the
        field (B1.3 step 5), which no reader sees. A leader inside a unit goes with the unit."""
        found = list(moves)
        state = self.state
        if state.phase != "deployment":
            return found
        expected = self.expected_positions()
        for troop in sorted(state.troops.values(), key=lambda t: (t.side, t.entry)):
            tag = troop_tag(troop.id)
            reserve = place_id("reserve", troop.side)
            if (not troop.deployed and not troop.held_back and troop.inside is None
                    and tag in self._gone and expected[tag] == reserve):
                found.append(ProposedMove(reserve, FIELD, (tag,)))
        return found

    def destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        return []

    def flashing(self) -> list[str]:
        """The reserve tray of the side to deploy; the command pad of a side to activate."""
        state = self.state
        if state.phase == "deployment" and state.deploy_next is not None:
            return [place_id("reserve", state.deploy_next)]
        return [place_id("command", s) for s in SIDES if self.must_activate(s)]

    def describe(self, event: Event) -> str:
        """A line for the shared screen; never a card, a mission or a hidden troop."""
        state = self.state
        if isinstance(event, TroopDeployed):
            troop = state.troops[event.troop]
            return f"{self.table.owners[event.side]} {troop_name(state, troop)} deployed (B1.3)"
        if isinstance(event, TroopActivated):
            troop = state.troops[event.troop]
            return f"{self.table.owners[event.side]} {troop_name(state, troop)} activated (B3.3)"
        if isinstance(event, TroopHeldBack):
            return f"{self.table.owners[event.side]} keeps a troop in the reserve tray (B12)"
        if isinstance(event, EVENT_CLASSES):  # the deck's own public words: no card named
            names: dict[str, str] = {s: a.list.name for s, a in state.armies.items()}
            return public_words(event, names)
        return str(getattr(event, "type", "event")).replace("_", " ")

    # ------------------------------------------------------------------ what the screens read

    def picked(self, side: Side) -> str | None:
        """The troop last laid on ``side``'s command pad (either army's: a target too)."""
        return self._picked.get(side)

    def pad_cards(self, side: Side) -> tuple[str, ...]:
        """The command cards on ``side``'s card pad: its face-down bid or draw (B9.1). For that
        player's own command only: a card id reveals its value."""
        return tuple(sorted(p for p, z in self.adopted.items()
                            if z == place_id("cards", side)))

    def ammo_pad(self, side: Side) -> tuple[str, ...]:
        """The ammunition markers face down on ``side``'s ammunition pad (B11)."""
        return tuple(sorted(p for p, z in self.adopted.items() if z == place_id("ammo", side)))

    def casualties_seen(self, troop: str) -> int:
        """Models of ``troop`` on its casualty tray: its model tags there, or, for a troop with
        none assigned, its own tag (a one-model troop's base)."""
        tray = place_id("casualties", troop[0])  # type: ignore[arg-type]
        tags = self.models.get(troop) or (troop_tag(troop),)
        return sum(1 for t in tags if self.adopted.get(t) == tray)

    def removed(self, troop: Troop) -> int:
        """Models the rulings removed from ``troop`` so far (B7)."""
        return troop.models_start if troop.removed else troop.models_start - troop.models

    def casualty_line(self, troop: Troop) -> str:
        return (f"the casualty tray holds {self.casualties_seen(troop.id)} of "
                f"{self._name(troop)}, the ruling removed {self.removed(troop)}")

    def casualty_discrepancies(self) -> list[str]:
        """B7 at the table: every troop whose casualty tray count and the rulings disagree, in
        plain words (troops whose models carry no tags are not counted)."""
        return [self.casualty_line(t) for t in sorted(self.state.troops.values(),
                                                      key=lambda t: (t.side, t.entry))
                if t.deployed and (t.id in self.models or t.models_start == 1)
                and self.casualties_seen(t.id) != self.removed(t)]


TABLE = KenseiTable()
