"""Hidden information (3.1, 8.2.1): no view outside the referee's, no log line and no rejection
message ever holds a hidden block's identity."""

from __future__ import annotations

import re

from _engine_kit import ISH, TOK, ok, pick, position, rejected

from companion.core.views import PublicView, RefereeView, SideView
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.apply import apply_event
from companion.games.sekigahara.engine.data import FACES
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.sekigahara.engine.state import RECRUITMENT, Level, Phase, State
from companion.games.sekigahara.engine.views import (
    public_event,
    public_view,
    referee_view,
    side_event,
    side_view,
)

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")


def test_public_view_and_log_never_hold_a_block_id_over_whole_games() -> None:
    for seed in (11, 12):
        report = play_game(seed, check=False)
        assert report.game is not None
        state = State()
        for event in report.game.events:
            state = apply_event(state, event)
            assert not BLOCK_ID.search(public_view(state).payload.model_dump_json())
            assert not BLOCK_ID.search(public_event(event))
        mine = side_view(state, ISH).payload.model_dump_json()
        assert not re.search(r"\bT\d\d\b", mine)


def test_side_view_adds_only_own_blocks_and_referee_sees_all() -> None:
    game = position({"sunpu": pick(TOK, 2), "kiso": pick(ISH, 1)})
    public = public_view(game.state)
    mine = side_view(game.state, TOK)
    referee = referee_view(game.state)
    assert isinstance(public, PublicView) and isinstance(mine, SideView)
    assert isinstance(referee, RefereeView)
    assert public.payload.locations["sunpu"].tokugawa == 2
    assert all(FACES[b].side is Side.TOKUGAWA for b in mine.payload.blocks)
    assert len(referee.payload.positions) == 96


def test_revealed_faces_only_for_deployed_blocks_and_casualties() -> None:
    toks = pick(TOK, 2, clan=Clan.TOKUGAWA, mon=3)
    game = position({"hamamatsu": [*toks, *pick(ISH, 2, clan=Clan.UKITA, mon=1)]},
                    phase=Phase.COMBAT)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    battle = public_view(game.state).payload.battle
    assert battle is not None and battle.revealed == []
    ok(game, cm.Deploy(side=TOK, card=cm.CardPlay(clan=Clan.TOKUGAWA, kind=CardKind.PLAIN),
                       blocks=(toks[0],)))
    battle = public_view(game.state).payload.battle
    assert battle is not None and len(battle.revealed) == 1
    assert battle.revealed[0].clan == "tokugawa" and battle.revealed[0].mon == 3


def test_rejections_do_not_name_hidden_blocks() -> None:
    box = pick(TOK, 1, clan=Clan.DATE)
    game = position({RECRUITMENT: box, "sunpu": pick(TOK, 1)}, level=Level.TOTAL)
    stranger = pick(ISH, 1)[0]
    result = rejected(game, cm.Muster(side=TOK, location="sendai", blocks=(stranger,),
                                      option="B"), "7.2")
    assert stranger not in result.message and not BLOCK_ID.search(result.message)
    result = rejected(game, cm.MoveStack(side=TOK, origin="sunpu",
                                         paths={stranger: ("numazu",)}), "7.3.1")
    assert not BLOCK_ID.search(result.message)
    assert result.private is not None and stranger in result.private


def test_option_a_muster_is_shown_option_b_is_not() -> None:
    date = pick(TOK, 2, clan=Clan.DATE, leader=False)
    game = position({RECRUITMENT: date}, level=Level.TOTAL)
    events = ok(game, cm.Muster(side=TOK, location="sendai", blocks=tuple(date), option="A"))
    assert "date" in public_event(events[0])
    game = position({RECRUITMENT: date}, level=Level.TOTAL)
    events = ok(game, cm.Muster(side=TOK, location="edo", blocks=tuple(date[:1]), option="B"))
    assert "date" not in public_event(events[0])
    assert TOK.value in public_event(events[0])


def test_a_side_log_line_shows_its_own_blocks_only() -> None:
    date = pick(TOK, 2, clan=Clan.DATE, leader=False)
    game = position({RECRUITMENT: date}, level=Level.TOTAL)
    events = ok(game, cm.Muster(side=TOK, location="edo", blocks=tuple(date[:1]), option="B"))
    assert "date" in side_event(events[0], TOK)
    assert "date" not in side_event(events[0], ISH)
    assert not BLOCK_ID.search(side_event(events[0], TOK))
