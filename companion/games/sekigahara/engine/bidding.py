"""The Turn Order Step (6.3, C11)."""

from __future__ import annotations

from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.cards import check_in_hand
from companion.games.sekigahara.engine.commands import Bid, ChooseFirst
from companion.games.sekigahara.engine.data import CARDS
from companion.games.sekigahara.engine.flow import Emitter, reject
from companion.games.sekigahara.engine.state import Phase, State


def bid(state: State, cmd: Bid) -> list[ev.Event]:
    """6.3: each side lays a card face down; both are revealed together, the higher bid wins
    (C11: bids never tie) and both bid cards are discarded: a card in the discard pile cannot
    be bid before the reshuffle (3.3)."""
    if cmd.side in state.bids:
        raise reject("6.3", f"{cmd.side.value} has already bid")
    if state.hand[cmd.side] < 1:
        raise reject("6.3", f"{cmd.side.value} has no card to bid")
    check_in_hand(state, cmd.side, cmd.card, "6.3")  # 3.3: not a card already discarded
    em = Emitter(state)
    em.emit(ev.BidPlaced(side=cmd.side, card=cmd.card))
    bids = em.state.bids
    if len(bids) == 2:
        winner = max(bids, key=lambda side: CARDS[bids[side]].bid)
        em.emit(ev.BidsRevealed(cards=dict(bids), winner=winner))
        for side, card_id in bids.items():
            em.emit(
                ev.CardsDiscarded(
                    side=side, count=1, rule="6.3", cards=(card_id,), from_table=True
                )
            )
        em.emit(ev.PhaseBegan(phase=Phase.CHOOSE_FIRST, week=state.week, turn="A"))
    return em.events


def choose_first(state: State, cmd: ChooseFirst) -> list[ev.Event]:
    """6.3: the winner picks who moves first in both turns of the week."""
    if cmd.side is not state.bid_winner:
        raise reject("6.3", "only the winner of the bid chooses the first player")
    em = Emitter(state)
    em.emit(ev.FirstPlayerChosen(side=cmd.side, first=cmd.first))
    em.emit(ev.PhaseBegan(phase=Phase.MOVEMENT, week=state.week, turn="A", active=cmd.first))
    return em.events
