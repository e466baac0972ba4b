"""Order legality (B3.3, B4; K4): who may be given which order, at what cost, and the markers
the order puts on or takes off. Every refusal names the order's heading in the rulebook."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.kensei.battle.commands import MarkerName, Order, OrderKind
from companion.games.kensei.battle.events import OrderGiven
from companion.games.kensei.battle.state import Challenge, State, Troop
from companion.games.kensei.battle.troops import leader_of, name, profile

HEADING: dict[OrderKind, str] = {
    "move": "MOVER", "run": "CORRER", "regroup": "REAGRUPAR", "fight": "COMBATIR",
    "charge": "CARGAR", "disengage": "DESTRABAR", "challenge": "RETAR A DUELO",
    "shoot": "DISPARAR", "empower": "POTENCIAR", "reload": "RECARGA",
    "take_cover": "PARAPETAR", "interact": "INTERACTUAR", "flee": "HUIR",
    "fight_reaction": "COMBATIR", "opportunity_charge": "CARGA DE OPORTUNIDAD",
    "stand_and_shoot": "AGUANTAR Y DISPARAR", "leave_unit": "LÍDER DE UNIDAD",
}
REACTIONS: frozenset[OrderKind] = frozenset(
    {"flee", "fight_reaction", "opportunity_charge", "stand_and_shoot"})
COMBAT: frozenset[OrderKind] = frozenset({"fight", "charge", "disengage", "challenge", "shoot"})
"""The action combat orders: one per activation (USO DE LAS ÓRDENES)."""
TWO_ORDERS: frozenset[OrderKind] = frozenset({"run", "empower", "challenge"})
"""Correr spends two orders; Potenciar and Retar a duelo spend two with the attack they come
with (USO DE LAS ÓRDENES)."""
ATTACKS: dict[OrderKind, frozenset[OrderKind]] = {
    "empower": frozenset({"fight", "charge", "shoot"}),
    "challenge": frozenset({"fight", "charge"}),
}
TRAIT_BANS: dict[str, frozenset[OrderKind]] = {
    "undead": frozenset({"run", "flee", "disengage"}),
    "spirit": frozenset({"flee"}),
}
"""TRATOS: the undead cannot be given Correr, Huir or Destrabar; spirits cannot flee."""
SECTION: dict[OrderKind, str] = {"regroup": "B2.7", "leave_unit": "B2.7",
                                 "challenge": "B9.4"}


HEADING_SECTION = {"USO DE LAS ÓRDENES": "B3.3", "TIRADA DE ÓRDENES": "B3.3",
                   "FUERA DE COHERENCIA": "B2.6", "TRATOS": "B9.3", "LÍDER DE UNIDAD": "B2.7",
                   "Desde las profundidades": "B12"}


def refuse(order: OrderKind, message: str, heading: str | None = None) -> RuleViolation:
    """A refusal citing the section and the heading: the order's own unless ``heading``."""
    section = HEADING_SECTION.get(heading or "", SECTION.get(order, "B4"))
    return RuleViolation(f"{section} {heading or HEADING[order]}", message)


def check(state: State, cmd: Order) -> OrderGiven:
    """The order given, or a refusal citing the order's heading (B3.3, B4)."""
    if state.phase != "activation" or state.activation is None:
        raise refuse(cmd.order, "orders are given to an activated troop", "USO DE LAS ÓRDENES")
    act = state.activation
    troop = state.troops.get(cmd.troop)
    if troop is None or troop.side != cmd.side or not troop.alive:
        raise refuse(cmd.order, "give orders to a troop of your own army on the table",
                     "USO DE LAS ÓRDENES")
    me = name(state, troop)
    if set(act.orders) != set(act.troops):
        raise refuse(cmd.order, "both order rolls come first", "TIRADA DE ÓRDENES")
    active = act.troops.get(cmd.side) == troop.id
    left = act.left.get(cmd.side, 0)
    given = act.given.get(cmd.side, ())
    pending = given[-1] if given and given[-1] in ATTACKS and active else None
    sit = cmd.situation
    stunned = sit.stunned or troop.stunned > 0
    trait = profile(state, troop).trait
    if trait in TRAIT_BANS and cmd.order in TRAIT_BANS[trait]:
        raise refuse(cmd.order, f"{me} cannot be given this order ({trait} trait)", "TRATOS")
    if cmd.order == "leave_unit":
        return _leave(state, cmd, troop)
    if troop.inside is not None:
        raise refuse(cmd.order, f"{me} takes orders with its unit", "LÍDER DE UNIDAD")
    if troop.emerged and troop.emerged == state.turn:
        raise refuse(cmd.order, f"{me} rose from the ground this turn: no orders until the "
                                "next", "Desde las profundidades")
    if troop.used and cmd.order != "fight_reaction":
        raise refuse(cmd.order, f"{me} is Used: it can only fight back (Combatir)",
                     "USO DE LAS ÓRDENES")
    if pending is not None and cmd.order not in ATTACKS[pending]:
        raise refuse(pending, f"{HEADING[pending].capitalize()} comes with its attack")
    if cmd.order in REACTIONS:
        cost = 0 if troop.used else min(1, left)
    else:
        if not active:
            raise refuse(cmd.order, f"{me} is not active: it can only react",
                         "USO DE LAS ÓRDENES")
        cost = 0 if pending is not None else 2 if cmd.order in TWO_ORDERS else 1
        if left < cost or (cost == 0 and pending is None):
            raise refuse(cmd.order, f"{me} has no orders left" if left == 0 else
                         f"{me} needs two orders for this", "USO DE LAS ÓRDENES")
    combat = cmd.order in COMBAT or cmd.order == "empower"
    if combat and act.combat_order.get(cmd.side) and pending is None and active:
        raise refuse(cmd.order, "one action combat order per activation", "USO DE LAS ÓRDENES")
    if (sit.out_of_coherence and not sit.in_melee
            and cmd.order not in ("move", "flee", "fight_reaction")):
        raise refuse(cmd.order, f"{me} is out of coherence: only Move or Flee until it is "
                                "coherent again", "FUERA DE COHERENCIA")
    if sit.in_melee and active and not given and not combat and cmd.order not in REACTIONS:
        raise refuse(cmd.order, f"{me} starts in melee: its first order is a combat order",
                     "USO DE LAS ÓRDENES")
    _situation(state, cmd, troop, stunned)
    return OrderGiven(side=cmd.side, troop=troop.id, order=cmd.order, target=cmd.target,
                      situation=sit, cost=cost, combat=combat and active,
                      markers=_markers(cmd.order), cleared=_cleared(cmd.order))


def _enemy(state: State, cmd: Order) -> Troop:
    target = state.troops.get(cmd.target or "")
    if target is None or target.side == cmd.side or not target.alive:
        raise refuse(cmd.order, "name an enemy troop on the table as the target")
    return target


def _situation(state: State, cmd: Order, troop: Troop, stunned: bool) -> None:
    """The order's own conditions (B4), on the players' assertions."""
    sit, order, me = cmd.situation, cmd.order, name(state, troop)
    prof = profile(state, troop)
    if order in ("run", "charge", "shoot", "take_cover", "regroup", "interact", "reload",
                 "opportunity_charge", "stand_and_shoot", "flee") and sit.in_melee:
        raise refuse(order, f"{me} is in melee")
    if order == "run":
        for flag, why in ((stunned, "stunned"), (sit.out_of_coherence, "out of coherence"),
                          (sit.out_of_formation, "out of formation"),
                          (sit.difficult_terrain, "starting in difficult terrain")):
            if flag:
                raise refuse(order, f"{me} cannot run while {why}")
    elif order in ("charge", "opportunity_charge"):
        if sit.out_of_coherence:
            raise refuse(order, f"{me} is out of coherence: no charge at all")
        if sit.disengaged_from_target:
            raise refuse(order, "a troop that disengaged from you this turn cannot be charged")
        if order == "opportunity_charge" and not sit.enemy_crossed_zoc:
            raise refuse(order, "only when an enemy's move crosses this troop's zone of "
                                "control")
        _enemy(state, cmd)
    elif order in ("fight", "fight_reaction"):
        if not (sit.in_contact or sit.in_melee or sit.charged):
            raise refuse(order, f"{me} needs its base within 1 cm of an enemy")
    elif order == "disengage":
        if not sit.in_melee:
            raise refuse(order, f"{me} is not in melee")
        if sit.obstacle_blocks:
            raise refuse(order, "an obstacle blocks the whole move")
    elif order in ("shoot", "stand_and_shoot"):
        if prof.ranged is None:
            raise refuse(order, f"{me} has no ranged weapon")
        if troop.unloaded:
            raise refuse(order, f"{me} is Unloaded: Reload first")
        if order == "shoot" and sit.charged:
            raise refuse(order, f"{me} is charged: Stand and shoot instead")
        if order == "stand_and_shoot" and not sit.charged:
            raise refuse(order, "only a charged troop stands and shoots")
        if sit.target_in_melee_with_friend:
            raise refuse(order, "the target is in melee with a friendly troop")
        _enemy(state, cmd)
    elif order == "reload" and not troop.unloaded:
        raise refuse(order, f"{me} is not Unloaded")
    elif order == "take_cover":
        if prof.mounted or prof.troop_type == "skirmishers":
            raise refuse(order, "mounted troops and skirmishers cannot take cover")
        if troop.parapeted:
            raise refuse(order, f"{me} is already Parapeted")
    elif order == "flee":
        if not sit.charged:
            raise refuse(order, "only the target of a charge flees")
    elif order == "regroup":
        _regroup(state, cmd, troop)
    elif order == "challenge":
        duelists(state, cmd, troop)
    elif order == "empower" and state.activation is not None and state.activation.left.get(
            cmd.side, 0) < 2:
        raise refuse(order, "it needs two orders: itself and its attack")


def duelists(state: State, cmd: Order, troop: Troop) -> tuple[Troop, Troop]:
    """RETAR A DUELO (B9.4): one of your leaders (the troop, or the leader of the unit given
    the order) challenges an enemy leader he charges or fights; the contact is asserted."""
    prof = profile(state, troop)
    challenger = troop if prof.leader else leader_of(state, troop)
    if challenger is None:
        raise refuse("challenge", f"{name(state, troop)} has no leader to challenge")
    target = state.troops.get(cmd.target or "")
    if target is None or target.side == cmd.side or not target.alive:
        raise refuse("challenge", "name an enemy leader as the target")
    challenged = target if profile(state, target).leader else leader_of(state, target)
    if challenged is None:
        raise refuse("challenge", f"{name(state, target)} has no leader to challenge")
    if not (cmd.situation.in_contact or cmd.situation.in_melee):
        raise refuse("challenge", "the challenger charges the enemy leader or fights him in "
                                  "melee: say he is in contact")
    return challenger, challenged


def _regroup(state: State, cmd: Order, leader: Troop) -> None:
    """REAGRUPAR (B2.7): a leader without a unit joins one of his army's units."""
    unit = state.troops.get(cmd.target or "")
    if not profile(state, leader).leader:
        raise refuse("regroup", "only a leader joins a unit")
    if unit is None or unit.side != cmd.side or not unit.alive or unit.models_start == 1:
        raise refuse("regroup", "name a unit of your own army")
    if leader_of(state, unit) is not None:
        raise refuse("regroup", "that unit already has a leader")
    order = "HEGA"
    lead, led = profile(state, leader), profile(state, unit)
    if (lead.cls not in order or led.cls not in order
            or order.index(lead.cls) > order.index(led.cls)):
        raise refuse("regroup", "a leader's class must be at least the unit's")
    if lead.troop_type != led.troop_type:
        raise refuse("regroup", "a leader joins a unit of his own troop type")


def _leave(state: State, cmd: Order, leader: Troop) -> OrderGiven:
    """LÍDER DE UNIDAD (B2.7): a leader leaves a unit that is not Used, not in retreat, not
    in melee; he stays unused."""
    unit = state.troops.get(leader.inside or "")
    if unit is None:
        raise refuse("leave_unit", "this leader is not inside a unit")
    if unit.used or unit.retreat or cmd.situation.in_melee:
        raise refuse("leave_unit", "a leader leaves only a unit that is not Used, not in "
                                   "retreat and not in melee")
    return OrderGiven(side=cmd.side, troop=leader.id, order="leave_unit", target=unit.id,
                      situation=cmd.situation, cost=0, combat=False)


def _challenge(state: State, event: OrderGiven) -> Challenge:
    cmd = Order(side=event.side, troop=event.troop, order="challenge", target=event.target,
                situation=event.situation)
    challenger, challenged = duelists(state, cmd, state.troops[event.troop])
    units = tuple(t.inside for t in (challenger, challenged) if t.inside is not None)
    return Challenge(side=event.side, challenger=challenger.id, challenged=challenged.id,
                     units=units)


_ORDER_MARKERS: dict[str, tuple[MarkerName, ...]] = {
    "run": ("ran",), "flee": ("used", "dishonoured"), "take_cover": ("parapeted",)}


def _markers(order: OrderKind) -> tuple[MarkerName, ...]:
    return _ORDER_MARKERS.get(order, ())


def _cleared(order: OrderKind) -> tuple[MarkerName, ...]:
    if order in ("move", "run", "charge", "disengage", "flee", "opportunity_charge"):
        return ("parapeted",)
    return ("unloaded",) if order == "reload" else ()


def apply(state: State, event: object) -> State | None:
    if not isinstance(event, OrderGiven):
        return None
    troops = dict(state.troops)
    troop = troops[event.troop]
    update: dict[str, object] = {m: True for m in event.markers}
    update.update({m: False for m in event.cleared})
    act = state.activation
    assert act is not None
    side = event.side
    left = act.left.get(side, 0) - event.cost
    ordered = act.ordered
    if event.order == "leave_unit":
        troops[troop.inside or ""] = troops[troop.inside or ""].model_copy(
            update={"leader": None})
        update["inside"] = None
    else:
        if troop.id not in ordered:
            ordered = (*ordered, troop.id)
        if event.order == "regroup" and event.target is not None:
            troops[event.target] = troops[event.target].model_copy(
                update={"leader": troop.id})
            update["inside"] = event.target
            left = 0
        if event.order == "flee" and act.troops.get(side) == troop.id:
            left = 0
        if event.order == "challenge":
            act = act.model_copy(update={"challenge": _challenge(state, event)})
    troops[troop.id] = troop.model_copy(update=update)
    act = act.model_copy(update={
        "left": {**act.left, side: max(left, 0)},
        "combat_order": {**act.combat_order, side: act.combat_order.get(side, False)
                         or event.combat},
        "given": {**act.given, side: (*act.given.get(side, ()), event.order)},
        "ordered": ordered})
    return state.model_copy(update={"troops": troops, "activation": act})
