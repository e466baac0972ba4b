"""Honour duels (B9.4 DUELOS DE HONOR): the answer to a *Retar a duelo* order.

Accepted, both leaders leave their units and fight each other alone: the ``melee`` command
with the two leaders as the troops (single models, their own equipment); nobody else joins
in, and the challenged unit counts as having used its combat order. Declined, there is no
fight: the leader, and his unit if he leads one, are Dishonoured for the rest of the battle,
Used, and lose their orders; the challenger goes on with its orders but declares no other
action combat order."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.kensei.battle.commands import DuelAnswer
from companion.games.kensei.battle.events import DuelAnswered
from companion.games.kensei.battle.state import State, other
from companion.games.kensei.battle.troops import with_inside

DUEL = "B9.4 DUELOS DE HONOR"


def pending(state: State) -> bool:
    """A challenge waits for its answer."""
    act = state.activation
    return act is not None and act.challenge is not None and act.challenge.accepted is None


def answer(state: State, cmd: DuelAnswer) -> DuelAnswered:
    """The challenged player accepts or declines (B9.4)."""
    act = state.activation
    if act is None or act.challenge is None or act.challenge.accepted is not None:
        raise RuleViolation(DUEL, "no challenge waits for an answer")
    challenge = act.challenge
    if cmd.side == challenge.side:
        raise RuleViolation(DUEL, "the challenged player answers the challenge")
    dishonoured: tuple[str, ...] = ()
    if not cmd.accept:
        leader = state.troops[challenge.challenged]
        unit = state.troops.get(leader.inside or "")
        troops = with_inside(state, unit) if unit is not None else [leader]
        dishonoured = tuple(t.id for t in troops if t.alive)
    return DuelAnswered(side=cmd.side, accept=cmd.accept, challenger=challenge.challenger,
                        challenged=challenge.challenged, dishonoured=dishonoured)


def apply(state: State, event: object) -> State | None:
    if not isinstance(event, DuelAnswered):
        return None
    act = state.activation
    assert act is not None and act.challenge is not None
    troops = dict(state.troops)
    left, ordered = dict(act.left), act.ordered
    combat = dict(act.combat_order)
    if event.accept:
        for tid in (event.challenger, event.challenged):
            leader = troops[tid]
            if leader.inside is not None:
                troops[leader.inside] = troops[leader.inside].model_copy(update={"leader": None})
                troops[tid] = leader.model_copy(update={"inside": None})
            if tid not in ordered:
                ordered = (*ordered, tid)
        combat[event.side] = True
    else:
        for tid in event.dishonoured:
            troops[tid] = troops[tid].model_copy(update={"dishonoured": True, "used": True})
            if act.troops.get(event.side) == tid:
                left[event.side] = 0
        combat[other(event.side)] = True
    challenge = act.challenge.model_copy(update={"accepted": event.accept})
    act = act.model_copy(update={"challenge": challenge, "left": left, "ordered": ordered,
                                 "combat_order": combat})
    return state.model_copy(update={"troops": troops, "activation": act})
