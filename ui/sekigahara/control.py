"""The table app's composition: the game, the readers (real hubs or the simulator), the bridge and
the table session, and what the screens may see of them.

:class:`TableControl` is the only part of the app that touches the game's state. Screens receive
a :class:`Snapshot`: the engine's :class:`~companion.core.views.PublicView` plus the table
session's public lines (rulings feed, questions, discrepancies), the locations to light, and a
:class:`Prompt` built from the engine's public queries (who is awaited and for what). The referee
screen alone receives a :class:`~companion.core.views.RefereeView`, behind the PIN.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.core.events import Command, Event
from companion.core.game import Accepted, Rejection
from companion.core.records import (
    UNDO,
    NotUndoable,
    Undoable,
    UndoRefused,
    take_back,
    undo_entry,
)
from companion.core.store import CommandRecorder, Entry
from companion.core.views import PublicView, RefereeView
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.facade import (
    BAG,
    BOARD,
    CARDS,
    EVENTS,
    RECRUITMENT,
    Phase,
    PublicState,
    Question,
    RefereeState,
    SekigaharaGame,
    SekigaharaRules,
    Stage,
    TableRules,
    answering_side,
    awaiting,
    card_words,
    castle_owner,
    cm,
    copy_in_hand,
    count_words,
    declarable,
    ev,
    must_declare,
    new_game,
    public_view,
    records,
    recruitment_zone,
    referee_view,
    retreat_options,
    side_colour,
    side_of,
    where_words,
    zone_name,
)
from firmware_bridge.table_session import LogLine, OpenQuestion
from firmware_bridge.tablelink import TableLink

log = logging.getLogger(__name__)

SETUP_DRAWS = (sum(len(loc.setup.random) for loc in BOARD.locations.values())
               + sum(len(box.setup.random) for box in BOARD.boxes.values()))
"""Bag draws of the set-up (5.2.2, 5.2.3): one per side per location or box printed with a
random set-up marker."""


CONFIRMED = ("bid", "end_phase", "finish", "declare_combat", "choose_inside", "choose_first")
"""Taps confirmed first when they cannot be undone (a movement bought by replacing cards is
already two taps: "No movement (replace cards)", then how many)."""


@dataclass(frozen=True)
class QuestionShown:
    """An open question as the shared screen shows it (labels carry no hidden identity)."""

    id: int
    side: Side
    text: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class DiscrepancyShown:
    index: int
    kind: str
    text: str
    fix: str
    zones: tuple[str, ...]
    rule: str | None


@dataclass(frozen=True)
class SetupProgress:
    """The guided set-up (5.2): the step now, how many are done of how many."""

    step: str
    zone: str | None
    done: int
    total: int


@dataclass(frozen=True)
class Prompt:
    """What the engine waits for, from its public queries only."""

    waiting: dict[Side, str]
    declarable: tuple[str, ...] = ()
    must_declare: tuple[str, ...] = ()
    declare_inside: tuple[str, ...] = ()
    """Declarable locations where the declaring side owns the castle and may stay inside
    (8.9.2)."""
    setup: SetupProgress | None = None
    level: str | None = None
    """The movement bought this phase (7.1), once bought."""
    moves_left: int = 0
    retreat_to: tuple[str, ...] = ()
    """Where the loser of the battle may retreat (8.8)."""
    table_steps: tuple[str, ...] = ()
    """What the players do on the table first (deployed blocks back after a battle, 8.2.1),
    in plain words: the table check waits for it."""


@dataclass(frozen=True)
class Snapshot:
    """Everything the shared screen may show at one moment."""

    view: PublicView[PublicState]
    prompt: Prompt
    feed: tuple[LogLine, ...]
    questions: tuple[QuestionShown, ...]
    discrepancies: tuple[DiscrepancyShown, ...]
    lit: frozenset[str]
    in_hand: int
    """Blocks lifted off the table right now (counted, never named)."""
    settling: int
    """Blocks just set down, ruled once they rest (the settle rule)."""
    readers: str
    """One line on the readers: the simulator or the hubs found."""
    unsaved: str | None = None
    """Set while the store refuses to save: nothing was applied, the app retries."""


@dataclass
class TableControl(TableLink):
    """The running table: see the module docstring. ``start()`` then ``stop()``; the readers,
    bridge and session are :class:`~firmware_bridge.tablelink.TableLink`'s."""

    game: SekigaharaGame = field(default_factory=new_game)

    # ------------------------------------------------------------------ what screens see

    def snapshot(self) -> Snapshot:
        with self.lock:
            state = self.game.state
            view = public_view(state)
            questions = tuple(self._question(q) for q in self.session.questions)
            found = tuple(
                DiscrepancyShown(i, d.kind, d.text, d.fix, d.zones, d.rule)
                for i, d in enumerate(self.session.discrepancies)
            )
            return Snapshot(
                view=view, prompt=self._prompt(), feed=tuple(self.session.log),
                questions=questions, discrepancies=found, lit=self.lit,
                in_hand=self.in_hand, settling=self.settling,
                readers=self.readers.describe(), unsaved=self.session.unsaved,
            )

    @property
    def rules(self) -> TableRules:
        """The session's rules: the engine's :class:`TableRules` (what the table check
        expects, and what the players are asked to do on the table first)."""
        rules = self.session.rules
        assert isinstance(rules, TableRules)
        return rules

    def referee(self) -> RefereeView[RefereeState]:
        """Everything: only for the referee screen, behind the PIN."""
        return referee_view(self.game.state)

    @property
    def events(self) -> tuple[ev.Event, ...]:
        return self.game.events

    @staticmethod
    def _question(q: OpenQuestion) -> QuestionShown:
        question = q.question
        assert isinstance(question, Question)  # Sekigahara's session rules ask these
        return QuestionShown(q.id, question.side, question.text,
                             tuple(o.label for o in question.options))

    def _prompt(self) -> Prompt:
        prompt = self._engine_prompt()
        steps = tuple(self.rules.table_steps())
        return replace(prompt, table_steps=steps) if steps else prompt

    def _engine_prompt(self) -> Prompt:
        state = self.game.state
        waiting = awaiting(state)
        if state.phase is Phase.SETUP:
            return Prompt(waiting, setup=self._setup())
        if state.phase is Phase.COMBAT and state.pending is None and state.active is not None:
            options = tuple(declarable(state))
            inside = tuple(loc for loc in options if castle_owner(state, loc) is state.active)
            return Prompt(waiting, declarable=options, must_declare=tuple(must_declare(state)),
                          declare_inside=inside)
        if state.phase is Phase.MOVEMENT:
            return Prompt(waiting, level=state.level.value if state.level else None,
                          moves_left=state.moves_left)
        p = state.pending
        if p is not None and p.stage is Stage.RETREAT:
            return Prompt(waiting, retreat_to=tuple(retreat_options(state)[0]))
        return Prompt(waiting)

    def _setup(self) -> SetupProgress:
        """5.2: set-up-symbol blocks first (5.2.1), then the bag draws in order (5.2.2, 5.2.3)."""
        state = self.game.state
        due = list(state.draws_due)
        total = SETUP_DRAWS + 1  # the set-up-symbol step, then each draw
        done = SETUP_DRAWS - len(due)
        to_stand = self.rules.setup_to_stand()
        if to_stand:
            ordered = sorted(to_stand.items(), key=lambda item: (item[0][1], -item[1]))
            places = "; ".join(
                f"{count_words(n, f'{side_colour(side)} {symbol.value}')} {where_words(zone)}"
                for (zone, side, symbol), n in ordered)
            first = ordered[0][0][0]
            return SetupProgress(
                "Stand the blocks with a set-up symbol (lower right corner) where the map prints "
                f"it (5.2.1): {places}", first, done, total)
        if not due:
            return SetupProgress("Set-up is complete", None, total, total)
        side, zone, n = due[0]
        table_zone = recruitment_zone(side) if zone == RECRUITMENT else zone
        them = "them" if n != 1 else "it"
        step = (f"Draw {count_words(n)} from {side.value.capitalize()}'s bag and stand {them} in "
                f"the {zone_name(table_zone)} (5.2.3)" if zone == RECRUITMENT else
                f"Draw {count_words(n)} from {side.value.capitalize()}'s bag and stand {them} "
                f"on {zone_name(zone)} (5.2.2)")
        return SetupProgress(step, table_zone, done + 1, total)

    # ------------------------------------------------------------------ touches

    def submit(self, command: Command, by: str | None = None) -> Accepted[Event] | Rejection:
        """A command tapped on the shared screen, bound to the side its button names (C18; a
        Loyalty Challenge's answer to the deploying side, C19)."""
        side = answering_side(command)
        return super().submit(command, by or (side.value if side is not None else None))

    def bid(self, side: Side, card: str) -> cm.Bid:
        """The bid of the face ``card`` shows (6.3): the screen enters a card by its face, so
        the bid names a copy the table has not seen discarded (3.3)."""
        return cm.Bid(side=side, card=copy_in_hand(self.game.state, side, card))

    def bag_blocks(self, side: Side) -> list[str]:
        """The blocks the rules have in ``side``'s bag (for the virtual table's set-up)."""
        return sorted(b for b, z in self.game.state.pos.items() if z == BAG and side_of(b) is side)

    def start_game(self) -> Accepted[ev.Event] | Rejection:
        return self.submit(cm.StartGame())

    # ------------------------------------------------------------------ undo, the feed

    def undo_offer(self) -> Undoable | NotUndoable | None:
        """What "Undo" would take back now (the last command standing, when the game is
        saved), or why it cannot; None when there is nothing to undo."""
        recorder = self.game.recorder
        if not isinstance(recorder, CommandRecorder):
            return None
        return undo_entry(recorder.last, records.undo_policy)

    def undo(self) -> Undoable:
        """Take back the last command (docs/referee.md, Undo): stored as a correction first,
        then the game is followed again without it; the feed keeps its lines and says what
        was undone. UndoRefused (nothing changed) says why not; StoreError: not saved."""
        with self.lock:
            recorder = self.game.recorder
            if not isinstance(recorder, CommandRecorder):
                raise UndoRefused("This game is not being saved, so it has no undo")
            verdict, kept = take_back(recorder, self.game.events, records.undo_policy)
            said = list(self.session.log)
            game = new_game(kept)
            game.recorder = recorder
            self.follow(game, recorder)
            self.session.log[:0] = [*said, LogLine(time.monotonic(), "correction",
                                                   f"Undone: {verdict.what}")]
        self._notify()
        return verdict

    def confirm_first(self, command: Command) -> str | None:
        """A tap that is usually undone by "Undo" but not this time (it shows both bids, draws
        cards, decides the battle or ends the game) is said first and played once confirmed:
        the sentence to say, or None to play it now. Only the rules' public outcome is read."""
        key = command.model_dump(mode="json")
        if not isinstance(self.game.recorder, CommandRecorder):
            return None
        if str(key.get("type")) not in CONFIRMED:
            return None
        try:
            events = self.game.rules.handle(self.game.state, command)
        except Exception:  # refused: the submit says why
            return None
        verdict = records.undo_policy(key, [e.model_dump(mode="json") for e in events])
        if isinstance(verdict, Undoable):
            return None
        return f"{verdict}."

    def replay_feed(self, entries: Sequence[Entry]) -> None:
        """A resumed game's feed as it was shown: each stored command's events in the feed's
        words, and each undo (the table's own notes are not stored, so they do not return)."""
        lines: list[LogLine] = []
        for entry in entries:
            if entry.kind == "command":
                for raw in entry.data.get("events", []):
                    event = EVENTS.validate_python(raw)
                    lines.append(LogLine(0.0, "command", self.session.rules.describe(event)))
            elif entry.data.get("action") == UNDO:
                what = str(entry.data.get("note", "")).removeprefix("Undo: ")
                lines.append(LogLine(0.0, "correction", f"Undone: {what}"))
        with self.lock:
            self.session.log[:0] = lines


def bid_cards(side: Side) -> list[tuple[str, str]]:
    """One card id per distinct face of ``side``'s deck, with the label players read (6.3),
    highest bid first."""
    seen: dict[tuple[str, str, int], str] = {}
    for card_id, card in sorted(CARDS.items()):
        if card.side is side:
            seen.setdefault((card.clan.value if card.clan else "", card.kind.value, card.bid),
                            card_id)
    ordered = sorted(seen.items(), key=lambda item: (-item[0][2], item[0][0]))
    return [(card_id, card_words(card_id)) for _face, card_id in ordered]


def weekly_history(events: Sequence[ev.Event]) -> list[tuple[int, PublicState]]:
    """The public view at the end of each week (and at the end of the game), by replaying the
    log: for the end screen's plots."""
    rules = SekigaharaRules()
    state = rules.initial_state()
    found: list[tuple[int, PublicState]] = []
    for event in events:
        before = state
        state = rules.apply(state, event)
        if state.week != before.week and before.phase is not Phase.NOT_STARTED:
            found.append((before.week, public_view(before).payload))
    if state.phase is Phase.GAME_OVER:
        found.append((state.week, public_view(state).payload))
    return found
