"""A complete game, week 1 to the victory points, scripted through the public API only:
commands in, events and views out."""

from __future__ import annotations

from _engine_kit import ISH, TOK, finish_and_lose, of_type, ok, rejected

from companion.core.game import replay
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import CARDS, FACES, side_of
from companion.games.sekigahara.engine.game import SekigaharaGame, SekigaharaRules, new_game
from companion.games.sekigahara.engine.queries import (
    legal_destinations,
    must_declare,
    next_draw,
    retreat_options,
)
from companion.games.sekigahara.engine.state import BAG, DEAD, RECRUITMENT, Level, Phase
from companion.games.sekigahara.engine.views import public_view

LOW_ISHIDA = [c.id for c in sorted((c for c in CARDS.values() if c.side is ISH),
                                    key=lambda c: (c.bid, c.id))]
HIGH_TOKUGAWA = [c.id for c in sorted((c for c in CARDS.values() if c.side is TOK),
                                      key=lambda c: (-c.bid, c.id))]


def draw_due(game: SekigaharaGame) -> None:
    while (due := next_draw(game.state)) is not None:
        side, zone, n = due
        bag = sorted(b for b, z in game.state.pos.items() if z == BAG and side_of(b) is side)
        ok(game, cm.DrawBlocks(side=side, zone=zone, blocks=tuple(bag[:n])))


def bids(game: SekigaharaGame) -> None:
    week = game.state.week  # a new card each week: the last one is in the discard pile (3.3)
    ok(game, cm.Bid(side=ISH, card=LOW_ISHIDA[week]))
    ok(game, cm.Bid(side=TOK, card=HIGH_TOKUGAWA[week]))
    ok(game, cm.ChooseFirst(side=TOK, first=TOK))


def quiet_phase(game: SekigaharaGame) -> None:
    side = game.state.active
    assert side is not None
    if game.state.phase is Phase.MOVEMENT:
        ok(game, cm.BuyMovement(side=side, level=Level.NONE))
    ok(game, cm.EndPhase(side=side))


def here(game: SekigaharaGame, location: str, side: Side) -> list[str]:
    return sorted(b for b, z in game.state.pos.items() if z == location and side_of(b) is side)


def test_a_complete_game_from_setup_to_victory_points() -> None:
    game = new_game()
    ok(game, cm.StartGame())
    draw_due(game)
    assert game.state.phase is Phase.BID and game.state.week == 1
    bids(game)

    # Week 1, turn A, Tokugawa moves: Limited Movement (one card), three actions
    ok(game, cm.BuyMovement(side=TOK, level=Level.LIMITED))
    kiyosu = here(game, "kiyosu", TOK)
    assert len(kiyosu) == 4  # three star blocks and one random block
    dests = legal_destinations(game.state, TOK, "kiyosu", tuple(kiyosu))
    assert "gifu" in dests and "okazaki" in dests
    ok(game, cm.MoveStack(side=TOK, origin="kiyosu", paths={b: ("gifu",) for b in kiyosu}))
    edo = here(game, "edo", TOK)[:1]
    ok(game, cm.MoveStack(side=TOK, origin="edo", paths={edo[0]: ("oshi",)}))
    box = here(game, RECRUITMENT, TOK)
    ok(game, cm.Muster(side=TOK, location="edo", blocks=(box[0],), option="B"))
    rejected(game, cm.MoveStack(side=TOK, origin="sendai",
                                paths={b: ("soma",) for b in here(game, "sendai", TOK)}), "7.1")
    ok(game, cm.EndPhase(side=TOK))

    # Tokugawa Combat Phase: Gifu, where Ishida (two blocks) owns the castle
    assert must_declare(game.state) == ["gifu"]
    rejected(game, cm.EndPhase(side=TOK), "8.1")
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    ok(game, cm.ChooseInside(side=ISH, inside=False))  # a battle outside the castle
    finish_and_lose(game)  # nobody deploys: 0-0, the defender wins, the attacker loses one
    assert len(game.state.casualties) == 1 and FACES[game.state.casualties[0]].side is TOK
    assert retreat_options(game.state) == (["kiyosu"], False)  # whence it came (8.8.2)
    events = ok(game, cm.Retreat(side=TOK, destination="kiyosu"))
    assert of_type(events, ev.Retreated)
    assert len(here(game, "kiyosu", TOK)) == 3
    ok(game, cm.EndPhase(side=TOK))

    # Ishida: No Movement, replacing two cards; nothing to fight
    ok(game, cm.BuyMovement(side=ISH, level=Level.NONE, replace=2))
    ok(game, cm.EndPhase(side=ISH))
    ok(game, cm.EndPhase(side=ISH))
    assert game.state.turn == "B"
    for _ in range(4):
        quiet_phase(game)

    # Weeks 2 to 7: reinforcements, bids, quiet turns
    for week in range(2, 8):
        assert game.state.week == week and game.state.phase is Phase.REINFORCEMENT
        draw_due(game)
        bids(game)
        for _ in range(8):
            quiet_phase(game)

    s = game.state
    assert s.phase is Phase.GAME_OVER and s.winner is not None
    won = of_type(game.events, ev.GameWon)
    assert len(won) == 1 and isinstance(won[0], ev.GameWon)
    view = public_view(s).payload
    expected = {
        side: 2 * sum(1 for c in view.castles.values() if c is side)
        + sum(1 for r in view.resources.values() if r is side)
        for side in Side
    }
    assert won[0].score == expected and view.score == expected
    assert won[0].winner is (TOK if expected[TOK] > expected[ISH] else ISH)
    # the Mori blocks never came; 96 blocks and 110 cards all accounted for
    assert len(s.pos) == 96 and sum(1 for z in s.pos.values() if z == DEAD) == 1
    assert sum(s.hand.values()) + sum(s.draw.values()) + sum(s.discard.values()) == 110
    assert replay(SekigaharaRules(), game.events) == s
