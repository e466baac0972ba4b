"""Cards the table knows by name (3.3): a card played face up goes to the discard pile and stays
out of play until that pile is reshuffled into a new draw pile (3.3, 6.3, 8.10).

Hands are hidden and untagged, so only the cards named as they are played are known; each is
checked here before any use: a bid, a deployment, a Loyalty Challenge, a card shown to refute one.
"""

from __future__ import annotations

from companion.games.sekigahara.components import BlockFace, Card, CardKind, Side
from companion.games.sekigahara.engine.data import CARDS
from companion.games.sekigahara.engine.feed import card_words
from companion.games.sekigahara.engine.flow import reject
from companion.games.sekigahara.engine.state import State


def check_in_hand(state: State, side: Side, card_id: str, rule: str) -> Card:
    """The card ``card_id`` of ``side``'s deck, refused if the table saw it leave the hand.

    A card face up on the table is refused citing ``rule`` (the step that put it there); one in
    the discard pile citing 3.3: only the reshuffle brings it back. The public message never
    names the card (a bid is face down, 6.3); the player who named it is told which it was.
    """
    card = CARDS.get(card_id)
    if card is None or card.side is not side:
        raise reject(rule, f"that is not a card of the {side.value} deck",
                     private=f"{card_id!r} is not a card of your deck")
    if card_id in state.discarded[side]:
        raise reject("3.3", "that card was discarded face up: it comes back only when the "
                     "discard pile is shuffled into a new draw pile",
                     private=f"{card_words(card_id)} is in your discard pile")
    if card_id in state.table_cards[side]:
        raise reject(rule, "that card is already face up on the table",
                     private=f"{card_words(card_id)} is on the table")
    return card


def can_deploy(card: Card, face: BlockFace) -> bool:
    """8.2.2, 9.4, 9.5: a card of the block's clan deploys it (any card of its side for the Ii
    and Ishida blocks); a Loyalty Challenge card deploys none."""
    if card.kind is CardKind.LOYALTY or card.side is not face.side:
        return False
    return face.is_wildcard or card.clan is face.clan


def copy_in_hand(state: State, side: Side, card_id: str) -> str:
    """A copy of ``card_id``'s face (clan, kind, bid) the table has not seen leave ``side``'s
    hand: the touchscreen enters a card by its face, and any copy is the same card to the rules
    (3.3). ``card_id`` itself when it is not out of play, or when every copy is."""
    card = CARDS.get(card_id)
    out = state.discarded[side] | set(state.table_cards[side])
    if card is None or card_id not in out:
        return card_id
    face = (card.side, card.clan, card.kind, card.bid)
    return next((c for c, k in sorted(CARDS.items())
                 if (k.side, k.clan, k.kind, k.bid) == face and c not in out), card_id)
