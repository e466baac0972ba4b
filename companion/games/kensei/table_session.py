"""Kensei's running battle at the reader table: :class:`KenseiSessionRules`, what the bridge's
table session asks of the game (B18). The places, the tags and their words are
:mod:`companion.games.kensei.table`'s.

A troop tag the readers saw on its reserve tray and see nowhere now, while that troop's
deployment is due, readies ``Deploy`` (B1.3 step 5): the bridge sees a tag vanish, not a move,
so :meth:`KenseiSessionRules.group` adds that move to the field itself. A troop or model tag
laid on a command pad selects its troop (:meth:`~KenseiSessionRules.picked`) and readies
``Activate`` when its side must name a troop (B3.3). Models on a casualty tray are counted per
troop against the rulings (:meth:`~KenseiSessionRules.casualty_discrepancies`, B7); cards on a
card pad wait for the screens' Done (:meth:`~KenseiSessionRules.pad_cards`, B9.1). A tag where
the rules want none is refused in plain words, never naming a card or a hidden troop (B17).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.core.events import Command, Event
from companion.core.game import Game
from companion.core.rules import RuleViolation
from companion.core.table import REGISTRATION, Hold, Outcome, ProposedMove, Ready
from companion.games.kensei.battle.commands import Activate, Deploy, Side
from companion.games.kensei.battle.deck import EVENT_CLASSES, public_words
from companion.games.kensei.battle.events import (
    TroopActivated,
    TroopDeployed,
    TroopHeldBack,
)
from companion.games.kensei.battle.state import State, Troop
from companion.games.kensei.table import (
    BOX,
    FIELD,
    SIDES,
    TROOP_SLOTS,
    TURN_PHASES,
    KenseiTable,
    counted,
    hand_place,
    model_tags,
    piece_ids,
    piece_kind,
    place_id,
    split_place,
    tag_troop,
    troop_name,
    troop_tag,
)


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
        place, owner = split_place(destination)
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
            if self.state.phase not in TURN_PHASES:
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
        kind, side = split_place(move.destination)
        assert side is not None
        label = self.table.label(move.destination)
        if kind == "command":
            return self._lay_on_pad(side, move)
        self.adopted.update(dict.fromkeys(move.block_ids, move.destination))
        if kind == "cards":
            n = len(self.pad_cards(side))
            return Ready((), f"{label}: {counted(n, 'card', 'cards')} face down")
        if kind == "ammo":
            n = len(self.ammo_pad(side))
            return Ready((), f"{label}: {counted(n, 'ammunition marker', 'ammunition markers')}"
                         " face down")
        troops = {t.id: t for p in move.block_ids if (t := self.troop_of(p)) is not None}
        return Ready((), "; ".join(self.casualty_line(t) for t in troops.values()))

    def _lay_on_pad(self, side: Side, move: ProposedMove) -> Outcome:
        """B3.3 and B2.7: a unit leader's base names the unit he leads."""
        state = self.state
        troops = {t.id: t for p in move.block_ids if (t := self.troop_of(p)) is not None}
        troops = {t.inside or i: state.troops[t.inside] if t.inside else t
                  for i, t in troops.items()}
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

