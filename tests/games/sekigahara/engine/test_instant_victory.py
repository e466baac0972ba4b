"""Instant victory (2.1) at any moment: in an Overrun, in a battle, in a siege, and both
protagonists in one battle (Ishida wins)."""

from __future__ import annotations

from _engine_kit import ISH, TOK, deploy, finish_and_lose, of_type, ok, pick, position, rejected

from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import ISHIDA_LEADER, TOKUGAWA_LEADER
from companion.games.sekigahara.engine.state import DEAD, MORI_BOX, Level, Phase


def _won(events: tuple[ev.Event, ...]) -> ev.GameWon:
    won = of_type(events, ev.GameWon)
    assert len(won) == 1
    assert isinstance(won[0], ev.GameWon)
    return won[0]


def test_ishida_killed_in_an_overrun() -> None:
    four = pick(TOK, 4)
    game = position({"sunpu": four, "hamamatsu": [ISHIDA_LEADER]}, level=Level.TOTAL)
    won = _won(ok(game, cm.MoveStack(side=TOK, origin="sunpu",
                                     paths={b: ("hamamatsu",) for b in four})))
    assert won.winner is TOK and "Ishida" in won.reason
    assert game.state.phase is Phase.GAME_OVER
    rejected(game, cm.EndPhase(side=TOK), "2.1")


def test_tokugawa_killed_in_an_overrun() -> None:
    four = pick(ISH, 4)
    game = position({"sunpu": four, "hamamatsu": [TOKUGAWA_LEADER]}, active=ISH,
                    level=Level.TOTAL)
    won = _won(ok(game, cm.MoveStack(side=ISH, origin="sunpu",
                                     paths={b: ("hamamatsu",) for b in four})))
    assert won.winner is ISH and "Tokugawa" in won.reason


def test_hideyori_captured_in_a_siege() -> None:
    toks = pick(TOK, 3, clan=Clan.TOKUGAWA, mon=3)
    box = tuple(b for b, z in position({}).state.pos.items() if z == MORI_BOX)
    game = position({"osaka": toks, DEAD: box}, phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="osaka"))
    deploy(game, TOK, *toks)
    finish_and_lose(game)
    assert game.state.winner is TOK and game.state.victory is not None
    assert "Hideyori" in game.state.victory


def test_both_protagonists_in_one_battle_ishida_wins() -> None:
    toks = pick(TOK, 2, clan=Clan.TOKUGAWA, mon=3)
    ukita = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": [TOKUGAWA_LEADER, *toks, ISHIDA_LEADER, *ukita]},
                    phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    deploy(game, TOK, TOKUGAWA_LEADER, cardless=True)  # 1-0
    deploy(game, ISH, ISHIDA_LEADER, cardless=True)  # 1-1: the defender leads on a tie
    deploy(game, TOK, toks[0])  # 3 + 1 same clan: 5-1
    deploy(game, ISH, *ukita)  # 3, then 3 + 1: 5-8
    deploy(game, TOK, toks[1])  # 3 + 2: 10-8
    ok(game, cm.Finish(side=ISH))
    ok(game, cm.Finish(side=TOK))
    # Tokugawa wins 10-8: Ishida loses 10 // 7 + 1 = 2, Tokugawa 8 // 7 = 1 (8.7.1)
    finish_and_lose(game, prefer=[TOKUGAWA_LEADER, ISHIDA_LEADER])
    assert game.state.pos[TOKUGAWA_LEADER] == DEAD and game.state.pos[ISHIDA_LEADER] == DEAD
    assert game.state.winner is ISH
    assert game.state.victory is not None and "both" in game.state.victory
