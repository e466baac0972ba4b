"""Offerings that change the engine's own rolls (B9.1 OFRENDA A LOS DIOSES).

A roll the engine adjudicates (the strategy, initiative, order and retreat honour rolls) stays
*open* from its event until the next command that is not an offering; its name is
``views.public_view(state)['open_roll']['name']`` ("order_roll:a", "initiative_roll",
"retreat_honour:b2", "strategy_roll"). An offering on it names a die (0-based; the initiative
and strategy rolls: 0 is side a's die, 1 side b's): a re-roll replaces the die with
``new_die``; an add raises one of one's own dice by the card's value (shown), and a later
re-roll of that die keeps the value added. :class:`RollChanged` carries the roll as it now
stands, so a replay rebuilds it. The player without the initiative declares first (the deck
enforces it); before anyone holds the initiative (maintenance, a tied roll) either may.

The rolls inside the melee and shoot calculators are entered after their offerings: an
offering names such a roll freely ("melee", "shot at b3"), is recorded against it, and the
dice then given to ``melee`` or ``shoot`` are final.
"""

from __future__ import annotations

from companion.core.events import Event
from companion.core.rules import RuleViolation
from companion.games.kensei.battle import deck, pregame, turn
from companion.games.kensei.battle.commands import Offering, Side
from companion.games.kensei.battle.events import (
    InitiativeRolled,
    MarkersCleared,
    OrderItem,
    OrderRolled,
    RetreatRolled,
    RollChanged,
    RollOutcome,
    StrategyRolled,
)
from companion.games.kensei.battle.state import SIDES, OpenRoll, State
from companion.games.kensei.battle.troops import with_inside

OFFERING = "B9.1 OFRENDA A LOS DIOSES"
ENGINE_ROLLS = ("strategy_roll", "initiative_roll", "order_roll", "retreat_honour")
KEEP_OPEN = (deck.OfferingMade, RollChanged, MarkersCleared)


def _name(event: RollOutcome) -> str:
    if isinstance(event, OrderRolled):
        return f"order_roll:{event.side}"
    if isinstance(event, RetreatRolled):
        return f"retreat_honour:{event.troop}"
    return event.type.replace("_rolled", "_roll")


def track(before: State, after: State, event: Event) -> State:
    """Open a roll on its event, keep it open through offerings (and the markers cleared as
    maintenance closes by itself), close it on anything else."""
    if isinstance(event, OrderRolled | RetreatRolled | InitiativeRolled | StrategyRolled):
        count = after.rolls + 1
        owners: tuple[Side, ...]
        natural: tuple[int, ...]
        if isinstance(event, OrderRolled):
            owners, natural, holder = (event.side,), (event.die,), before.initiative
        elif isinstance(event, RetreatRolled):
            owners = (before.troops[event.troop].side,) * len(event.dice)
            natural, holder = event.dice, None
        else:
            owners, natural = SIDES, (event.dice["a"], event.dice["b"])
            holder = event.holder if isinstance(event, InitiativeRolled) else None
        restore = {} if not isinstance(event, RetreatRolled) else {
            t.id: t.models for t in with_inside(before, before.troops[event.troop]) if t.alive}
        roll = OpenRoll(name=_name(event), key=f"{_name(event)} #{count}", owners=owners,
                        natural=tuple(natural), added=(0,) * len(natural), holder=holder,
                        outcome=event, restore=restore)
        return after.model_copy(update={"open_roll": roll, "rolls": count})
    if isinstance(event, KEEP_OPEN) or after.open_roll is None:
        return after
    return after.model_copy(update={"open_roll": None})


def _refuse(message: str) -> RuleViolation:
    return RuleViolation(OFFERING, message)


def offering(state: State, cmd: Offering) -> list[Event]:
    """OFRENDA A LOS DIOSES: one card on a roll just made, one per player per roll."""
    roll = state.open_roll
    if roll is None or cmd.on not in (roll.name, roll.key):
        if cmd.on.split(":")[0] in ENGINE_ROLLS:
            raise _refuse("that roll is closed: an offering comes right after the roll, "
                          "before anything else happens")
        if cmd.die is not None or cmd.new_die is not None:
            raise _refuse("the dice of that roll are entered after the offerings, as they "
                          "stand")
        return turn.offering(state, cmd)
    die = _die(roll, cmd)
    if cmd.kind == "reroll" and cmd.new_die is None:
        raise _refuse("a re-roll gives the new die")
    if cmd.kind == "add" and cmd.new_die is not None:
        raise _refuse("an add keeps the die and adds the card's value")
    made = deck.offering(state.command_decks, cmd.side, cmd.card, cmd.kind, roll.key,
                         roll.holder or cmd.side,
                         roller=roll.owners[die] if cmd.kind == "add" else None)
    natural, added = list(roll.natural), list(roll.added)
    if cmd.new_die is not None:
        natural[die] = cmd.new_die
    else:
        added[die] += made[0].value or 0  # type: ignore[union-attr]
    outcome = _outcome(state, roll, tuple(natural), tuple(added))
    change = RollChanged(roll=roll.key, side=cmd.side, kind=cmd.kind, die=die,
                         before=roll.dice[die], after=natural[die] + added[die],
                         outcome=outcome)
    return [*made, change]


def _die(roll: OpenRoll, cmd: Offering) -> int:
    if cmd.die is not None:
        if cmd.die >= len(roll.natural):
            raise _refuse(f"this roll has {len(roll.natural)} "
                          f"{'die' if len(roll.natural) == 1 else 'dice'}")
        return cmd.die
    if len(roll.natural) == 1:
        return 0
    own = [i for i, side in enumerate(roll.owners) if side == cmd.side]
    if cmd.kind == "add" and len(own) == 1:
        return own[0]
    if roll.name.startswith("retreat_honour"):
        return len(roll.natural) - 1   # the general's re-roll decides
    raise _refuse("say which die of the roll")


def _outcome(state: State, roll: OpenRoll, natural: tuple[int, ...],
             added: tuple[int, ...]) -> RollOutcome:
    """The roll ruled again on its dice as they now stand."""
    first = roll.outcome
    dice = tuple(n + a for n, a in zip(natural, added, strict=True))
    if isinstance(first, OrderRolled):
        items = tuple(i for i in first.items if i.id != "offering")
        if added[0]:
            items += (OrderItem(id="offering", value=added[0], rule="OFRENDA A LOS DIOSES"),)
        return turn.order_outcome(state.troops[first.troop], first.side, natural[0], items)
    if isinstance(first, RetreatRolled):
        passed = any(d <= first.target for d in dice)
        return first.model_copy(update={"dice": dice, "passed": passed,
                                        "removed": () if passed else tuple(roll.restore)})
    if isinstance(first, InitiativeRolled):
        holder: Side | None = None if dice[0] == dice[1] else "a" if dice[0] > dice[1] else "b"
        return InitiativeRolled(dice={"a": dice[0], "b": dice[1]}, holder=holder)
    bonus = {s: first.totals[s] - first.dice[s] for s in SIDES}
    totals = {"a": dice[0] + bonus["a"], "b": dice[1] + bonus["b"]}
    winner: Side | None = None
    if totals["a"] != totals["b"]:
        winner = "a" if totals["a"] > totals["b"] else "b"
    return StrategyRolled(dice={"a": dice[0], "b": dice[1]}, totals=totals, winner=winner)


def apply(state: State, event: object) -> State | None:
    """The roll as the offering left it: the first outcome undone, the new one applied."""
    if not isinstance(event, RollChanged):
        return None
    roll = state.open_roll
    assert roll is not None
    out = event.outcome
    natural, added = list(roll.natural), list(roll.added)
    if event.kind == "reroll":
        natural[event.die] = event.after - added[event.die]
    else:
        added[event.die] = event.after - natural[event.die]
    roll = roll.model_copy(update={"natural": tuple(natural), "added": tuple(added),
                                   "outcome": out})
    state = state.model_copy(update={"open_roll": roll})
    if isinstance(out, OrderRolled):
        after = turn.apply(state, out)
    elif isinstance(out, RetreatRolled):
        troops = dict(state.troops)
        for tid, models in roll.restore.items():
            troops[tid] = troops[tid].model_copy(update={"models": models, "removed": False})
        after = turn.apply(state.model_copy(update={"troops": troops}), out)
    elif isinstance(out, InitiativeRolled):
        after = (state.model_copy(update={"initiative": None, "phase": "initiative"})
                 if out.holder is None else turn.apply(state, out))
    else:
        after = (state.model_copy(update={"strategy_winner": None, "phase": "strategy"})
                 if out.winner is None else pregame.apply(state, out))
    assert after is not None
    return after
