"""The one part of the Tenka Meidou app that holds the game.

:class:`TenkaControl` runs the core's :class:`~companion.core.game.Game` with
:class:`~companion.games.tenka_meidou.rules.TenkaRules` on the readers (real hubs or the
built-in simulator) through the game-neutral :class:`~firmware_bridge.tablelink.TableLink`: the
bridge and its table session follow the game with
:class:`~companion.games.tenka_meidou.table.TenkaSessionRules`. The dice entered on the screen
are told to the session, which checks the pawns the readers see leave the reserve against them
and submits the deployment once they all stand in the zone (5.I.1); a card's pawns are moved,
then "Done" reads the card's effect from what the readers saw. It deals what the box would
(castle tokens, the card offers) from a seeded shuffle. Screens get a :class:`Snapshot`: the
public view (:func:`~companion.games.tenka_meidou.views.public_view`, so a face-down Daimyo card
is never in it) and the rulings feed, never the game's state.
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.core.game import Accepted, Game, Rejection
from companion.core.records import Undoable, UndoRefused, take_back, undo_entry
from companion.core.rules import RuleViolation
from companion.core.store import CommandRecorder, CorrectionRecorder, StoreError
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    DaimyoChosen,
    DaimyoPlayed,
    Deploy,
    GameStarted,
    SoldiersDeployed,
    StartGame,
    SwordTaken,
    TacticPlayed,
    TenkaCommand,
    TenkaEvent,
    WarFought,
)
from companion.games.tenka_meidou.moves import normalise
from companion.games.tenka_meidou.rulebook import default_rules
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State
from companion.games.tenka_meidou.table import UNSEEN, TenkaSessionRules
from companion.games.tenka_meidou.views import Table, player_view, public_view
from firmware_bridge.tablelink import Readers, TableLink
from ui.tenka_meidou.words import (
    card_name,
    colour_name,
    describe_move,
    sentence,
    short_zone,
    words,
)

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

    def moves(self, colour: Colour) -> tuple[PawnMove, ...]:
        """The pawns the dice send from the reserve to the zone."""
        found = []
        if self.soldiers:
            found.append(PawnMove(colour=colour, origin=RESERVE, destination=self.zone,
                                  count=self.soldiers))
        if self.daimyo:
            found.append(PawnMove(colour=colour, pawn="daimyo", origin=RESERVE,
                                  destination=self.zone))
        return tuple(found)


@dataclass(frozen=True)
class Snapshot:
    view: Table
    feed: tuple[FeedLine, ...]
    problems: tuple[str, ...]
    """What the table shows that differs from the turn being checked (empty when it agrees)."""
    table: tuple[str, ...] = ()
    """The table session's standing discrepancies, in plain words (colours and counts only)."""
    waiting: str | None = None
    """What the session waits for ("2 of 3 pawns placed"), if anything."""
    readers: str = ""
    unsaved: str | None = None
    """Set while the store refuses to save: nothing was applied, the app retries."""
    war: str | None = None
    """In the War: what the table session waits for now (the zone being resolved, where its
    reinforcements go, 5.II.3), or that the War is over on the table."""
    war_lines: tuple[FeedLine, ...] = ()
    """In the War, for the War screen in plain words, each citing its section: the prompt
    (kind ``war``), the white pawns the readers see placed (``waiting``: "1 of 2 white pawns
    placed"), each discrepancy with its fix (``table``), and the last zone whose
    reinforcements are in place (``ruling``)."""
    war_left: str | None = None
    """In the War, until every white pawn is placed: how many are still to place, and where
    ("4 white pawns still to place: Yonezawa 2, Kasugayama 2")."""


def pawn_ids(colour: Colour, soldiers: int, advanced: bool) -> list[str]:
    """The pawns in a colour's reserve at the start (section 3.5, 9)."""
    ids = [f"{colour.value}-{i:02d}" for i in range(1, soldiers + 1)]
    return [*ids, f"{colour.value}-daimyo"] if advanced else ids


MOVING = "pawns are still moving: let them rest on the table"


class TenkaControl:
    """See the module docstring. ``start()`` then ``stop()``."""

    def __init__(self, readers: Readers, seed: int = 0, rules: TenkaRules | None = None,
                 settle_s: float = 0.3, debounce_missing_s: float = 10.0) -> None:
        self.rules = rules or TenkaRules()
        self.rng = random.Random(seed)
        self.link = TableLink(readers, Game(self.rules), debounce_missing_s=debounce_missing_s,
                              settle_s=settle_s)
        self.feed: list[FeedLine] = []
        self.problems: list[str] = []
        self._described = 0
        self._dice_at = 0
        self._log_at = 0
        self._war_log_at = 0
        self._lock = threading.RLock()
        self.on_start: Callable[[tuple[Colour, ...], int, bool], None] | None = None
        """Called when a game starts (the virtual table lays out the reserves)."""

    @property
    def readers(self) -> Readers:
        return self.link.readers

    @property
    def game(self) -> TenkaGame:
        return self.link.game

    @property
    def session(self) -> TenkaSessionRules:
        rules = self.link.session.rules
        assert isinstance(rules, TenkaSessionRules)
        return rules

    def start(self, on_change: Callable[[], None] | None = None) -> TenkaControl:
        self.link.on_change = on_change
        self.link.start()
        return self

    def stop(self) -> None:
        self.link.stop()

    def follow(self, game: TenkaGame, records: CorrectionRecorder | None = None) -> None:
        """Follow ``game`` (a new one or one resumed from the store); the feed starts again."""
        with self._lock:
            self.link.follow(game, records)
            self.feed, self.problems, self._described = [], [], 0
            self._log_at = self._war_log_at = 0
            self._catch_up()

    # ------------------------------------------------------------------ undo

    def undo_offer(self) -> Undoable | None:
        """What "Undo" would take back now (docs/referee.md, Undo: a Daimyo card chosen); None
        when nothing can be (most of this game is dice and pawns the readers saw)."""
        recorder = self.game.recorder
        if not isinstance(recorder, CommandRecorder):
            return None
        offer = undo_entry(recorder.last, records.undo_policy)
        return offer if isinstance(offer, Undoable) else None

    def undo(self) -> Undoable:
        """Take back the last command: stored as a correction first, then the game is followed
        again without it. UndoRefused (nothing changed) says why not; StoreError: not saved."""
        with self._lock:
            recorder = self.game.recorder
            if not isinstance(recorder, CommandRecorder):
                raise UndoRefused("This game is not being saved, so it has no undo")
            verdict, kept = take_back(recorder, self.game.events, records.undo_policy)
            self.follow(Game(self.rules, kept, recorder=recorder), recorder)
            self.feed.append(FeedLine("ruling", f"Undone: {verdict.what}"))
            return verdict

    def undo_or_say(self) -> None:
        """"Undo" tapped: taken back, or why not said in the feed."""
        try:
            self.undo()
        except UndoRefused as exc:
            self.say(str(exc))
        except StoreError as exc:
            self.say(f"Not saved: {exc.message}. Nothing was undone.")

    def say(self, text: str) -> None:
        """A refusal for the feed (never a hidden card: see :mod:`companion.core.records`)."""
        with self._lock:
            self.feed.append(FeedLine("rejected", text))

    # ------------------------------------------------------------------ what screens see

    def _catch_up(self) -> None:
        """Feed lines for the events accepted since (the session submits deployments from the
        readers' thread)."""
        events = self.game.events
        for event in events[self._described:]:
            self.feed += describe(event)
        self._described = len(events)
        log = self.link.session.log
        for line in log[self._war_log_at:]:  # the War followed on the table (5.II.3)
            if line.kind == "table" and IN_PLACE in line.text:
                self.feed.append(FeedLine("ruling", _in_place(line.text), "5.II.3"))
        self._war_log_at = len(log)

    def snapshot(self) -> Snapshot:
        with self._lock:
            self._catch_up()
            session = self.link.session
            waiting = next((line.text.rsplit(": ", 1)[-1]
                            for line in reversed(session.log[self._log_at:])
                            if line.kind == "ignored" and "pawns placed" in line.text), None)
            rules = _rules(session.rules)
            prompt = rules.war_prompt()
            return Snapshot(public_view(self.game.state).payload, tuple(self.feed),
                            tuple(self.problems),
                            tuple(words(d.public()) for d in session.discrepancies),
                            waiting, self.readers.describe(), session.unsaved,
                            prompt, self._war_lines(prompt, rules), _war_left(prompt, rules))

    def _war_lines(self, prompt: str | None, rules: TenkaSessionRules) -> tuple[FeedLine, ...]:
        """What the War screen says of the table (see :attr:`Snapshot.war_lines`)."""
        if prompt is None:
            return ()
        over = prompt.startswith("The War is over on the table")
        lines = [FeedLine("war", words(prompt), "6" if over else "5.II.3")]
        progress = rules.war_progress() or {}
        if progress:
            placed = sum(n for n, _ in progress.values())
            wanted = sum(w for _, w in progress.values())
            each = ", ".join(f"{short_zone(z)} {n} of {w}" for z, (n, w) in progress.items())
            lines.append(FeedLine("waiting", f"The readers see {placed} of {wanted} white "
                                  f"pawn{'s' if wanted != 1 else ''} placed: {each} (5.II.3)",
                                  "5.II.3"))
        for d in self.link.session.discrepancies:
            rule = d.rule or "5.II.3"
            text = words(d.text).replace(f"(rule {rule})", "").strip()
            fix = words(d.fix)
            text = f"{text[:1].upper()}{text[1:]}. {fix[:1].upper()}{fix[1:]} ({rule})"
            lines.append(FeedLine("table", text, rule))
        done = next((line for line in reversed(self.feed) if IN_PLACE in line.text), None)
        if done is not None:
            lines.append(done)
        return tuple(lines)

    @property
    def events(self) -> tuple[TenkaEvent, ...]:
        return self.game.events

    def moving(self) -> bool:
        """Pawns in hand or just set down: the readers' view is not final yet."""
        return bool(self.link.in_hand or self.link.settling)

    # ------------------------------------------------------------------ commands

    def _submit(self, command: TenkaCommand) -> Rejection | None:
        with self._lock:
            self._catch_up()
            result = self.link.submit(command)
            if isinstance(result, Rejection):
                self.feed.append(FeedLine("rejected", refusal(result), result.rule))
                return result
            assert isinstance(result, Accepted)
            self._catch_up()
            self.problems = []
            return None

    def start_game(self, players: Sequence[Colour], advanced: bool) -> Rejection | None:
        """Section 3: the castle tokens shuffled onto the zones, the offers dealt. The game
        followed must be new (:meth:`follow`). StoreError if it cannot be saved."""
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
        rejected = self._submit(command)
        if rejected is None and self.on_start is not None:
            self.on_start(tuple(players), rules.components.soldiers_per_colour(advanced),
                          advanced)
        return rejected

    def daimyo_offer(self, colour: Colour) -> tuple[Daimyo, ...]:
        """The cards ``colour`` may choose from: only for the chooser's own eyes (section 9)."""
        return player_view(self.game.state, colour).payload.daimyo_offer

    def daimyo_card(self, colour: Colour) -> Daimyo | None:
        """``colour``'s own Daimyo card: only for its owner's eyes, on their turn (9)."""
        state = self.game.state
        return state.daimyo.get(colour) if state.current == colour else None

    def choose_daimyo(self, colour: Colour, card: Daimyo) -> Rejection | None:
        return self._submit(ChooseDaimyo(colour=colour, card=card))

    def plan(self, colour: Colour, rolls: Sequence[Roll], single: int,
             daimyo: bool) -> Plan | Rejection:
        """The zone and pawns the dice give (5.I.1), without playing the turn."""
        command = Deploy(colour=colour, rolls=tuple(rolls), single=single, daimyo=daimyo)
        try:
            event = self.rules.deploy(self.game.state, command)
        except RuleViolation as exc:
            return Rejection(exc.rule, sentence(words(exc.message)))
        value = sum(event.pair)
        pawns = event.soldiers + int(event.daimyo)
        what = f"{event.soldiers} soldier{'s' if event.soldiers != 1 else ''}"
        if event.daimyo:  # the Daimyo counts as a pawn in deployment (9)
            what += f" and the Daimyo ({pawns} pawn{'s' if pawns != 1 else ''})"
        text = (f"{colour_name(colour)}: pair {event.pair[0]}+{event.pair[1]} = {value}, "
                f"{short_zone(event.zone)}; single die {single}: {what} (5.I.1)")
        return Plan(event.zone, value, event.soldiers, event.daimyo, text)

    def enter_dice(self, colour: Colour, rolls: Sequence[Roll], single: int,
                   daimyo: bool) -> Rejection | None:
        """The dice as rolled and the die kept apart, told to the table session: the zone
        flashes, and the deployment is played once the readers see its pawns there (5.I.1)."""
        command = Deploy(colour=colour, rolls=tuple(rolls), single=single, daimyo=daimyo)
        try:
            self.link.session.tell(lambda rules: _rules(rules).enter_dice(command))
        except RuleViolation as exc:
            return Rejection(exc.rule, sentence(words(exc.message)))
        self.problems, self._dice_at = [], len(self.events)
        self._log_at = len(self.link.session.log)
        return None

    def cancel(self) -> None:
        """Back from the dice or a card: nothing is expected on the table any more."""
        self.problems = []
        self.link.session.tell(lambda rules: _rules(rules).cancel())

    def deploy(self, colour: Colour, rolls: Sequence[Roll], single: int,
               daimyo: bool) -> Rejection | list[str] | None:
        """"Done": None once the deployment was played (the readers saw its pawns), else what
        the table shows that differs from the dice, in plain words."""
        with self._lock:
            self._catch_up()
            if any(isinstance(e, SoldiersDeployed) for e in self.events[self._dice_at:]):
                self.problems = []
                return None
            if self.moving():
                self.problems = [MOVING]
                return self.problems
            plan = self.plan(colour, rolls, single, daimyo)
            if isinstance(plan, Rejection):
                return plan
            seen, odd = self.table_moves()
            if not odd and normalise(seen) == normalise(plan.moves(colour)):
                self.problems = [MOVING]  # the readers agree; the session rules next
                return self.problems
            said = "; ".join(describe_move(m) for m in plan.moves(colour))
            shown = "; ".join(describe_move(m) for m in seen) or "no pawn moved"
            self.problems = [f"the dice say {said}, the table shows {shown}",
                             *(words(p) for p in odd)]
            self.feed.append(FeedLine("table", f"The table differs: {self.problems[0]} "
                                      "(5.I.1)", "5.I.1"))
            return self.problems

    def table_moves(self) -> tuple[tuple[PawnMove, ...], list[str]]:
        """The pawns the readers see moved from where the rules have them."""
        return self.session.table_moves(self.link.bridge.placements())

    def enter_card(self, colour: Colour, card: Tactic | None) -> None:
        """A tactic card (``card``) or one's Daimyo card (None) is being played: its pawns may
        move until "Done" (sections 7, 10)."""
        self.problems = []
        self.link.session.tell(lambda rules: _rules(rules).enter_card(colour, card))

    def play_card(self, colour: Colour, card: Tactic | None) -> Rejection | list[str] | None:
        """"Done" on a card: its effect read from the pawns the readers saw move, judged by the
        rules (sections 7, 10)."""
        if self.moving():
            self.problems = [MOVING]
            return self.problems
        seen = self.link.bridge.placements()
        command, problems = self.link.session.tell(
            lambda rules: _rules(rules).card_command(seen))
        if command is None:
            self.problems = [words(p) for p in problems]
            return self.problems
        rejected = self._submit(command)
        if rejected is not None:  # the card stays entered; nothing moved in the rules
            self.link.session.tell(lambda rules: _rules(rules).enter_card(colour, card))
        return rejected

    def put_back(self) -> list[str]:
        """What to move to undo what was done on the table since the last accepted turn (pawns
        no reader sees are not moves to undo: the session reports them if they stay unseen)."""
        moves, problems = self.table_moves()
        problems = [p for p in problems if UNSEEN not in p]
        undo = [PawnMove(colour=m.colour, pawn=m.pawn, origin=m.destination,
                         destination=m.origin, count=m.count) for m in moves]
        return [describe_move(m) for m in undo] + [words(p) for p in problems]


def refusal(rejected: Rejection) -> str:
    """A refusal as the shared screen says it: only its public message (a face-down Daimyo
    card's reason is private, :class:`~companion.core.game.HiddenViolation`), in plain words,
    citing its section once."""
    text = sentence(words(rejected.message))
    cite = f"({rejected.rule})"
    return f"Not allowed: {text}" if text.endswith(cite) else f"Not allowed: {text} {cite}"


def cited(line: FeedLine) -> tuple[str, ...]:
    """The sections a line cites: its own, then any other it names in brackets ("(5.II.2)")."""
    found = [line.rule] if line.rule else []
    for number in re.findall(r"\((?:clarification )?(\d+(?:\.[0-9IVX]+)*|TM\d+)\)", line.text):
        if number not in found and default_rules().get(number) is not None:
            found.append(number)
    return tuple(found)


def _war_left(prompt: str | None, rules: TenkaSessionRules) -> str | None:
    """See :attr:`Snapshot.war_left`."""
    left = rules.war_left()
    if prompt is None or left is None or prompt.startswith("The War is over on the table"):
        return None
    total = sum(left.values())
    if not total:
        return "the readers are still reading the last white pawns"
    each = ", ".join(f"{short_zone(z)} {n}" for z, n in left.items())
    return f"{total} white pawn{'s' if total != 1 else ''} still to place: {each}"


IN_PLACE = "reinforcements are in place"
"""What the table session says once a zone's white pawns all stand where they go (5.II.3)."""


def _in_place(text: str) -> str:
    """The first sentence of the session's line (the next prompt follows it)."""
    head, _, _ = text.partition(f"{IN_PLACE} (5.II.3)")
    return words(f"{head}{IN_PLACE} (5.II.3)")


def _rules(rules: object) -> TenkaSessionRules:
    assert isinstance(rules, TenkaSessionRules)
    return rules


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
    return [FeedLine("ruling", f"War: {words(r.text)} ({r.rule})", r.rule)
            for r in event.result.rulings]

