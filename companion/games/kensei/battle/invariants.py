"""Invariants checked after every command in self-play and tests."""

from __future__ import annotations

import json

from companion.games.kensei.battle import deck
from companion.games.kensei.battle.state import SIDES, State
from companion.games.kensei.battle.views import public_view

DECK_SIZE = 24
"""B1.1: 24 cards per player."""


def violations(state: State) -> list[str]:
    """What is wrong with ``state`` (empty when all is well)."""
    found: list[str] = []
    if state.phase == "setup":
        return found
    for t in state.troops.values():
        if t.models < 0 or t.wound_markers < 0 or t.stunned < 0:
            found.append(f"{t.id}: a negative count")
        if t.models > t.models_start:
            found.append(f"{t.id}: {t.models} models of {t.models_start}")
        if t.removed and t.models:
            found.append(f"{t.id}: removed with models left")
        if t.inside is not None and not state.troops[t.inside].alive and t.alive:
            found.append(f"{t.id}: a living leader inside a destroyed unit")
    act = state.activation
    if act is not None:
        for side, tid in act.troops.items():
            if state.troops[tid].used:
                found.append(f"{tid}: a Used troop is active (B3.3)")
        if any(v < 0 for v in act.left.values()):
            found.append("negative orders left")
    if state.decks is not None:
        found += _cards(state)
    text = json.dumps(public_view(state))
    if state.phase not in ("scoring", "over"):
        for side, die in state.secondary.items():
            if '"secondary_die"' in text or public_view(state)["secondary"][side] not in (
                    "rolled", None):
                found.append(f"the public view shows {side}'s secondary mission (B17)")
    for side in SIDES:
        for card in deck.card_ids(side):
            if f'"{card}"' in text and card not in _shown(state, side):
                found.append(f"the public view names the face-down card {card} (B17)")
    return found


def _shown(state: State, side: str) -> set[str]:
    return set(getattr(getattr(state.decks, side), "shown", ()))


def _cards(state: State) -> list[str]:
    """Card conservation: each side's 24 cards are in exactly one of pile, bottom, hand,
    discards or a bid on the table (B9.1)."""
    found: list[str] = []
    decks = state.decks
    bids = getattr(decks, "duel", None) or {}
    for side in SIDES:
        own = getattr(decks, side)
        places = [*own.pile, *own.bottom, *own.hand, *own.discards]
        if isinstance(bids, dict):
            places += list(bids.get(side, ()))
        if sorted(places) != sorted(deck.card_ids(side)):
            found.append(f"{side}: {len(places)} cards accounted for, not {DECK_SIZE}")
        size = state.army(side).list.size
        if len(own.hand) > deck.hand_size(size):
            found.append(f"{side}: {len(own.hand)} cards in hand (B9.1)")
    return found
