"""Invariants checked after every command in self-play and tests."""

from __future__ import annotations

import re

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.data import BOARD, DECK_SIZE, FACES, TOTAL_BLOCKS
from companion.games.sekigahara.engine.state import OFF_MAP, State, index_agrees
from companion.games.sekigahara.engine.views import public_view

# A block id's shape; the word boundary before it is checked by hand, since a pattern that
# starts with ``\b`` makes the search eight times slower.
_ID = re.compile(r"[IT]\d\d(?!\w)")
_ZONES = OFF_MAP | BOARD.locations.keys()


def holds_block_id(text: str) -> bool:
    """Whether ``text`` names a block by its id ("I07", "T41") as a word of its own."""
    for found in _ID.finditer(text):
        start = found.start()
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"):
            return True
    return False


def violations(state: State, *, views: bool = True) -> list[str]:
    """What is wrong with ``state`` (empty when all is well). ``views``: also check that the
    public view holds no block id (3.1: the shared screen never identifies a hidden block)."""
    found: list[str] = []
    if len(state.pos) != TOTAL_BLOCKS and state.pos:
        found.append(f"{len(state.pos)} blocks tracked, not {TOTAL_BLOCKS}")
    if not (state.pos.keys() <= FACES.keys() and set(state.pos.values()) <= _ZONES):
        found += [f"{b} in unknown zone {zone}" for b, zone in state.pos.items()
                  if b not in FACES or zone not in _ZONES]
    if not index_agrees(state):
        found.append("the blocks by zone disagree with the blocks' positions")
    for side in Side:
        piles = (state.hand[side], state.draw[side], state.discard[side], state.table[side])
        if min(piles) < 0:
            found.append(f"{side}: negative card count {piles}")
        if state.pos and sum(piles) != DECK_SIZE[side]:
            found.append(f"{side}: {sum(piles)} cards, not {DECK_SIZE[side]}")
        named = (len(state.table_cards[side]), len(state.discarded[side]))
        if named[0] > state.table[side] or named[1] > state.discard[side] or (
                set(state.table_cards[side]) & state.discarded[side]):
            found.append(f"{side}: the cards named on the table and in the discard pile "
                         f"{named} disagree with the counts (3.3)")
    if not state.inside <= set(state.pos):
        found.append("unknown block inside a castle")
    if views and holds_block_id(public_view(state).payload.model_dump_json()):
        found.append("the public view holds a block id")
    return found
