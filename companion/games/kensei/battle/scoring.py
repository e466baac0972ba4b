"""Victory points (B15). Scenario 1 (*Encuentro y aniquilación*) is scored from the state;
the others, and the secondary missions that need the table, take a ``score`` command.

``score`` inputs (each checked; all counts are whole numbers):

- ``primary``, by scenario:
  2 *Lucha de fronteras*: ``{"a"|"b": {"strips": 0-4, "clear": 0-strips, "deep": bool}}``:
    strips controlled, of them strips with no enemy unit of 3+ models, and 3+ models of a
    unit inside an enemy-controlled strip.
  3 *Romped el frente*: ``{"a"|"b": {"enemy_flags": 0-6, "own_kept": 0-6}}``.
  4 *Vías de suministros*: ``{"destroyed": n, "exited": n, "intact": n}`` wagons (≤ 3 in all).
  5 *Control estratégico*: ``{"a"|"b": {"small": 0-4, "centre": bool, "near_all": bool}}``.
  6 *Defensa de la aldea*: ``{"houses": 5+, "burning": n, "village": "a"|"b"|null}``.
- ``secondary`` for a side whose mission needs the table: die 2 *Espías en la retaguardia*
  ``{"leaders_in_enemy_zone": n}``; 3 *Infiltración de élite* ``{"in_enemy_zone": n,
  "zone_clear": bool}``; 4 *Limpiad el terreno* ``{"enemy_in_half": bool}``. Missions 1, 5
  and 6 are counted from the state.
"""

from __future__ import annotations

from typing import Any

from companion.core.rules import RuleViolation
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.events import BattleScored, ScoreLine
from companion.games.kensei.battle.state import SIDES, State, other
from companion.games.kensei.battle.troops import profile
from companion.games.kensei.battle.turn import points_on_table

RULE = "B15 Misiones"
NEEDS_TABLE = frozenset({2, 3, 4})
"""Secondary missions scored from the players' inputs; 1, 5 and 6 come from the state."""


def _destroyed(state: State, side: Side) -> list[str]:
    """Troops of ``side`` completely destroyed; a leader inside a unit is part of it."""
    return [t.id for t in state.side_troops(side) if not t.alive and not _joined(state, t.id)]


def _joined(state: State, tid: str) -> bool:
    return state.army(state.troops[tid].side).list.entries[state.troops[tid].entry - 1].joins \
        is not None


def primary_1(state: State, side: Side) -> list[ScoreLine]:
    """*Encuentro y aniquilación*: 3 for more army points on the table, +2 per enemy troop
    destroyed, +1 per enemy unit that lost half its starting models or more (leaders not
    counted; a destroyed unit lost more than half)."""
    foe = other(side)
    lines = []
    if points_on_table(state, side) > points_on_table(state, foe):
        lines.append(ScoreLine(id="more_points", vp=3, rule=RULE,
                               detail=f"{points_on_table(state, side)} points on the table "
                                      f"against {points_on_table(state, foe)}"))
    destroyed = _destroyed(state, foe)
    if destroyed:
        lines.append(ScoreLine(id="destroyed", vp=2 * len(destroyed), rule=RULE,
                               detail=f"{len(destroyed)} enemy troops destroyed"))
    halved = [t for t in state.side_troops(foe)
              if t.models_start > 1 and 2 * (t.models_start - max(t.models, 0))
              >= t.models_start]
    if halved:
        lines.append(ScoreLine(id="half_lost", vp=len(halved), rule=RULE,
                               detail=f"{len(halved)} enemy units lost half their models"))
    return lines


def secondary_from_state(state: State, side: Side) -> list[ScoreLine]:
    """Missions 1 *Caza de cabezas*, 5 *Control de bajas*, 6 *Expulsad al enemigo*."""
    die, foe = state.secondary.get(side), other(side)
    if die == 1:
        leaders = [t for t in state.side_troops(foe)
                   if profile(state, t).leader and not t.alive]
        vp = len(leaders) + any(t.general for t in leaders)
        return [ScoreLine(id="head_hunt", vp=vp, rule=RULE,
                          detail=f"{len(leaders)} enemy leaders killed")] if vp else []
    if die == 5:
        units = [t for t in state.side_troops(side) if t.alive and t.models >= 6]
        return [ScoreLine(id="casualty_control", vp=len(units), rule=RULE)] if units else []
    if die == 6:
        gone = [t for t in state.side_troops(foe) if t.models_start > 1
                and (not t.alive or t.retreat)]
        return [ScoreLine(id="drive_out", vp=len(gone), rule=RULE)] if gone else []
    return []


def needs_inputs(state: State) -> bool:
    return state.scenario != 1 or any(state.secondary.get(s) in NEEDS_TABLE for s in SIDES)


def _int(d: Any, key: str, low: int, high: int, where: str) -> int:
    """A count from the inputs; a count not given is 0."""
    value = (d or {}).get(key, 0) if isinstance(d or {}, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RuleViolation(RULE, f"{where}.{key}: a whole number from {low} to {high}")
    return value


def _flag(d: Any, key: str, where: str) -> bool:
    value = (d or {}).get(key, False) if isinstance(d or {}, dict) else None
    if not isinstance(value, bool):
        raise RuleViolation(RULE, f"{where}.{key}: yes or no")
    return value


def _primary(state: State, p: Any) -> dict[Side, list[ScoreLine]]:
    n = state.scenario
    lines: dict[Side, list[ScoreLine]] = {"a": [], "b": []}

    def add(side: Side, key: str, vp: int) -> None:
        if vp:
            lines[side].append(ScoreLine(id=key, vp=vp, rule=RULE))

    if n == 2:
        for s in SIDES:
            strips = _int(p.get(s), "strips", 0, 4, f"primary.{s}")
            add(s, "strips", 2 * strips)
            add(s, "clear_strips", _int(p.get(s), "clear", 0, strips, f"primary.{s}"))
            add(s, "deep_unit", int(_flag(p.get(s), "deep", f"primary.{s}")))
        if sum(_int(p.get(s), "strips", 0, 4, f"primary.{s}") for s in SIDES) > 4:
            raise RuleViolation(RULE, "primary: there are four strips")
    elif n == 3:
        flags = {s: _int(p.get(s), "enemy_flags", 0, 6, f"primary.{s}") for s in SIDES}
        for s in SIDES:
            add(s, "enemy_flags", 2 * flags[s])
            add(s, "more_flags", int(flags[s] > flags[other(s)]))
            add(s, "own_kept", _int(p.get(s), "own_kept", 0, 6, f"primary.{s}"))
    elif n == 4:
        attacker = next(s for s in SIDES if state.roles.get(s) == "attacker")
        wagons = {k: _int(p, k, 0, 3, "primary") for k in ("destroyed", "exited", "intact")}
        if sum(wagons.values()) > 3:
            raise RuleViolation(RULE, "primary: there are three wagons")
        add(attacker, "wagons_destroyed", 2 * wagons["destroyed"])
        add(other(attacker), "wagons_out", 2 * wagons["exited"])
        add(other(attacker), "wagons_intact", wagons["intact"])
    elif n == 5:
        small = {s: _int(p.get(s), "small", 0, 4, f"primary.{s}") for s in SIDES}
        centre = {s: _flag(p.get(s), "centre", f"primary.{s}") for s in SIDES}
        if sum(small.values()) > 4 or all(centre.values()):
            raise RuleViolation(RULE, "primary: four small elements and one centre")
        for s in SIDES:
            add(s, "small_elements", 2 * small[s])
            add(s, "centre", 4 * centre[s])
            add(s, "near_all", int(_flag(p.get(s), "near_all", f"primary.{s}")))
    elif n == 6:
        defender = next(s for s in SIDES if state.roles.get(s) == "defender")
        houses = _int(p, "houses", 5, 20, "primary")
        burning = _int(p, "burning", 0, houses, "primary")
        village = p.get("village")
        if village not in ("a", "b", None):
            raise RuleViolation(RULE, "primary.village: a side, or none")
        add(defender, "no_fire", 4 * (burning == 0))
        add(defender, "unburnt", houses - burning)
        add(other(defender), "burning", 2 * burning)
        if village is not None:
            add(village, "village", 2)
    return lines


def _secondary(state: State, side: Side, d: Any) -> list[ScoreLine]:
    die, where = state.secondary.get(side), f"secondary.{side}"
    vp = 0
    if die == 2:
        vp = _int(d, "leaders_in_enemy_zone", 0, 40, where)
    elif die == 3:
        vp = _int(d, "in_enemy_zone", 0, 40, where) + int(_flag(d, "zone_clear", where))
    elif die == 4:
        vp = int(not _flag(d, "enemy_in_half", where))
    else:
        return secondary_from_state(state, side)
    return [ScoreLine(id=f"secondary_{die}", vp=vp, rule=RULE)] if vp else []


def score(state: State, inputs: dict[str, Any]) -> BattleScored:
    """The battle's victory points and winner: more VP wins, equal is a draw (B15); a side
    that conceded loses."""
    if state.phase != "scoring":
        raise RuleViolation(RULE, "the battle is scored when it ends")
    primary = inputs.get("primary", {})
    secondary = inputs.get("secondary", {})
    if not isinstance(primary, dict) or not isinstance(secondary, dict):
        raise RuleViolation(RULE, "inputs: primary and secondary are tables")
    lines = _primary(state, primary) if state.scenario != 1 else {
        s: primary_1(state, s) for s in SIDES}
    for s in SIDES:
        lines[s] += _secondary(state, s, secondary.get(s, {}))
    vp = {s: sum(line.vp for line in lines[s]) for s in SIDES}
    winner: Side | None = None if vp["a"] == vp["b"] else "a" if vp["a"] > vp["b"] else "b"
    if state.conceded is not None:
        winner = other(state.conceded)
    return BattleScored(scenario=state.scenario or 1, lines={s: tuple(lines[s]) for s in SIDES},
                        vp=vp, winner=winner, inputs=inputs)


def apply(state: State, event: object) -> State | None:
    if isinstance(event, BattleScored):
        return state.model_copy(update={"phase": "over", "vp": event.vp,
                                        "winner": event.winner})
    return None
