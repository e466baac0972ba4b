"""The game-neutral Game/EventLog shape, exercised with a toy counter game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import pytest

from companion.core.events import Command, Event
from companion.core.game import Accepted, Game, HiddenViolation, Rejection
from companion.core.game import replay as replay_events
from companion.core.rules import RuleViolation
from companion.core.views import PublicView, RefereeView, SideView


@dataclass(frozen=True)
class Counter:
    total: int = 0
    secret: int = 0


class Add(Command):
    type: Literal["add"] = "add"
    amount: int


class Hide(Command):
    type: Literal["hide"] = "hide"
    value: int


class Added(Event):
    type: Literal["added"] = "added"
    amount: int


class Hidden(Event):
    type: Literal["hidden"] = "hidden"
    value: int


class CounterRules:
    def initial_state(self) -> Counter:
        return Counter()

    def handle(self, state: Counter, command: Command, by: str | None = None) -> list[Event]:
        if isinstance(command, Add):
            if command.amount <= 0:
                raise RuleViolation("1.1", "add a positive amount")
            return [Added(amount=command.amount)]
        if isinstance(command, Hide):
            if command.value == state.secret:
                raise HiddenViolation("1.2", "that value is not allowed", f"it is {state.secret}")
            return [Hidden(value=command.value)]
        raise RuleViolation("1", "unknown")

    def apply(self, state: Counter, event: Event) -> Counter:
        if isinstance(event, Added):
            return replace(state, total=state.total + event.amount)
        assert isinstance(event, Hidden)
        return replace(state, secret=event.value)


def test_submit_accepts_and_appends_events() -> None:
    game: Game[Counter, Command, Event] = Game(CounterRules())
    result = game.submit(Add(amount=3))
    assert isinstance(result, Accepted)
    assert result.events == (Added(amount=3),)
    assert game.state.total == 3
    assert game.events == (Added(amount=3),)


def test_rejection_cites_rule_and_leaves_state() -> None:
    game: Game[Counter, Command, Event] = Game(CounterRules())
    result = game.submit(Add(amount=0))
    assert isinstance(result, Rejection)
    assert result.rule == "1.1"
    assert str(result) == "add a positive amount (rule 1.1)"
    assert game.events == () and game.state == Counter()


def test_hidden_violation_keeps_private_detail_apart() -> None:
    game: Game[Counter, Command, Event] = Game(CounterRules())
    game.submit(Hide(value=5))
    result = game.submit(Hide(value=5))
    assert isinstance(result, Rejection)
    assert "5" not in result.message
    assert result.private == "it is 5"


def test_replay_rebuilds_the_same_state() -> None:
    game: Game[Counter, Command, Event] = Game(CounterRules())
    for n in (1, 2, 3):
        game.submit(Add(amount=n))
    assert replay_events(CounterRules(), game.events) == game.state
    assert Game(CounterRules(), game.events).state == game.state


def test_events_round_trip_through_json() -> None:
    event = Added(amount=4)
    assert Added.model_validate_json(event.model_dump_json()) == event
    with pytest.raises(ValueError):
        Added.model_validate({"type": "added", "amount": 1, "extra": 2})


def test_view_kinds_are_distinct_types() -> None:
    public, side, referee = PublicView(1), SideView("a", 1), RefereeView(1)
    assert type(public) is not type(referee)
    assert not isinstance(side, PublicView)
    assert public.payload == side.payload == referee.payload
