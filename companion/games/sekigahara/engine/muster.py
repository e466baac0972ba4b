"""Mustering (7.2): blocks from the Recruitment Box onto recruitment locations."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import units_count
from companion.games.sekigahara.engine.commands import Muster
from companion.games.sekigahara.engine.data import BOARD, FACES, side_of
from companion.games.sekigahara.engine.flow import Emitter, reject
from companion.games.sekigahara.engine.movement_phase import require_bought
from companion.games.sekigahara.engine.overrun import resolve_overruns
from companion.games.sekigahara.engine.state import RECRUITMENT, Level, Phase, State


def may_muster(state: State, side: Side) -> str | None:
    """Why ``side`` cannot muster now (the rule), or None if it can (7.1, 7.2)."""
    if state.phase is not Phase.MOVEMENT or state.active is not side or state.level is None:
        return "7.1"
    if state.level is Level.NONE or state.mustered:
        return "7.2" if state.mustered else "7.1"
    if state.level is not Level.TOTAL and state.moves_left < 1:
        return "7.1"
    return None


def muster_locations(state: State, side: Side, blocks: tuple[str, ...], option: str) -> list[str]:
    """Where these blocks may muster (7.2): option A to a location with their daimyo's mon,
    option B (one block) to any friendly recruitment location; into a combat only in support of
    friendly units there, a disk included (C14)."""
    clans = {FACES[b].clan for b in blocks}
    found = []
    for loc in BOARD.locations.values():
        if option == "A":
            if len(clans) != 1 or next(iter(clans)) not in loc.recruitment:
                continue
        elif len(blocks) != 1 or not any(c.side is side for c in loc.recruitment):
            continue
        if units_count(state, loc.id, side.opponent) and not units_count(state, loc.id, side):
            continue
        found.append(loc.id)
    return found


def muster(state: State, cmd: Muster) -> list[ev.Event]:
    """7.2: place Recruitment Box blocks on a recruitment location (once per turn); onto a
    Resource Location, they take control of it (4.2, C16)."""
    require_bought(state)
    why = may_muster(state, cmd.side)
    if why is not None:
        raise reject(why, "no Mustering is allowed now (7.1: it takes a stack move's place)")
    if not cmd.blocks or len(set(cmd.blocks)) != len(cmd.blocks):
        raise reject("7.2", "a muster places at least one block")
    bad = [
        b for b in cmd.blocks
        if b not in FACES or side_of(b) is not cmd.side or state.pos[b] != RECRUITMENT
    ]
    if bad:
        raise reject(
            "7.2", f"{len(bad)} of these blocks are not in the {cmd.side.value} Recruitment Box",
            private=f"not in the box: {', '.join(bad)}",
        )
    if cmd.location not in BOARD.locations:
        raise reject("7.2", f"{cmd.location!r} is not a location")
    if cmd.option == "B" and len(cmd.blocks) != 1:
        raise reject("7.2", "option B musters a single block")
    if cmd.location not in muster_locations(state, cmd.side, cmd.blocks, cmd.option):
        enemy = units_count(state, cmd.location, cmd.side.opponent)
        if enemy and not units_count(state, cmd.location, cmd.side):
            raise reject("7.2", "an attack cannot come from the Recruitment Box: muster into a "
                         "combat only in support of units already there")
        raise reject(
            "7.2", f"these blocks cannot muster at {cmd.location} with option {cmd.option}",
            private="option A needs blocks of one daimyo and that daimyo's mon at the location",
        )
    em = Emitter(state)
    em.emit(ev.Mustered(side=cmd.side, location=cmd.location, blocks=cmd.blocks,
                        option=cmd.option))
    if BOARD.locations[cmd.location].resource and (
        em.state.resource_control.get(cmd.location) is not cmd.side
    ):  # C16: a mustered block is moved onto the location (4.2)
        em.emit(ev.ResourceControlled(location=cmd.location, side=cmd.side))
    resolve_overruns(em, [cmd.location], cmd.side)
    return em.events
