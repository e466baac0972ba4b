"""The state of a combat, rebuilt from its events.

A :class:`CombatState` is an immutable value; :func:`evolve` returns a new state with one more
event applied and is the only place state changes. Nothing in it is decided here: every rule
lives in the rule modules, which read a state and emit events.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from companion.games.sekigahara.combat.events import (
    BlockDeployed,
    BlocksDefected,
    BlocksLost,
    CardsReplenished,
    ChallengeRefuted,
    CombatEnded,
    CombatEvent,
    CombatStarted,
    InitiativePassed,
    InstantVictory,
    LoyaltyChallenged,
    SideFinished,
)
from companion.games.sekigahara.combat.model import (
    CombatKind,
    CombatSetup,
    ImpactBreakdown,
    PlayedCard,
    Tally,
)
from companion.games.sekigahara.components import Side


class Deployment(BaseModel):
    """One deployment (8.2.3): a card (or none, 8.2.4) and the one or two blocks it deployed."""

    model_config = ConfigDict(frozen=True)

    side: Side
    card: PlayedCard | None
    blocks: tuple[str, ...]
    impacts: tuple[ImpactBreakdown, ...]
    challenged: bool = False
    defected: bool = False


class CombatState(BaseModel):
    """Everything the rules need to know about a combat in progress."""

    model_config = ConfigDict(frozen=True)

    setup: CombatSetup
    log: tuple[CombatEvent, ...] = ()
    deployments: tuple[Deployment, ...] = ()
    allegiance: dict[str, Side] = {}
    """Deployed block -> the side whose Impact it counts for (its owner unless it defected)."""
    impact: Tally = Tally()
    cards_played: Tally = Tally()
    carded: frozenset[Side] = frozenset()
    """Sides that have deployed with a card: no more cardless leaders for them (8.2.4)."""
    cards_used: frozenset[str] = frozenset()
    challengeable: int | None = None
    """Index of the deployment a Loyalty Challenge may still answer (C7)."""
    finished: tuple[Side, ...] = ()
    ended: CombatEnded | None = None
    losses_taken: tuple[BlocksLost, ...] = ()
    instant_victory: Side | None = None
    replenished: Tally | None = None

    @property
    def kind(self) -> CombatKind:
        return self.setup.kind

    def is_deployed(self, block: str) -> bool:
        return block in self.allegiance

    def defected_from(self, side: Side) -> list[str]:
        """``side``'s blocks now fighting for the opponent (8.6.1), in deployment order."""
        return [
            b
            for d in self.deployments
            if d.defected and d.side is side
            for b in d.blocks
        ]

    def lost_by(self, side: Side) -> tuple[str, ...] | None:
        for event in self.losses_taken:
            if event.side is side:
                return event.units
        return None


def evolve(state: CombatState, event: CombatEvent) -> CombatState:
    """Apply one event. Events are facts already checked by the rules: nothing is validated here."""
    changes: dict[str, object] = {"log": (*state.log, event)}
    if isinstance(event, BlockDeployed):
        changes.update(_deployed(state, event))
    elif isinstance(event, LoyaltyChallenged):
        changes["cards_played"] = state.cards_played.add(event.challenger, 1)
        if event.card_id is not None:
            changes["cards_used"] = state.cards_used | {event.card_id}
        changes["challengeable"] = None
        changes["deployments"] = _replace(state, event.deployment, challenged=True)
    elif isinstance(event, BlocksDefected):
        changes["deployments"] = _replace(state, event.deployment, defected=True)
        changes["allegiance"] = {
            **state.allegiance,
            **{b: event.to_side for b in event.blocks},
        }
        changes["impact"] = event.impact
    elif isinstance(event, SideFinished):
        changes["finished"] = (*state.finished, event.side)
        changes["challengeable"] = None
    elif isinstance(event, CombatEnded):
        changes["ended"] = event
        changes["challengeable"] = None
    elif isinstance(event, BlocksLost):
        changes["losses_taken"] = (*state.losses_taken, event)
    elif isinstance(event, InstantVictory):
        changes["instant_victory"] = event.winner
    elif isinstance(event, CardsReplenished):
        changes["replenished"] = event.draws
    else:
        assert isinstance(event, CombatStarted | InitiativePassed | ChallengeRefuted)
    return state.model_copy(update=changes)


def replay(setup: CombatSetup, events: Iterable[CombatEvent]) -> CombatState:
    """Rebuild a combat's state from its setup and events."""
    state = CombatState(setup=setup)
    for event in events:
        state = evolve(state, event)
    return state


def _deployed(state: CombatState, event: BlockDeployed) -> dict[str, object]:
    changes: dict[str, object] = {
        "allegiance": {**state.allegiance, event.block: event.side},
        "impact": state.impact.add(event.side, event.impact.total),
    }
    if event.card is not None:
        changes["carded"] = state.carded | {event.side}
        if event.card.card_id is not None:
            changes["cards_used"] = state.cards_used | {event.card.card_id}
    if event.deployment < len(state.deployments):
        last = state.deployments[event.deployment]
        changes["deployments"] = (
            *state.deployments[: event.deployment],
            last.model_copy(
                update={
                    "blocks": (*last.blocks, event.block),
                    "impacts": (*last.impacts, event.impact),
                }
            ),
        )
    else:
        if event.card is not None:
            changes["cards_played"] = state.cards_played.add(event.side, 1)
        changes["deployments"] = (
            *state.deployments,
            Deployment(
                side=event.side,
                card=event.card,
                blocks=(event.block,),
                impacts=(event.impact,),
            ),
        )
    challengeable = event.card is not None and state.kind is CombatKind.BATTLE
    changes["challengeable"] = event.deployment if challengeable else None
    return changes


def _replace(state: CombatState, index: int, **update: object) -> tuple[Deployment, ...]:
    deployments = list(state.deployments)
    deployments[index] = deployments[index].model_copy(update=update)
    return tuple(deployments)
