"""Maintenance upkeep and the reserve (B3.1 step 5, B9.3, B12).

- *Regeneración* (B9.3 TRATOS, No muertos): in maintenance, 1D6 for each undead unit that lost
  models the turn before; a 6 brings one casualty back, wound markers stay, and a unit leader
  comes back with one wound left. The maintenance does not close while one is owed.
- *Prácticas clandestinas* (B12, Hattori): the unit kept off the table enters at the start of
  turn 2 from the table edge its player chooses (``enter``); the maintenance of turn 2 waits for
  it, and the unit then activates normally, with its order roll.
- *Desde las profundidades* (B12, Kuroi-te): from turn 2 the hidden unit rises when active
  troops are named (``activate``): it is its side's troop of the pair, takes no orders that
  turn and is Used at once.
"""

from __future__ import annotations

from companion.core.events import Event
from companion.core.rules import RuleViolation
from companion.games.kensei.battle import turn
from companion.games.kensei.battle.commands import Activate, EnterReserve, Regeneration
from companion.games.kensei.battle.events import (
    MeleeFought,
    Regenerated,
    ReserveEntered,
    ShotFired,
    TroopEmerged,
    TurnBegun,
)
from companion.games.kensei.battle.state import State, Troop
from companion.games.kensei.battle.troops import name, profile, with_inside

REGENERATION = "B9.3 TRATOS"
CLANDESTINE = "B12 Prácticas clandestinas"
DEPTHS = "B12 Desde las profundidades"


def regeneration_due(state: State) -> list[str]:
    """The undead units still owed their regeneration roll this maintenance."""
    if state.phase != "maintenance":
        return []
    return [tid for tid in state.regeneration if state.troops[tid].alive]


def entry_due(state: State) -> list[str]:
    """The Hattori units waiting to enter at the start of turn 2."""
    if state.phase != "maintenance" or state.turn < 2:
        return []
    return [t.id for t in state.troops.values() if t.held_back and t.inside is None
            and state.army(t.side).list.clan == "hattori"]


def regeneration(state: State, cmd: Regeneration) -> Regenerated:
    """*Regeneración*: a 6 brings back one model lost last turn (``leader``: the unit leader,
    with one wound left)."""
    if state.phase != "maintenance":
        raise RuleViolation(REGENERATION, "regeneration is rolled in maintenance")
    troop = state.troops.get(cmd.troop)
    if troop is None or cmd.troop not in regeneration_due(state):
        raise RuleViolation(REGENERATION, "only an undead unit that lost models last turn "
                                          "rolls to regenerate, once")
    if troop.side not in state.drawn or any(t.alive and t.retreat
                                             for t in state.troops.values()):
        raise RuleViolation(turn.MAINTENANCE, "command cards and retreat rolls come first")
    leader = state.regeneration[troop.id]
    if cmd.leader and (leader is None or troop.leader is not None):
        raise RuleViolation(REGENERATION, f"{name(state, troop)} lost no leader last turn, "
                                          "or has one again")
    if not cmd.leader and troop.models >= troop.models_start:
        raise RuleViolation(REGENERATION, f"{name(state, troop)} has all its models: only "
                                          "its leader can come back")
    returned = cmd.die == 6
    wounds = profile(state, state.troops[leader]).hr - 1 if cmd.leader and leader else 0
    return Regenerated(troop=troop.id, die=cmd.die, returned=returned,
                       leader=leader if cmd.leader else None,
                       leader_wounds=wounds if returned else 0)


def enter(state: State, cmd: EnterReserve) -> ReserveEntered:
    """*Prácticas clandestinas*: the unit enters from a table edge at the start of turn 2."""
    troop = state.troops.get(cmd.troop)
    if troop is None or troop.side != cmd.side or troop.id not in entry_due(state):
        raise RuleViolation(CLANDESTINE, "the Hattori unit kept off the table enters at the "
                                         "start of turn 2")
    return ReserveEntered(side=cmd.side, troop=troop.id, edge=cmd.edge,
                          troops=tuple(t.id for t in with_inside(state, troop)))


def activate(state: State, cmd: Activate) -> list[Event]:
    """An activation; a hidden Kuroi-te unit rises from the ground with it."""
    activated = turn.activate(state, cmd)
    troop = state.troops[activated.troop]
    if not (troop.held_back and state.army(troop.side).list.clan == "kuroi-te"):
        return [activated]
    return [activated, TroopEmerged(side=troop.side, troop=troop.id,
                                    troops=tuple(t.id for t in with_inside(state, troop)))]


def waiting(state: State) -> bool:
    """The maintenance waits for a regeneration roll or a Hattori entry."""
    return bool(regeneration_due(state) or entry_due(state))


def _lost(before: State, after: State, event: MeleeFought | ShotFired) -> State:
    losses, fallen = dict(before.losses), dict(before.fallen_leaders)
    for c in event.changes:
        lost = before.troops[c.troop].models - c.models_after
        if lost > 0:
            losses[c.troop] = losses.get(c.troop, 0) + lost
        if c.leader_killed and c.leader is not None:
            fallen[c.troop] = c.leader
    return after.model_copy(update={"losses": losses, "fallen_leaders": fallen})


def _undead_unit(state: State, troop: Troop) -> bool:
    return troop.alive and troop.models_start > 1 and profile(state, troop).trait == "undead"


def track(before: State, after: State, event: Event) -> State:
    """Count the turn's losses; a new turn owes the undead units that lost any their roll."""
    if isinstance(event, MeleeFought | ShotFired):
        return _lost(before, after, event)
    if isinstance(event, TurnBegun):
        due = {tid: before.fallen_leaders.get(tid) for tid, t in after.troops.items()
               if _undead_unit(after, t)
               and (before.losses.get(tid) or tid in before.fallen_leaders)}
        return after.model_copy(update={"losses": {}, "fallen_leaders": {},
                                        "regeneration": due})
    return after


def apply(state: State, event: object) -> State | None:
    if isinstance(event, Regenerated):
        troops = dict(state.troops)
        due = {k: v for k, v in state.regeneration.items() if k != event.troop}
        if event.returned and event.leader is not None:
            troops[event.leader] = troops[event.leader].model_copy(update={
                "models": 1, "removed": False, "inside": event.troop,
                "wound_markers": event.leader_wounds})
            troops[event.troop] = troops[event.troop].model_copy(
                update={"leader": event.leader})
        elif event.returned:
            unit = troops[event.troop]
            troops[event.troop] = unit.model_copy(update={"models": unit.models + 1})
        return state.model_copy(update={"troops": troops, "regeneration": due})
    if isinstance(event, ReserveEntered):
        troops = dict(state.troops)
        for tid in event.troops:
            troops[tid] = troops[tid].model_copy(update={"held_back": False, "deployed": True})
        return state.model_copy(update={"troops": troops})
    if isinstance(event, TroopEmerged):
        troops = dict(state.troops)
        for tid in event.troops:
            troops[tid] = troops[tid].model_copy(update={
                "held_back": False, "deployed": True, "used": True, "emerged": state.turn})
        act = state.activation
        assert act is not None
        act = act.model_copy(update={"orders": {**act.orders, event.side: 0},
                                     "left": {**act.left, event.side: 0},
                                     "ki": {**act.ki, event.side: False}})
        return state.model_copy(update={"troops": troops, "activation": act})
    return None
