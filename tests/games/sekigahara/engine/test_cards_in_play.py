"""Cards the table names (3.3, 6.3, 8.10) and Loyalty Challenges (8.6.1, C19): a card discarded
face up stays out of play until its discard pile is reshuffled, a challenge is refuted only by a
card shown from a hand that has one, and the answer is the deploying side's."""

from __future__ import annotations

from _engine_kit import ISH, TOK, finish_and_lose, of_type, ok, pick, position, rejected

from companion.core.game import Accepted
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.cards import copy_in_hand
from companion.games.sekigahara.engine.data import CARDS
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.state import Phase
from companion.games.sekigahara.engine.views import public_event, public_view

TOKS = pick(TOK, 2, clan=Clan.TOKUGAWA, mon=3)
UKITA = pick(ISH, 2, clan=Clan.UKITA)


def cards(side: Side, clan: Clan | None, kind: CardKind) -> list[str]:
    return sorted(c for c, k in CARDS.items() if k.side is side and k.clan is clan
                  and k.kind is kind)


TOKUGAWA_PLAIN = cards(TOK, Clan.TOKUGAWA, CardKind.PLAIN)
UKITA_PLAIN = cards(ISH, Clan.UKITA, CardKind.PLAIN)
ISHIDA_LOYALTY = cards(ISH, None, CardKind.LOYALTY)


def named(card_id: str) -> cm.CardPlay:
    card = CARDS[card_id]
    return cm.CardPlay(clan=card.clan, kind=card.kind, card_id=card_id)


def bid_week(game: SekigaharaGame, week: int) -> SekigaharaGame:
    return new_game([*game.events, ev.PhaseBegan(phase=Phase.BID, week=week, turn="A")])


def test_a_bid_card_is_not_bid_again_before_the_reshuffle() -> None:
    """The audit's T-loyalty-1: won the week-2 bid, then bid again in week 3 (6.3, 3.3). The
    refusal does not say which card was bid (bids are face down); the bidder is told."""
    game = position({}, phase=Phase.BID, week=2)
    ok(game, cm.Bid(side=TOK, card="T-loyalty-1"))
    ok(game, cm.Bid(side=ISH, card="I-mori-plain-1"))
    game = bid_week(game, 3)
    refused = rejected(game, cm.Bid(side=TOK, card="T-loyalty-1"), "3.3")
    assert game.state.discarded[TOK] == {"T-loyalty-1"}
    assert "loyalty" not in refused.message.lower() and "T-" not in refused.message
    assert refused.private is not None and "Loyalty (bid" in refused.private
    ok(game, cm.Bid(side=TOK, card="T-loyalty-2"))
    # 3.3: the draw pile runs out, the discard pile is shuffled into it: the card is back
    game = bid_week(game, 4)
    left = game.state.draw[TOK]
    game = new_game([*game.events, ev.CardsDrawn(side=TOK, count=left + 1, rule="test")])
    assert game.state.discarded[TOK] == frozenset()
    ok(game, cm.Bid(side=TOK, card="T-loyalty-1"))


def kiyosu_and_sawayama() -> SekigaharaGame:
    game = position({"kiyosu": [TOKS[0], UKITA[0]], "sawayama": [TOKS[1], UKITA[1]]},
                    phase=Phase.COMBAT)
    ok(game, cm.DeclareCombat(side=TOK, location="kiyosu"))
    return game


def test_a_card_played_in_one_battle_is_not_played_in_the_next() -> None:
    """The audit: a card played at Kiyosu played again at Sawayama the same phase. 8.10 used to
    discard the battle's cards by count only, so their names were lost."""
    game = kiyosu_and_sawayama()
    played = TOKUGAWA_PLAIN[0]
    ok(game, cm.Deploy(side=TOK, card=named(played), blocks=(TOKS[0],)))
    finish_and_lose(game)
    ok(game, cm.DeclareCombat(side=TOK, location="sawayama"))
    refused = rejected(game, cm.Deploy(side=TOK, card=named(played), blocks=(TOKS[1],)), "3.3")
    assert "T-" not in refused.message
    [discarded] = [e for e in of_type(game.events, ev.CardsDiscarded) if e.rule == "8.10"]
    assert isinstance(discarded, ev.CardsDiscarded) and discarded.cards == (played,)
    assert played in game.state.discarded[TOK] and game.state.table_cards[TOK] == ()
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[1]), blocks=(TOKS[1],)))


def test_a_discarded_loyalty_challenge_card_is_not_played_again() -> None:
    game = kiyosu_and_sawayama()
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[0]), blocks=(TOKS[0],)))
    challenge = cm.Challenge(side=ISH, refuted=True, card=ISHIDA_LOYALTY[0])
    ok(game, challenge)
    finish_and_lose(game)
    assert ISHIDA_LOYALTY[0] in game.state.discarded[ISH]
    ok(game, cm.DeclareCombat(side=TOK, location="sawayama"))
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[1]), blocks=(TOKS[1],)))
    rejected(game, challenge, "3.3")
    rejected(game, cm.Challenge(side=ISH, refuted=True, shown=TOKUGAWA_PLAIN[0]), "3.3")
    rejected(game, cm.Challenge(side=ISH, refuted=True, card=UKITA_PLAIN[0]), "8.6.1")
    ok(game, cm.Challenge(side=ISH, refuted=True, card=ISHIDA_LOYALTY[1]))


def test_no_refutation_from_an_empty_hand() -> None:
    """8.6.1: the deploying player refutes by showing another card from the hand; Tokugawa
    deployed with its last card, so it has none to show. Hand sizes are public: the refusal
    may say so."""
    game = position({"kiyosu": [TOKS[0], UKITA[0]]}, phase=Phase.COMBAT, hands=1)
    ok(game, cm.DeclareCombat(side=TOK, location="kiyosu"))
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[0]), blocks=(TOKS[0],)))
    assert game.state.hand[TOK] == 0
    refused = rejected(game, cm.Challenge(side=ISH, refuted=True), "8.6.1")
    assert "Tokugawa has no card in hand" in refused.message
    events = ok(game, cm.Challenge(side=ISH, refuted=False))
    assert game.state.pending is not None
    assert game.state.pending.combat.deployments[0].defected
    assert any("challenge" in public_event(e).lower() for e in events)


def test_the_card_shown_must_be_able_to_deploy_the_block() -> None:
    """8.6.1: "another card capable of deploying the block": not a card of another clan, not a
    Loyalty Challenge card, not the card on the table that deployed it, and only when refuted."""
    game = kiyosu_and_sawayama()
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[0]), blocks=(TOKS[0],)))
    date = cards(TOK, Clan.DATE, CardKind.PLAIN)[0]
    shown = cm.Challenge(side=ISH, refuted=True, shown=date)
    refused = rejected(game, shown, "8.6.1")
    assert "Date" not in refused.message and refused.private is not None
    rejected(game, cm.Challenge(side=ISH, refuted=True, shown="T-loyalty-1"), "8.6.1")
    rejected(game, cm.Challenge(side=ISH, refuted=True, shown=TOKUGAWA_PLAIN[0]), "8.6.1")
    rejected(game, cm.Challenge(side=ISH, refuted=False, shown=TOKUGAWA_PLAIN[1]), "8.6.1")
    ok(game, cm.Challenge(side=ISH, refuted=True, shown=TOKUGAWA_PLAIN[1]))
    assert game.state.hand[TOK] == 4  # the card shown goes back to the hand


def test_the_deploying_side_answers_a_loyalty_challenge() -> None:
    """C19: the answer (refuted or not) is the deploying side's, so it comes from its device;
    the challenger's device is refused, with words that depend on nothing hidden."""
    game = kiyosu_and_sawayama()
    ok(game, cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[0]), blocks=(TOKS[0],)))
    before = public_view(game.state).payload.model_dump_json()
    for refuted in (False, True):
        refused = game.submit(cm.Challenge(side=ISH, refuted=refuted), by="ishida")
        assert not isinstance(refused, Accepted) and refused.rule == "C19"
        assert refused.message == ("ishida cannot answer a Loyalty Challenge against a "
                                   "tokugawa block: tokugawa answers it, refuted or not")
    assert public_view(game.state).payload.model_dump_json() == before
    assert isinstance(game.submit(cm.Challenge(side=ISH, refuted=False), by="tokugawa"),
                      Accepted)
    assert game.state.pending is not None and game.state.pending.combat.deployments[0].defected


def test_other_commands_still_come_from_the_side_they_act_for() -> None:
    game = kiyosu_and_sawayama()
    deploy = cm.Deploy(side=TOK, card=named(TOKUGAWA_PLAIN[0]), blocks=(TOKS[0],))
    refused = game.submit(deploy, by="ishida")
    assert not isinstance(refused, Accepted) and refused.rule == "C18"
    assert isinstance(game.submit(deploy, by="tokugawa"), Accepted)


def test_the_touchscreen_bids_a_copy_still_in_hand() -> None:
    """The screen enters a bid by its face; once one copy is discarded, the same face names
    another copy (any copy is the same card to the rules), until every copy is out of play."""
    game = position({}, phase=Phase.BID, week=2)
    ok(game, cm.Bid(side=TOK, card="T-loyalty-1"))
    ok(game, cm.Bid(side=ISH, card="I-mori-plain-1"))
    game = bid_week(game, 3)
    copy = copy_in_hand(game.state, TOK, "T-loyalty-1")
    assert copy != "T-loyalty-1" and CARDS[copy].kind is CardKind.LOYALTY
    assert CARDS[copy].bid == CARDS["T-loyalty-1"].bid
    ok(game, cm.Bid(side=TOK, card=copy))
    assert copy_in_hand(game.state, TOK, "T-loyalty-3") == "T-loyalty-3"
