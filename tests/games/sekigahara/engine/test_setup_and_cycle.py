"""Setup (5.1-5.2), the Reinforcement Step (6.2), the Turn Order Step (6.3) and the weekly
sequence (6.4), with their rejections."""

from __future__ import annotations

from _engine_kit import ISH, TOK, of_type, ok, pick, position, rejected

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import CARDS, FACES, MORI_LEADER, side_of
from companion.games.sekigahara.engine.game import new_game
from companion.games.sekigahara.engine.queries import next_draw
from companion.games.sekigahara.engine.state import BAG, MORI_BOX, RECRUITMENT, Level, Phase


def bag(game: object, side: Side) -> list[str]:
    state = game.state  # type: ignore[attr-defined]
    return sorted(b for b, z in state.pos.items() if z == BAG and side_of(b) is side)


def test_start_places_symbol_blocks_and_deals_five_cards() -> None:
    game = new_game()
    ok(game, cm.StartGame())
    s = game.state
    assert s.phase is Phase.SETUP and s.week == 1
    assert s.hand == {ISH: 5, TOK: 5} and s.draw == {ISH: 50, TOK: 50}
    assert sum(1 for z in s.pos.values() if z == "osaka") == 6
    assert sum(1 for z in s.pos.values() if z == "edo") == 4
    assert s.pos[MORI_LEADER] == MORI_BOX
    assert sum(1 for z in s.pos.values() if z == MORI_BOX) == 5
    assert all(z == BAG for b, z in s.pos.items() if FACES[b].setup is None)
    rejected(game, cm.StartGame(), "5.1")


def test_random_fills_go_location_by_location_then_recruitment() -> None:
    game = new_game()
    ok(game, cm.StartGame())
    assert next_draw(game.state) == (ISH, "osaka", 2)
    two = tuple(bag(game, ISH)[:2])
    rejected(game, cm.DrawBlocks(side=ISH, zone="kyoto", blocks=two), "5.2.2")
    rejected(game, cm.DrawBlocks(side=ISH, zone="osaka", blocks=two[:1]), "5.2.2")
    wrong = rejected(game, cm.DrawBlocks(side=ISH, zone="osaka", blocks=(two[0], "T40")), "5.2.2")
    assert "T40" not in wrong.message and wrong.private is not None and "T40" in wrong.private
    while game.state.phase is Phase.SETUP:
        side, zone, n = next_draw(game.state) or (ISH, "", 0)
        ok(game, cm.DrawBlocks(side=side, zone=zone, blocks=tuple(bag(game, side)[:n])))
    s = game.state
    assert s.phase is Phase.BID and s.week == 1  # 6.2 is skipped in week 1
    for side in Side:
        assert sum(1 for b, z in s.pos.items() if z == RECRUITMENT and side_of(b) is side) == 4
    assert len(bag(game, ISH)) == 20 and len(bag(game, TOK)) == 22


def test_bids_higher_wins_both_discarded_winner_chooses() -> None:
    game = position({}, phase=Phase.BID)
    low = next(c for c, k in CARDS.items() if k.side is ISH and k.bid == 1)
    high = max((c for c, k in CARDS.items() if k.side is TOK), key=lambda c: CARDS[c].bid)
    rejected(game, cm.Bid(side=ISH, card=high), "6.3")
    ok(game, cm.Bid(side=ISH, card=low))
    rejected(game, cm.Bid(side=ISH, card=low), "6.3")
    events = ok(game, cm.Bid(side=TOK, card=high))
    revealed = of_type(events, ev.BidsRevealed)[0]
    assert isinstance(revealed, ev.BidsRevealed) and revealed.winner is TOK
    assert game.state.discard == {ISH: 1, TOK: 1} and game.state.hand == {ISH: 4, TOK: 4}
    rejected(game, cm.ChooseFirst(side=ISH, first=ISH), "6.3")
    ok(game, cm.ChooseFirst(side=TOK, first=ISH))
    assert game.state.phase is Phase.MOVEMENT and game.state.active is ISH


def _end_turns(game: object, count: int) -> None:
    for _ in range(count):
        state = game.state  # type: ignore[attr-defined]
        side = state.active
        if state.phase is Phase.MOVEMENT:
            ok(game, cm.BuyMovement(side=side, level=Level.NONE))  # type: ignore[arg-type]
        ok(game, cm.EndPhase(side=side))  # type: ignore[arg-type]


def test_turn_sequence_and_reinforcement_step() -> None:
    # Tokugawa holds two Resource Locations to Ishida's one (Kyoto); castles: natural alignment
    game = position({"kuwana": pick(TOK, 1), "edo": pick(TOK, 1, exclude=pick(TOK, 1))},
                    phase=Phase.MOVEMENT, active=TOK, first=TOK, hands=7,
                    extra=[ev.ResourceControlled(location="kuwana", side=TOK)])
    seen = []
    for _ in range(8):
        s = game.state
        seen.append((s.turn, s.active, s.phase))
        _end_turns(game, 1)
    assert seen[:4] == [("A", TOK, Phase.MOVEMENT), ("A", TOK, Phase.COMBAT),
                        ("A", ISH, Phase.MOVEMENT), ("A", ISH, Phase.COMBAT)]
    assert seen[4][0] == "B" and seen[4][1] is TOK
    s = game.state
    assert s.week == 2 and s.phase is Phase.REINFORCEMENT
    # 7 cards: discard 3, draw 5; castles: Ishida 3 (Osaka, Gifu, Ueda... natural), compare
    castles = {side: 0 for side in Side}
    from companion.games.sekigahara.engine.castles import castles_controlled
    for side in Side:
        castles[side] = castles_controlled(s, side)
    for side in Side:
        extra = int(castles[side] > castles[side.opponent])
        assert s.hand[side] == 7 - 3 + 5 + extra
    # recruitment row week 2: 2 blocks, +1 for more Resource Locations (Tokugawa 2 vs 1)
    assert dict((d[0], d[2]) for d in s.draws_due) == {TOK: 3, ISH: 2}
    rejected(game, cm.DrawBlocks(side=TOK, zone=RECRUITMENT, blocks=tuple(bag(game, TOK)[:2])),
             "6.2")
    ok(game, cm.DrawBlocks(side=TOK, zone=RECRUITMENT, blocks=tuple(bag(game, TOK)[:3])))
    ok(game, cm.DrawBlocks(side=ISH, zone=RECRUITMENT, blocks=tuple(bag(game, ISH)[:2])))
    assert game.state.phase is Phase.BID


def test_resource_tie_gives_both_an_extra_block() -> None:
    game = position({}, phase=Phase.COMBAT, active=ISH, first=TOK, turn="B")
    ok(game, cm.EndPhase(side=ISH))
    s = game.state
    assert dict((d[0], d[2]) for d in s.draws_due) == {TOK: 3, ISH: 3}  # Kyoto 1, Edo 1


def test_game_ends_after_week_seven_on_points() -> None:
    game = position({}, phase=Phase.COMBAT, active=ISH, first=TOK, turn="B", week=7)
    events = ok(game, cm.EndPhase(side=ISH))
    won = of_type(events, ev.GameWon)[0]
    assert isinstance(won, ev.GameWon)
    # empty board: castles at natural alignment (Ishida 4, Tokugawa 5), capitals to their side
    assert won.score == {ISH: 2 * 4 + 1, TOK: 2 * 5 + 1} and won.winner is TOK
    assert game.state.phase is Phase.GAME_OVER
    rejected(game, cm.EndPhase(side=ISH), "2.2")


def test_an_empty_draw_pile_is_made_from_the_reshuffled_discards() -> None:
    game = position({}, extra=[ev.CardsDrawn(side=TOK, count=50, rule="test"),
                               ev.CardsDiscarded(side=TOK, count=10, rule="test")])
    assert game.state.draw[TOK] == 0 and game.state.discard[TOK] == 10
    ok(game, cm.BuyMovement(side=TOK, level=Level.NONE, replace=3))  # 3.3
    s = game.state
    assert s.draw[TOK] == 10 and s.discard[TOK] == 0 and s.hand[TOK] == 45


def test_recruitment_box_draws_are_four_each_at_setup() -> None:
    game = new_game()
    ok(game, cm.StartGame())
    while (due := next_draw(game.state)) is not None and due[1] != RECRUITMENT:
        ok(game, cm.DrawBlocks(side=due[0], zone=due[1], blocks=tuple(bag(game, due[0])[:due[2]])))
    rejected(game, cm.DrawBlocks(side=ISH, zone=RECRUITMENT, blocks=tuple(bag(game, ISH)[:3])),
             "5.2.3")
    rejected(game, cm.Bid(side=ISH, card=LOW), "6.3")
    rejected(game, cm.BuyMovement(side=ISH, level=Level.NONE), "6.4")


LOW = next(c for c, k in CARDS.items() if k.side is ISH and k.bid == 1)
