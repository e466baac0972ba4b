"""A game as a state plus an append-only event log, generic over one game's rules.

``submit(command)`` validates a command against the current state: the rules either raise
:class:`~companion.core.rules.RuleViolation` (the command is rejected, citing the rule) or return
the events the command causes. Events are the single source of truth: :func:`replay` rebuilds a
state from any event list, and applying the same list always yields the same state.

Durability before display: a game given a :class:`Recorder` (e.g.
:class:`companion.core.store.CommandRecorder`) has each accepted command and its events
committed by ``recorder.record`` *before* ``submit`` updates the state and returns. If recording
raises (the store's ``StoreError``: locked, disk full, read-only, damaged), the exception
propagates and nothing is applied: the caller shows "not saved" and may submit again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from companion.core.events import Command, Event
from companion.core.rules import RuleViolation

S = TypeVar("S")
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)
C_contra = TypeVar("C_contra", bound=Command, contravariant=True)


class HiddenViolation(RuleViolation):
    """A rejection whose full reason would reveal hidden information.

    ``message`` is safe for the shared screen (counts, locations, rule); ``private`` is the
    detail for the acting side only and must never reach a public view or log.
    """

    def __init__(self, rule: str, message: str, private: str | None = None) -> None:
        super().__init__(rule, message)
        self.private = private


class Recorder(Protocol):
    """Somewhere accepted commands are committed before they take effect."""

    def record(self, command: Command, events: Sequence[Event]) -> None:
        """Commit ``command`` and ``events`` durably, or raise (then nothing is applied)."""
        ...


class GameRules(Protocol[S, C_contra, E]):
    """What a game package supplies: an initial state, command handling and event application."""

    def initial_state(self) -> S: ...

    def handle(self, state: S, command: C_contra, by: str | None = None) -> list[E]:
        """The events ``command`` causes in ``state``; raise RuleViolation to reject it.
        ``by``: who submitted it (a side's device), None when unbound (replays, tests)."""
        ...

    def apply(self, state: S, event: E) -> S:
        """The state after ``event``; deterministic, no validation, never mutates ``state``."""
        ...


@dataclass(frozen=True)
class Accepted(Generic[E]):
    events: tuple[E, ...]


@dataclass(frozen=True)
class Rejection:
    """A refused command: the rule that forbids it and a message safe for the shared screen."""

    rule: str
    message: str
    private: str | None = None

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})"


Judge = Callable[[S, C, "str | None"], tuple[list[E], S]]
"""A rules object's optional ``judge(state, command, by)``: ``handle``'s events together with the
state they lead to, for rules that apply each event as they rule (it is then applied once)."""


def judge_of(rules: GameRules[S, C, E]) -> Judge[S, C, E]:
    """How to rule on a command and get the state after it: the rules' own ``judge`` if they
    have one, else ``handle`` then ``apply`` of each event."""
    own: Judge[S, C, E] | None = getattr(rules, "judge", None)
    if own is not None:
        return own

    def judge(state: S, command: C, by: str | None) -> tuple[list[E], S]:
        events = rules.handle(state, command, by)
        for event in events:
            state = rules.apply(state, event)
        return events, state

    return judge


def replay(rules: GameRules[S, C, E], events: Iterable[E]) -> S:
    """Rebuild a state from an event list."""
    state = rules.initial_state()
    for event in events:
        state = rules.apply(state, event)
    return state


class Game(Generic[S, C, E]):
    """A running game: its rules, its current state and the events that built it."""

    def __init__(
        self, rules: GameRules[S, C, E], events: Sequence[E] = (),
        recorder: Recorder | None = None,
    ) -> None:
        self.rules = rules
        self.recorder = recorder
        self._judge = judge_of(rules)
        self._events: list[E] = list(events)
        self._state = replay(rules, self._events)

    @property
    def state(self) -> S:
        return self._state

    @property
    def events(self) -> tuple[E, ...]:
        return tuple(self._events)

    def submit(self, command: C, by: str | None = None) -> Accepted[E] | Rejection:
        """Validate and apply ``command``; ``by`` names the submitter so the rules can refuse a
        command sent in another player's name."""
        try:
            events, state = self._judge(self._state, command, by)
        except HiddenViolation as exc:
            return Rejection(exc.rule, exc.message, exc.private)
        except RuleViolation as exc:
            return Rejection(exc.rule, exc.message)
        if self.recorder is not None:
            self.recorder.record(command, events)  # raises if not saved: nothing applied
        self._state = state
        self._events.extend(events)
        return Accepted(tuple(events))
