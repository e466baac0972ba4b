"""The turn on the touchscreen (B3): the maintenance checklist (hands dealt on private steps,
retreat honour rolls), the initiative roll, command duels with private bids, activation pairs,
order rolls with their arithmetic, orders with the players' assertions, combats through the
calculators' forms prefilled from the troops, the end of the turn and the commander activation;
and the roster, every troop's state, with the markers players place by hand."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from companion.games.kensei.battle.commands import (
    Activate,
    CommandDuel,
    CommanderActivation,
    DrawCards,
    EndActivation,
    EndTurn,
    InitiativeRoll,
    Melee,
    Offering,
    Order,
    OrderRoll,
    RetreatHonour,
    SetMarker,
    Shoot,
    Side,
    Situation,
)
from companion.games.kensei.battle.state import SIDES, other
from ui.kensei import battle_words as bw
from ui.kensei.battle_page import Button, Line, Page
from ui.shell import theme as th

if TYPE_CHECKING:
    from ui.kensei.battle import BattleFlow

MELEE_ORDERS = frozenset({"charge", "fight", "opportunity_charge",
                          "challenge"})
SHOOT_ORDERS = frozenset({"shoot", "stand_and_shoot"})
OFFERING_ROLLS = (("order", "the order roll"), ("combat", "the combat dice"),
                  ("wound", "the wound dice"), ("honour", "the honour roll"))
"""The rolls an offering may be made on, as players name them."""
REACTION_ORDERS = ("fight_reaction", "flee", "opportunity_charge", "stand_and_shoot")
ACTION_ORDERS = ("move", "run", "charge", "fight", "shoot", "disengage", "regroup", "reload",
                 "take_cover", "interact", "empower", "challenge", "leave_unit")


class Turn:
    def __init__(self, flow: BattleFlow) -> None:
        self.flow = flow
        self.order_side: Side | None = None
        self.order_troop: str | None = None
        self.order_kind: str | None = None
        self.target: str | None = None
        self.situation: dict[str, bool] = {}
        self.bid: list[str] = []
        self.under: list[str] = []
        self.roster_side: Side = "a"
        self.dealt: dict[Side, tuple[list[str], int]] = {}
        self.honour: dict[str, bool] = {"in_melee": False, "general_near": False}

    # ------------------------------------------------------------------ phases

    def page(self, phase: str) -> Page:
        f = self.flow
        view = f.snap.view
        head: list[Line] = []
        bar = f.common_bar()
        if phase == "maintenance":
            return self.maintenance(head, bar)
        if phase == "initiative":
            return Page("kensei-turn", f"Turn {view['turn']} of 5: initiative", [
                *head, *f.feed_lines(2), Line("Both roll 1D6; the higher holds the initiative "
                                              "this turn, a tie is rolled again.",
                                              "B3.2 FASE DE INICIATIVA", th.DIM)],
                [Button("Enter the initiative dice", partial(
                    f.both_roll, "Initiative roll", "B3.2 FASE DE INICIATIVA",
                    lambda d: f.submit(InitiativeRoll(dice=d))), th.ACCEPT)], bar, columns=1)
        return self.activation(head, bar)

    # ------------------------------------------------------------------ maintenance

    def maintenance(self, head: list[Line], bar: list[Button]) -> Page:
        f = self.flow
        state = f.control.state
        buttons = []
        for side in SIDES:
            if side in state.drawn:
                buttons.append(Button(f"{f.name(side)}: cards dealt", None))
            else:
                buttons.append(Button(f"Deal {f.name(side)}'s command cards", partial(
                    f.private, side, partial(self.deal_page, side),
                    "The command cards dealt are secret: only this player looks (B9.1).")))
        for t in f.snap.troops():
            if t["alive"] and t["retreat"] and t["side"] in state.drawn:
                buttons.append(Button(f"Honour roll: {t['name']} (Retreat)", partial(
                    self.retreat_roll, t["id"])))
        return Page("kensei-turn", f"Turn {f.snap.view['turn']} of 5: maintenance", [
            *head, Line("1. Rout check: done at the end of each turn.", "B3.1", th.DIM),
            Line("2. Each player is dealt a new hand; 3. troops in Retreat roll honour; "
                 "4. Used and Stunned markers are cleared.", "B3.1 FASE DE MANTENIMIENTO",
                 th.DIM), *f.feed_lines(2)], buttons, bar, columns=1)

    def deal_page(self, side: Side) -> Page:
        """The hand dealt by the virtual deck, seen by its owner alone."""
        f = self.flow
        state = f.control.state
        if side not in state.drawn:
            if side not in self.dealt:
                self.dealt[side] = f.control.deal(side)
            cards, extra = self.dealt[side]
            if extra and len(self.under) < extra:
                return self.under_page(side, cards, extra)
            under = self.under[:extra]
            self.under = []
            del self.dealt[side]
            if not f.submit(DrawCards(side=side, cards=cards, under=under)):
                return f.hidden_page("The cards could not be drawn", f.feed_lines(1))
        return self.hand_page(side)

    def under_page(self, side: Side, cards: list[str], extra: int) -> Page:
        """A Taisho or a Daimyo puts the extra cards under the deck (B14)."""
        from companion.games.kensei.battle.deck import card_value

        f = self.flow
        buttons = [Button(f"Put card {i} under: worth {card_value(c)}",
                          partial(self.under.append, c))
                   for i, c in enumerate(cards, 1) if c not in self.under]
        return Page("kensei-private", f"{f.name(side)}: choose {bw.plural(extra, 'card')} "
                    "to put under the deck", [Line("NIVEL DE COMANDANTE", "B14", th.DIM)],
                    buttons, [Button("Back", f.back)], columns=2)

    def hand_page(self, side: Side) -> Page:
        from companion.games.kensei.battle.deck import card_value

        f = self.flow
        hand = f.control.private(side)["hand"]["hand"]
        values = sorted(card_value(c["card"]) for c in hand)
        lines = [Line(f"Your hand: {', '.join(map(str, values)) or 'no cards'}", big=True,
                      colour=th.GOLD),
                 Line("Card values: each card is worth 0 to 3 in a duel or an offering.",
                      "B9.1 BARAJA DE MANDO", th.DIM)]
        return f.hidden_page(f"{f.name(side)}: your command cards", lines)

    def retreat_roll(self, tid: str) -> None:
        self.honour = {"in_melee": False, "general_near": False}
        self.flow.open(partial(self.honour_page, tid))

    def honour_page(self, tid: str) -> Page:
        """B3.1 step 3: what the table shows before the die (in melee: −1; the general near
        may have a failed roll re-rolled, TIRADA DE HONOR)."""
        f = self.flow
        t = f.snap.troop(tid)
        target, terms = f.control.honour_target(tid, self.honour["in_melee"])
        toggles = [Button(f"{label}: {'yes' if self.honour[key] else 'no'}", partial(
            self._flip_honour, key), selected=self.honour[key]) for key, label in (
                ("in_melee", "Locked in a melee"),
                ("general_near", "The general within 15 cm and in sight"))]
        return Page("kensei-turn", f"Honour roll: {t['name']} (Retreat)", [
            Line(f"It passes on {target} or less: {', '.join(terms)}.",
                 "B3.1 FASE DE MANTENIMIENTO", bold=True),
            Line("A fail removes the troop from the table.", colour=th.DIM)],
            [*toggles, Button("Enter the honour die", partial(self._honour_die, tid, target),
                              th.ACCEPT)], [Button("Back", f.back)], columns=1)

    def _flip_honour(self, key: str) -> None:
        self.honour[key] = not self.honour[key]

    def _honour_die(self, tid: str, target: int) -> None:
        from ui.kensei.battle import Pad

        f = self.flow
        name = f.snap.troop(tid)["name"]
        sit = dict(self.honour)

        def first(dice: list[int]) -> None:
            if dice[0] > target and sit["general_near"]:
                f.pad(Pad(f"Honour roll: {name}, the general's re-roll", "TIRADA DE HONOR", 1,
                          lambda again: f.submit(RetreatHonour(troop=tid, dice=dice + again,
                                                               **sit)),
                          [Line(f"The first die, {dice[0]}, failed.", colour=th.DIM)]))
            else:
                f.submit(RetreatHonour(troop=tid, dice=dice, **sit))

        f.pad(Pad(f"Honour roll: {name}", "B3.1 FASE DE MANTENIMIENTO", 1, first,
                  [Line(f"It passes on {target} or less.")]))

    # ------------------------------------------------------------------ activation

    def activation(self, head: list[Line], bar: list[Button]) -> Page:
        f = self.flow
        snap = f.snap
        view = snap.view
        act = view["activation"]
        holder = view["initiative"]
        lines = [*head, Line(f"{f.name(holder)} holds the initiative.", "B3.2", th.DIM),
                 *f.feed_lines(3)]
        if act is None or not act["troops"]:
            return self.between_pairs(lines, bar, holder)
        buttons: list[Button] = []
        troops = act["troops"]
        pair = []
        for side in SIDES:
            tid = troops.get(side)
            if tid is None:
                continue
            state = f"{snap.troop(tid)['name']}"
            if side in act["orders"]:
                state += (f": {bw.plural(act['left'].get(side, 0), 'order')} left of "
                          f"{act['orders'][side]}" + (", ki" if act["ki"].get(side) else ""))
            else:
                state += ": order roll to come"
            pair.append(f"{f.name(side)}: {state}")
        if pair:
            lines.insert(0, Line(" · ".join(pair), "B3.3", bold=True))
        for side in SIDES:
            tid = troops.get(side)
            if tid is None:
                if act["solo"] is None:
                    buttons.append(Button(f"{f.name(side)}: activate a troop", partial(
                        f.open, partial(self.activate_page, side)), th.ACCEPT))
                continue
            name = snap.troop(tid)["name"]
            if side not in act["orders"]:
                ready = act["solo"] is not None or len(troops) == 2
                buttons.append(Button(f"Order roll: {f.name(side)}'s {name}", partial(
                    self.order_roll, side, tid) if ready else None, th.ACCEPT))
            else:
                left = act["left"].get(side, 0)
                buttons.append(Button(f"Give an order: {f.name(side)}'s {name} "
                                      f"({bw.plural(left, 'order')} left)",
                                      partial(self.start_order, side)
                                      if left and set(act["orders"]) == set(troops)
                                      else None))
        rolled = set(act["orders"]) == set(troops)
        if rolled:
            buttons.append(Button("A reaction order", partial(f.open, self.reactor_page)))
            buttons.append(Button("An offering to the gods", partial(f.open,
                                                                   self.offering_page)))
        buttons.append(Button("End of activation", partial(f.submit, EndActivation())
                              if rolled else None))
        return Page("kensei-turn", f"Turn {view['turn']} of 5: activation", lines, buttons, bar,
                    columns=1 if len(buttons) <= 3 else 2)

    def between_pairs(self, lines: list[Line], bar: list[Button], holder: Side) -> Page:
        f = self.flow
        snap = f.snap
        deck = snap.view["deck"]
        if deck["duel"] is not None:  # called, and the holder has yet to answer
            return Page("kensei-turn", f"Turn {snap.view['turn']} of 5: a command duel", [
                *lines, Line(f"{f.name(other(holder))} called a command duel.",
                             "B9.1 DUELO DE MANDO", th.DIM)],
                [Button(f"Command duel: {f.name(holder)} answers", partial(
                    self.answer_duel, holder), th.ACCEPT)], bar, columns=1)
        buttons = []
        have = {s: bool(snap.eligible(s)) for s in SIDES}
        due = snap.view["due"]
        for side in SIDES:  # FIN DEL TURNO: the lone side's one more activation, once
            if have[side] and "activate" in due["commands"] and side in due["sides"]:
                buttons.append(Button(f"{f.name(side)}: activate a troop", partial(
                    f.open, partial(self.activate_page, side)), th.ACCEPT))
        caller = other(holder)
        if all(have.values()) and not deck["duel_fought"] and deck[caller]["hand"]:
            buttons.append(Button(f"Command duel: {f.name(caller)} calls", partial(
                self.start_duel, caller)))
        if not all(have.values()):
            for side in SIDES:
                if have[side] and deck[side]["hand"]:
                    buttons.append(Button(f"Commander activation: {f.name(side)}", partial(
                        f.submit, CommanderActivation(side=side))))
            buttons.append(Button("End the turn", partial(f.submit, EndTurn())))
        return Page("kensei-turn", f"Turn {snap.view['turn']} of 5: the next pair", [
            *lines, Line(self._left(snap), "B3.3", th.DIM)], buttons, bar,
            columns=1 if len(buttons) <= 3 else 2)

    def _left(self, snap: Any) -> str:
        f = self.flow
        return (f"Troops still to activate: {f.name('a')} {len(snap.eligible('a'))}, "
                f"{f.name('b')} {len(snap.eligible('b'))}.")

    def activate_page(self, side: Side) -> Page:
        f = self.flow
        buttons = [Button(t["name"], partial(self._activate, side, t["id"]))
                   for t in f.snap.eligible(side)]
        return Page("kensei-turn", f"{f.name(side)}: which troop activates?", [Line(
            "Any troop without a Used marker.", "B3.3", th.DIM), *f.feed_lines(1)], buttons,
            [Button("Back", f.back)], columns=1 if len(buttons) <= 4 else 2)

    def _activate(self, side: Side, tid: str) -> None:
        self.flow.back()
        self.flow.submit(Activate(side=side, troop=tid))

    def order_roll(self, side: Side, tid: str) -> None:
        from ui.kensei.battle import Pad

        f = self.flow
        f.pad(Pad(f"Order roll: {f.name(side)}'s {f.snap.troop(tid)['name']}",
                  "B3.3 TIRADA DE ÓRDENES", 1,
                  lambda d: f.submit(OrderRoll(side=side, die=d[0])),
                  [Line("1D6 + INI: a natural 1 or 2–3 one order, 4–5 two, 6 or more two "
                        "and ki.")]))

    # ------------------------------------------------------------------ duels

    def start_duel(self, caller: Side) -> None:
        self.bid = []
        self.flow.private(caller, partial(self.bid_page, caller),
                          "A command duel's bid is laid face down (B9.1).")

    def answer_duel(self, holder: Side) -> None:
        self.bid = []
        self.flow.private(holder, partial(self.bid_page, holder),
                          "Answer the command duel with a bid laid face down (B9.1).")

    def bid_page(self, side: Side) -> Page:
        from companion.games.kensei.battle.deck import card_value

        f = self.flow
        hand = [c["card"] for c in f.control.private(side)["hand"]["hand"]]
        buttons = [Button(f"Card {i}: worth {card_value(c)}", partial(self._toggle_bid, c),
                          selected=c in self.bid) for i, c in enumerate(hand, 1)]
        total = sum(card_value(c) for c in self.bid)
        lines = [Line(f"Your bid: {bw.plural(len(self.bid), 'card')}, worth {total}",
                      "B9.1 DUELO DE MANDO", th.GOLD, bold=True), *f.feed_lines(1)]
        lay = partial(self._lay_bid, side) if self.bid or not hand else None
        bar = [Button("Back", f.back), Button("Lay the bid face down", lay, th.ACCEPT)]
        if f.control.link is not None:  # tagged cards laid face down on the card pad
            bar.insert(1, Button("Bid the cards on the card pad",
                                 partial(self._pad_bid, side)))
        return Page("kensei-private", f"{f.name(side)}: your bid", lines, buttons, bar,
                    columns=2)

    def _pad_bid(self, side: Side) -> None:
        self.bid = self.flow.control.pad_cards(side)
        self._lay_bid(side)

    def _toggle_bid(self, card: str) -> None:
        if card in self.bid:
            self.bid.remove(card)
        else:
            self.bid.append(card)

    def _lay_bid(self, side: Side) -> None:
        f = self.flow
        if not f.submit(CommandDuel(side=side, cards=list(self.bid))):
            return
        self.bid = []
        deck = f.snap.view["deck"]
        if deck["duel"] is not None:  # the holder answers
            holder = other(side)
            f.private(holder, partial(self.bid_page, holder),
                      f"{f.name(side)} called a command duel: answer with a bid (B9.1).")
        else:
            f.back()

    # ------------------------------------------------------------------ offerings

    def offering_page(self) -> Page:
        """OFRENDA A LOS DIOSES (B9.1): one card per player per roll; the player without the
        initiative declares first. Which card is chosen on a private step."""
        f = self.flow
        deck = f.snap.view["deck"]
        buttons = []
        for side in SIDES:
            for roll, words in OFFERING_ROLLS:
                buttons.append(Button(f"{f.name(side)}: on {words}", partial(
                    self.start_offering, side, roll) if deck[side]["hand"] else None))
        return Page("kensei-turn", "An offering: who, and on which roll?", [Line(
            "A card spent to re-roll a die (discarded face down) or to add its value to a "
            "die of your own roll (shown). Re-roll or add as you enter the dice.",
            "B9.1 OFRENDA A LOS DIOSES", th.DIM), *f.feed_lines(1)], buttons,
            [Button("Back", f.back)], columns=2, line_size="small")

    def start_offering(self, side: Side, roll: str) -> None:
        f = self.flow
        f.private(side, partial(self.offering_cards, side, roll),
                  "Which card is offered stays secret unless its value is added (B9.1).")

    def offering_cards(self, side: Side, roll: str) -> Page:
        from companion.games.kensei.battle.deck import card_value

        f = self.flow
        hand = [c["card"] for c in f.control.private(side)["hand"]["hand"]]
        buttons = []
        for i, c in enumerate(hand, 1):
            value = card_value(c)
            buttons.append(Button(f"Card {i} (worth {value}): re-roll", partial(
                self._offer, side, c, "reroll", roll)))
            buttons.append(Button(f"Card {i}: add {value}", partial(
                self._offer, side, c, "add", roll)))
        return Page("kensei-private", f"{f.name(side)}: which card?", [
            *f.feed_lines(1)], buttons, [Button("Back", f.back)], columns=2)

    def _offer(self, side: Side, card: str, kind: str, roll: str) -> None:
        f = self.flow
        on = f"turn {f.snap.view['turn']} troop {len(f.control.state.activated)} {roll}"
        if f.submit(Offering(side=side, card=card, kind=kind,
                             on=on)):
            f.back()

    # ------------------------------------------------------------------ orders

    def start_order(self, side: Side, troop: str | None = None) -> None:
        """An order for ``side``'s active troop, or a reaction by ``troop`` (B4)."""
        self.order_side = side
        self.order_troop = troop
        self.order_kind = None
        self.target = None
        self.situation = {}
        self.flow.open(self.order_page)

    def order_page(self) -> Page:
        f = self.flow
        side = self.order_side
        assert side is not None
        kinds = ACTION_ORDERS if self.order_troop is None else REACTION_ORDERS
        buttons = [Button(bw.ORDERS[k], partial(self._kind, k)) for k in kinds]
        tid = self._ordered_troop()
        return Page("kensei-turn", f"{f.name(side)}'s {f.snap.troop(tid)['name']}: which "
                    "order?", [Line(
            "Run, Empower and a challenge cost two orders; one combat order per activation; "
            "a Used troop may only fight.", "B3.3 USO DE LAS ÓRDENES", th.DIM)], buttons,
            [Button("Back", f.back)], columns=3)

    def _ordered_troop(self) -> str:
        if self.order_troop is not None:
            return self.order_troop
        assert self.order_side is not None
        return str(self.flow.snap.view["activation"]["troops"][self.order_side])

    def reactor_page(self) -> Page:
        """A troop not activated reacts (Huir, Combatir, Carga de oportunidad, Aguantar y
        disparar: B4)."""
        f = self.flow
        buttons = [Button(f"{f.name(t['side'])}'s {t['name']}", partial(
            self.start_order, t["side"], t["id"])) for t in f.snap.troops()
            if t["alive"] and t["inside"] is None and not t["in_reserve"]]
        return Page("kensei-turn", "Which troop reacts?", [Line(
            "A reaction answers an enemy's order: a charge, a move through its zone of "
            "control.", "B4", th.DIM)], buttons, [Button("Back", f.back)], columns=2)

    def _kind(self, kind: str) -> None:
        self.order_kind = kind
        self.flow.open(self.target_page if kind in bw.TARGETED else self.situation_page)

    def target_page(self) -> Page:
        f = self.flow
        side = self.order_side
        assert side is not None
        enemies = [t for t in f.snap.troops(other(side)) if t["alive"] and t["inside"] is None
                   and not t["in_reserve"]]
        buttons = [Button(f"Against {t['name']}", partial(self._target, t["id"]))
                   for t in enemies]
        return Page("kensei-turn", f"{bw.ORDERS[self.order_kind or '']}: against which "
                    "troop?", [Line("You say what the table shows: contact, sight, range.",
                                    "B18", th.DIM)], buttons,
                    [Button("Back", partial(f.open, self.order_page))], columns=1)

    def _target(self, tid: str) -> None:
        self.target = tid
        self.situation.setdefault("in_contact", self.order_kind in ("fight",))
        self.flow.open(self.situation_page)

    def situation_page(self) -> Page:
        f = self.flow
        kind = self.order_kind or ""
        buttons = [Button(f"{label}: {'yes' if self.situation.get(key) else 'no'}",
                          partial(self._flip, key), selected=bool(self.situation.get(key)))
                   for key, label in bw.SITUATION.items()]
        lines = [Line("Say what the table shows, then give the order.", "B4", th.DIM)]
        if f.control.feed and f.control.feed[-1].kind == "refused":
            lines += f.feed_lines(1)
        who = f.snap.troop(self._ordered_troop())["name"]
        against = f" against {f.snap.troop(self.target)['name']}" if self.target else ""
        return Page("kensei-turn", f"{who}: {bw.ORDERS[kind]}{against}", lines, buttons,
                    [Button("Back", partial(f.open, self.order_page)),
                     Button(f"Give the order: {bw.ORDERS[kind]}", self.give, th.ACCEPT)],
                    columns=3, line_size="small")

    def _flip(self, key: str) -> None:
        self.situation[key] = not self.situation.get(key)

    def give(self) -> None:
        f = self.flow
        side, kind = self.order_side, self.order_kind
        assert side is not None and kind is not None
        tid = self._ordered_troop()
        stunned = f.snap.troop(tid)["stunned"] > 0
        situation = Situation(stunned=stunned, **self.situation)
        if not f.submit(Order(side=side, troop=tid, order=kind,
                              target=self.target, situation=situation)):
            return
        f.back()
        if kind in MELEE_ORDERS and self.target is not None:
            self.open_melee(tid, self.target, kind)
        elif kind in SHOOT_ORDERS and self.target is not None:
            self.open_shot(tid, self.target)

    # ------------------------------------------------------------------ combats

    def open_melee(self, attacker: str, defender: str, order: str) -> None:
        from ui.kensei.forms import MeleeForm

        f = self.flow
        data = f.control.melee_prefill(attacker, defender, order)
        troops = {s: data[s].pop("troop") for s in ("a", "b")}
        form = MeleeForm(data, names=dict(f.control.names), seed=f.control.rng.randrange(2**31))
        self._calculate(form, lambda data: Melee(input=_named(data, troops)))

    def open_shot(self, shooter: str, target: str) -> None:
        from ui.kensei.forms import ShootForm

        f = self.flow
        data = f.control.shoot_prefill(shooter, target)
        troops = {s: data[s].pop("troop") for s in ("shooter", "target")}
        form = ShootForm(data, names=dict(f.control.names), seed=f.control.rng.randrange(2**31))
        self._calculate(form, lambda data: Shoot(input=_named(data, troops)))

    def _calculate(self, form: Any, command: Callable[[dict[str, Any]], Any]) -> None:
        f = self.flow
        app = f.kensei
        if app is None:
            return

        def ruled(data: dict[str, Any], ruling: dict[str, Any]) -> None:
            if f.submit(command(data)):
                f.overlay = None
                app.show_ruling(form, ruling, f.show, done=f.show)
            else:
                f.show()

        app.open_calculator(form, ruled, back=f.show)

    # ------------------------------------------------------------------ the roster

    def roster_page(self) -> Page:
        f = self.flow
        side = self.roster_side
        snap = f.snap
        troops = {t["id"]: t for t in snap.troops()}
        buttons = []
        for t in snap.troops(side):
            if t["inside"] is not None:
                continue
            leader = troops.get(t["leader"]) if t["leader"] else None
            buttons.append(Button(f"{t['name']}: {bw.troop_state(t, leader)}", partial(
                f.open, partial(self.marker_page, t["id"])) if t["alive"] else None))
        off = snap.view["off_table"].get(side, 0)
        lines = [Line(f"Not on the table yet: {bw.plural(off, 'troop')}.", colour=th.DIM)] \
            if off else []
        return Page("kensei-roster", f"{f.name(side)}'s troops", lines, buttons,
                    [Button("Back", f.back), Button(f"{f.name(other(side))}'s troops",
                                                    self._flip_roster)], columns=1)

    def _flip_roster(self) -> None:
        self.roster_side = other(self.roster_side)

    def marker_page(self, tid: str) -> Page:
        f = self.flow
        t = f.snap.troop(tid)
        buttons = []
        for m in bw.HAND_MARKERS:
            on = bool(t.get(m))
            word = bw.MARKERS[m]
            label = f"Add a Stunned marker ({t['stunned']})" if m == "stunned" else (
                f"{word}: {'on' if on else 'off'}")
            value = True if m == "stunned" else not on
            buttons.append(Button(label, partial(f.submit, SetMarker(
                troop=tid, marker=m, on=value)), selected=on))
        return Page("kensei-roster", f"{t['name']}: markers", [
            Line(bw.troop_state(t), bold=True),
            Line("Place or clear a marker the app does not follow itself.", "B1.1", th.DIM),
            *f.feed_lines(1)], buttons,
            [Button("Back", partial(f.open, self.roster_page))], columns=2)


def _named(data: dict[str, Any], troops: dict[str, str]) -> dict[str, Any]:
    """The calculator's input with each side's troop named, as the battle's command takes it
    (the calculator itself knows no troops)."""
    return {**data, **{key: {**data[key], "troop": tid} for key, tid in troops.items()}}
