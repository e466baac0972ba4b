"""A power cut in the middle of a game at the (simulated) table: the game store keeps every
command and correction, the engine resumes by re-adjudicating the log, and the table session
lists what changed on the table while the power was off, as discrepancies with fixes."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from fb_game import lay_out
from fb_helpers import WAIT_S

from companion.core.game import Accepted
from companion.core.store import CommandRecorder, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.state import Level, Phase
from firmware_bridge.bridge import Bridge
from firmware_bridge.corrections import CorrectionLog
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")


def recorded_movement(store: Store, seed: int = 5) -> tuple[int, SekigaharaGame]:
    """As ``fb_game.seeded_movement`` (the same seeded players), every command stored."""
    game_id, game = records.start(store)
    rng = random.Random(seed)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    while not (game.state.phase is Phase.MOVEMENT and game.state.level is None):
        result = game.submit(player.command(game.state))
        if isinstance(result, Accepted):
            for event in result.events:
                table.observe(event)
    assert game.state.active is not None
    assert isinstance(game.submit(cm.BuyMovement(side=game.state.active, level=Level.TOTAL)),
                      Accepted)
    return game_id, game


def running_bridge(table: SimulatedTable, log: Path) -> Bridge:
    bridge = Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                    missing_after_s=0.5, corrections=CorrectionLog(log))
    bridge.__enter__()
    bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
    return bridge


def test_after_a_power_cut_the_game_resumes_and_lists_what_moved_while_off(
    table: SimulatedTable, tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite"
    store = Store.open(db)
    game_id, game = recorded_movement(store)
    recorder = game.recorder
    assert isinstance(recorder, CommandRecorder)
    bridge = running_bridge(table, tmp_path / "corrections.jsonl")
    try:
        lay_out(table, bridge, game)
        session = TableSession(bridge, game, records=recorder).start()
        session.wait_for(lambda s: s.discrepancies == () and not s.questions, WAIT_S)
        table.move("gifu", "kiso")  # a legal move, seen and stored
        session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
        table.lift("I11")  # a dead tag: the referee says the engine is right
        [missing] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        session.trust_engine(missing, "its tag is dead; it is on Kiso", by="referee")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        table.put("I11", "kiso")
        before = (game.events, game.state)
        session.stop()
    finally:
        bridge.__exit__(None, None, None)
    store.close()  # the power goes off here

    table.move("osaka", "hakone")  # someone knocks a stack while the companion is off

    with Store.open(db) as store:
        [unfinished] = store.unfinished()
        assert unfinished.id == game_id
        stored = store.load(game_id).entries
        [correction] = [e for e in stored if e.kind == "correction"]
        assert correction.data["action"] == "trust_engine"
        assert correction.data["by"] == "referee"
        assert correction.data["note"] == "its tag is dead; it is on Kiso"
        assert any(e.kind == "command" and e.data["command"]["type"] == "move_stack"
                   for e in stored)

        _, resumed = records.resume(store, game_id)
        assert (resumed.events, resumed.state) == before
        bridge = running_bridge(table, tmp_path / "corrections-2.jsonl")
        try:
            session = TableSession(bridge, resumed, records=CommandRecorder(store, game_id)).start()
            found = session.wait_for(
                lambda s: [d for d in s.discrepancies if d.kind == "illegal_move"], WAIT_S)
            assert found[0].fix == "put them back on Osaka"
            assert "from Osaka to Hakone" in found[0].public()
            for d in session.discrepancies:
                assert d.fix and not BLOCK_ID.search(d.public())
            assert resumed.state.pos == before[1].pos  # never silently accepted
            for block, zone in before[1].pos.items():
                if zone == "osaka":
                    table.put(block, "osaka")  # the fix: put them back
            session.wait_for(
                lambda s: not [d for d in s.discrepancies if d.kind == "illegal_move"], WAIT_S)
            session.stop()
        finally:
            bridge.__exit__(None, None, None)


def test_a_locked_database_holds_the_move_says_so_and_the_retry_saves_it(
    table: SimulatedTable, tmp_path: Path
) -> None:
    db = tmp_path / "games.sqlite"
    store = Store.open(db, timeout=0.1)
    game_id, game = recorded_movement(store)
    bridge = running_bridge(table, tmp_path / "corrections.jsonl")
    other = sqlite3.connect(db, isolation_level=None)
    try:
        lay_out(table, bridge, game)
        session = TableSession(bridge, game, records=CommandRecorder(store, game_id)).start()
        session.wait_for(lambda s: s.discrepancies == () and not s.questions, WAIT_S)
        stored = len(store.load(game_id).entries)
        other.execute("BEGIN EXCLUSIVE")  # another program holds the database
        table.move("gifu", "kiso")
        said = session.wait_for(lambda s: s.unsaved, WAIT_S)
        assert said.startswith("not saved: ") and "in use by another program" in said
        assert game.state.pos["I11"] == "gifu"  # nothing shown that is not saved
        assert any(line.kind == "unsaved" for line in session.log)
        other.execute("ROLLBACK")
        session.refresh()  # the app retries
        session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
        assert session.unsaved is None
        assert len(store.load(game_id).entries) == stored + 1
        session.stop()
    finally:
        bridge.__exit__(None, None, None)
        other.close()
        store.close()
