"""The command deck (BARAJA DE MANDO, B9.1): hands, command duels, offerings to the gods and the
commander activation, as pure functions over :class:`Decks` that return events.

Each side owns 24 cards "a-00".."a-23" (PREPARA TU BARAJA DE MANDO: 7 of 0, 8 of 1, 6 of 2, 3
of 3). A card id reveals its value, so every event here is SECRET: a shared screen shows only
:func:`public` and :func:`public_words`, which give counts and what the rules reveal (a duel's
bids after the reveal, an "add" offering), never a face-down card.

The engine never shuffles: the draw pile is a set (kept sorted) and the app or the card pad
names the cards drawn; :func:`deal` picks them for a virtual deck. Reshuffling the discards
happens during the draw that needs it, as the deck runs out (B9.1).

Bookkeeping of an activation pair (the duel fought, the offerings made) is cleared by the
:class:`DeckPairReset` event of :func:`end_pair`; the engine may instead apply that event from
its own handling of the end of a pair.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core.events import Event
from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.kensei.armylist import CommanderLevel
from companion.games.kensei.duel import duel as duel_ruling
from companion.games.kensei.duel import hand_size as printed_hand_size
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import Bids, DuelInput
from companion.games.kensei.rules import rules

Side = Literal["a", "b"]
OfferingKind = Literal["reroll", "add"]
SIDES: tuple[Side, Side] = ("a", "b")

DECK = "B9.1 PREPARA TU BARAJA DE MANDO"
USING = "B9.1 USANDO LA BARAJA DE MANDO"
DUEL = "B9.1 DUELO DE MANDO"
OFFERING = "B9.1 OFRENDA A LOS DIOSES"
COMMANDER = "B3.3 ACTIVACIÓN DE COMANDANTE"
LEVEL = "B14 NIVEL DE COMANDANTE"

EXTRA_DRAWS: dict[str, int] = {"hatamoto": 0, "taisho": 1, "daimyo": 2}

Cards = tuple[str, ...]


def _thresholds() -> list[tuple[int, int]]:
    """(first id, value) in value order, from the printed mix: [(0, 0), (7, 1), (15, 2), ...]."""
    mix = sorted(rules().command_deck.items())
    starts = [0, *accumulate(copies for _, copies in mix)][:-1]
    return [(start, value) for start, (value, _) in zip(starts, mix, strict=True)]


def deck_size() -> int:
    """24 (PREPARA TU BARAJA DE MANDO)."""
    return sum(rules().command_deck.values())


def card_ids(side: Side) -> Cards:
    """The side's 24 cards, "a-00".."a-23" (B1.1)."""
    return tuple(f"{side}-{n:02d}" for n in range(deck_size()))


def card_value(card: str) -> int:
    """B1.1: ids 00-06 are worth 0, 07-14 1, 15-20 2, 21-23 3. Raises ValueError on a bad id."""
    side, _, number = card.partition("-")
    if side not in SIDES or len(number) != 2 or not number.isdigit() \
            or int(number) >= deck_size():
        raise ValueError(f"{card!r} is not a command card")
    return max(value for start, value in _thresholds() if int(number) >= start)


def hand_size(battle_size: int) -> int:
    """USANDO LA BARAJA DE MANDO: 4 cards from 200 pe, 5 from 400, 6 from 600. Under 200 pe the
    rulebook gives no hand size (B19.9): refused, as the duel calculator does (reading 22)."""
    try:
        return printed_hand_size(battle_size)
    except KenseiError as exc:
        raise RuleViolation(USING, f"the rulebook gives no hand size under 200 points "
                                   f"(B19.9), and this battle is {battle_size}") from exc


def extra_draws(level: CommanderLevel | str) -> int:
    """NIVEL DE COMANDANTE (B14): a Taisho draws 1 more card, a Daimyo 2, put under the deck."""
    if level not in EXTRA_DRAWS:
        raise RuleViolation(LEVEL, f"no commander level is called {level!r}")
    return EXTRA_DRAWS[level]


# --- state ---------------------------------------------------------------------------------

class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideDeck(_Frozen):
    """One side's 24 cards. SECRET except the counts (and ``shown``, whose cards were revealed)."""

    pile: Cards = ()
    """The draw pile, sorted: its order is not tracked (the app or the card pad picks)."""
    bottom: Cards = ()
    """Cards put under the deck (Taisho, Daimyo), drawn in this order once the pile is empty."""
    hand: Cards = ()
    discards: Cards = ()
    """Face down: unused cards at the end of the turn, re-roll offerings, commander activations."""
    shown: Cards = ()
    """Revealed, then discarded: duel bids, "add" offerings. Public."""


class PendingDuel(_Frozen):
    """A command duel called and not yet revealed: the bids so far (SECRET until the reveal)."""

    caller: Side
    a: Cards = ()
    b: Cards = ()

    def bid(self, side: Side) -> Cards:
        return self.a if side == "a" else self.b


class Offering(_Frozen):
    """An offering made on a roll (its card is gone: only an "add" card's value is public)."""

    side: Side
    kind: OfferingKind
    roll: str
    value: int | None = None


class Decks(_Frozen):
    a: SideDeck
    b: SideDeck
    duel: PendingDuel | None = None
    duel_fought: bool = False
    """One command duel per activation pair (DUELO DE MANDO)."""
    offerings: tuple[Offering, ...] = ()
    """The offerings since the pair began, by roll: one card per player per roll."""

    def side(self, side: Side) -> SideDeck:
        return self.a if side == "a" else self.b


def new_decks() -> Decks:
    """Both decks whole and face down, no hands (PREPARA TU BARAJA DE MANDO)."""
    return Decks(a=SideDeck(pile=card_ids("a")), b=SideDeck(pile=card_ids("b")))


# --- events (every one SECRET: card ids reveal values) -------------------------------------

class CardsDrawn(Event):
    """Maintenance (B3.1 step 2): the hand drawn; ``under`` go under the deck (B14)."""

    type: Literal["cards_drawn"] = "cards_drawn"
    side: Side
    cards: Cards
    under: Cards = ()


class HandDiscarded(Event):
    """The unused hand, face down, at the end of the turn (USANDO LA BARAJA DE MANDO)."""

    type: Literal["hand_discarded"] = "hand_discarded"
    side: Side
    cards: Cards


class DeckReshuffled(Event):
    """The discards (face down and shown) shuffled into a new draw pile as the deck runs out."""

    type: Literal["deck_reshuffled"] = "deck_reshuffled"
    side: Side
    cards: Cards


class DuelBid(Event):
    """Cards laid face down in a command duel (the caller's, then the holder's)."""

    type: Literal["duel_bid"] = "duel_bid"
    side: Side
    cards: Cards


class SideCards(_Frozen):
    a: Cards
    b: Cards


class SideSums(_Frozen):
    a: int
    b: int


class DuelRevealed(Event):
    """Both bids turned up: the higher sum takes the initiative, a tie leaves it with the holder.
    The bid cards are discarded, shown."""

    type: Literal["duel_revealed"] = "duel_revealed"
    bids: SideCards
    sums: SideSums
    initiative_before: Side
    initiative_after: Side


class OfferingMade(Event):
    """One card spent on a roll: a re-roll (discarded face down, ``value`` None) or an add (the
    card shown, ``value`` its worth)."""

    type: Literal["offering_made"] = "offering_made"
    side: Side
    card: str
    kind: OfferingKind
    roll: str
    value: Annotated[int, Field(ge=0, le=3)] | None = None

    @model_validator(mode="after")
    def _value_only_when_shown(self) -> OfferingMade:
        if self.kind == "reroll" and self.value is not None:
            raise ValueError("a re-roll offering's card is never shown")
        if self.kind == "add" and self.value != card_value(self.card):
            raise ValueError("an add offering carries its card's value")
        return self


class CommanderActivated(Event):
    """B3.3 step 5: the whole hand discarded face down for one more activation."""

    type: Literal["commander_activated"] = "commander_activated"
    side: Side
    cards: Cards


class DeckPairReset(Event):
    """A new activation pair: a duel may be called again, offerings start afresh."""

    type: Literal["deck_pair_reset"] = "deck_pair_reset"


DeckEvent = Annotated[
    CardsDrawn | HandDiscarded | DeckReshuffled | DuelBid | DuelRevealed | OfferingMade
    | CommanderActivated | DeckPairReset,
    Field(discriminator="type"),
]
EVENT_CLASSES = (CardsDrawn, HandDiscarded, DeckReshuffled, DuelBid, DuelRevealed, OfferingMade,
                 CommanderActivated, DeckPairReset)
"""Every deck event class, for an engine routing its events to :func:`apply`."""


# --- checks --------------------------------------------------------------------------------

def _secret(card: str) -> str:
    try:
        return f"{card} (worth {card_value(card)})"
    except ValueError:
        return repr(card)


def _distinct(cards: Sequence[str], rule: str) -> None:
    twice = [card for card, n in Counter(cards).items() if n > 1]
    if twice:
        raise HiddenViolation(rule, "the same command card is named twice",
                              f"{_secret(twice[0])} is named twice")


def _held(cards: Iterable[str], hand: Cards, rule: str, what: str) -> None:
    for card in cards:
        if card not in hand:
            raise HiddenViolation(rule, f"{what} is not in the hand",
                                  f"{_secret(card)} is not in the hand")


def _no_duel_pending(decks: Decks, doing: str) -> None:
    if decks.duel is not None:
        raise RuleViolation(DUEL, f"a command duel is waiting for the initiative holder's bid: "
                                  f"no {doing} until it is revealed")


# --- commands ------------------------------------------------------------------------------

def _reshuffle_needed(own: SideDeck, cards: Cards) -> bool:
    """Whether drawing ``cards`` empties the deck: the pile goes first, then the cards under it
    in order, then the shuffled discards (B9.1). Raises, hiding the cards, if they can't be the
    cards drawn."""
    wanted, pile = set(cards), set(own.pile)
    if len(wanted) <= len(pile):
        if not wanted <= pile:
            stray = sorted(wanted - pile)[0]
            raise HiddenViolation(USING, "a card drawn is not in the draw pile",
                                  f"{_secret(stray)} is not in the draw pile")
        return False
    if not pile <= wanted:
        raise HiddenViolation(USING, "the whole draw pile is drawn before any other card",
                              f"{', '.join(_secret(c) for c in sorted(pile - wanted))} "
                              "left in the draw pile")
    rest = wanted - pile
    if len(rest) <= len(own.bottom):
        if rest != set(own.bottom[:len(rest)]):
            raise HiddenViolation(LEVEL, "the cards under the deck are drawn in the order they "
                                         "were put there",
                                  "next under the deck: "
                                  + ", ".join(_secret(c) for c in own.bottom[:len(rest)]))
        return False
    if not set(own.bottom) <= rest:
        raise HiddenViolation(LEVEL, "the cards under the deck are drawn before the discards "
                                     "are shuffled", "under the deck: "
                              + ", ".join(_secret(c) for c in own.bottom if c not in rest))
    stray_cards = rest - set(own.bottom) - set(own.discards) - set(own.shown)
    if stray_cards:
        stray = sorted(stray_cards)[0]
        raise HiddenViolation(USING, "a card drawn is not in the deck or the discards",
                              f"{_secret(stray)} is neither in the deck nor discarded")
    return True


def draw(decks: Decks, side: Side, cards: Sequence[str], under: Sequence[str],
         battle_size: int, level: CommanderLevel | str) -> list[DeckEvent]:
    """Maintenance (B3.1 step 2, USANDO LA BARAJA DE MANDO): draw the hand size for the battle
    size plus the commander level's extra cards (B14), which go under the deck (``under``)."""
    size, extra = hand_size(battle_size), extra_draws(level)
    _no_duel_pending(decks, "draw")
    own = decks.side(side)
    if own.hand:
        raise RuleViolation(USING, f"the hand still holds {len(own.hand)} command cards: it is "
                                   "discarded before the draw")
    drawn, below = tuple(cards), tuple(under)
    if len(drawn) != size + extra:
        more = f" ({size} and {extra} for the {level.capitalize()})" if extra else ""
        raise RuleViolation(USING, f"{size + extra} command cards are drawn at {battle_size} "
                                   f"points{more}, not {len(drawn)}")
    _distinct(drawn, USING)
    if len(below) != extra:
        raise RuleViolation(LEVEL, f"{extra} of the cards drawn go under the deck, "
                                   f"not {len(below)}")
    _distinct(below, LEVEL)
    if not set(below) <= set(drawn):
        raise HiddenViolation(LEVEL, "a card put under the deck is not one of the cards drawn",
                              ", ".join(_secret(c) for c in below if c not in drawn)
                              + " not drawn")
    events: list[DeckEvent] = []
    if _reshuffle_needed(own, drawn):
        events.append(DeckReshuffled(side=side, cards=tuple(sorted(own.discards + own.shown))))
    events.append(CardsDrawn(side=side, cards=drawn, under=below))
    return events


def deal(decks: Decks, side: Side, count: int, rng: random.Random) -> Cards:
    """``count`` cards a virtual deck gives, in the order :func:`draw` accepts (the pile, then
    the cards under it, then the shuffled discards): for the app and the simulator."""
    own = decks.side(side)
    pile = list(own.pile)
    if count <= len(pile):
        return tuple(rng.sample(pile, count))
    rest = count - len(pile)
    reshuffled = sorted(own.discards + own.shown)
    return (tuple(pile) + own.bottom[:rest]
            + tuple(rng.sample(reshuffled, max(0, rest - len(own.bottom)))))


def discard_hand(decks: Decks, side: Side) -> list[DeckEvent]:
    """The end of the turn (USANDO LA BARAJA DE MANDO; B19.10: or maintenance, the same): the
    unused cards go face down to the discards."""
    return [HandDiscarded(side=side, cards=decks.side(side).hand)]


def duel_bid(decks: Decks, side: Side, cards: Sequence[str],
             initiative: Side) -> list[DeckEvent]:
    """DUELO DE MANDO: the player without the initiative calls and lays one card or more face
    down; then the holder lays its own; both are revealed, the higher sum takes the initiative,
    a tie leaves it with the holder, and the cards are discarded, shown. One duel per
    activation pair. A holder with an empty hand answers with no cards (a sum of 0): the
    rulebook does not say, and the call must still be answered."""
    if decks.duel_fought:
        raise RuleViolation(DUEL, "one command duel per activation pair: the next may be "
                                  "called before two new troops activate")
    pending = decks.duel
    if pending is None and side == initiative:
        raise RuleViolation(DUEL, "only the player without the initiative calls a command duel")
    if pending is not None:
        if side == pending.caller:
            raise RuleViolation(DUEL, "the bid is down: the initiative holder answers now")
        if initiative != side:
            raise RuleViolation(DUEL, "the duel was called against the initiative holder")
    own, bid = decks.side(side), tuple(cards)
    if not bid and (pending is None or own.hand):
        raise RuleViolation(DUEL, "a bid is one command card or more"
                            + ("" if own.hand else ", and the hand is empty"))
    _distinct(bid, DUEL)
    _held(bid, own.hand, DUEL, "a card bid")
    events: list[DeckEvent] = [DuelBid(side=side, cards=bid)]
    if pending is not None:
        holder = side
        bids = SideCards(a=bid if side == "a" else pending.a, b=bid if side == "b" else pending.b)
        ruling = duel_ruling(DuelInput(
            initiative=holder, caller=pending.caller,
            bids=Bids(a=[card_value(c) for c in bids.a], b=[card_value(c) for c in bids.b])))
        after: Side = "a" if ruling.initiative_after == "a" else "b"
        events.append(DuelRevealed(bids=bids, sums=SideSums(a=ruling.sums.a, b=ruling.sums.b),
                                   initiative_before=holder, initiative_after=after))
    return events


def offering(decks: Decks, side: Side, card: str, kind: OfferingKind, roll: str,
             initiative: Side, roller: Side | None = None) -> list[DeckEvent]:
    """OFRENDA A LOS DIOSES: one card per player per roll ``roll`` (the engine's name for the
    roll just made), the player without the initiative declaring first. A re-roll's card is
    discarded face down; an add's card is shown, and only on one's own roll (``roller``, when
    the engine knows it)."""
    _no_duel_pending(decks, "offering")
    own = decks.side(side)
    if not own.hand:
        raise RuleViolation(OFFERING, "an offering needs a command card in hand, and the hand "
                                      "is empty")
    on_roll = {o.side for o in decks.offerings if o.roll == roll}
    if side in on_roll:
        raise RuleViolation(OFFERING, "one card per player per roll: this roll has had that "
                                      "player's offering")
    if side != initiative and initiative in on_roll:
        raise RuleViolation(OFFERING, "the player without the initiative declares first, and "
                                      "the initiative holder has made its offering on this roll")
    if kind == "add" and roller is not None and roller != side:
        raise RuleViolation(OFFERING, "a card's value is added only to a die of one's own roll")
    _held([card], own.hand, OFFERING, "the card offered")
    value = card_value(card) if kind == "add" else None
    return [OfferingMade(side=side, card=card, kind=kind, roll=roll, value=value)]


def commander_activation(decks: Decks, side: Side) -> list[DeckEvent]:
    """B3.3 step 5 (ACTIVACIÓN DE COMANDANTE): with troops left to activate at the end of the
    turn, the whole hand is discarded face down for one more activation (the engine checks the
    troops)."""
    _no_duel_pending(decks, "commander activation")
    hand = decks.side(side).hand
    if not hand:
        raise RuleViolation(COMMANDER, "a commander activation discards the command cards in "
                                       "hand, and the hand is empty")
    return [CommanderActivated(side=side, cards=hand)]


def end_pair(decks: Decks) -> list[DeckEvent]:
    """The activation pair is over: a duel may be called again and offerings start afresh."""
    return [DeckPairReset()]


# --- apply ---------------------------------------------------------------------------------

def _without(cards: Cards, gone: Iterable[str]) -> Cards:
    out = set(gone)
    return tuple(c for c in cards if c not in out)


def _set(decks: Decks, side: Side, **fields: Any) -> Decks:
    return decks.model_copy(update={side: decks.side(side).model_copy(update=fields)})


def apply(decks: Decks, event: Event) -> Decks:
    """The decks after ``event`` (any deck event; others leave them as they are)."""
    if isinstance(event, CardsDrawn):
        own = decks.side(event.side)
        hand = tuple(sorted(set(event.cards) - set(event.under)))
        return _set(decks, event.side, pile=_without(own.pile, event.cards), hand=hand,
                    bottom=_without(own.bottom, event.cards) + event.under)
    if isinstance(event, DeckReshuffled):
        own = decks.side(event.side)
        return _set(decks, event.side, pile=tuple(sorted(own.pile + event.cards)),
                    discards=_without(own.discards, event.cards),
                    shown=_without(own.shown, event.cards))
    if isinstance(event, HandDiscarded | CommanderActivated):
        own = decks.side(event.side)
        return _set(decks, event.side, hand=_without(own.hand, event.cards),
                    discards=own.discards + event.cards)
    if isinstance(event, DuelBid):
        pending = decks.duel or PendingDuel(caller=event.side)
        decks = _set(decks, event.side, hand=_without(decks.side(event.side).hand, event.cards))
        return decks.model_copy(update={"duel": pending.model_copy(
            update={event.side: event.cards})})
    if isinstance(event, DuelRevealed):
        for side in SIDES:
            bid = event.bids.a if side == "a" else event.bids.b
            own = decks.side(side)
            decks = _set(decks, side, hand=_without(own.hand, bid), shown=own.shown + bid)
        return decks.model_copy(update={"duel": None, "duel_fought": True})
    if isinstance(event, OfferingMade):
        own = decks.side(event.side)
        hand = _without(own.hand, [event.card])
        if event.kind == "add":
            decks = _set(decks, event.side, hand=hand, shown=(*own.shown, event.card))
        else:
            decks = _set(decks, event.side, hand=hand, discards=(*own.discards, event.card))
        made = Offering(side=event.side, kind=event.kind, roll=event.roll, value=event.value)
        return decks.model_copy(update={"offerings": (*decks.offerings, made)})
    if isinstance(event, DeckPairReset):
        return decks.model_copy(update={"duel_fought": False, "offerings": ()})
    return decks


# --- views and words -----------------------------------------------------------------------

def public(decks: Decks) -> dict[str, Any]:
    """What a shared screen may show: counts (``pile`` counts the cards under it too,
    ``discards`` the whole discard pile, face down and shown), the values of the shown cards,
    how many cards each side has bid in a duel under way (never their values), the offerings
    made in this pair."""
    view: dict[str, Any] = {}
    for side in SIDES:
        own = decks.side(side)
        view[side] = {"pile": len(own.pile) + len(own.bottom), "under": len(own.bottom),
                      "hand": len(own.hand), "discards": len(own.discards) + len(own.shown),
                      "shown": sorted(card_value(c) for c in own.shown)}
    view["duel"] = None if decks.duel is None else {
        "caller": decks.duel.caller,
        "bids": {side: len(decks.duel.bid(side)) for side in SIDES}}
    view["duel_fought"] = decks.duel_fought
    view["offerings"] = [o.model_dump() for o in decks.offerings]
    return view


def private(decks: Decks, side: Side) -> dict[str, Any]:
    """What ``side``'s player alone may see: the hand, a bid laid and not yet revealed, the
    cards it put under its deck (ids and values)."""
    own = decks.side(side)
    bid = decks.duel.bid(side) if decks.duel is not None else ()

    def listed(cards: Cards) -> list[dict[str, Any]]:
        return [{"card": c, "value": card_value(c)} for c in cards]

    return {"hand": listed(own.hand), "bid": listed(bid), "under": listed(own.bottom)}


def _cards(n: int) -> str:
    return "1 command card" if n == 1 else f"{n} command cards"


def public_words(event: Event, names: Mapping[str, str]) -> str:
    """A plain sentence a shared screen may show for a deck event: never a face-down card."""
    if isinstance(event, CardsDrawn):
        who = names[event.side]
        if event.under:
            return (f"{who} draws {_cards(len(event.cards))} and puts {len(event.under)} under "
                    f"the deck ({USING}; {LEVEL})")
        return f"{who} draws {_cards(len(event.cards))} ({USING})"
    if isinstance(event, HandDiscarded):
        who = names[event.side]
        if not event.cards:
            return f"{who} has no command cards left to discard ({USING})"
        return f"{who} discards {_cards(len(event.cards))} face down ({USING})"
    if isinstance(event, DeckReshuffled):
        return (f"{names[event.side]} shuffles the {_cards(len(event.cards))} discarded into a "
                f"new deck ({USING})")
    if isinstance(event, DuelBid):
        if not event.cards:
            return f"{names[event.side]} has no command cards to bid: a bid of 0 ({DUEL})"
        return f"{names[event.side]} bids {_cards(len(event.cards))}, face down ({DUEL})"
    if isinstance(event, DuelRevealed):
        after, before = names[event.initiative_after], names[event.initiative_before]
        if event.sums.a == event.sums.b:
            outcome = f"a tie, {before} keeps the initiative"
        elif event.initiative_after == event.initiative_before:
            outcome = f"{after} keeps the initiative"
        else:
            outcome = f"{after} takes the initiative"
        return (f"Command duel: {names['a']} {event.sums.a}, {names['b']} {event.sums.b}; "
                f"{outcome} ({DUEL})")
    if isinstance(event, OfferingMade):
        if event.kind == "add":
            return (f"{names[event.side]} makes an offering: a card worth {event.value} added "
                    f"to a die, the card shown ({OFFERING})")
        return (f"{names[event.side]} makes an offering: a re-roll, the card discarded face "
                f"down ({OFFERING})")
    if isinstance(event, CommanderActivated):
        return (f"{names[event.side]} discards {_cards(len(event.cards))} face down for a "
                f"commander activation: one more troop activates ({COMMANDER})")
    if isinstance(event, DeckPairReset):
        return f"A new activation pair: a command duel may be called ({DUEL})"
    raise ValueError(f"not a command deck event: {event.type}")


def check_cards(decks: Decks) -> list[str]:
    """Card conservation (PREPARA TU BARAJA DE MANDO): each side's 24 cards, each once, across
    pile, bottom, hand, discards, shown and a duel bid. Problems found (an empty list: none);
    they name cards, so they are for logs and tests, not for a shared screen."""
    problems = []
    for side in SIDES:
        own = decks.side(side)
        bid = decks.duel.bid(side) if decks.duel is not None else ()
        held = Counter(own.pile + own.bottom + own.hand + own.discards + own.shown + bid)
        twice = sorted(c for c, n in held.items() if n > 1)
        if twice:
            problems.append(f"{side}: {', '.join(twice)} in two places")
        if set(held) != set(card_ids(side)):
            lost = sorted(set(card_ids(side)) - set(held))
            strange = sorted(set(held) - set(card_ids(side)))
            problems.append(f"{side}: lost {lost}, foreign {strange}")
    return problems
