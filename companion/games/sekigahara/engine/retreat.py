"""Retreats (8.8.1-8.8.5): where the loser may go, the castle harbour, and what a retreat
sets off."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import entry_key
from companion.games.sekigahara.engine.castles import (
    blocks_at,
    castle_owner,
    contested,
    units_count,
)
from companion.games.sekigahara.engine.combat_phase import open_combat, replenish
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.flow import Emitter, reject
from companion.games.sekigahara.engine.overrun import resolve_overruns
from companion.games.sekigahara.engine.state import Stage, State


def retreat_options(state: State) -> tuple[list[str], bool]:
    """The legal retreat destinations (8.8.1-8.8.3) and whether up to two blocks may stay in
    the castle (8.8.4)."""
    p = state.pending
    if p is None or p.stage is not Stage.RETREAT or p.retreating is None:
        return [], False
    loser, loc = p.retreating, p.location
    around = BOARD.neighbours(loc)
    if loser is p.attacker:  # 8.8.2
        entries = [n for n in around if n in state.entered_from.get(entry_key(loser, loc), ())]
        destinations = entries or around
    else:  # 8.8.3
        enemy = loser.opponent
        came = state.entered_from.get(entry_key(enemy, loc), set())
        clear = [n for n in around if not units_count(state, n, enemy) and n not in came]
        destinations = clear or around
    castle = BOARD.locations[loc].castle is not None and p.owner is loser
    return sorted(destinations), castle


def retreat(state: State, cmd: cm.Retreat) -> list[ev.Event]:
    """8.8: the loser retreats its remaining force to one adjacent location (up to two blocks
    may stay in the castle, 8.8.4); then 8.10, then any Overrun or battle it causes (8.8.5).
    Into a location where opposing units already stand the retreaters join them, whether or
    not combat there was already resolved this phase (C15)."""
    p = state.pending
    assert p is not None and p.stage is Stage.RETREAT  # the dispatch's step (8.8.1)
    if cmd.side is not p.retreating:
        raise reject("8.8.1", "only the loser of the battle retreats")
    remaining = blocks_at(state, p.location, cmd.side)
    destinations, castle = retreat_options(state)
    if cmd.into_castle:
        if not castle:
            raise reject("8.8.4", "the castle harbours only the side that held it before combat")
        if len(cmd.into_castle) > 2 or len(set(cmd.into_castle)) != len(cmd.into_castle):
            raise reject("8.8.4", "at most two blocks may stay in the castle")
        if any(b not in remaining for b in cmd.into_castle):
            raise reject("8.8.4", "only the retreating blocks may stay in the castle")
    rest = [b for b in remaining if b not in cmd.into_castle]
    if rest and cmd.destination not in destinations:
        rule = "8.8.2" if cmd.side is p.attacker else "8.8.3"
        raise reject(rule, f"{cmd.destination} is not a legal retreat destination; legal: "
                     + ", ".join(destinations))
    destination = cmd.destination if rest else None
    joins = destination is not None and _joins_besieged(state, destination, cmd.side)
    fighting = set(contested(state))
    em = Emitter(state)
    em.emit(ev.Retreated(side=cmd.side, origin=p.location, destination=destination,
                         blocks=tuple(remaining), into_castle=cmd.into_castle,
                         join_castle=joins))
    if destination is not None and BOARD.locations[destination].resource and (
        em.state.resource_control.get(destination) is not cmd.side
    ):
        em.emit(ev.ResourceControlled(location=destination, side=cmd.side))
    replenish(em, p.draws)
    if destination is None:
        return em.events
    resolve_overruns(em, [destination], cmd.side)
    if em.over or destination not in contested(em.state) or joins:
        return em.events
    if destination in fighting:
        # 8.8.5: joins the forces in conflict there; where combat was already resolved this
        # phase (a siege whose sides co-exist), no second combat opens until the next Combat
        # Phase (8.1, 8.9.4 E, C15)
        return em.events
    open_combat(em, destination, cmd.side, from_retreat=True)
    return em.events


def _joins_besieged(state: State, location: str, side: Side) -> bool:
    return castle_owner(state, location) is side and any(
        state.pos[b] == location for b in state.inside
    ) and units_count(state, location, side.opponent) > 0
