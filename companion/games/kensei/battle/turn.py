"""The turn (B3): maintenance (B3.1), initiative (B3.2), activation pairs (B3.3) and the end
of the turn. The orders themselves are orders.py's."""

from __future__ import annotations

from companion.core.events import Event
from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.kensei.battle import cards, deck
from companion.games.kensei.battle.commands import (
    Activate,
    CommandDuel,
    CommanderActivation,
    DrawCards,
    EndActivation,
    EndTurn,
    InitiativeRoll,
    Offering,
    OrderRoll,
    RetreatHonour,
    SetMarker,
    Side,
)
from companion.games.kensei.battle.events import (
    ActivationEnded,
    ArmyRouted,
    BattleEnded,
    ExtraActivation,
    InitiativeRolled,
    MarkersCleared,
    MarkerSet,
    OrderItem,
    OrderRolled,
    RetreatRolled,
    TroopActivated,
    TurnBegun,
    TurnEnded,
)
from companion.games.kensei.battle.state import SIDES, Activation, State, Troop, other
from companion.games.kensei.battle.troops import (
    eligible,
    honour_target,
    ini_items,
    name,
    with_inside,
)

MAINTENANCE = "B3.1 FASE DE MANTENIMIENTO"
HONOUR = "B3.1 TIRADA DE HONOR"
INITIATIVE = "B3.2 FASE DE INICIATIVA"
ACTIVATION = "B3.3 ACTIVACIÓN DE UNIDADES"
ORDER_ROLL = "B3.3 TIRADA DE ÓRDENES"
END = "B3.3 FIN DEL TURNO"
COMMANDER = "B3.3 ACTIVACIÓN DE COMANDANTE"
DUEL = "B9.1 DUELO DE MANDO"
OFFERING = "B9.1 OFRENDA A LOS DIOSES"
TURNS = 5
"""Tiempo de batalla: máximo 5 turnos (B15)."""
ROUT = 0.75
"""B3.1 step 1: an army that lost at least 75 % of its starting points is routed."""


def _phase(state: State, phase: str, what: str, rule: str) -> None:
    if state.phase != phase:
        raise RuleViolation(rule, f"{what} is not due now")


def _troop(state: State, tid: str) -> Troop:
    troop = state.troops.get(tid)
    if troop is None:
        raise RuleViolation("B3", f"there is no troop {tid}")
    return troop


# --- maintenance (B3.1) --------------------------------------------------------------------

def draw_cards(state: State, cmd: DrawCards) -> list[Event]:
    """FASE DE MANTENIMIENTO step 2 and B9.1: discard the hand, draw the hand size."""
    _phase(state, "maintenance", "drawing command cards", MAINTENANCE)
    if cmd.side in state.drawn:
        raise RuleViolation(MAINTENANCE, "each player draws once in maintenance")
    army = state.army(cmd.side).list
    events: list[deck.DeckEvent] = list(deck.discard_hand(state.command_decks, cmd.side))
    decks = cards.run(state.command_decks, events)
    events += deck.draw(decks, cmd.side, list(cmd.cards), list(cmd.under), army.size,
                        army.commander_level)
    return list(events)


def retreat_honour(state: State, cmd: RetreatHonour) -> RetreatRolled:
    """FASE DE MANTENIMIENTO step 3: each troop in retreat rolls honour, −1 in melee; a fail
    removes it (casualties caused by the enemy). The general's re-roll after a fail (B2.7)."""
    _phase(state, "maintenance", "a retreat honour roll", MAINTENANCE)
    troop = _troop(state, cmd.troop)
    if not (troop.alive and troop.retreat):
        raise RuleViolation(MAINTENANCE, f"{name(state, troop)} has no Retreat marker")
    if troop.side not in state.drawn:
        raise RuleViolation(MAINTENANCE, "command cards are drawn before the retreat rolls")
    target, _ = honour_target(state, troop, cmd.in_melee)
    first = cmd.dice[0] <= target
    if len(cmd.dice) == 2:
        if first:
            raise RuleViolation(HONOUR, "only a failed honour roll is re-rolled")
        if not cmd.general_near or state.general_dead.get(troop.side):
            raise RuleViolation(HONOUR, "the re-roll needs the living general "
                                                   "within 15 cm and in sight")
    passed = cmd.dice[-1] <= target
    removed = () if passed else tuple(t.id for t in with_inside(state, troop) if t.alive)
    return RetreatRolled(troop=troop.id, dice=tuple(cmd.dice), target=target, passed=passed,
                         removed=removed)


def maintenance_over(state: State) -> bool:
    from companion.games.kensei.battle import upkeep  # upkeep builds on this module

    return (state.phase == "maintenance" and set(state.drawn) == set(SIDES)
            and not any(t.alive and t.retreat for t in state.troops.values())
            and not upkeep.waiting(state))


# --- initiative and duels (B3.2, B9.1) -----------------------------------------------------

def initiative_roll(state: State, cmd: InitiativeRoll) -> InitiativeRolled:
    """FASE DE INICIATIVA: both roll at once; a tie is rolled again."""
    _phase(state, "initiative", "the initiative roll", INITIATIVE)
    if set(cmd.dice) != set(SIDES):
        raise RuleViolation(INITIATIVE, "both players roll for initiative at once")
    a, b = cmd.dice["a"], cmd.dice["b"]
    holder: Side | None = None if a == b else "a" if a > b else "b"
    return InitiativeRolled(dice=dict(cmd.dice), holder=holder)


def command_duel(state: State, cmd: CommandDuel) -> list[Event]:
    """DUELO DE MANDO (B9.1): before a new pair, the player without the initiative calls."""
    _phase(state, "activation", "a command duel", DUEL)
    if state.activation is not None and state.activation.troops:
        raise RuleViolation(DUEL, "a command duel is called before a pair is activated")
    assert state.initiative is not None
    return list(deck.duel_bid(state.command_decks, cmd.side, list(cmd.cards), state.initiative))


def offering(state: State, cmd: Offering) -> list[Event]:
    """OFRENDA A LOS DIOSES (B9.1): one card on a roll."""
    if state.phase not in ("activation", "maintenance", "initiative"):
        raise RuleViolation(OFFERING, "offerings are made on the battle's rolls")
    holder = state.initiative or "a"
    return list(deck.offering(state.command_decks, cmd.side, cmd.card, cmd.kind, cmd.on, holder))


# --- activation (B3.3) ---------------------------------------------------------------------

def _has(state: State, side: Side) -> bool:
    return any(eligible(state, t) for t in state.side_troops(side))


def activate(state: State, cmd: Activate) -> TroopActivated:
    """ACTIVACIÓN DE UNIDADES: each player names a troop without a Used marker; when one
    player has none left, the other activates one more alone (FIN DEL TURNO)."""
    _phase(state, "activation", "an activation", ACTIVATION)
    troop = _troop(state, cmd.troop)
    if troop.side != cmd.side:
        raise RuleViolation(ACTIVATION, "activate a troop of your own army")
    if not eligible(state, troop):
        why = ("it is Used" if troop.used else "it is inside its unit" if troop.inside
               else "it is not on the table")
        if troop.held_back and state.army(troop.side).list.clan == "kuroi-te":
            raise HiddenViolation(ACTIVATION, "a troop kept hidden rises from turn 2",
                                  f"{name(state, troop)} cannot be activated: {why}")
        raise RuleViolation(ACTIVATION, f"{name(state, troop)} cannot be activated: {why}")
    if state.command_decks.duel is not None:
        raise RuleViolation(DUEL, "the command duel is answered first")
    act = state.activation
    if act is not None and (cmd.side in act.troops or act.solo is not None):
        raise RuleViolation(ACTIVATION, "one troop each per activation")
    if (act is None and not _has(state, other(cmd.side)) and cmd.side in state.extra_done
            and cmd.side != state.extra):
        raise RuleViolation(END, "the last activation of the turn is spent")
    return TroopActivated(side=cmd.side, troop=troop.id)


def order_roll(state: State, cmd: OrderRoll) -> OrderRolled:
    """TIRADA DE ÓRDENES (B3.3 step 2): natural 1: one order; 2–3: one; 4–5: two; 6+: two
    and ki. A troop routed by shooting earlier this turn gets at most one order, no ki (B7)."""
    _phase(state, "activation", "an order roll", ORDER_ROLL)
    act = state.activation
    if act is None or cmd.side not in act.troops or cmd.side in act.orders:
        raise RuleViolation(ORDER_ROLL, "each active troop rolls for orders once")
    if act.solo is None and len(act.troops) < 2:
        raise RuleViolation(ORDER_ROLL, "both troops are activated before the order rolls")
    troop = state.troops[act.troops[cmd.side]]
    items = tuple(OrderItem(id=i, value=v, rule=r) for i, v, r in ini_items(state, troop))
    return order_outcome(troop, cmd.side, cmd.die, items)


def order_outcome(troop: Troop, side: Side, die: int,
                  items: tuple[OrderItem, ...]) -> OrderRolled:
    """The orders a natural ``die`` and the INI ``items`` give (TIRADA DE ÓRDENES). A card
    added by an offering is an item: it raises the total, but a natural 1 stays a fumble
    (reading: "un 1 en el dado es una pifia"; a re-roll is the cure)."""
    total = die + sum(i.value for i in items)
    fumble = die == 1
    orders = 1 if fumble or total <= 3 else 2
    ki = not fumble and total >= 6
    if troop.retreat:
        orders, ki = 1, False
    return OrderRolled(side=side, troop=troop.id, die=die, items=items, total=total,
                       orders=orders, fumble=fumble, ki=ki)


def end_activation(state: State, cmd: EndActivation) -> list[Event]:
    """MARCAR UNIDADES USADAS (B3.3 step 4): the active troops and every troop given an
    order become Used; the next end-of-turn check follows (FIN DEL TURNO)."""
    _phase(state, "activation", "ending an activation", ACTIVATION)
    act = state.activation
    if act is None or set(act.orders) != set(act.troops) or not act.troops:
        raise RuleViolation(ORDER_ROLL, "the active troops roll for orders first")
    if act.challenge is not None and act.challenge.accepted is None:
        raise RuleViolation("B9.4 DUELOS DE HONOR", "the challenge is answered first")
    used: list[str] = []
    for tid in (*act.troops.values(), *act.ordered):
        for t in with_inside(state, state.troops[tid]):
            if t.id not in used and t.alive:
                used.append(t.id)
    events: list[Event] = [ActivationEnded(used=tuple(used))]
    events += deck.end_pair(state.command_decks)
    return events


def extra_due(state: State) -> Side | None:
    """The side owed one more activation at the end of the turn (FIN DEL TURNO)."""
    if state.activation is not None:
        return None
    for side in SIDES:
        if (_has(state, side) and not _has(state, other(side))
                and side not in state.extra_done):
            return side
    return None


def commander_activation(state: State, cmd: CommanderActivation) -> list[Event]:
    """ACTIVACIÓN DE COMANDANTE (B3.3 step 5): at the end of the turn, a player with troops
    left and cards in hand discards the whole hand to activate one more troop."""
    _phase(state, "activation", "a commander activation", COMMANDER)
    if state.activation is not None or not _turn_ending(state):
        raise RuleViolation(COMMANDER, "it comes at the end of the turn")
    if not _has(state, cmd.side):
        raise RuleViolation(COMMANDER, "it needs a troop not yet activated")
    if state.extra == cmd.side:
        raise RuleViolation(COMMANDER, "one commander activation at a time")
    if cards.cards_held(state.command_decks, cmd.side) == 0:
        raise RuleViolation(COMMANDER, "it needs cards in hand")
    events: list[Event] = list(deck.commander_activation(state.command_decks, cmd.side))
    events.append(ExtraActivation(side=cmd.side, commander=True))
    return events


def _turn_ending(state: State) -> bool:
    return not (_has(state, "a") and _has(state, "b"))


def end_turn(state: State, cmd: EndTurn) -> list[Event]:
    """FIN DEL TURNO: when one player has activated every troop and the other has had one
    more activation (if wanted); then the rout check (B3.1 step 1) or the next turn."""
    _phase(state, "activation", "the end of the turn", END)
    if state.activation is not None:
        raise RuleViolation(END, "the activation in progress ends first")
    if not _turn_ending(state):
        raise RuleViolation(END, "both players still have troops to activate")
    events: list[Event] = [TurnEnded(turn=state.turn)]
    for side in SIDES:
        start = starting_points(state, side)
        lost = start - points_on_table(state, side)
        if start and lost >= ROUT * start:
            events += [ArmyRouted(side=side, lost=lost, starting=start),
                       BattleEnded(reason="rout", turn=state.turn, side=side)]
            return events
    if state.turn >= TURNS:
        events.append(BattleEnded(reason="turns", turn=state.turn))
    else:
        events.append(TurnBegun(turn=state.turn + 1))
    return events


def starting_points(state: State, side: Side) -> int:
    """The army's starting points: every model's cost (B3.1, B19.14)."""
    return sum(t.points for t in state.side_troops(side))


def points_on_table(state: State, side: Side) -> int:
    """Points still in the army: living models at their per-model cost (B19.14: model by
    model); a troop still in the reserve tray is not lost."""
    total = 0
    for t in state.side_troops(side):
        if t.alive:
            total += t.points // t.models_start * t.models
    return total


def set_marker(state: State, cmd: SetMarker) -> MarkerSet:
    """A marker placed or cleared by hand (B1.1); Stunned counts up one at a time."""
    if state.phase not in ("activation", "maintenance", "initiative"):
        raise RuleViolation("B3", "markers change during the turn")
    troop = _troop(state, cmd.troop)
    if not troop.alive:
        raise RuleViolation("B3", f"{name(state, troop)} is no longer on the table")
    if troop.held_back and state.army(troop.side).list.clan == "kuroi-te":
        raise HiddenViolation("B12 Desde las profundidades", "a troop kept hidden takes no "
                              "marker", f"{name(state, troop)} is still hidden")
    if cmd.marker == "dishonoured" and not cmd.on and troop.dishonoured:
        raise RuleViolation("B4 HUIR", "Dishonoured lasts for the rest of the battle")
    return MarkerSet(troop=troop.id, marker=cmd.marker, on=cmd.on)


# --- apply ---------------------------------------------------------------------------------

def _troops(state: State, ids: tuple[str, ...] | list[str], **update: object) -> dict[str, Troop]:
    troops = dict(state.troops)
    for tid in ids:
        troops[tid] = troops[tid].model_copy(update=update)
    return troops


def apply(state: State, event: object) -> State | None:
    if isinstance(event, TurnBegun):
        return state.model_copy(update={
            "phase": "maintenance", "turn": event.turn, "drawn": (), "activation": None,
            "activated": (),
            "extra": None, "extra_done": (), "initiative": None})
    if isinstance(event, RetreatRolled):
        if event.passed:
            return state.model_copy(update={"troops": _troops(state, [event.troop],
                                                                 retreat=False)})
        return state.model_copy(update={"troops": _troops(
            state, event.removed, models=0, removed=True, retreat=False)})
    if isinstance(event, MarkersCleared):
        troops = {tid: t.model_copy(update={"used": False, "stunned": 0, "ran": False})
                  for tid, t in state.troops.items()}
        return state.model_copy(update={"troops": troops, "phase": "initiative"})
    if isinstance(event, InitiativeRolled):
        if event.holder is None:
            return state
        return state.model_copy(update={"initiative": event.holder, "phase": "activation"})
    if isinstance(event, TroopActivated):
        pair = state.activation or Activation()
        troops = state.troops
        t = troops[event.troop]
        if t.held_back:  # out of the reserve tray (B12)
            troops = _troops(state, [x.id for x in with_inside(state, t)],
                             held_back=False, deployed=True)
        solo = event.side if not _has(state, other(event.side)) else None
        extra_done = state.extra_done
        extra = state.extra
        if solo is not None:
            if extra == event.side:
                extra = None
            else:
                extra_done = (*extra_done, event.side)
        pair = pair.model_copy(update={"troops": {**pair.troops, event.side: event.troop},
                                       "solo": solo})
        return state.model_copy(update={"activation": pair, "troops": troops,
                                        "extra": extra, "extra_done": extra_done,
                                        "activated": (*state.activated, event.troop)})
    if isinstance(event, OrderRolled):
        act = state.activation
        assert act is not None
        act = act.model_copy(update={
            "orders": {**act.orders, event.side: event.orders},
            "left": {**act.left, event.side: event.orders},
            "ki": {**act.ki, event.side: event.ki}})
        return state.model_copy(update={"activation": act})
    if isinstance(event, ActivationEnded):
        return state.model_copy(update={"troops": _troops(state, event.used, used=True),
                                        "activation": None})
    if isinstance(event, ExtraActivation):
        return state.model_copy(update={"extra": event.side})
    if isinstance(event, MarkerSet):
        troop = state.troops[event.troop]
        value: object = event.on
        if event.marker == "stunned":
            value = troop.stunned + 1 if event.on else 0
        return state.model_copy(update={"troops": _troops(state, [event.troop],
                                                          **{event.marker: value})})
    if isinstance(event, TurnEnded):
        return state
    if isinstance(event, ArmyRouted):
        return state.model_copy(update={"routed": event.side})
    if isinstance(event, BattleEnded):
        return state.model_copy(update={"phase": "scoring", "end_reason": event.reason,
                                        "activation": None})
    return None

