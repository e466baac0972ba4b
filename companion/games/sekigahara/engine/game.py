"""The Sekigahara rules as a :class:`~companion.core.game.GameRules`: command dispatch by phase,
event application, and :func:`new_game`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import TypeAdapter

from companion.core.game import Game, HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import apply_event
from companion.games.sekigahara.engine.bidding import bid, choose_first
from companion.games.sekigahara.engine.combat_phase import act, choose_inside, declare, end_combat
from companion.games.sekigahara.engine.flow import Ruled, check_submitter, reject
from companion.games.sekigahara.engine.mori import bring_mori
from companion.games.sekigahara.engine.movement_phase import buy_movement, end_movement, move_stack
from companion.games.sekigahara.engine.muster import muster
from companion.games.sekigahara.engine.phases import refusal
from companion.games.sekigahara.engine.retreat import retreat
from companion.games.sekigahara.engine.setup import draw_blocks, start_game
from companion.games.sekigahara.engine.state import Phase, State

EVENTS = TypeAdapter[Any](ev.SekigaharaEvent)
COMMANDS = TypeAdapter[Any](cm.SekigaharaCommand)


def _end_phase(state: State, cmd: cm.EndPhase) -> list[ev.Event]:
    if state.phase is Phase.COMBAT:
        return end_combat(state, cmd)
    return end_movement(state, cmd)


_HANDLERS: dict[type[Any], Callable[[State, Any], list[ev.Event]]] = {
    cm.StartGame: start_game, cm.DrawBlocks: draw_blocks, cm.Bid: bid,
    cm.ChooseFirst: choose_first, cm.BuyMovement: buy_movement, cm.Muster: muster,
    cm.BringMori: bring_mori, cm.MoveStack: move_stack, cm.EndPhase: _end_phase,
    cm.DeclareCombat: declare, cm.ChooseInside: choose_inside, cm.Deploy: act,
    cm.Challenge: act, cm.Finish: act, cm.TakeLosses: act, cm.Retreat: retreat,
}


class SekigaharaRules:
    """Commands in, events out; events applied deterministically (see :mod:`.apply`)."""

    def initial_state(self) -> State:
        return State()

    def handle(self, state: State, command: cm.Command, by: str | None = None) -> list[ev.Event]:
        """``by``: the side whose device submitted ``command``, checked before anything else
        (C18); None when the caller is trusted (replays, the table's readers, tests)."""
        if by is not None:
            check_submitter(command, by)
        if state.phase is Phase.GAME_OVER:
            raise reject("2.1" if state.victory and "2.2" not in state.victory else "2.2",
                         "the game is over")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise reject("1", f"unknown command {command.type!r}")
        refused = refusal(state, command)
        if refused is not None:
            raise refused
        try:
            return handler(state, command)
        except HiddenViolation:
            raise
        except RuleViolation as exc:  # from the combat or movement rules, which know no secret:
            raise reject(exc.rule, exc.message, private=exc.message) from None  # fail closed

    def judge(
        self, state: State, command: cm.Command, by: str | None = None
    ) -> tuple[list[ev.Event], State]:
        """``handle``'s events and the state after them: the handlers applied each event as
        they emitted it, so it is not applied again."""
        events = self.handle(state, command, by)
        if isinstance(events, Ruled) and events.leads_from(state):
            return events, events.after
        for event in events:
            state = apply_event(state, event)
        return events, state

    def apply(self, state: State, event: ev.Event) -> State:
        return apply_event(state, event)


SekigaharaGame = Game[State, cm.Command, ev.Event]


def new_game(events: Sequence[ev.Event] = ()) -> SekigaharaGame:
    """A game (new, or rebuilt from a saved event list)."""
    return Game(SekigaharaRules(), events)


def load_events(raw: list[dict[str, Any]]) -> list[ev.Event]:
    """Events from their JSON form."""
    return [EVENTS.validate_python(item) for item in raw]
