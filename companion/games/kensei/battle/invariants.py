"""Invariants checked after every command in self-play and tests."""

from __future__ import annotations

import json

from companion.games.kensei.battle import deck
from companion.games.kensei.battle.state import SIDES, State
from companion.games.kensei.battle.views import public_view


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
    if len(set(state.activated)) != len(state.activated):
        found.append("a troop activated twice in one turn (B3.3)")
    act = state.activation
    if act is not None:
        for side, tid in act.troops.items():
            if state.troops[tid].used and act.left.get(side, 0):
                found.append(f"{tid}: a Used troop has orders left (B3.3, B7)")
        if any(v < 0 for v in act.left.values()):
            found.append("negative orders left")
    if state.decks is not None:
        found += deck.check_cards(state.decks)
        for side in SIDES:
            held = len(state.decks.side(side).hand)
            if held > deck.hand_size(state.army(side).list.size):
                found.append(f"{side}: {held} cards in hand (B9.1)")
    public = public_view(state)
    text = json.dumps(public)
    shown = {t["id"] for t in public["troops"]}
    for t in state.troops.values():
        if t.held_back and state.army(t.side).list.clan == "kuroi-te" and t.id in shown:
            found.append(f"the public view shows the hidden troop {t.id} (B17)")
    if state.phase not in ("scoring", "over"):
        for side in state.secondary:
            if public["secondary"][side] != "rolled":
                found.append(f"the public view shows {side}'s secondary mission (B17)")
    for side in SIDES:
        for card in deck.card_ids(side):
            if f'"{card}"' in text:
                found.append(f"the public view names the face-down card {card} (B17)")
    return found
