"""The one part of the Tenka Meidou app that holds the game.

:class:`TenkaControl` runs the core's :class:`~companion.core.game.Game` with
:class:`~companion.games.tenka_meidou.rules.TenkaRules`, deals what the box would (castle tokens,
the card offers) from a seeded shuffle, and checks the pawns on the table against each turn with
:mod:`companion.games.tenka_meidou.table`'s pure checks, fed by :class:`Sightings`. Screens get a
:class:`Snapshot`: the public view (:func:`~companion.games.tenka_meidou.views.public_view`, so a
face-down Daimyo card is never in it) and the rulings feed, never the game's state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.core.game import Accepted, Game, Rejection
from companion.core.rules import RuleViolation
from companion.games.tenka_meidou import table as checks
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    DaimyoChosen,
    DaimyoPlayed,
    Deploy,
    GameStarted,
    PlayDaimyo,
    PlayTactic,
    SoldiersDeployed,
    StartGame,
    SwordTaken,
    TacticPlayed,
    TenkaCommand,
    TenkaEvent,
    WarFought,
)
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import PawnMove, State
from companion.games.tenka_meidou.views import Table, public_view
from ui.tenka_meidou.sightings import Sightings
from ui.tenka_meidou.words import card_name, colour_name, describe_move, readable, short_zone

TenkaGame = Game[State, TenkaCommand, TenkaEvent]
Roll = tuple[int, int, int]


@dataclass(frozen=True)
class FeedLine:
    """One line of the rulings feed: ``kind`` is ruling, rejected or table; ``rule`` the
    section it cites (a tap shows its summary)."""

    kind: str
    text: str
    rule: str | None = None


@dataclass(frozen=True)
class Plan:
    """What the dice chosen mean (5.I.1): where, how many, and the sentence that says so."""

    zone: str
    value: int
    soldiers: int
    daimyo: bool
    text: str


@dataclass(frozen=True)
class Snapshot:
    view: Table
    feed: tuple[FeedLine, ...]
    problems: tuple[str, ...]
    """What the table shows that differs from the turn being checked (empty when it agrees)."""


def pawn_ids(colour: Colour, soldiers: int, advanced: bool) -> list[str]:
    """The pawns in a colour's reserve at the start (section 3.5, 9)."""
    ids = [f"{colour.value}-{i:02d}" for i in range(1, soldiers + 1)]
    return [*ids, f"{colour.value}-daimyo"] if advanced else ids


class TenkaControl:
    def __init__(self, seed: int = 0, rules: TenkaRules | None = None) -> None:
        self.rules = rules or TenkaRules()
        self.rng = random.Random(seed)
        self.game: TenkaGame = Game(self.rules)
        self.sightings = Sightings()
        self.before = self.sightings.sighting()
        self.feed: list[FeedLine] = []
        self.problems: list[str] = []
        self.on_start: Callable[[tuple[Colour, ...], int, bool], None] | None = None
        """Called when a game starts (the virtual table lays out the reserves)."""

    # ------------------------------------------------------------------ what screens see

    def snapshot(self) -> Snapshot:
        return Snapshot(public_view(self.game.state).payload, tuple(self.feed),
                        tuple(self.problems))

    @property
    def events(self) -> tuple[TenkaEvent, ...]:
        return self.game.events

    # ------------------------------------------------------------------ commands

    def _submit(self, command: TenkaCommand) -> Rejection | None:
        result = self.game.submit(command)
        if isinstance(result, Rejection):
            self.feed.append(FeedLine("rejected", f"Not allowed: {readable(result.message)} "
                                      f"({result.rule})", result.rule))
            return result
        assert isinstance(result, Accepted)
        for event in result.events:
            self.feed += describe(event)
        self.before = self.sightings.sighting()
        self.problems = []
        return None

    def new_game(self, players: Sequence[Colour], advanced: bool) -> Rejection | None:
        """Section 3: the castle tokens shuffled onto the zones, the offers dealt."""
        rules = self.rules
        values = list(rules.components.large_castle_tokens)
        self.rng.shuffle(values)
        table = rules.components.table(len(players)) if 2 <= len(players) <= 4 else None
        command = StartGame(
            players=tuple(players), advanced=advanced,
            castles=dict(zip(rules.board.zone_ids, values, strict=True)),
            tactic_offer=tuple(self.rng.sample(list(Tactic), table.tactic_offer if table else 0)),
            daimyo_offer=(tuple(self.rng.sample(list(Daimyo), table.daimyo_offer))
                          if advanced and table else ()))
        self.game = Game(rules)
        self.feed, self.problems = [], []
        if self.on_start is not None and table is not None:
            self.on_start(tuple(players), rules.components.soldiers_per_colour(advanced),
                          advanced)
        return self._submit(command)

    def daimyo_offer(self, colour: Colour) -> tuple[Daimyo, ...]:
        """The cards ``colour`` may choose from: only for the chooser's own eyes (section 9)."""
        state = self.game.state
        return state.daimyo_offer if state.daimyo_chooser() == colour else ()

    def choose_daimyo(self, colour: Colour, card: Daimyo) -> Rejection | None:
        return self._submit(ChooseDaimyo(colour=colour, card=card))

    def plan(self, colour: Colour, rolls: Sequence[Roll], single: int,
             daimyo: bool) -> Plan | Rejection:
        """The zone and pawns the dice give (5.I.1), without playing the turn."""
        command = Deploy(colour=colour, rolls=tuple(rolls), single=single, daimyo=daimyo)
        try:
            event = self.rules.deploy(self.game.state, command)
        except RuleViolation as exc:
            return Rejection(exc.rule, exc.message)
        value = sum(event.pair)
        pawns = event.soldiers + int(event.daimyo)
        what = f"{event.soldiers} soldier{'s' if event.soldiers != 1 else ''}"
        if event.daimyo:
            what += " and the Daimyo"
        text = (f"{colour_name(colour)}: pair {event.pair[0]}+{event.pair[1]} = {value}, "
                f"{short_zone(event.zone)}; single die {single}: {what} ({pawns} pawn"
                f"{'s' if pawns != 1 else ''}) (5.I.1)")
        return Plan(event.zone, value, event.soldiers, event.daimyo, text)

    def deploy(self, colour: Colour, rolls: Sequence[Roll], single: int,
               daimyo: bool) -> Rejection | list[str] | None:
        """The turn, once the pawns are on the table: the readers' view is checked against the
        dice first (right zone, right count); the differences, or the rule refused, or None."""
        command = Deploy(colour=colour, rolls=tuple(rolls), single=single, daimyo=daimyo)
        problems = checks.check_deployment(self.rules, self.game.state, command, self.before,
                                           self.sightings.sighting())
        if problems:
            self.problems = self._deployment_problems(colour, rolls, single, daimyo, problems)
            self.feed.append(FeedLine("table", f"The table differs: {self.problems[0]} "
                                      "(5.I.1)", "5.I.1"))
            return self.problems
        return self._submit(command)

    def _deployment_problems(self, colour: Colour, rolls: Sequence[Roll], single: int,
                             daimyo: bool, problems: list[str]) -> list[str]:
        """The check's findings in plain words: what the dice say, what the table shows."""
        plan = self.plan(colour, rolls, single, daimyo)
        if isinstance(plan, Rejection):
            return [readable(p) for p in problems]
        want = []
        if plan.soldiers:
            want.append(PawnMove(colour=colour, origin="reserve", destination=plan.zone,
                                 count=plan.soldiers))
        if plan.daimyo:
            want.append(PawnMove(colour=colour, pawn="daimyo", origin="reserve",
                                 destination=plan.zone))
        seen, odd = self.table_moves()
        said = "; ".join(describe_move(m) for m in want)
        shown = "; ".join(describe_move(m) for m in seen) or "no pawn moved"
        return [f"the dice say {said}, the table shows {shown}", *(readable(p) for p in odd)]

    def table_moves(self) -> tuple[tuple[PawnMove, ...], list[str]]:
        """The pawns moved on the table since the last accepted turn."""
        return checks.observed_moves(self.before, self.sightings.sighting())

    def play_card(self, colour: Colour, card: Tactic | None) -> Rejection | list[str] | None:
        """A tactic card (``card``) or one's Daimyo card (None), its effect read from the pawns
        that moved on the table (sections 7, 10)."""
        moves, problems = self.table_moves()
        if problems:
            self.problems = [readable(p) for p in problems]
            return self.problems
        command: TenkaCommand = (PlayTactic(colour=colour, card=card, moves=moves)
                                 if card is not None else PlayDaimyo(colour=colour, moves=moves))
        before = self.before
        rejected = self._submit(command)
        if rejected is None:
            # the effect was read from the table, so this holds by construction; kept as the
            # check a bridge-fed table will share
            assert not checks.check_card(moves, before, self.sightings.sighting())
        return rejected

    def put_back(self) -> list[str]:
        """What to move to undo what was done on the table since the last accepted turn."""
        moves, problems = self.table_moves()
        undo = [PawnMove(colour=m.colour, pawn=m.pawn, origin=m.destination,
                         destination=m.origin, count=m.count) for m in moves]
        return [describe_move(m) for m in undo] + [readable(p) for p in problems]


def describe(event: TenkaEvent) -> list[FeedLine]:
    """An accepted event as the shared screen may say it (never a face-down Daimyo card)."""
    if isinstance(event, GameStarted):
        who = ", ".join(colour_name(c) for c in event.players)
        mode = "advanced game (Daimyo)" if event.advanced else "basic game"
        offer = ", ".join(card_name(c) for c in event.tactic_offer)
        first = colour_name(event.players[0])
        return [FeedLine("ruling", f"New {mode}: {who}, clockwise from {first}; "
                         f"{event.soldiers_per_colour} soldiers each (3.5)", "3.5"),
                FeedLine("ruling", "Lay each large castle token on its zone as the board "
                         "shows (3.2)", "3.2"),
                FeedLine("ruling", f"Tactic offer: {offer} (3.3)", "3.3")]
    if isinstance(event, DaimyoChosen):
        return [FeedLine("ruling", f"{colour_name(event.colour)} has chosen a Daimyo card, "
                         "face down (9)", "9")]
    if isinstance(event, SoldiersDeployed):
        dice = " then ".join("-".join(map(str, r)) for r in event.rolls)
        rerolled = " (re-rolled)" if len(event.rolls) > 1 else ""
        what = f"{event.soldiers} soldier{'s' if event.soldiers != 1 else ''}"
        if event.daimyo:
            what += " and the Daimyo"
        return [FeedLine("ruling", f"{colour_name(event.colour)} rolled {dice}{rerolled}: "
                         f"{event.pair[0]}+{event.pair[1]} = {sum(event.pair)}, "
                         f"{short_zone(event.zone)}; single {event.single}: {what} placed "
                         "(5.I.1)", "5.I.1")]
    if isinstance(event, TacticPlayed):
        moves = "; ".join(describe_move(m) for m in event.moves)
        return [FeedLine("ruling", f"{colour_name(event.colour)} plays {card_name(event.card)}"
                         f": {moves} (7)", "7")]
    if isinstance(event, DaimyoPlayed):
        moves = "; ".join(describe_move(m) for m in event.moves)
        return [FeedLine("ruling", f"{colour_name(event.colour)} turns up the Daimyo card "
                         f"{card_name(event.card)}: {moves} (10)", "10")]
    if isinstance(event, SwordTaken):
        return [FeedLine("ruling", f"{colour_name(event.colour)} has placed every pawn and "
                         f"takes sword {event.sword} (5.I)", "5.I")]
    assert isinstance(event, WarFought)
    return [FeedLine("ruling", f"War: {readable(_colours(r.text))} ({r.rule})", r.rule)
            for r in event.result.rulings]


def _colours(text: str) -> str:
    for colour in Colour:
        text = text.replace(f"{colour.value}'s", f"{colour_name(colour)}'s")
    return text
