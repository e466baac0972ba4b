"""The engine's one door to the command deck (``battle.deck``, B9.1): the deck's own events
join the battle's, and the few deck facts the turn needs are read here."""

from __future__ import annotations

from companion.core.events import Event
from companion.games.kensei.battle import deck

DECK_EVENTS = (deck.CardsDrawn, deck.HandDiscarded, deck.DeckReshuffled, deck.DuelBid,
               deck.DuelRevealed, deck.OfferingMade, deck.CommanderActivated)


def is_deck_event(event: Event) -> bool:
    return isinstance(event, DECK_EVENTS)


def run(decks: deck.Decks, events: list[deck.DeckEvent]) -> deck.Decks:
    for event in events:
        decks = deck.apply(decks, event)
    return decks


def hand(decks: deck.Decks, side: str) -> tuple[str, ...]:
    return tuple(getattr(decks, side).hand)


def cards_held(decks: deck.Decks, side: str) -> int:
    return len(hand(decks, side))
