"""The engine's one door to the command deck (``battle.deck``, B9.1): which events are the
deck's, and the few deck facts the turn needs."""

from __future__ import annotations

from companion.core.events import Event
from companion.games.kensei.battle import deck
from companion.games.kensei.battle.commands import Side


def is_deck_event(event: Event) -> bool:
    return isinstance(event, deck.EVENT_CLASSES)


def run(decks: deck.Decks, events: list[deck.DeckEvent]) -> deck.Decks:
    for event in events:
        decks = deck.apply(decks, event)
    return decks


def cards_held(decks: deck.Decks, side: Side) -> int:
    return len(decks.side(side).hand)
