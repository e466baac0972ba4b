"""Kensei battles in the store (issue 20, item 7): recorded as they are played, resumed
mid-turn by re-adjudication and finished as the simulator finishes them; the undo policy in
the battle's terms; a seal at the end of every turn and of the battle; forged records refused
by ``referee verify`` or caught by the seals the players noted."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _records_kit import ROUTED, TO_THE_END, play_stored, replayed

from companion.cli import main
from companion.core import records as core_records
from companion.core.chain import canonical_json, entry_hash
from companion.core.seals import Seal, seals
from companion.core.store import Store
from companion.games.kensei import records
from companion.games.kensei.battle.simulator import play_battle
from companion.games.kensei.tournament import SelfPlay
from companion.games.tenka_meidou import records as tenka_records

HIDDEN_WORDS = ("a-", "b-", "worth", "Caza", "Espías", "Infiltración", "Limpiad", "Control",
                "Expulsad")


def test_a_battle_is_stored_resumed_mid_turn_and_finished(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        players = SelfPlay(TO_THE_END)
        game_id, game = records.start(store)
        while not (game.state.turn == 2 and game.state.activation is not None
                   and len(game.state.activation.troops) == 2):
            players.play(game, 1)
        assert game.state.phase == "activation"  # two troops active, orders not yet rolled
        assert records.progress(store.load(game_id)).endswith(": turn 2 of 5")
        assert [g.id for g in store.unfinished(records.GAME)] == [game_id]
        assert store.unfinished(tenka_records.GAME) == []
        assert not records.finish_if_over(store, game_id, game)

        _, again = records.resume(store, game_id)  # the table restarted
        assert again.state == game.state and len(again.events) == len(game.events)
        players.play(again)
        assert records.finish_if_over(store, game_id, again)
        log = store.load(game_id)
        assert store.unfinished(records.GAME) == []
        # the same battle as the simulator's, uninterrupted, event for event
        whole = play_battle(TO_THE_END, check=False)
        assert [e.model_dump(mode="json") for e in again.events] == [
            e.model_dump(mode="json") for e in whole.events]
        rebuilt = records.check(log)
        assert rebuilt.state == again.state and rebuilt.commands == len(log.entries)
        assert log.summary.result == records.result(again.state)
        assert log.summary.result is not None and " VP" in log.summary.result
        assert records.progress(log).endswith("the battle is over and scored")


def test_the_undo_policy_in_the_battles_terms(tmp_path: Path) -> None:
    policy = records.undo_policy
    marker = policy({"type": "marker", "troop": "a2", "marker": "parapeted", "on": True},
                    [{"type": "marker_set"}])
    assert isinstance(marker, core_records.Undoable)
    assert marker.what == "The Parapeted marker set by hand"
    order = policy({"type": "order", "side": "b", "troop": "b1", "order": "charge"},
                   [{"type": "order_given"}])
    assert isinstance(order, core_records.Undoable) and order.side == "b"
    hidden = policy({"type": "hold_back", "side": "a", "troop": "a3"},
                    [{"type": "troop_held_back", "troop": "a3", "hidden": True}])
    assert isinstance(hidden, core_records.Undoable) and "a3" not in hidden.what
    for kind, why in [("order_roll", "the dice were rolled"), ("melee", "the ruling was applied"),
                      ("draw_cards", "the cards were drawn"),
                      ("secondary_mission", "in secret"), ("command_duel", "seen them"),
                      ("offering", "the card was spent"), ("end_turn", "the turn is over"),
                      ("shoot", "the dice were rolled")]:
        verdict = policy({"type": kind, "side": "a"}, [])
        assert isinstance(verdict, core_records.NotUndoable), kind
        assert why in verdict.reason, (kind, verdict.reason)
        assert not any(w in str(verdict) for w in HIDDEN_WORDS), str(verdict)
    ending = policy({"type": "marker", "troop": "a2", "marker": "used", "on": True},
                    [{"type": "marker_set"}, {"type": "battle_ended"}])
    assert isinstance(ending, core_records.NotUndoable)

    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        game_id, game = records.start(store)
        players = SelfPlay(TO_THE_END)
        while game.state.activation is None or len(game.state.activation.troops) < 2:
            players.play(game, 1)
        recorder = game.recorder
        assert isinstance(recorder, core_records.CommandRecorder)
        verdict, kept = core_records.take_back(recorder, game.events, policy)
        assert verdict.what.endswith("army's activation") and len(kept) == len(game.events) - 1
        log = store.load(game_id)
        assert records.check(log).undone == [log.entries[-2].seq]
        _, again = records.resume(store, game_id)
        assert again.state.activation is not None and len(again.state.activation.troops) == 1
        while again.state.activation is None or not again.state.activation.orders:
            players.play(again, 1)  # an order roll is the last command
        with pytest.raises(core_records.UndoRefused, match="the dice were rolled"):
            core_records.take_back(again.recorder, again.events, policy)  # type: ignore[arg-type]


def test_a_seal_at_the_end_of_every_turn_and_of_the_battle(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        full, routed = play_stored(store, TO_THE_END), play_stored(store, ROUTED)
        sheet = seals(store.load(full))
        rout = seals(store.load(routed))
        assert sheet[-1].entry == store.load(full).entries[-1].seq  # the score, last
    assert [s.label for s in sheet] == ["turn 1", "turn 2", "turn 3", "turn 4", "turn 5", "game"]
    assert str(sheet[1]) == f"Seal of turn 2: {sheet[1].code}"
    assert [s.label for s in rout] == ["turn 1", "turn 2", "turn 3", "turn 4", "game"]
    assert [s.entry for s in sheet] == sorted(s.entry for s in sheet)
    db = str(tmp_path / "games.sqlite")
    code = main(["referee", "verify", str(full), "--db", db,
                 *[a for s in sheet for a in ("--seal", f"{s.label}={s.code}")]])
    out = capsys.readouterr().out
    assert code == 0 and f"{len(sheet)} seals matched" in out and " VP)" in out


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, int, list[Seal]]:
    db = tmp_path / "games.sqlite"
    with Store.open(db, durable=False) as store:
        game_id = play_stored(store, ROUTED)
        return db, game_id, seals(store.load(game_id))


def _rows(db: Path, game_id: int) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        return [{"seq": s, "kind": k, "at": a, "data": json.loads(b)} for s, k, a, b in
                con.execute("SELECT seq, kind, at, body FROM entries WHERE game_id = ? "
                            "ORDER BY seq", (game_id,))]


def _rechain(header_hash: str, bodies: list[dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    """What a forger who knows the format writes: every entry re-hashed."""
    previous = header_hash
    for body in bodies:
        digest = entry_hash(previous, body)
        yield (body["seq"], body["kind"], body["at"], canonical_json(body["data"]), previous,
               digest)
        previous = digest


def _forge(db: Path, game_id: int, bodies: list[dict[str, Any]], result: str | None = None
           ) -> None:
    with sqlite3.connect(db) as con:
        (header_hash,) = con.execute("SELECT header_hash FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
        con.execute("DELETE FROM entries WHERE game_id = ?", (game_id,))
        con.executemany("INSERT INTO entries (game_id, seq, kind, at, body, prev, hash) "
                        "VALUES (?,?,?,?,?,?,?)",
                        [(game_id, *row) for row in _rechain(header_hash, bodies)])
        if result is not None:
            con.execute("UPDATE games SET result = ? WHERE id = ?", (result, game_id))


def _verify(capsys: pytest.CaptureFixture[str], db: Path, game_id: int, *more: str
            ) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["referee", "verify", str(game_id), "--db", str(db), *more])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_die_changed_in_the_record_is_refused_naming_its_entry(
        stored: tuple[Path, int, list[Seal]], capsys: pytest.CaptureFixture[str]) -> None:
    db, game_id, _ = stored
    bodies = _rows(db, game_id)
    k = next(i for i, b in enumerate(bodies) if b["data"]["command"]["type"] == "order_roll"
             and b["data"]["events"][0]["orders"] == 1 and b["data"]["command"]["die"] < 4)
    bodies[k]["data"]["command"]["die"] = 6  # two orders and ki, had it been rolled
    _forge(db, game_id, bodies)
    code, said = _verify(capsys, db, game_id)
    assert code == 1 and f"entry {k + 1}" in said and "ruled differently" in said
    assert "Traceback" not in said


def test_an_altered_melee_ruling_is_refused(
        stored: tuple[Path, int, list[Seal]], capsys: pytest.CaptureFixture[str]) -> None:
    db, game_id, _ = stored
    bodies = _rows(db, game_id)
    k, event = next((i, e) for i, b in enumerate(bodies) for e in b["data"]["events"]
                    if e["type"] == "melee_fought" and e["ruling"]["loser"] is not None)
    loser = event["ruling"]["loser"]
    event["ruling"]["loser"] = event["ruling"]["winner"]
    event["ruling"]["winner"] = loser
    _forge(db, game_id, bodies)
    code, said = _verify(capsys, db, game_id)
    assert code == 1 and f"entry {k + 1}: this melee was ruled differently" in said
    assert "ruling recorded" in said


def _die_that_changes_the_result(bodies: list[dict[str, Any]]
                                 ) -> tuple[list[Any], list[list[dict[str, Any]]], str, int]:
    """The latest melee die (a wound, honour or combat die made a 1 or a 6) whose change
    still makes a legal battle, with another result: the forged commands, their events, the
    forged result and the entry."""
    commands = [records.COMMANDS.validate_python(b["data"]["command"]) for b in bodies]
    honest = replayed(commands)
    assert honest is not None
    for k in reversed(range(len(commands))):
        if commands[k].type != "melee":
            continue
        for side in ("a", "b"):
            dice = commands[k].input[side].get("dice", {})
            for kind in ("wound", "honour", "combat"):
                for i, die in enumerate(dice.get(kind, [])):
                    for face in (1, 6):
                        if face == die:
                            continue
                        data = json.loads(json.dumps(commands[k].input))
                        data[side]["dice"][kind][i] = face
                        forged = [*commands[:k], type(commands[k])(input=data),
                                  *commands[k + 1:]]
                        again = replayed(forged)
                        if again is not None and again[1] is not None and again[1] != honest[1]:
                            return forged, again[0], again[1], k + 1
    raise AssertionError("no single die changes this battle's result")


def test_a_consistent_forgery_passes_the_rules_and_is_caught_by_the_seals(
        stored: tuple[Path, int, list[Seal]], capsys: pytest.CaptureFixture[str]) -> None:
    """A forger who changes one wound die and re-adjudicates the rest of the battle, the
    result rewritten and the chain recomputed: the rules accept it, the seals do not."""
    db, game_id, sheet = stored
    bodies = _rows(db, game_id)
    forged, events, result, entry = _die_that_changes_the_result(bodies)
    for body, command, produced in zip(bodies, forged, events, strict=True):
        body["data"] = {"command": command.model_dump(mode="json"), "events": produced}
    _forge(db, game_id, bodies, result)
    code, said = _verify(capsys, db, game_id)
    assert code == 0 and "verified" in said  # chain and rules hold
    args = [a for s in sheet for a in ("--seal", f"{s.label}={s.code}")]
    code, said = _verify(capsys, db, game_id, *args)
    assert code == 1 and "does not match the seals" in said
    first = next(s for s in sheet if s.entry >= entry)
    assert f"{first.name} ({first.code})" in said
