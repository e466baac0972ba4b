"""The declared table of which commands each step of the turn accepts (``engine/phases.py``):
the dispatch refuses any other with the rule, before any handler, and ``docs/engine.md`` shows
the same table."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from _engine_kit import ISH, TOK, ok, pick, position, rejected

from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.game import new_game
from companion.games.sekigahara.engine.phases import (
    REFUSED,
    STEPS,
    markdown_table,
    refusal,
    step_of,
)
from companion.games.sekigahara.engine.state import Level, Phase, Stage

DOCS = Path(__file__).resolve().parents[4] / "docs" / "engine.md"
GENERATED = re.compile(r"<!-- phases: [^>]*-->\n(.*?)\n<!-- /phases -->", re.S)


def command_kinds() -> set[type[cm.Command]]:
    union = typing.get_args(cm.SekigaharaCommand)[0]
    return set(typing.get_args(union))


def test_the_docs_table_is_the_codes() -> None:
    found = GENERATED.search(DOCS.read_text(encoding="utf-8"))
    assert found is not None, "docs/engine.md has lost its generated phases table"
    assert found.group(1) == markdown_table()


def test_every_command_has_a_step_and_a_refusal_and_every_step_is_covered() -> None:
    accepted = {kind for step in STEPS.values() for kind in step.accepts}
    assert accepted == command_kinds() == set(REFUSED)
    assert set(STEPS) == set(Phase) | set(Stage)


def test_a_command_out_of_its_step_is_refused_with_its_rule() -> None:
    game = new_game()
    assert step_of(game.state) is STEPS[Phase.NOT_STARTED]
    rejected(game, cm.Bid(side=ISH, card="x"), "6.3")
    rejected(game, cm.EndPhase(side=ISH), "6.4")
    rejected(game, cm.Retreat(side=ISH, destination=None), "8.8.1")
    ok(game, cm.StartGame())
    result = rejected(game, cm.StartGame(), "5.1")
    assert result.message == "the game has already started"


def test_the_movement_phase_is_the_active_sides() -> None:
    blocks = pick(TOK, 2)
    game = position({"hamamatsu": blocks}, active=TOK, level=Level.TOTAL)
    refused = refusal(game.state, cm.EndPhase(side=ISH))
    assert refused is not None
    assert (refused.rule, refused.message) == ("6.4", "it is not the ishida Movement Phase")
    assert refusal(game.state, cm.EndPhase(side=TOK)) is None
    assert rejected(game, cm.BringMori(side=TOK, blocks=()), "9.3").message == (
        "only Ishida brings Mōri blocks")
    assert rejected(game, cm.DeclareCombat(side=TOK, location="hamamatsu"), "8.1").message == (
        "it is not the tokugawa Combat Phase")


def test_while_a_combat_is_fought_the_active_side_waits_for_it() -> None:
    ish, tok = pick(ISH, 2), pick(TOK, 2)
    game = position({"hamamatsu": ish + tok}, phase=Phase.COMBAT, active=TOK)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    state = game.state
    assert state.pending is not None
    assert step_of(state) is STEPS[state.pending.stage]
    for command in (cm.EndPhase(side=TOK), cm.DeclareCombat(side=TOK, location="hamamatsu")):
        assert rejected(game, command, "8.1").message == (
            "the combat in progress must be resolved first")
    assert rejected(game, cm.EndPhase(side=ISH), "6.4").message == (
        "it is not the ishida Combat Phase")
