"""Undo as the record keeps it (issue 15, docs/referee.md "Undo"): a correction that takes back
the last command standing, re-adjudicated by companion.core.records; a forged or late undo is
refused at its entry, and the undo policies never let a physical or revealing command go."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.game import Accepted
from companion.core.records import (
    NotUndoable,
    Undoable,
    UndoRefused,
    last_standing,
    take_back,
    undo_entry,
)
from companion.core.store import CommandRecorder, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.state import State
from companion.games.tenka_meidou import records as tenka_records


def drive(store: Store, done: Callable[[State], bool], seed: int = 3
          ) -> tuple[int, SekigaharaGame, RandomPlayer]:
    """A recorded game played by seeded random players until ``done(state)``."""
    rng = random.Random(seed)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    game_id, game = records.start(store)
    for _ in range(5000):
        if done(game.state):
            return game_id, game, player
        result = game.submit(player.command(game.state))
        if isinstance(result, Accepted):
            for event in result.events:
                table.observe(event)
    raise AssertionError("never reached")


def recorder(game: SekigaharaGame) -> CommandRecorder:
    assert isinstance(game.recorder, CommandRecorder)
    return game.recorder


def test_an_undone_bid_verifies_and_the_game_goes_on_without_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        game_id, game, player = drive(store, lambda s: s.phase.value == "bid")
        before = game.events
        bid = player.command(game.state)
        assert isinstance(game.submit(bid), Accepted)
        verdict, kept = take_back(recorder(game), game.events, records.undo_policy)
        assert isinstance(verdict, Undoable) and verdict.what.endswith("'s bid")
        assert tuple(kept) == before
        game = new_game(kept)
        game.recorder = recorder_of(store, game_id)
        assert isinstance(game.submit(player.command(game.state)), Accepted)  # plays on
        log = store.load(game_id)
        rebuilt = records.check(log)
        assert list(rebuilt.events) == list(game.events)
        assert len(rebuilt.undone) == 1
        # resumed: the same game, and the next undo offered is the new last command
        _, resumed = records.resume(store, game_id)
        assert resumed.events == game.events
        assert recorder(resumed).last == last_standing(log.entries)
        undo = next(e for e in log.entries if e.kind == "correction")
    # the referee's tools: verify counts it, explain names both ends, replay goes either side
    db = str(tmp_path / "games.sqlite")
    assert main(["referee", "verify", str(game_id), "--db", db]) == 0
    said = capsys.readouterr().out
    assert f"1 corrections, entries {undo.seq - 1} undone)" in said
    assert main(["referee", "explain", str(game_id), str(undo.seq), "--db", db]) == 0
    assert f"entry {undo.seq - 1} is taken back" in capsys.readouterr().out
    assert main(["referee", "replay", str(game_id), "--at", str(undo.seq - 1), "--db", db,
                 "--json", "--view", "public"]) == 0
    assert len(json.loads(capsys.readouterr().out)["state"]["bids_placed"]) == 1
    assert main(["referee", "replay", str(game_id), "--at", str(undo.seq), "--db", db,
                 "--json", "--view", "public"]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["bids_placed"] == []


def recorder_of(store: Store, game_id: int) -> CommandRecorder:
    return CommandRecorder(store, game_id, last=last_standing(store.load(game_id).entries))


def test_an_undo_of_anything_but_the_last_command_standing_is_refused(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        game_id, game, _ = drive(store, lambda s: s.phase.value == "bid")
        bid_entry = recorder(game).last
        assert bid_entry is not None
        store.append_correction(game_id, "undo", by="ishida", note="forged",
                                detail={"entry": bid_entry.seq - 1})
        with pytest.raises(records.LogRefused) as refused:
            records.check(store.load(game_id))
        assert refused.value.entry == bid_entry.seq + 1
        assert "only the last one can be undone" in refused.value.reason


def test_a_physical_command_cannot_be_undone_even_by_a_forged_correction(
        tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        game_id, game, _ = drive(store, lambda s: s.phase.value == "setup"
                                 and len(s.draws_due) < 3)
        last = recorder(game).last
        assert last is not None and last.data["command"]["type"] == "draw_blocks"
        offer = undo_entry(last, records.undo_policy)
        assert isinstance(offer, NotUndoable) and "the readers saw" in offer.reason
        with pytest.raises(UndoRefused):
            take_back(recorder(game), game.events, records.undo_policy)
        store.append_correction(game_id, "undo", by="players", note="forged",
                                detail={"entry": last.seq})
        with pytest.raises(records.LogRefused, match="cannot be undone: the readers saw"):
            records.check(store.load(game_id))


def test_a_bid_stands_once_the_other_side_has_bid(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        _, game, player = drive(store, lambda s: s.phase.value == "bid")
        game.submit(player.command(game.state))
        game.submit(player.command(game.state))  # the other side: both bids are shown
        with pytest.raises(UndoRefused, match="cannot be undone: both bids are shown"):
            take_back(recorder(game), game.events, records.undo_policy)


def test_the_policies_never_name_a_hidden_card() -> None:
    bid = {"type": "bid", "side": "ishida", "card": "I-uesugi-double"}
    offer = records.undo_policy(bid, [{"type": "bid_placed", "side": "ishida",
                                       "card": "I-uesugi-double"}])
    assert isinstance(offer, Undoable) and offer.what == "Ishida's bid"
    daimyo = {"type": "choose_daimyo", "colour": "red", "card": "oda_nobunaga"}
    chosen = tenka_records.undo_policy(daimyo, [{"type": "daimyo_chosen", "colour": "red"}])
    assert isinstance(chosen, Undoable) and chosen.what == "Red's Daimyo choice"
    assert "oda" not in chosen.what.lower()
    deploy = {"type": "deploy", "colour": "red", "rolls": [[1, 2, 3]], "single": 3}
    assert isinstance(tenka_records.undo_policy(deploy, []), NotUndoable)


@pytest.mark.parametrize("raw, said", [
    ({"type": "start_game"}, "not a valid command: the game has no command of type 'start_game'"),
    ({"side": "a"}, "not a valid command: it names no command type"),
])
def test_a_stored_command_the_game_does_not_have_is_named_in_one_short_line(
        raw: dict[str, object], said: str) -> None:
    """pydantic would list all 30-odd command types a game has; the refusal names the one
    given, short enough for a screen."""
    from pydantic import TypeAdapter

    from companion.core.records import LogRefused, Rebuilt, step
    from companion.core.store import Entry
    from companion.games.kensei.battle.commands import KenseiCommand
    from companion.games.kensei.battle.rules import KenseiRules

    rules = KenseiRules()
    entry = Entry(seq=1, kind="command", at="2026-11-26T00:00:00Z",
                  data={"command": raw, "events": []}, prev="", hash="")
    with pytest.raises(LogRefused) as refused:
        step(rules, TypeAdapter(KenseiCommand), Rebuilt(rules.initial_state()), entry)
    assert refused.value.entry == 1 and refused.value.reason == said
