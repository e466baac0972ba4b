"""Handler plumbing: the event emitter, public-safe rejections, card draws."""

from __future__ import annotations

import re

from companion.core.events import Command
from companion.core.game import HiddenViolation
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import apply_event
from companion.games.sekigahara.engine.state import Phase, State

_BLOCK_ID = re.compile(r"\b[IT]\d\d\b")


def scrub(text: str) -> str:
    """Remove block ids from a message meant for the shared screen."""
    return _BLOCK_ID.sub("a block", text)


class Ruled(list[ev.Event]):
    """A command's events that know the state they lead to: each was applied once, when it was
    emitted, so the game takes ``after`` instead of applying them again."""

    def __init__(self, before: State) -> None:
        super().__init__()
        self.before = before
        self.after = before
        self.applied = 0

    def leads_from(self, state: State) -> bool:
        """Whether ``after`` is these very events applied to ``state`` (nothing added since)."""
        return self.before is state and self.applied == len(self)


class Emitter:
    """Collects a command's events, applying each so later checks see its effect."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events = Ruled(state)

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = apply_event(self.state, event)
        self.events.after, self.events.applied = self.state, len(self.events)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER


def reject(rule: str, message: str, private: str | None = None) -> HiddenViolation:
    """A rejection: ``message`` is public (no hidden identity), ``private`` for the actor."""
    return HiddenViolation(rule, scrub(message), private)


def acting_side(command: Command) -> Side | None:
    """The side a command acts for (its ``side``); None for a command either player may give
    (starting the game)."""
    side = getattr(command, "side", None)
    return side if isinstance(side, Side) else None


def answering_side(command: Command) -> Side | None:
    """The side whose device gives ``command`` (C18): the side it acts for, except a Loyalty
    Challenge, which is recorded with its answer, and the answer is the deploying side's: it
    shows a card able to deploy the block or it does not (8.6.1, C19)."""
    side = acting_side(command)
    if side is not None and getattr(command, "type", None) == "challenge":
        return side.opponent
    return side


def check_submitter(command: Command, by: str) -> None:
    """C18: a command is accepted only from the side it acts for (C19: a Loyalty Challenge from
    the side that answers it). The refusal comes first and reads the same whatever is on the
    board, so a command sent in the opponent's name learns nothing of where the opponent's
    blocks are."""
    device = answering_side(command)
    if by not in {s.value for s in Side}:
        raise reject("C18", f"commands come from a side's device (ishida or tokugawa), not {by!r}")
    if device is None or device.value == by:
        return
    if device is not acting_side(command):
        raise reject("C19", f"{by} cannot answer a Loyalty Challenge against a {device.value} "
                     f"block: {device.value} answers it, refuted or not")
    raise reject("C18", f"{by} cannot give a command for {device.value}")


def draw_cards(em: Emitter, side: Side, count: int, rule: str) -> None:
    if count > 0:
        em.emit(ev.CardsDrawn(side=side, count=count, rule=rule))
