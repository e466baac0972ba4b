"""KenseiRules: the battle as a :class:`companion.core.game.GameRules` (B1.3, B3, B4, B7, B15).

``handle`` checks a command against the state and returns its events, or raises
:class:`RuleViolation` citing the rule; ``apply`` folds one event into the state. The steps
that follow by themselves (the first turn after deployment, the markers cleared when
maintenance is done, the score of a battle that needs no inputs) are added as events too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.core.events import Event
from companion.core.rules import RuleViolation
from companion.games.kensei.battle import (
    cards,
    combat,
    deck,
    orders,
    pregame,
    scoring,
    turn,
)
from companion.games.kensei.battle.commands import (
    Activate,
    Begin,
    ChooseSide,
    CommandDuel,
    CommanderActivation,
    Concede,
    Deploy,
    DrawCards,
    EndActivation,
    EndTurn,
    HoldBack,
    InitiativeRoll,
    Melee,
    Offering,
    Order,
    OrderRoll,
    RetreatHonour,
    ScenarioRoll,
    SceneryRoll,
    Score,
    SecondaryMission,
    SetMarker,
    Shoot,
    StrategyRoll,
)
from companion.games.kensei.battle.events import (
    BattleBegun,
    BattleEnded,
    Conceded,
    MarkersCleared,
    TurnBegun,
)
from companion.games.kensei.battle.lists import ListCheck, refusals
from companion.games.kensei.battle.state import State

Handler = Callable[[State, Any], "Event | list[Event]"]
APPLIERS = (pregame.apply, turn.apply, orders.apply, combat.apply, scoring.apply)


class KenseiRules:
    """The rules of one battle. ``lists`` checks an army list (B14): the list checker of
    armylist.py by default."""

    def __init__(self, lists: ListCheck | None = None) -> None:
        self.lists = lists or refusals

    def initial_state(self) -> State:
        return State()

    def handle(self, state: State, command: Any, by: str | None = None) -> list[Event]:
        """``by``: the side whose device sent ``command``, None for the table or the app
        acting for both. A side never acts, nor looks, for the other."""
        return self.judge(state, command, by)[0]

    def judge(self, state: State, command: Any, by: str | None) -> tuple[list[Event], State]:
        side = getattr(command, "side", None)
        if by is not None and side is not None and by != side:
            raise RuleViolation("B17", "each player gives their own commands")
        if state.phase == "over":
            raise RuleViolation("B15 Tiempo de batalla", "the battle is over")
        first = self._handle(state, command)
        events = first if isinstance(first, list) else [first]
        for event in events:
            state = self.apply(state, event)
        while (follow := self._follow(state)) is not None:
            events.append(follow)
            state = self.apply(state, follow)
        return events, state

    def _handle(self, state: State, cmd: Any) -> Event | list[Event]:
        if isinstance(cmd, Begin):
            return pregame.begin(state, cmd, self.lists)
        if isinstance(cmd, Concede):
            if state.phase in ("setup", "scoring"):
                raise RuleViolation("B15 Tiempo de batalla", "there is no battle to concede")
            return [Conceded(side=cmd.side),
                    BattleEnded(reason="concede", turn=state.turn, side=cmd.side)]
        if isinstance(cmd, Score):
            return scoring.score(state, cmd.inputs)
        table: dict[type, Handler] = {
            ScenarioRoll: pregame.scenario_roll, StrategyRoll: pregame.strategy_roll,
            ChooseSide: pregame.choose_side, SceneryRoll: pregame.scenery_roll,
            SecondaryMission: pregame.secondary_mission, Deploy: pregame.deploy,
            HoldBack: pregame.deploy, DrawCards: turn.draw_cards,
            RetreatHonour: turn.retreat_honour, InitiativeRoll: turn.initiative_roll,
            CommandDuel: turn.command_duel, Offering: turn.offering, Activate: turn.activate,
            OrderRoll: turn.order_roll, Order: orders.check, Melee: combat.melee,
            Shoot: combat.shoot, SetMarker: turn.set_marker,
            EndActivation: turn.end_activation, CommanderActivation: turn.commander_activation,
            EndTurn: turn.end_turn,
        }
        handler = table.get(type(cmd))
        if handler is None:
            raise RuleViolation("B3", f"unknown command {type(cmd).__name__}")
        if state.phase == "setup":
            raise RuleViolation("B1.3", "the battle has not begun")
        return handler(state, cmd)

    def _follow(self, state: State) -> Event | None:
        if pregame.deployment_over(state):
            return TurnBegun(turn=1)
        if turn.maintenance_over(state):
            return MarkersCleared()
        if state.phase == "scoring" and not scoring.needs_inputs(state):
            return scoring.score(state, {})
        return None

    def apply(self, state: State, event: Event) -> State:
        if cards.is_deck_event(event):
            return _deck(state, event)
        if isinstance(event, BattleBegun):
            state = state.model_copy(update={"decks": deck.new_decks()})
        if isinstance(event, Conceded):
            return state.model_copy(update={"conceded": event.side})
        for applier in APPLIERS:
            after = applier(state, event)
            if after is not None:
                return after
        raise ValueError(f"no rule applies {event.type}")


def _deck(state: State, event: Event) -> State:
    update: dict[str, Any] = {"decks": deck.apply(state.command_decks, event)}
    if (isinstance(event, deck.CardsDrawn) and state.phase == "maintenance"
            and event.side not in state.drawn):
        update["drawn"] = (*state.drawn, event.side)
    if isinstance(event, deck.DuelRevealed):
        update["initiative"] = event.initiative_after
    return state.model_copy(update=update)
