"""The command deck (BARAJA DE MANDO, B9.1): hands, duels, offerings, commander activations, and
the secrets they keep."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from hypothesis import event as hypothesis_event
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.kensei.battle.deck import (
    EVENT_CLASSES,
    SIDES,
    CardsDrawn,
    CommanderActivated,
    DeckEvent,
    DeckPairReset,
    DeckReshuffled,
    Decks,
    DuelBid,
    DuelRevealed,
    HandDiscarded,
    OfferingMade,
    Side,
    SideDeck,
    apply,
    card_ids,
    card_value,
    check_cards,
    commander_activation,
    deal,
    discard_hand,
    draw,
    duel_bid,
    end_pair,
    extra_draws,
    hand_size,
    new_decks,
    offering,
    private,
    public,
    public_words,
)

NAMES = {"a": "Ana's Kuge", "b": "Ben's Buke"}
CARD_ID = re.compile(r"\b[ab]-\d\d\b")


def applied(decks: Decks, events: Sequence[DeckEvent]) -> Decks:
    for event in events:
        decks = apply(decks, event)
    return decks


def ids(side: Side, *numbers: int) -> tuple[str, ...]:
    return tuple(f"{side}-{n:02d}" for n in numbers)


def holding(a: Sequence[str], b: Sequence[str] = ()) -> Decks:
    """Both decks with these hands, the rest of each deck in its pile."""
    def one(side: Side, hand: Sequence[str]) -> SideDeck:
        return SideDeck(pile=tuple(c for c in card_ids(side) if c not in hand),
                        hand=tuple(sorted(hand)))
    return Decks(a=one("a", a), b=one("b", b))


# --- the deck and the hand size ------------------------------------------------------------

def test_the_printed_mix() -> None:
    """PREPARA TU BARAJA DE MANDO: 7 cards of 0, 8 of 1, 6 of 2, 3 of 3, per side."""
    assert card_ids("b")[0] == "b-00" and card_ids("b")[-1] == "b-23"
    assert Counter(card_value(c) for c in card_ids("a")) == {0: 7, 1: 8, 2: 6, 3: 3}
    assert [card_value(c) for c in ("a-06", "a-07", "a-14", "a-15", "a-20", "a-21")] == \
        [0, 1, 1, 2, 2, 3]
    for bad in ("a-24", "c-01", "a-1", "a00"):
        with pytest.raises(ValueError):
            card_value(bad)


@pytest.mark.parametrize(("points", "cards"), [
    (200, 4), (399, 4), (400, 5), (599, 5), (600, 6), (1500, 6)])
def test_hand_size_by_battle_size(points: int, cards: int) -> None:
    assert hand_size(points) == cards


def test_no_hand_size_under_200_points() -> None:
    """B19.9: the rulebook gives none; refused, naming the reading."""
    with pytest.raises(RuleViolation) as refused:
        hand_size(150)
    assert refused.value.rule == "B9.1 USANDO LA BARAJA DE MANDO"
    assert "B19.9" in refused.value.message


def test_extra_draws_by_commander_level() -> None:
    assert [extra_draws(level) for level in ("hatamoto", "taisho", "daimyo")] == [0, 1, 2]


def test_the_draw_counts_cards() -> None:
    decks = new_decks()
    with pytest.raises(RuleViolation, match="5 command cards are drawn at 400 points, not 4"):
        draw(decks, "a", ids("a", 0, 1, 2, 3), (), 400, "hatamoto")
    with pytest.raises(RuleViolation) as refused:
        draw(decks, "a", ids("a", 0, 1, 2, 3, 4), (), 200, "taisho")
    assert refused.value.rule == "B14 NIVEL DE COMANDANTE"
    decks = applied(decks, draw(decks, "a", ids("a", 0, 1, 2, 3), (), 200, "hatamoto"))
    with pytest.raises(RuleViolation, match="discarded before the draw"):
        draw(decks, "a", ids("a", 4, 5, 6, 7), (), 200, "hatamoto")


def test_extra_draws_go_under_the_deck_and_come_back_last() -> None:
    """NIVEL DE COMANDANTE: a Daimyo at 200 points draws 6, keeps 4 and puts 2 under the deck;
    they are drawn again only once the rest of the deck is gone."""
    decks = new_decks()
    events = draw(decks, "a", ids("a", 21, 22, 0, 1, 2, 3), ids("a", 22, 21), 200, "daimyo")
    decks = applied(decks, events)
    assert decks.a.hand == ids("a", 0, 1, 2, 3)
    assert decks.a.bottom == ids("a", 22, 21)
    assert public(decks)["a"] | {"shown": []} == {
        "pile": 20, "under": 2, "hand": 4, "discards": 0, "shown": []}
    assert [c["card"] for c in private(decks, "a")["under"]] == ["a-22", "a-21"]
    decks = applied(decks, discard_hand(decks, "a"))
    with pytest.raises(HiddenViolation, match="not in the draw pile"):
        draw(decks, "a", ids("a", 22, 4, 5, 6), (), 200, "hatamoto")

    low = Decks(a=SideDeck(pile=ids("a", 4, 5), bottom=ids("a", 22, 21, 23),
                           discards=tuple(c for c in card_ids("a")
                                          if c not in ids("a", 4, 5, 21, 22, 23))),
                b=new_decks().b)
    with pytest.raises(HiddenViolation, match="in the order they were put there") as refused:
        draw(low, "a", ids("a", 4, 5, 21, 23), (), 200, "hatamoto")
    assert not CARD_ID.search(refused.value.message) and "a-22" in str(refused.value.private)
    with pytest.raises(HiddenViolation, match="whole draw pile"):
        draw(low, "a", ids("a", 4, 22, 21, 23), (), 200, "hatamoto")
    after = applied(low, draw(low, "a", ids("a", 21, 4, 5, 22), (), 200, "hatamoto"))
    assert after.a.bottom == ids("a", 23) and after.a.pile == ()


def test_the_discards_are_reshuffled_when_the_deck_runs_out() -> None:
    """USANDO LA BARAJA DE MANDO: "Cuando se agote tu baraja de mando, baraja tu pila de
    descartes" (the shown cards too: they were discarded)."""
    rest = [c for c in card_ids("a") if c not in ids("a", 5, 21, 22, 23)]
    low = Decks(a=SideDeck(pile=ids("a", 5), bottom=ids("a", 21), discards=tuple(rest),
                           shown=ids("a", 22, 23)),
                b=new_decks().b)
    with pytest.raises(HiddenViolation, match="not in the deck or the discards"):
        draw(low, "a", ("a-05", "a-21", "a-00", "b-00"), (), 200, "hatamoto")
    events = draw(low, "a", ids("a", 5, 21, 23, 0), (), 200, "hatamoto")
    assert [e.type for e in events] == ["deck_reshuffled", "cards_drawn"]
    assert isinstance(events[0], DeckReshuffled) and len(events[0].cards) == 22
    after = applied(low, events)
    assert after.a.hand == ids("a", 0, 5, 21, 23)
    assert (len(after.a.pile), after.a.discards, after.a.shown, after.a.bottom) == (20, (), (), ())
    assert check_cards(after) == []


# --- the command duel ------------------------------------------------------------------------

def test_the_duel_order_and_reveal() -> None:
    """DUELO DE MANDO: b (without the initiative) calls and bids first, then a answers; the
    higher sum takes the initiative, the bids are discarded shown."""
    decks = holding(ids("a", 0, 7, 15, 16), ids("b", 21, 22, 1, 8))
    with pytest.raises(RuleViolation, match="only the player without the initiative"):
        duel_bid(decks, "a", ids("a", 15), initiative="a")
    first = duel_bid(decks, "b", ids("b", 21, 8), initiative="a")
    assert [e.type for e in first] == ["duel_bid"]
    decks = applied(decks, first)
    assert public(decks)["duel"] == {"caller": "b", "bids": {"a": 0, "b": 2}}
    assert public(decks)["b"]["hand"] == 2
    with pytest.raises(RuleViolation, match="the initiative holder answers"):
        duel_bid(decks, "b", ids("b", 22), initiative="a")
    second = duel_bid(decks, "a", ids("a", 15, 16, 0), initiative="a")
    reveal = second[-1]
    assert isinstance(reveal, DuelRevealed)
    assert (reveal.sums.a, reveal.sums.b) == (4, 4)
    assert (reveal.initiative_before, reveal.initiative_after) == ("a", "a")
    assert public_words(reveal, NAMES) == ("Command duel: Ana's Kuge 4, Ben's Buke 4; a tie, "
                                           "Ana's Kuge keeps the initiative "
                                           "(B9.1 DUELO DE MANDO)")
    decks = applied(decks, second)
    assert decks.duel is None and decks.duel_fought
    assert public(decks)["a"]["shown"] == [0, 2, 2] and public(decks)["b"]["shown"] == [1, 3]
    assert check_cards(decks) == []


@pytest.mark.parametrize(("caller_bid", "holder_bid", "after"), [
    ((21,), (15,), "b"), ((15,), (21,), "a"), ((15, 7), (21,), "a"), ((15, 16), (21,), "b")])
def test_the_higher_sum_takes_the_initiative(caller_bid: tuple[int, ...],
                                             holder_bid: tuple[int, ...], after: str) -> None:
    decks = holding(ids("a", 7, 15, 16, 21), ids("b", 7, 15, 16, 21))
    decks = applied(decks, duel_bid(decks, "b", ids("b", *caller_bid), "a"))
    reveal = duel_bid(decks, "a", ids("a", *holder_bid), "a")[-1]
    assert isinstance(reveal, DuelRevealed) and reveal.initiative_after == after


def test_one_duel_per_activation_pair() -> None:
    decks = holding(ids("a", 0, 1, 2, 3), ids("b", 0, 1, 2, 3))
    decks = applied(decks, duel_bid(decks, "b", ids("b", 0), "a"))
    decks = applied(decks, duel_bid(decks, "a", ids("a", 0), "a"))
    with pytest.raises(RuleViolation, match="one command duel per activation pair"):
        duel_bid(decks, "b", ids("b", 1), "a")
    decks = applied(decks, end_pair(decks))
    assert duel_bid(decks, "b", ids("b", 1), "a")[0].type == "duel_bid"


def test_a_bid_is_one_card_or_more() -> None:
    """Reading 22: an empty bid is refused; a holder with no cards answers with none."""
    decks = holding(ids("a"), ids("b", 0, 1, 2, 3))
    with pytest.raises(RuleViolation, match="one command card or more"):
        duel_bid(decks, "b", (), "a")
    decks = applied(decks, duel_bid(decks, "b", ids("b", 0), "a"))
    reveal = duel_bid(decks, "a", (), "a")[-1]
    assert isinstance(reveal, DuelRevealed) and reveal.sums.a == 0
    assert reveal.initiative_after == "a"  # 0 against 0: a tie
    busy = holding(ids("a", 4), ids("b", 0))
    busy = applied(busy, duel_bid(busy, "b", ids("b", 0), "a"))
    with pytest.raises(RuleViolation, match="one command card or more"):
        duel_bid(busy, "a", (), "a")


def test_nothing_else_while_a_duel_waits() -> None:
    decks = holding(ids("a", 0, 1), ids("b", 0, 1))
    decks = applied(decks, duel_bid(decks, "b", ids("b", 0), "a"))
    with pytest.raises(RuleViolation, match="waiting for the initiative holder"):
        offering(decks, "a", "a-00", "reroll", "r1", "a")
    with pytest.raises(RuleViolation, match="waiting for the initiative holder"):
        commander_activation(decks, "b")


# --- offerings -------------------------------------------------------------------------------

def test_one_offering_per_player_per_roll() -> None:
    decks = holding(ids("a", 0, 21, 22), ids("b", 0, 21))
    decks = applied(decks, offering(decks, "b", "b-00", "reroll", "r1", initiative="a"))
    with pytest.raises(RuleViolation, match="one card per player per roll"):
        offering(decks, "b", "b-21", "reroll", "r1", initiative="a")
    decks = applied(decks, offering(decks, "a", "a-21", "add", "r1", initiative="a"))
    with pytest.raises(RuleViolation, match="one card per player per roll"):
        offering(decks, "a", "a-22", "add", "r1", initiative="a")
    assert offering(decks, "a", "a-22", "add", "r2", initiative="a")
    decks = applied(decks, end_pair(decks))
    assert offering(decks, "a", "a-22", "add", "r1", initiative="a")


def test_the_player_without_the_initiative_declares_first() -> None:
    """OFRENDA A LOS DIOSES: after the holder's offering the other player has had its turn."""
    decks = holding(ids("a", 0, 1), ids("b", 0, 1))
    decks = applied(decks, offering(decks, "a", "a-00", "reroll", "r1", initiative="a"))
    with pytest.raises(RuleViolation, match="declares first"):
        offering(decks, "b", "b-00", "reroll", "r1", initiative="a")
    assert offering(decks, "b", "b-00", "reroll", "r2", initiative="a")


def test_reroll_and_add_offerings() -> None:
    """A re-roll card is discarded face down; an add card is shown, on one's own roll only."""
    decks = holding(ids("a", 3, 21), ids("b", 0))
    reroll = offering(decks, "a", "a-03", "reroll", "r1", initiative="b")
    assert isinstance(reroll[0], OfferingMade) and reroll[0].value is None
    decks = applied(decks, reroll)
    assert decks.a.discards == ("a-03",) and public(decks)["a"]["shown"] == []
    with pytest.raises(RuleViolation, match="own roll"):
        offering(decks, "a", "a-21", "add", "r2", initiative="b", roller="b")
    add = offering(decks, "a", "a-21", "add", "r2", initiative="b", roller="a")
    assert isinstance(add[0], OfferingMade) and add[0].value == 3
    decks = applied(decks, add)
    assert public(decks)["a"]["shown"] == [3] and public(decks)["a"]["discards"] == 2
    assert [o["value"] for o in public(decks)["offerings"]] == [None, 3]
    with pytest.raises(RuleViolation, match="hand is empty"):
        offering(decks, "a", "a-22", "reroll", "r3", initiative="b")
    with pytest.raises(ValueError):
        OfferingMade(side="a", card="a-21", kind="reroll", roll="r", value=3)


# --- the commander activation and the end of the turn ------------------------------------------

def test_commander_activation_discards_the_whole_hand() -> None:
    decks = holding(ids("a", 0, 21), ids("b"))
    with pytest.raises(RuleViolation) as refused:
        commander_activation(decks, "b")
    assert refused.value.rule == "B3.3 ACTIVACIÓN DE COMANDANTE"
    decks = applied(decks, commander_activation(decks, "a"))
    assert decks.a.hand == () and decks.a.discards == ids("a", 0, 21)
    assert public(decks)["a"]["shown"] == []


def test_the_unused_hand_is_discarded_face_down() -> None:
    decks = holding(ids("a", 0, 21), ids("b"))
    events = discard_hand(decks, "a")
    assert public_words(events[0], NAMES) == ("Ana's Kuge discards 2 command cards face down "
                                              "(B9.1 USANDO LA BARAJA DE MANDO)")
    decks = applied(decks, events)
    assert public(decks)["a"] == {"pile": 22, "under": 0, "hand": 0, "discards": 2, "shown": []}


# --- secrets ---------------------------------------------------------------------------------

Attempt = Callable[[Decks, str], object]

ATTEMPTS: list[tuple[str, Attempt]] = [
    ("bid", lambda d, c: duel_bid(d, "b", (c,), "a")),
    ("offering", lambda d, c: offering(d, "b", c, "reroll", "r1", "a")),
    ("add", lambda d, c: offering(d, "b", c, "add", "r1", "a")),
    ("draw", lambda d, c: draw(d, "a", (c, "a-01", "a-02", "a-03"), (), 200, "hatamoto")),
]


@pytest.mark.parametrize(("what", "attempt"), ATTEMPTS, ids=[a[0] for a in ATTEMPTS])
def test_a_card_not_held_is_refused_without_naming_it(what: str, attempt: Attempt) -> None:
    """The public message is the same whatever the card tried; only the private one names it."""
    decks = holding(ids("a"), ids("b", 7))
    decks = decks.model_copy(update={"a": decks.a.model_copy(update={
        "pile": ids("a", 1, 2, 3, 4), "discards": tuple(
            c for c in card_ids("a") if c not in ids("a", 1, 2, 3, 4))})})
    messages = set()
    for card in ("a-00", "a-23", "b-00", "b-23", "x"):
        with pytest.raises(HiddenViolation) as refused:
            attempt(decks, card)
        assert not CARD_ID.search(refused.value.message)
        assert "worth" not in refused.value.message
        assert card in str(refused.value.private)
        messages.add(refused.value.message)
    assert len(messages) == 1


def world(hand: Sequence[int], swapped: Sequence[int]) -> Decks:
    """a holds ``hand``, has a-14 shown and every other card discarded face down but 2 left in
    its pile; b holds 4 cards."""
    rest = [n for n in range(24) if n not in (14, *hand, *swapped)]
    return Decks(a=SideDeck(pile=ids("a", *rest[:2]), hand=ids("a", *hand),
                            discards=ids("a", *rest[2:], *swapped), shown=ids("a", 14)),
                 b=SideDeck(pile=card_ids("b")[4:], hand=card_ids("b")[:4]))


LOW = (0, 1, 2, 3)  # all worth 0
HIGH = (20, 21, 22, 23)  # 2, 3, 3, 3
SAME_A = (0, 7, 15, 21)  # 0, 1, 2, 3
SAME_B = (1, 8, 16, 22)  # the same values, other cards


def pick(decks: Decks) -> tuple[str, ...]:
    return decks.a.hand


Play = Callable[[Decks], list[DeckEvent]]

FACE_DOWN: list[tuple[str, Play]] = [
    ("discard", lambda d: discard_hand(d, "a")),
    ("commander", lambda d: commander_activation(d, "a")),
    ("call a duel", lambda d: duel_bid(d, "a", pick(d)[:2], "b")),
    ("re-roll", lambda d: offering(d, "a", pick(d)[-1], "reroll", "r1", "b")),
    ("draw and reshuffle", lambda d: draw(
        applied(d, discard_hand(d, "a")), "a", (*d.a.pile, *pick(d)[:2]), (), 200, "hatamoto")),
    ("draw, 2 under", lambda d: draw(
        applied(d, discard_hand(d, "a")), "a", (*d.a.pile, *pick(d)), pick(d)[1:3], 200,
        "daimyo")),
    ("end of pair", end_pair),
]

SHOWN: list[tuple[str, Play]] = [
    ("answer a duel", lambda d: duel_bid(applied(d, duel_bid(d, "b", ("b-00",), "a")), "a",
                                         pick(d)[1:3], "a")),
    ("add", lambda d: offering(d, "a", pick(d)[2], "add", "r1", "b")),
]


def swapped(one: Decks, other: Decks, play: Play) -> None:
    assert public(one) == public(other)
    mine, theirs = play(one), play(other)
    assert [e.type for e in mine] == [e.type for e in theirs]
    assert mine != theirs or play is end_pair  # the worlds really differ
    for a, b in zip(mine, theirs, strict=True):
        assert public_words(a, NAMES) == public_words(b, NAMES)
        assert not CARD_ID.search(public_words(a, NAMES))
    base_one = applied(one, discard_hand(one, "a")) if mine[0].type == "cards_drawn" else one
    base_other = applied(other, discard_hand(other, "a")) if mine[0].type == "cards_drawn" \
        else other
    assert public(applied(base_one, mine)) == public(applied(base_other, theirs))


@pytest.mark.parametrize(("what", "play"), FACE_DOWN, ids=[p[0] for p in FACE_DOWN])
def test_swapped_hands_show_nothing(what: str, play: Play) -> None:
    """Two decks differing only in which cards are in a's hand and face-down discards (worth 0
    against worth 2 and 3) look the same, and so does every event's public sentence."""
    swapped(world(LOW, HIGH), world(HIGH, LOW), play)


@pytest.mark.parametrize(("what", "play"), FACE_DOWN + SHOWN,
                         ids=[p[0] for p in FACE_DOWN + SHOWN])
def test_swapped_cards_of_equal_value_show_nothing(what: str, play: Play) -> None:
    """Even a revealed card shows only its value: the same values, other cards, the same words."""
    swapped(world(SAME_A, SAME_B), world(SAME_B, SAME_A), play)


def test_every_event_kind_has_public_words() -> None:
    kinds = {CardsDrawn, HandDiscarded, DeckReshuffled, DuelBid, DuelRevealed, OfferingMade,
             CommanderActivated, DeckPairReset}
    assert set(EVENT_CLASSES) == kinds
    seen = {type(e) for _, play in FACE_DOWN + SHOWN
            for e in play(world(SAME_A, SAME_B))}
    assert seen == kinds


def test_events_round_trip_through_json() -> None:
    """Records store events as JSON: every kind comes back equal through the DeckEvent union."""
    reader: TypeAdapter[DeckEvent] = TypeAdapter(DeckEvent)
    for _, play in FACE_DOWN + SHOWN:
        for event in play(world(SAME_A, SAME_B)):
            assert reader.validate_json(event.model_dump_json()) == event


# --- conservation over random play -----------------------------------------------------------

ACTIONS = ["draw", "draw", "discard", "bid", "bid", "offer", "offer", "commander", "pair",
           "roll", "initiative"]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_cards_are_conserved_in_any_sequence(data: st.DataObject) -> None:
    """Each side's 24 cards, each in one place, after any sequence of commands, accepted or not;
    no refusal names a card in public; the public counts add up to 24."""
    size = data.draw(st.sampled_from([200, 400, 600]))
    levels = {s: data.draw(st.sampled_from(["hatamoto", "taisho", "daimyo"])) for s in "ab"}
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    decks, initiative, roll = new_decks(), "a", 0
    for first in SIDES:
        extra = extra_draws(levels[first])
        cards = deal(decks, first, hand_size(size) + extra, rng)
        decks = applied(decks, draw(decks, first, cards, cards[:extra], size, levels[first]))
    for _ in range(data.draw(st.integers(5, 120))):
        side: Side = data.draw(st.sampled_from(["a", "b"]))
        action = data.draw(st.sampled_from(ACTIONS))
        hand = decks.side(side).hand
        stray = data.draw(st.booleans()) and data.draw(st.integers(0, 9)) == 0
        try:
            if action == "draw":
                extra = extra_draws(levels[side])
                cards = deal(decks, side, hand_size(size) + extra, rng)
                if stray:
                    cards = tuple(rng.sample(card_ids(side), len(cards)))
                events = draw(decks, side, cards, rng.sample(cards, extra), size, levels[side])
            elif action == "discard":
                events = discard_hand(decks, side)
            elif action == "bid":
                pool = card_ids(side) if stray else hand
                bid = rng.sample(pool, rng.randint(0 if stray else 1, len(pool))) if pool else []
                events = duel_bid(decks, side, bid, "a" if initiative == "a" else "b")
            elif action == "offer":
                pool = card_ids(side) if stray or not hand else hand
                events = offering(decks, side, rng.choice(pool),
                                  data.draw(st.sampled_from(["reroll", "add"])), f"r{roll}",
                                  "a" if initiative == "a" else "b")
            elif action == "commander":
                events = commander_activation(decks, side)
            elif action == "pair":
                events = end_pair(decks)
            else:
                roll += action == "roll"
                if action == "initiative" and decks.duel is None:
                    initiative = side
                continue
        except RuleViolation as refused:
            assert not CARD_ID.search(refused.message)
            continue
        for event in events:
            decks = apply(decks, event)
            hypothesis_event(event.type)
            if isinstance(event, DuelRevealed):
                initiative = event.initiative_after
            assert check_cards(decks) == [], event
        view = public(decks)
        for s in ("a", "b"):
            bids = view["duel"]["bids"][s] if view["duel"] else 0
            assert view[s]["pile"] + view[s]["hand"] + view[s]["discards"] + bids == 24
            assert view[s]["hand"] <= hand_size(size)
            assert len(view[s]["shown"]) <= view[s]["discards"]


def test_a_long_game_goes_through_the_deck_several_times() -> None:
    """Ten turns of a 600-point Daimyo game: reshuffles happen and nothing is lost."""
    rng, decks, reshuffles = random.Random(7), new_decks(), 0
    for turn in range(10):
        for side in ("a", "b"):
            cards = deal(decks, side, 8, rng)
            events = draw(decks, side, cards, cards[:2], 600, "daimyo")
            reshuffles += sum(isinstance(e, DeckReshuffled) for e in events)
            decks = applied(decks, events)
        decks = applied(decks, duel_bid(decks, "b", decks.b.hand[:1], "a"))
        decks = applied(decks, duel_bid(decks, "a", decks.a.hand[:2], "a"))
        decks = applied(decks, offering(decks, "b", decks.b.hand[0], "add", f"t{turn}", "a"))
        decks = applied(decks, end_pair(decks))
        for side in SIDES:
            decks = applied(decks, discard_hand(decks, side))
        assert check_cards(decks) == []
    assert reshuffles >= 4
