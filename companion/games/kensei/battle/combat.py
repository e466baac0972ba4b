"""Melee and shooting in the battle (B5, B6, B7): the players give the calculator's input
(calculator-format.md) for the fight just declared, naming each troop; the engine fills in
what the state knows, refuses what contradicts it, rules with the calculator and applies the
ruling to both troops."""

from __future__ import annotations

from typing import Any

from companion.core.rules import RuleViolation
from companion.games.kensei.battle.commands import MarkerName, Melee, Shoot, Side
from companion.games.kensei.battle.events import MeleeFought, ShotFired, TroopChange
from companion.games.kensei.battle.state import SIDES, Activation, State, Troop
from companion.games.kensei.battle.troops import leader_of, name, profile, single
from companion.games.kensei.calculator import adjudicate
from companion.games.kensei.errors import KenseiError

RULE = "B7"
EXTRA_WOUND = ("hold", "stay", "extra_wound")


def _troop(state: State, side: dict[str, Any], where: str, owner: Side | None) -> Troop:
    tid = side.pop("troop", None)
    troop = state.troops.get(tid) if isinstance(tid, str) else None
    if troop is None or not troop.alive or troop.inside is not None or (
            owner is not None and troop.side != owner):
        army = f" of {state.army(owner).list.name}" if owner else ""
        raise RuleViolation(RULE, f"{where}.troop: name a troop{army} on the table")
    return troop


def _fill(data: dict[str, Any], known: dict[str, Any], where: str) -> None:
    """Add what the state knows; refuse a given value that contradicts it, naming the key."""
    for key, value in known.items():
        if key in data and data[key] != value:
            raise RuleViolation(RULE, f"{where}.{key}: the battle has {value!r}, not "
                                      f"{data[key]!r}")
        data[key] = value


def _rule(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    try:
        return adjudicate("melee" if kind == "melee" else "shoot", data)
    except KenseiError as exc:
        raise RuleViolation(exc.rule or RULE, exc.message) from exc


def _leader(state: State, troop: Troop, given: Any, where: str, defaults: dict[str, Any],
            known: dict[str, Any]) -> dict[str, Any] | None:
    leader = leader_of(state, troop)
    if leader is None:
        if given is not None:
            raise RuleViolation(RULE, f"{where}.leader: {name(state, troop)} has no living "
                                      "leader")
        return None
    data = dict(defaults) | (dict(given) if isinstance(given, dict) else {})
    _fill(data, known | {"class": profile(state, leader).cls}, f"{where}.leader")
    return data


def _common(state: State, troop: Troop) -> dict[str, Any]:
    p = profile(state, troop)
    return {"class": p.cls, "hr": p.hr, "single": single(state, troop), "trait": p.trait,
            "mounted": p.mounted, "armour": p.armour == "samurai",
            "dishonoured": troop.dishonoured,
            "general_dead": bool(state.general_dead.get(troop.side)),
            "wound_markers": troop.wound_markers}


def _in_play(state: State, troops: list[Troop]) -> None:
    act = state.activation
    if state.phase != "activation" or act is None:
        raise RuleViolation(RULE, "combats are fought during an activation")
    if not any(t.id in act.ordered for t in troops):
        raise RuleViolation("B3.3 USO DE LAS ÓRDENES", "declare the combat order first")


def _duel_rules(state: State, fighting: set[str]) -> None:
    """B9.4: a challenge is answered before any fight; a declined duel is not fought."""
    act = state.activation
    challenge = act.challenge if act is not None else None
    if challenge is None:
        return
    if challenge.accepted is None:
        raise RuleViolation("B9.4 DUELOS DE HONOR", "the challenge is answered first")
    sides = {challenge.challenger, challenge.challenged, *challenge.units}
    if challenge.accepted is False and len(fighting & sides) == 2:
        raise RuleViolation("B9.4 DUELOS DE HONOR", "the duel was declined: no fight")


UNRULED_WEAPONS = frozenset({6, 7})
"""Weapon types the calculator does not rule on (B19.4: garbled in the rulebook). A troop
armed with one fights with the type its players agree to read it as, given in the input;
otherwise the calculator refuses the melee with ARMAS DE COMBATE CUERPO A CUERPO."""


def melee(state: State, cmd: Melee) -> MeleeFought:
    """COMBATE CUERPO A CUERPO (B5) and its resolution (B7)."""
    data = dict(cmd.input)
    troops: dict[Side, Troop] = {}
    for s in SIDES:
        if not isinstance(data.get(s), dict):
            raise RuleViolation(RULE, f"{s}: give side {s}'s part of the combat")
        side = dict(data[s])
        troop = troops[s] = _troop(state, side, s, s)
        p = profile(state, troop)
        if p.weapon is None:
            raise RuleViolation(RULE, f"{s}.weapon: {name(state, troop)} has no melee weapon")
        known = _common(state, troop) | {
            "at": p.at, "ho": p.ho, "models": troop.models, "weapon": p.weapon,
            "skirmishers": p.troop_type == "skirmishers", "stunned": troop.stunned,
            "used": troop.used, "retreat_marker": troop.retreat, "parapeted": troop.parapeted,
        }
        if p.weapon in UNRULED_WEAPONS and "weapon" in side:
            del known["weapon"]  # the players' reading of a garbled type stands (B19.4)
        _fill(side, known, s)
        leader = leader_of(state, troop)
        lead = _leader(state, troop, side.get("leader"), s,
                       {"contact": "none", "in_front": True}, {} if leader is None else {
                           "at": profile(state, leader).at, "ho": profile(state, leader).ho,
                           "hr": profile(state, leader).hr, "wounds": leader.wound_markers,
                           "general": leader.general})
        if lead is not None:
            side["leader"] = lead
        data[s] = side
    _in_play(state, list(troops.values()))
    _duel_rules(state, {t.id for t in troops.values()})
    _fill(data, {"turn_initiative": state.initiative}, "input")
    ruling = _rule("melee", data)
    changes = tuple(_change(state, troops[s], ruling[s]["taken"], ruling[s]["honour"],
                            ruling[s]["villager_extra"]) for s in SIDES)
    return MeleeFought(troops={s: troops[s].id for s in SIDES}, input=data, ruling=ruling,
                       changes=changes, general_killed=_generals(state, changes))


def shoot(state: State, cmd: Shoot) -> ShotFired:
    """DISPARAR (B6) and its resolution (B7)."""
    data = dict(cmd.input)
    for key in ("shooter", "target"):
        if not isinstance(data.get(key), dict):
            raise RuleViolation(RULE, f"{key}: give the {key}")
    sh, tg = dict(data["shooter"]), dict(data["target"])
    shooter = _troop(state, sh, "shooter", None)
    target = _troop(state, tg, "target", "b" if shooter.side == "a" else "a")
    p, q = profile(state, shooter), profile(state, target)
    if p.ranged is None:
        raise RuleViolation("B4 DISPARAR", f"{name(state, shooter)} has no ranged weapon")
    _fill(sh, {"class": p.cls, "at": p.at_ranged, "single": single(state, shooter),
               "weapon": p.ranged, "unloaded": shooter.unloaded,
               "parapeted": shooter.parapeted}, "shooter")
    leader = leader_of(state, shooter)
    lead = _leader(state, shooter, sh.get("leader"), "shooter", {"los": True}, {} if (
        leader is None) else {"at": profile(state, leader).at_ranged})
    if lead is not None:
        sh["leader"] = lead
    _fill(tg, _common(state, target) | {
        "ho": q.ho, "models": target.models, "parapeted": target.parapeted, "ran": target.ran,
    }, "target")
    tleader = leader_of(state, target)
    tlead = _leader(state, target, tg.get("leader"), "target",
                    {"in_front": True, "affected": False}, {} if tleader is None else {
                        "ho": profile(state, tleader).ho, "hr": profile(state, tleader).hr,
                        "wounds": tleader.wound_markers, "general": tleader.general})
    if tlead is not None:
        tg["leader"] = tlead
    tg.setdefault("visible", target.models)
    data["shooter"], data["target"] = sh, tg
    _in_play(state, [shooter])
    ruling = _rule("shoot", data)
    changes: list[TroopChange] = []
    if not ruling.get("out_of_range"):
        changes.append(_change(state, target, ruling["taken"], ruling["honour"], 0))
    if ruling.get("unloaded_after"):
        changes.append(TroopChange(troop=shooter.id, models_after=shooter.models,
                                   wound_markers_after=shooter.wound_markers,
                                   stunned_after=shooter.stunned, unloaded=True))
    return ShotFired(shooter=shooter.id, target=target.id, input=data, ruling=ruling,
                     changes=tuple(changes), general_killed=_generals(state, tuple(changes)))


def _change(state: State, troop: Troop, taken: dict[str, Any], honour: dict[str, Any] | None,
            villager_extra: int) -> TroopChange:
    """What the ruling does to one troop: casualties, wound and Stunned markers, the leader's
    wounds, the honour roll's markers and extra wound (B7)."""
    hr = profile(state, troop).hr
    casualties = taken["casualties"] + villager_extra
    wounds = taken["wound_markers_after"]
    markers: tuple[MarkerName, ...] = ()
    if honour is not None:
        casualties += honour["extra_casualties"]
        if honour["outcome"] in EXTRA_WOUND:
            wounds = wounds + 1 - honour["extra_casualties"] * hr
        markers = tuple(honour["markers"])
    left = max(troop.models - casualties, 0)
    leader = leader_of(state, troop)
    killed = bool(taken.get("leader_killed"))
    return TroopChange(
        troop=troop.id, casualties=troop.models - left, models_after=left,
        wound_markers_after=wounds if left else 0,
        stunned_after=taken.get("stunned_after", troop.stunned),
        leader=leader.id if leader else None,
        leader_wounds_after=taken.get("leader_wounds_after", 0) if leader else 0,
        leader_killed=killed and leader is not None, markers=markers,
        wiped_out=left == 0 and (leader is None or killed))


def _generals(state: State, changes: tuple[TroopChange, ...]) -> tuple[Side, ...]:
    """MUERTE DEL GENERAL (B2.7): the sides whose general fell in this fight."""
    dead: list[Side] = []
    for c in changes:
        troop = state.troops[c.troop]
        if (troop.general and c.models_after == 0) or (
                c.leader_killed and c.leader and state.troops[c.leader].general):
            dead.append(troop.side)
    return tuple(dead)


def apply(state: State, event: object) -> State | None:
    if not isinstance(event, MeleeFought | ShotFired):
        return None
    troops = dict(state.troops)
    for c in event.changes:
        update: dict[str, object] = {
            "models": c.models_after, "wound_markers": c.wound_markers_after,
            "stunned": c.stunned_after, **{m: True for m in c.markers}}
        if c.unloaded:
            update["unloaded"] = True
        if c.models_after == 0:
            update |= {"removed": True, "leader": None}
        if c.leader is not None:
            lead = troops[c.leader]
            if c.leader_killed:
                troops[c.leader] = lead.model_copy(update={
                    "models": 0, "removed": True, "wound_markers": 0, "inside": None})
                update["leader"] = None
            else:
                troops[c.leader] = lead.model_copy(update={
                    "wound_markers": c.leader_wounds_after,
                    "inside": None if c.models_after == 0 else lead.inside})
        troops[c.troop] = troops[c.troop].model_copy(update=update)
    dead = dict(state.general_dead)
    for side in event.general_killed:
        dead[side] = True
    return state.model_copy(update={"troops": troops, "general_dead": dead,
                                    "activation": _orders_lost(state, event)})


def _orders_lost(state: State, event: MeleeFought | ShotFired) -> Activation | None:
    """A troop that falls back, retreats or is destroyed loses its orders (B7)."""
    act = state.activation
    if act is None:
        return None
    left = dict(act.left)
    for c in event.changes:
        side = state.troops[c.troop].side
        if act.troops.get(side) == c.troop and ("used" in c.markers or c.models_after == 0):
            left[side] = 0
    return act.model_copy(update={"left": left})
