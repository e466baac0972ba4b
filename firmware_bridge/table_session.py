"""Following a game at the table: the bridge's observations become the engine's commands.

:class:`TableSession` joins a running :class:`~firmware_bridge.bridge.Bridge` and a live game
(:class:`companion.core.game.Game`) of any game: the game's
:class:`~companion.core.table.GameTable` gives its :class:`~companion.core.table.SessionRules`
(for Sekigahara :class:`~companion.games.sekigahara.engine.session_rules.TableRules`), which
say what a change on the table means; this module holds the loop (settling, retries, LEDs, the
log, the corrections) and imports no game. On every tracking event, once no piece is in hand, it
reconciles the table with those rules and every observation ends as one of:

* a **command** submitted to the engine (for Sekigahara a stack move, a muster, a draw, a
  deployment, losses, a retreat) when the change means exactly one thing;
* a **question** held open for the touchscreen ("which route?", "which card was played?",
  "option A or B?"); :meth:`TableSession.answer` submits the chosen option;
* a **discrepancy** with a fix, its zones blinking (see :mod:`firmware_bridge.discrepancy`);
* an **ignored-with-reason** line in the log (part of an action seen, the rest awaited; blocks
  in hand; an engine rejection).

Corrections are explicit and logged (the bridge's :class:`~firmware_bridge.corrections.
CorrectionLog`): :meth:`accept_table` (keep playing with the table as it is: the discrepancy is
dismissed while it stays the same) and :meth:`trust_engine` (the engine is right: blocks whose
tags cannot be read are declared where the engine has them; others must be put back).

LEDs: discrepancy zones BLINK, the places the rules flash FAST (Sekigahara: the battle site
while a combat is pending, 8.1), legal destinations ON while :meth:`show_destinations` asks for
them (7.3).

Threads: the bridge calls back from its reader threads; the session's lock is always taken
before the bridge's, never inside it (so do not call the session from a ``bridge.wait_for``
condition: use :meth:`TableSession.wait_for`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion.core.events import Command, Event
from companion.core.game import Accepted, Game, Rejection
from companion.core.store import CorrectionRecorder, StoreError
from companion.core.table import GameTable, Hold, Question, Ready, SessionRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.discrepancy import Discrepancy, ProposedMove, Reconciliation, count_pieces
from firmware_bridge.protocol import LedMode
from firmware_bridge.tracking import TrackEvent
from firmware_bridge.waiting import wait_until
from firmware_bridge.zones import active_table, zone_name

log = logging.getLogger(__name__)
T = TypeVar("T")
MAX_STEPS = 16
"""Commands submitted in one refresh at most (each re-reconciles); a guard, never reached."""


@dataclass(frozen=True)
class LogLine:
    """One outcome, for the shared screen: no block id or face in ``text``."""

    at: float
    kind: str
    """command, rejected, question, answer, discrepancy, ignored, correction, unsaved, or
    table (a change that is right and means no command: its ``Ready.note``)."""
    text: str


@dataclass(frozen=True)
class OpenQuestion:
    id: int
    question: Question


class TableSession:
    """Bridge + game: see the module docstring. ``start()``/``stop()`` or a context manager."""

    def __init__(
        self, bridge: Bridge, game: Game[Any, Any, Any],
        records: CorrectionRecorder | None = None, table: GameTable | None = None,
    ) -> None:
        self.bridge = bridge
        self.game = game
        self.records = records
        """Where corrections are stored with who and why (the game store), before they act."""
        self.table = table or active_table()
        self.rules = self.table.session_rules(game)
        self.log: list[LogLine] = []
        self.discrepancies: tuple[Discrepancy, ...] = ()
        self._questions: dict[tuple[str, str, tuple[str, ...]], OpenQuestion] = {}
        self._next_id = 1
        self._said: set[str] = set()
        """Lines standing now (a hold, a discrepancy): logged when they appear, again if they
        come back after clearing."""
        self.unsaved: str | None = None
        """Set while the game store refuses to save ("not saved: the disk is full"): nothing
        was applied; show it, and call :meth:`refresh` (e.g. every second) to retry."""
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._running = False
        self.on_refresh: Callable[[], None] | None = None
        """Called after every refresh, outside the lock (an app redraws: a command the readers
        caused may have been played)."""

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> TableSession:
        with self._lock:
            if not self._running:
                self._running = True
                self.bridge.subscribe(self._on_event)
        self.refresh()
        return self

    def stop(self) -> None:
        """Stop following (events are ignored from now on) and turn the LEDs off."""
        with self._lock:
            self._running = False
            self._changed.notify_all()
        self.bridge.set_leds({})

    def __enter__(self) -> TableSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _on_event(self, event: TrackEvent) -> None:
        del event  # every change is judged from the whole table, not the event alone
        self.refresh()

    # ------------------------------------------------------------------ the loop

    def refresh(self) -> Reconciliation | None:
        """Reconcile now; submit what is unambiguous, hold questions, note the rest."""
        with self._lock:
            if not self._running:
                return None
            result: Reconciliation | None = None
            standing = self._said
            self._said = set()
            for _ in range(MAX_STEPS):
                held = self.bridge.holding()
                if held:
                    self._note("ignored", f"waiting: {self._count(held)} in hand", standing)
                    break
                if self.bridge.settling():  # judged once they rest (scan-rate independent)
                    break
                result = self.bridge.reconcile(self.rules, self._lights(),
                                               observe=self.rules.observe)
                if not self._step(result, standing):
                    break
            if result is not None:
                self._settle(result, standing)
            self._changed.notify_all()
        if self.on_refresh is not None:
            self.on_refresh()
        return result

    def _step(self, result: Reconciliation, standing: set[str]) -> bool:
        """Handle the legal moves; True if a command changed the game (reconcile again)."""
        seen: set[tuple[str, str, tuple[str, ...]]] = set()
        for move in self.rules.group(result.legal_moves):
            key = (move.origin, move.destination, move.block_ids)
            seen.add(key)
            outcome = self.rules.commands_for(move)
            if isinstance(outcome, Hold):
                self._note("ignored", f"{self._seen(move)}: {outcome.reason}", standing)
            elif isinstance(outcome, Ready):
                if self._submit(outcome.commands, self._seen(move), standing):
                    if outcome.note:
                        self._note("table", outcome.note)
                    self._questions = {k: q for k, q in self._questions.items() if k != key}
                    return True
            elif key not in self._questions:  # a Question
                self._questions[key] = OpenQuestion(self._next_id, outcome)
                self._next_id += 1
                self._note("question", f"{self._seen(move)}: {outcome.text}")
        for key in [k for k in self._questions if k not in seen]:
            self._note("ignored", f"question withdrawn: {self._questions.pop(key).question.text}"
                       " (the table changed)")
        return False

    def _submit(self, commands: Sequence[Command], what: str, standing: set[str]) -> bool:
        for command in commands:
            try:
                result = self._ruled(command, f"{what}: ", standing=standing)
            except StoreError as exc:  # nothing applied: say so, retry on the next refresh
                self.unsaved = f"not saved: {exc.message}; retrying"
                self._note("unsaved", self.unsaved, standing)
                return False
            self.unsaved = None
            if isinstance(result, Rejection):
                return False
        return True

    def _ruled(self, command: Command, what: str = "", by: str | None = None,
               standing: set[str] | None = None) -> Accepted[Event] | Rejection:
        """Submit one command and log its ruling: each event's feed line, or the refusal
        (``what`` says what was seen or tapped). StoreError passes through: nothing applied."""
        result = self.game.submit(command, by)
        if isinstance(result, Rejection):
            self._note("rejected", f"{what}{result}", standing)
        else:
            for event in result.events:
                self._note("command", self.rules.describe(event))
        return result

    def _settle(self, result: Reconciliation, standing: set[str]) -> None:
        """Keep the discrepancies, but not a place left unread by a hub problem: the screens
        say that once, for the whole hub (:meth:`~firmware_bridge.bridge.Bridge.hub_problems`),
        rather than once per place with fixes that cannot help."""
        told = {zone for problem in self.bridge.hub_problems() for zone in problem.zones}
        self.discrepancies = tuple(
            d for d in result.discrepancies
            if not (d.kind == "unobserved" and set(d.zones) <= told))
        for d in result.discrepancies:
            self._note("discrepancy", d.public(), standing)

    def _lights(self) -> dict[str, LedMode]:
        """The battle sites FAST; the legal destinations are the bridge's own overlay
        (:meth:`~firmware_bridge.bridge.Bridge.set_destinations`), under these and the
        discrepancies' BLINK."""
        return {place: LedMode.FAST for place in self.rules.flashing()}

    def _note(self, kind: str, text: str, standing: set[str] | None = None) -> None:
        """Log a line; one that stands (``standing``: those of the last refresh) only once."""
        if standing is not None:
            key = f"{kind}:{text}"
            self._said.add(key)
            if key in standing:
                return
        self.log.append(LogLine(time.monotonic(), kind, text))
        log.info("%s: %s", kind, text)

    # ------------------------------------------------------------------ the touchscreen

    @property
    def questions(self) -> list[OpenQuestion]:
        with self._lock:
            return sorted(self._questions.values(), key=lambda q: q.id)

    def answer(self, question_id: int, choice: int) -> Accepted[Event] | Rejection:
        """Submit option ``choice`` of an open question. ValueError for an unknown question or
        choice; a Rejection (nothing changed, the question stays open) if the engine refuses."""
        with self._lock:
            key, open_q = next(
                ((k, q) for k, q in self._questions.items() if q.id == question_id),
                (None, None),
            )
            if key is None or open_q is None:
                raise ValueError(f"no open question {question_id}")
            commands = open_q.question.answer(choice)
            label = open_q.question.options[choice].label
            events: list[Event] = []
            for command in commands:
                result = self._ruled(command, f"answer {label!r}: ")
                if isinstance(result, Rejection):
                    return result
                events.extend(result.events)
            del self._questions[key]
            self._note("answer", f"{open_q.question.text} {label}")
        self.refresh()
        return Accepted(tuple(events))

    def submit(self, command: Command, by: str | None = None) -> Accepted[Event] | Rejection:
        """Submit a command tapped on the touchscreen (a bid, a level of movement, a combat
        declared, a Loyalty Challenge...) by the side ``by`` (C18): logged like the readers'
        commands, then the table is reconciled again with the new state."""
        with self._lock:
            result = self._ruled(command, by=by)
            if isinstance(result, Rejection):
                return result
        self.refresh()
        return result

    def tell(self, change: Callable[[SessionRules], T]) -> T:
        """Tell the game's session rules what was entered on the touchscreen (Tenka Meidou:
        the dice, a card) under the session's lock, then reconcile again."""
        with self._lock:
            result = change(self.rules)
        self.refresh()
        return result

    def show_destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        """Light the legal destinations of these blocks (7.3) until :meth:`clear_destinations`."""
        with self._lock:
            found = self.rules.destinations(origin, block_ids)
        self.bridge.set_destinations(found)  # lit and read first while the hand is full
        self.refresh()
        return found

    def clear_destinations(self) -> None:
        self.bridge.set_destinations(())
        self.refresh()

    # ------------------------------------------------------------------ corrections

    def accept_table(self, discrepancy: Discrepancy, note: str, by: str = "players") -> None:
        """Override: play on with the table as it is; logged, hidden while it stays the same.
        Stored first (``records``): a StoreError leaves the discrepancy standing."""
        with self._lock:
            self._record("accept_table", discrepancy, note, by)
            self.bridge.corrections.dismiss(discrepancy, f"accept the table: {note}")
            self._note("correction", f"Playing on with the table as it is: {discrepancy.text}")
        self.refresh()

    def trust_engine(self, discrepancy: Discrepancy, note: str, by: str = "players") -> None:
        """Override: the engine is right. Blocks no reader sees are declared where the engine
        has them (a dead or covered tag); blocks seen elsewhere must be put back (the fix)."""
        with self._lock:
            self._record("trust_engine", discrepancy, note, by)
            expected = self.rules.expected_positions()
            seen = self.bridge.placements()
            for block in discrepancy.block_ids:
                if block not in seen and block in expected:
                    self.bridge.declare(block, expected[block], f"engine is right: {note}")
            self._note("correction", f"The game is right, {discrepancy.fix}: {discrepancy.text}")
        self.refresh()

    def _record(self, action: str, discrepancy: Discrepancy, note: str, by: str) -> None:
        if self.records is not None:
            self.records.correction(action, by=by, note=note, detail={
                "key": discrepancy.key, "kind": discrepancy.kind, "text": discrepancy.text,
                "blocks": list(discrepancy.block_ids)})

    # ------------------------------------------------------------------ wording

    def _seen(self, move: ProposedMove) -> str:
        return (f"{self._count(move.block_ids)} from {zone_name(move.origin, self.table)} to "
                f"{zone_name(move.destination, self.table)}")

    def _count(self, pieces: Iterable[str]) -> str:
        """"two gold blocks" for these piece ids (their side's colour only, 3.1)."""
        return count_pieces(pieces, self.table)

    # ------------------------------------------------------------------ waiting

    def wait_for(self, condition: Callable[[TableSession], T | None], timeout: float) -> T:
        """Wait until ``condition(session)`` is truthy (checked after each refresh)."""
        return wait_until(self._changed, lambda: condition(self), timeout, "table session")
