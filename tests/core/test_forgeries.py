"""The six forgeries of issue 19, each done on a real stored game (seeded self-play into a
Store) by someone who opens its SQLite file or rewrites its export and recomputes the whole
hash chain after the forged entry: plain chain verification passes, the seals the players
noted do not (docs/referee.md, Seals). The stored result and end time are read from the chain,
so tampering with them is caught without any seal."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from companion.cli import main
from companion.core.chain import canonical_json, entry_hash
from companion.core.game import judge_of
from companion.core.seals import Seal, check_seals, seals
from companion.core.store import CommandRecorder, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.tenka_meidou import records as tenka_records
from companion.games.tenka_meidou.players import RandomPlayer, random_start
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase


class NotingRecorder(CommandRecorder):
    """Records as the table does, and after the 30th command stores a correction by Ishida
    (an accepted difference at the table), so the record holds a correction with an author."""

    def record(self, command: BaseModel, events: Sequence[BaseModel]) -> None:
        super().record(command, events)
        assert self.last is not None
        if self.last.seq == 30:
            self.correction("accept_table", by="ishida", note="the blocks at Gifu stand",
                            detail={"location": "gifu"})


@dataclass(frozen=True)
class Stored:
    db: Path
    game_id: int
    sheet: list[Seal]
    """The seals the players noted on their score sheet."""


def _sekigahara(db: Path) -> Stored:
    with Store.open(db, durable=False) as store:
        game_id = store.create_game(records.GAME, records.new_header())
        report = play_game(3, check=False, recorder=NotingRecorder(store, game_id))
        assert report.game is not None and records.finish_if_over(store, game_id, report.game)
        return Stored(db, game_id, seals(store.load(game_id)))


@pytest.fixture
def stored(tmp_path: Path) -> Stored:
    return _sekigahara(tmp_path / "games.sqlite")


def _rows(db: Path, game_id: int) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as con:
        return [{"seq": s, "kind": k, "at": a, "data": json.loads(b)} for s, k, a, b in con.execute(
            "SELECT seq, kind, at, body FROM entries WHERE game_id = ? ORDER BY seq", (game_id,))]


def _rechain(header_hash: str, bodies: list[dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    """What a forger who knows the format writes: every entry renumbered and re-hashed."""
    previous = header_hash
    for seq, body in enumerate(bodies, start=1):
        body = {**body, "seq": seq}
        digest = entry_hash(previous, body)
        yield (seq, body["kind"], body["at"], canonical_json(body["data"]), previous, digest)
        previous = digest


def forge(stored: Stored, bodies: list[dict[str, Any]], *, result: str | None = None) -> None:
    """Replace the stored game's entries by ``bodies`` with a recomputed chain, and its end by
    the forged record's (the end time: its last command's)."""
    with sqlite3.connect(stored.db) as con:
        (header_hash,) = con.execute("SELECT header_hash FROM games WHERE id = ?",
                                     (stored.game_id,)).fetchone()
        con.execute("DELETE FROM entries WHERE game_id = ?", (stored.game_id,))
        con.executemany("INSERT INTO entries (game_id, seq, kind, at, body, prev, hash) "
                        "VALUES (?,?,?,?,?,?,?)",
                        [(stored.game_id, *row) for row in _rechain(header_hash, bodies)])
        ended = next(b["at"] for b in reversed(bodies) if b["kind"] == "command")
        con.execute("UPDATE games SET finished = ? WHERE id = ?", (ended, stored.game_id))
        if result is not None:
            con.execute("UPDATE games SET result = ? WHERE id = ?", (result, stored.game_id))


def verify(capsys: pytest.CaptureFixture[str], stored: Stored, *seal_args: str
           ) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["referee", "verify", str(stored.game_id), "--db", str(stored.db), *seal_args])
    out = capsys.readouterr()
    return code, out.out + out.err


def sheet_args(sheet: list[Seal]) -> list[str]:
    return [arg for s in sheet for arg in ("--seal", f"{s.label}={s.code}")]


def caught(capsys: pytest.CaptureFixture[str], stored: Stored) -> str:
    """The forged game passes plain verification (chain and rules) and fails the seals."""
    plain, said = verify(capsys, stored)
    assert plain == 0, said
    code, said = verify(capsys, stored, *sheet_args(stored.sheet))
    assert code == 1, said
    assert "does not match the seals" in said
    return said


def test_the_honest_record_matches_every_seal_on_the_sheet(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    code, said = verify(capsys, stored, *sheet_args(stored.sheet))
    assert code == 0, said
    assert f"{len(stored.sheet)} seals matched" in said
    assert f"seal of the game: {stored.sheet[-1].code}" in said


def test_1_a_flipped_winner_is_caught_without_seals(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(stored.db) as con:
        (result,) = con.execute("SELECT result FROM games").fetchone()
        flipped = result.replace("ishida", "tokugawa") if "ishida" in result else \
            result.replace("tokugawa", "ishida")
        con.execute("UPDATE games SET result = ?", (flipped,))
    code, said = verify(capsys, stored)
    assert code == 1 and f"the stored result says {flipped!r}; the record gives {result!r}" \
        in said


def test_a_rewritten_or_invented_end_is_caught_without_seals(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(stored.db) as con:
        con.execute("UPDATE games SET finished = '2026-01-01T09:00:00+0000'")
    code, said = verify(capsys, stored)
    assert code == 1 and "the stored end time 2026-01-01T09:00:00+0000 is not the time" in said
    bodies = _rows(stored.db, stored.game_id)
    forge(stored, bodies[:100])  # the game cut short, still marked finished
    code, said = verify(capsys, stored)
    assert code == 1 and "the rules say it is still being played" in said


def test_2_a_forged_correction_is_caught_against_the_seals(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = _rows(stored.db, stored.game_id)
    forged = {"seq": 0, "kind": "correction", "at": bodies[49]["at"],
              "data": {"action": "override", "by": "referee", "note": "Tokugawa may move again",
                       "detail": {}}}
    forge(stored, [*bodies[:50], forged, *bodies[50:]])
    said = caught(capsys, stored)
    week1, week2 = stored.sheet[0], stored.sheet[1]
    assert week1.entry < 51 <= week2.entry
    assert f"entries {week1.entry + 1} to {week2.entry + 1}" in said


def test_a_correction_added_after_the_game_is_caught_by_the_seal_of_the_game(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = _rows(stored.db, stored.game_id)
    late = {"seq": 0, "kind": "correction", "at": bodies[-1]["at"],
            "data": {"action": "override", "by": "referee", "note": "Ishida resigned",
                     "detail": {}}}
    forge(stored, [*bodies, late])
    said = caught(capsys, stored)
    assert "were added after the game was sealed" in said


def test_3_a_correction_given_another_author_is_caught_against_the_seals(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = _rows(stored.db, stored.game_id)
    noted = next(b for b in bodies if b["kind"] == "correction")
    assert noted["data"]["by"] == "ishida"
    noted["data"]["by"] = "tokugawa"
    forge(stored, bodies)
    said = caught(capsys, stored)
    assert f"Seal of week 1 ({stored.sheet[0].code})" in said


def test_4_rewritten_times_are_caught_against_the_seals(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = _rows(stored.db, stored.game_id)
    for body in bodies[100:]:
        body["at"] = body["at"][:-5] + "+0100"  # an hour moved
    forge(stored, bodies)
    said = caught(capsys, stored)
    before = [s for s in stored.sheet if s.entry <= 100][-1]
    assert f"matches the seals up to entry {before.entry}" in said


def test_a_forgery_checked_by_entry_number_names_the_entry(
        stored: Stored, capsys: pytest.CaptureFixture[str]) -> None:
    bodies = _rows(stored.db, stored.game_id)
    bodies[10]["at"] = "2020-01-01T00:00:00+0000"
    forge(stored, bodies)
    sheet = [Seal(s.entry, "", s.code) for s in stored.sheet]
    with Store.open(stored.db, readonly=True) as store:
        broken = check_seals(store.load(stored.game_id), sheet)
    assert broken is not None and broken.entry == stored.sheet[0].entry and broken.since == 0
    code, said = verify(capsys, stored, "--seal", f"{sheet[0].entry}={sheet[0].code}")
    assert code == 1 and f"Seal of entry {sheet[0].entry}" in said


def _tenka_commands(seed: int) -> list[Any]:
    """The commands of a seeded random Tenka Meidou game, played to the War."""
    rules = TenkaRules()
    rng = random.Random(seed)
    judge = judge_of(rules)
    state = rules.initial_state()
    command: Any = random_start(rng, rules.board, rules.components)
    player = RandomPlayer(rng, rules.board, rules.components)
    commands = []
    while True:
        commands.append(command)
        _, state = judge(state, command, None)
        if state.phase is Phase.OVER:
            return commands
        command = player.command(state)


def _replayed(commands: list[Any]) -> tuple[list[list[dict[str, Any]]], str | None] | None:
    """Each command's events and the result, or None when the rules refuse one."""
    rules = TenkaRules()
    judge = judge_of(rules)
    state = rules.initial_state()
    events = []
    for command in commands:
        try:
            produced, state = judge(state, command, None)
        except Exception:
            return None
        events.append([e.model_dump(mode="json") for e in produced])
    return events, tenka_records.result(state)


def _one_die_changes_the_winner(commands: list[Any]) -> tuple[list[Any], str] | None:
    honest = _replayed(commands)
    assert honest is not None and honest[1] is not None
    winner = honest[1].split()[0]
    for k in reversed(range(len(commands))):
        command = commands[k]
        if command.type != "deploy":
            continue
        for i in range(3):
            for face in range(1, 7):
                roll = list(command.rolls[-1])
                if roll[i] == face:
                    continue
                roll[i] = face
                changed = command.model_copy(update={"rolls": (*command.rolls[:-1],
                                                               tuple(roll))})
                forged = [*commands[:k], changed, *commands[k + 1:]]
                replayed = _replayed(forged)
                if replayed is not None and replayed[1] is not None \
                        and replayed[1].split()[0] != winner:
                    return forged, replayed[1]
    return None


def test_5_a_tenka_meidou_die_that_changes_the_winner_is_caught_against_the_seal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = next((seed, f) for seed in range(40)
                 if (f := _one_die_changes_the_winner(_tenka_commands(seed))) is not None)
    seed, (forged_commands, forged_result) = found
    db = tmp_path / "games.sqlite"
    with Store.open(db, durable=False) as store:
        game_id, game = tenka_records.start(store)
        for command in _tenka_commands(seed):
            game.submit(command)
        assert tenka_records.finish_if_over(store, game_id, game)
        stored = Stored(db, game_id, seals(store.load(game_id)))
        honest_result = store.load(game_id).summary.result
    assert [s.label for s in stored.sheet] == ["game"]
    replayed = _replayed(forged_commands)
    assert replayed is not None
    bodies = _rows(db, game_id)
    for body, command, events in zip(bodies, forged_commands, replayed[0], strict=True):
        body["data"] = {"command": command.model_dump(mode="json"), "events": events}
    forge(stored, bodies, result=forged_result)
    assert forged_result != honest_result
    caught(capsys, stored)


def _export(stored: Stored, path: Path) -> list[dict[str, Any]]:
    assert main(["game", "export", str(stored.game_id), "--db", str(stored.db),
                 "-o", str(path)]) == 0
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_6_a_forged_export_imports_but_is_caught_against_the_seals(
        stored: Stored, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _export(stored, tmp_path / "honest.jsonl")
    head, entries = lines[0], lines[1:]
    noted = next(e for e in entries if e["kind"] == "correction")
    noted["data"]["by"] = "referee"
    noted["data"]["note"] = "Tokugawa's blocks at Gifu stand"
    rows = list(_rechain(head["header_hash"], [
        {k: e[k] for k in ("seq", "kind", "at", "data")} for e in entries]))
    forged = [{"seq": s, "kind": k, "at": a, "data": json.loads(b), "prev": p, "hash": h}
              for s, k, a, b, p, h in rows]
    head["head"] = forged[-1]["hash"]
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(canonical_json(x) for x in [head, *forged]) + "\n", "utf-8")
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("# table 4\n" + "".join(f"{s.label} = {s.code}\n" for s in stored.sheet))
    other = tmp_path / "referee.sqlite"
    capsys.readouterr()
    assert main(["game", "import", str(path), "--db", str(other)]) == 0
    assert main(["referee", "verify", "1", "--db", str(other), "--seals", str(sheet)]) == 1
    assert "does not match the seals" in capsys.readouterr().err
    assert main(["referee", "verify", str(path), "--seals", str(sheet)]) == 1
    assert main(["referee", "verify", str(tmp_path / "honest.jsonl"), "--seals",
                 str(sheet)]) == 0


def test_an_export_whose_result_was_flipped_does_not_import(
        stored: Stored, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _export(stored, tmp_path / "honest.jsonl")
    lines[0]["result"] = "tokugawa wins (victory points (2.2))"
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(canonical_json(x) for x in lines) + "\n", "utf-8")
    assert main(["game", "import", str(path), "--db", str(tmp_path / "r.sqlite")]) == 1
    assert "the stored result says 'tokugawa wins" in capsys.readouterr().err
