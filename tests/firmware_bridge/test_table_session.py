"""Following a real game: the real bridge reads simulated hubs over real pseudo-terminals and
the session turns what it sees into engine commands, questions and discrepancies (7.3, 8.7.2,
8.9.6), with the LEDs lit on the simulated hubs and every correction logged."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_game import lay_out, play_until, seeded_movement
from fb_helpers import WAIT_S

from companion.games.sekigahara import combat
from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import is_besieged
from companion.games.sekigahara.engine.data import BOARD, FACES, side_of
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.session_rules import QuestionKind
from companion.games.sekigahara.engine.state import Level, Phase, Stage, State
from firmware_bridge.bridge import Bridge
from firmware_bridge.corrections import CorrectionLog
from firmware_bridge.protocol import LedMode
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.zones import zone_name

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")
FACE = re.compile(
    r"\b(" + "|".join(c.value for c in Clan if c.value not in ("ishida", "tokugawa", "mori"))
    + r"|mon|cavalry|gun)\b", re.I,
)


@pytest.fixture
def corrections(tmp_path: Path) -> CorrectionLog:
    return CorrectionLog(tmp_path / "corrections.jsonl")


@pytest.fixture
def bridge(table: SimulatedTable, corrections: CorrectionLog) -> Iterator[Bridge]:
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                missing_after_s=0.5, corrections=corrections) as running:
        running.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield running


def follow(table: SimulatedTable, bridge: Bridge, game: SekigaharaGame) -> TableSession:
    lay_out(table, bridge, game)
    session = TableSession(bridge, game).start()
    session.wait_for(lambda s: s.discrepancies == () and not s.questions, WAIT_S)
    return session


def assert_public(session: TableSession) -> None:
    """No block id anywhere; no face either, except in the engine's own public log lines of
    what the rules reveal (deployed blocks 8.2.3, losses 8.7.2: ``views.public_event``)."""
    for line in session.log:
        assert not BLOCK_ID.search(line.text), line.text
    texts = [line.text for line in session.log if line.kind != "command"]
    texts += [d.public() for d in session.discrepancies]
    for q in session.questions:
        texts += [q.question.text, *(o.label for o in q.question.options)]
    for text in texts:
        assert not BLOCK_ID.search(text) and not FACE.search(text), text


def led(table: SimulatedTable, zone: str) -> LedMode | None:
    hub, antenna = table.antenna(zone)
    return hub.leds.get(antenna)


def test_a_legal_stack_move_becomes_a_move_stack_in_the_engine(
    table: SimulatedTable, bridge: Bridge
) -> None:
    game = seeded_movement()
    with follow(table, bridge, game) as session:
        table.move("gifu", "kiso")  # "this stack left Gifu and arrived at Kiso"
        session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
        moved = [e for e in game.events if isinstance(e, ev.StackMoved)]
        assert moved[-1].origin == "gifu" and set(moved[-1].paths) == {"I11", "I15"}
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        assert any(line.kind == "command" for line in session.log)
        assert_public(session)


def test_two_routes_raise_a_question_and_the_answer_applies_the_move(
    table: SimulatedTable, bridge: Bridge
) -> None:
    game = seeded_movement()
    with follow(table, bridge, game) as session:
        before = len(game.events)
        table.move("kyoto", "osaka")
        [open_q] = session.wait_for(lambda s: s.questions, WAIT_S)
        assert open_q.question.kind is QuestionKind.ROUTE and len(open_q.question.options) == 2
        assert len(game.events) == before  # nothing applied until the players answer
        assert_public(session)
        with pytest.raises(ValueError):
            session.answer(open_q.id, 5)
        session.answer(open_q.id, 0)
        assert game.state.pos["I10"] == "osaka" and game.state.pos["I44"] == "osaka"
        session.wait_for(lambda s: not s.questions and s.discrepancies == (), WAIT_S)


def test_an_illegal_move_is_a_discrepancy_blinking_both_ends_until_put_back(
    table: SimulatedTable, bridge: Bridge
) -> None:
    game = seeded_movement()
    with follow(table, bridge, game) as session:
        table.move("gifu", "edo")  # far beyond a stack's reach
        [problem] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        assert problem.kind == "illegal_move" and problem.rule is not None
        assert problem.rule.startswith("7.3")
        assert problem.text.startswith("two gold blocks moved from Gifu to Edo")
        assert problem.fix == "put them back on Gifu"
        assert_public(session)
        bridge.wait_for(lambda b: led(table, "gifu") == LedMode.BLINK
                        and led(table, "edo") == LedMode.BLINK, WAIT_S)
        assert game.state.pos["I11"] == "gifu"  # never silently accepted
        table.put("I11", "gifu")
        table.put("I15", "gifu")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        bridge.wait_for(lambda b: led(table, "gifu") == LedMode.OFF, WAIT_S)


def test_a_vanished_block_is_missing_until_a_logged_correction(
    table: SimulatedTable, bridge: Bridge, corrections: CorrectionLog
) -> None:
    game = seeded_movement()
    with follow(table, bridge, game) as session:
        table.lift("I11")  # a dead tag, or a block knocked off the table
        [problem] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        assert problem.kind == "missing" and problem.text == "a gold block missing from Gifu"
        assert problem.fix == "put it back on Gifu"
        bridge.wait_for(lambda b: led(table, "gifu") == LedMode.BLINK, WAIT_S)
        session.trust_engine(problem, "its tag is dead; it is on Gifu")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        assert corrections.path is not None
        [entry] = [json.loads(line) for line in corrections.path.read_text().splitlines()]
        assert entry["kind"] == "declare" and entry["zone"] == "gifu"
        assert any(line.kind == "correction" for line in session.log)

        table.move("osaka", "hakone")  # illegal; the players accept the table as it is
        [problem] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        session.accept_table(problem, "house rule for this game")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        assert corrections.path.read_text().count('"dismiss"') == 1
        assert_public(session)


def test_a_besieged_block_leaving_cites_8_9_6(table: SimulatedTable, bridge: Bridge) -> None:
    game = play_until(1, lambda s: _besieged_block(s) is not None)  # seed 1: a siege early
    block = _besieged_block(game.state)
    assert block is not None
    origin = game.state.pos[block]
    with follow(table, bridge, game) as session:
        table.put(block, sorted(BOARD.neighbours(origin))[0])
        problem = session.wait_for(lambda s: next(iter(s.discrepancies), None), WAIT_S)
        assert problem.kind == "illegal_move" and problem.rule == "8.9.6"
        assert problem.fix == f"put it back on {zone_name(origin)}"
        assert_public(session)


def test_a_block_on_the_casualty_tray_when_losses_are_due_is_take_losses(
    table: SimulatedTable, bridge: Bridge
) -> None:
    def losses_due(state: State) -> bool:
        p = state.pending
        return p is not None and p.stage is Stage.FIGHTING and p.combat is not None and (
            combat.awaiting_losses(p.combat) is not None)

    game = play_until(5, losses_due)
    pending = game.state.pending
    assert pending is not None and pending.combat is not None
    choice = next(a for a in combat.legal_actions(pending.combat) if isinstance(a, combat.Lose))
    with follow(table, bridge, game) as session:
        bridge.wait_for(lambda b: led(table, pending.location) == LedMode.FAST, WAIT_S)
        for block in (u for u in choice.losses if u in FACES):  # disks have no tag
            table.put(block, "casualties")
        session.wait_for(
            lambda s: any(isinstance(e, ev.CombatActed) and e.action["type"] == "lose"
                          for e in s.game.events) or s.questions, WAIT_S)
        assert_public(session)
        for open_q in session.questions:  # a choice of disks (8.9.4), if any
            assert open_q.question.kind is QuestionKind.LOSSES
            session.answer(open_q.id, 0)
        lost = [e for e in game.events if isinstance(e, ev.CombatActed)
                and e.action["type"] == "lose"]
        assert lost and set(lost[-1].action["losses"]) >= set(choice.losses) - {
            u for u in choice.losses if u not in FACES}
        site = pending.location
        for problem in session.discrepancies:  # the battle is over: trays back to the map
            assert problem.kind == "illegal_move" and problem.zones[0] == site, problem
            assert problem.fix.endswith(f"back on {zone_name(site)}")
        for tray in ("ishida_deployment", "tokugawa_deployment"):
            table.move(tray, site)
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)



def _besieged_block(state: State) -> str | None:
    """A block of the side moving now, besieged in a castle (8.9.6), while moves are left."""
    side = state.active
    if state.phase is not Phase.MOVEMENT or side is None or state.level in (None, Level.NONE):
        return None
    if state.moves_left < 1:
        return None
    return next((b for b in sorted(state.inside) if is_besieged(state, b)
                 and side_of(b) is side), None)


def test_legal_destinations_light_on_request_and_stop_turns_everything_off(
    table: SimulatedTable, bridge: Bridge
) -> None:
    game = seeded_movement()
    session = follow(table, bridge, game)
    found = session.show_destinations("gifu", ("I11", "I15"))
    assert "kiso" in found and "edo" not in found
    bridge.wait_for(lambda b: led(table, "kiso") == LedMode.ON
                    and led(table, "edo") in (None, LedMode.OFF), WAIT_S)
    session.clear_destinations()
    bridge.wait_for(lambda b: led(table, "kiso") == LedMode.OFF, WAIT_S)
    session.stop()
    table.move("gifu", "kiso")
    bridge.wait_for(lambda b: b.placements().get("I11") == "kiso", WAIT_S)
    assert game.state.pos["I11"] == "gifu"  # a stopped session submits nothing
    assert session.refresh() is None
