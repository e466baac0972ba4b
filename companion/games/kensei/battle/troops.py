"""What the engine reads off a troop: its profile, the leader leading it, INI and HO as the
order and honour rolls use them (B2.7, B3.3, TIRADA DE HONOR)."""

from __future__ import annotations

from companion.games.kensei.battle.state import State, Troop
from companion.games.kensei.profiles import Profile

Item = tuple[str, int, str]
"""A roll's term: id, value, the heading it comes from."""


def profile(state: State, troop: Troop) -> Profile:
    return state.army(troop.side).profiles[troop.profile]


def name(state: State, troop: Troop) -> str:
    """The troop as players call it: its profile's name, with its list position when the
    army has two troops of that profile."""
    same = [t for t in state.side_troops(troop.side) if t.profile == troop.profile]
    base = profile(state, troop).name
    return base if len(same) == 1 else f"{base} ({troop.entry})"


def leader_of(state: State, troop: Troop) -> Troop | None:
    """The living unit leader inside ``troop`` (B2.7), taken to be in the front: whether he is
    is the players' to say, and they say it in the combat input."""
    if troop.leader is None:
        return None
    leader = state.troops[troop.leader]
    return leader if leader.alive and leader.inside == troop.id else None


def single(state: State, troop: Troop) -> bool:
    """A one-model troop outside any unit (an unattached leader, a unique troop)."""
    return troop.models_start == 1


def ini_items(state: State, troop: Troop) -> list[Item]:
    """The order roll's INI terms (TIRADA DE ÓRDENES, B3.3 step 2)."""
    leader = leader_of(state, troop)
    base = profile(state, leader if leader is not None else troop).ini
    items = [("leader_ini" if leader else "base_ini", base,
              "LÍDER DE UNIDAD" if leader else "TIRADA DE ÓRDENES")]
    if troop.dishonoured:
        items.append(("dishonoured", -1, "HUIR"))
    if state.general_dead.get(troop.side):
        items.append(("general_dead", -1, "MUERTE DEL GENERAL"))
    if troop.banner and troop.alive:
        items.append(("banner", 1, "HATA-JURUSHI"))
    return items


def honour_target(state: State, troop: Troop, in_melee: bool) -> tuple[int, list[Item]]:
    """TIRADA DE HONOR for a Retreat marker (B3.1 step 3): HO (the leader's while he leads),
    −1 dishonoured, −1 general dead, −1 in melee."""
    leader = leader_of(state, troop)
    items = [("base_ho", profile(state, leader if leader is not None else troop).ho,
              "TIRADA DE HONOR")]
    if troop.dishonoured:
        items.append(("dishonoured", -1, "HUIR"))
    if state.general_dead.get(troop.side):
        items.append(("general_dead", -1, "MUERTE DEL GENERAL"))
    if in_melee:
        items.append(("in_melee", -1, "FASE DE MANTENIMIENTO"))
    return sum(v for _, v, _ in items), items


def with_inside(state: State, troop: Troop) -> list[Troop]:
    """The troop and the leaders deployed inside it."""
    return [troop, *(t for t in state.troops.values() if t.inside == troop.id)]


def eligible(state: State, troop: Troop) -> bool:
    """May be named for an activation (B3.3 step 1): alive, on the table (or coming out of
    the reserve from turn 2), not Used, not inside a unit."""
    on_table = troop.deployed or (troop.held_back and state.turn >= 2)
    return troop.alive and on_table and not troop.used and troop.inside is None
