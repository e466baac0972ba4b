"""Random (mostly illegal) commands against positions of real games: every rejection cites a
rule and its public message never names a block."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.game import Game, Rejection
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.data import BOARD, CARDS, FACES
from companion.games.sekigahara.engine.game import SekigaharaRules
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.sekigahara.engine.state import RECRUITMENT, Level

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")
BLOCKS = sorted(FACES)
PLACES = [*sorted(BOARD.locations), RECRUITMENT]
LOGS = [g.events for g in (play_game(seed, check=False).game for seed in (3, 4, 9)) if g]

sides = st.sampled_from(list(Side))
blocks = st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=4, unique=True).map(tuple)
places = st.sampled_from(PLACES)
commands = st.one_of(
    st.builds(cm.DrawBlocks, side=sides, zone=places, blocks=blocks),
    st.builds(cm.Bid, side=sides, card=st.sampled_from(sorted(CARDS))),
    st.builds(cm.ChooseFirst, side=sides, first=sides),
    st.builds(cm.BuyMovement, side=sides, level=st.sampled_from(list(Level)),
              replace=st.integers(0, 3)),
    st.builds(cm.Muster, side=sides, location=places, blocks=blocks,
              option=st.sampled_from(["A", "B"])),
    st.builds(cm.BringMori, side=sides, blocks=blocks),
    st.builds(lambda side, origin, bs, dest: cm.MoveStack(
        side=side, origin=origin, paths={b: (dest,) for b in bs}),
        sides, places, blocks, places),
    st.builds(cm.EndPhase, side=sides),
    st.builds(cm.DeclareCombat, side=sides, location=places, inside=st.booleans()),
    st.builds(cm.ChooseInside, side=sides, inside=st.booleans()),
    st.builds(cm.Deploy, side=sides, blocks=blocks, card=st.builds(
        cm.CardPlay, clan=st.sampled_from(list(Clan)), kind=st.sampled_from(list(CardKind)))),
    st.builds(cm.Finish, side=sides),
    st.builds(cm.TakeLosses, side=sides, losses=blocks),
    st.builds(cm.Retreat, side=sides, destination=places, into_castle=blocks),
)


@settings(max_examples=300, deadline=None)
@given(log=st.sampled_from(LOGS), cut=st.floats(0, 1), command=commands)
def test_rejections_cite_a_rule_and_name_no_block(
    log: tuple[object, ...], cut: float, command: cm.Command
) -> None:
    game = Game(SekigaharaRules(), log[: int(len(log) * cut)])  # type: ignore[arg-type]
    result = game.submit(command)
    if isinstance(result, Rejection):
        assert result.rule
        assert not BLOCK_ID.search(result.message), result.message
