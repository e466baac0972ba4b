"""Invariants checked after every event in self-play and tests."""

from __future__ import annotations

import re

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.data import BOARD, DECK_SIZE, FACES, TOTAL_BLOCKS
from companion.games.sekigahara.engine.state import OFF_MAP, State
from companion.games.sekigahara.engine.views import public_view

_ID = re.compile(r"\b[IT]\d\d\b")


def violations(state: State, *, views: bool = True) -> list[str]:
    """What is wrong with ``state`` (empty when all is well)."""
    found: list[str] = []
    if len(state.pos) != TOTAL_BLOCKS and state.pos:
        found.append(f"{len(state.pos)} blocks tracked, not {TOTAL_BLOCKS}")
    for b, zone in state.pos.items():
        if b not in FACES or (zone not in OFF_MAP and zone not in BOARD.locations):
            found.append(f"{b} in unknown zone {zone}")
    for side in Side:
        piles = (state.hand[side], state.draw[side], state.discard[side], state.table[side])
        if min(piles) < 0:
            found.append(f"{side}: negative card count {piles}")
        if state.pos and sum(piles) != DECK_SIZE[side]:
            found.append(f"{side}: {sum(piles)} cards, not {DECK_SIZE[side]}")
    if not state.inside <= set(state.pos):
        found.append("unknown block inside a castle")
    if views:
        text = public_view(state).payload.model_dump_json()
        if _ID.search(text):
            found.append("the public view holds a block id")
    return found
