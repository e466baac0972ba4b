"""Stored Sekigahara games: resume by re-adjudication, export/import, and the referee's
verify, replay and explain catching every kind of tampering at the right entry."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.core.chain import canonical_json, entry_hash
from companion.core.game import Accepted
from companion.core.store import CommandRecorder, Store, StoreError
from companion.games.sekigahara import records
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.sekigahara.engine.state import Phase

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The export lines of one whole seeded game, recorded as it was played."""
    path = tmp_path_factory.mktemp("records") / "games.sqlite"
    with Store.open(path, durable=False) as store:
        game_id = store.create_game(records.GAME, records.new_header())
        report = play_game(3, check=False, recorder=CommandRecorder(store, game_id))
        assert report.completed and report.game is not None
        records.finish_if_over(store, game_id, report.game)
        return records.export_lines(store.load(game_id))


def parse(lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def dump(head: dict[str, Any], entries: list[dict[str, Any]]) -> str:
    return "\n".join(canonical_json(x) for x in [head, *entries]) + "\n"


def rehash(head: dict[str, Any], entries: list[dict[str, Any]], start: int = 1) -> None:
    """A careful forger: recompute every hash from entry ``start`` and the header's promises."""
    previous = head["header_hash"] if start == 1 else entries[start - 2]["hash"]
    for entry in entries[start - 1:]:
        entry["prev"] = previous
        body = {k: entry[k] for k in ("seq", "kind", "at", "data")}
        entry["hash"] = previous = entry_hash(previous, body)
    head["entries"], head["head"] = len(entries), previous


def refusal(text: str) -> records.LogRefused:
    export = records.read_export(text)
    with pytest.raises(records.LogRefused) as refused:
        records.check(export.log, count=export.count, head=export.head)
    return refused.value


def first_of(entries: list[dict[str, Any]], command: str) -> int:
    return next(e["seq"] for e in entries if e["data"].get("command", {}).get("type") == command)


def test_an_untouched_export_verifies(exported: list[str]) -> None:
    export = records.read_export("\n".join(exported) + "\n")
    rebuilt = records.check(export.log, count=export.count, head=export.head)
    assert rebuilt.state.phase is Phase.GAME_OVER
    assert rebuilt.commands == len(exported) - 1


def test_an_edited_entry_is_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    k = first_of(entries, "move_stack")
    entries[k - 1]["data"]["command"]["origin"] = "edo"
    found = refusal(dump(head, entries))
    assert found.entry == k and "edited" in found.reason


def test_an_edited_entry_with_its_own_hash_redone_is_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    k = 40
    entries[k - 1]["at"] = "2020-01-01T00:00:00+0000"
    body = {key: entries[k - 1][key] for key in ("seq", "kind", "at", "data")}
    entries[k - 1]["hash"] = entry_hash(entries[k - 1]["prev"], body)
    found = refusal(dump(head, entries))
    assert found.entry == k and "edited or replaced" in found.reason


def test_a_removed_entry_is_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    del entries[24]
    found = refusal(dump(head, entries))
    assert found.entry == 25 and "removed" in found.reason
    head, entries = parse(exported)
    del entries[-1]
    found = refusal(dump(head, entries))
    assert found.entry == len(entries) + 1 and "removed" in found.reason


def test_reordered_entries_are_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    entries[30], entries[31] = entries[31], entries[30]
    found = refusal(dump(head, entries))
    assert found.entry == 31 and "reordered" in found.reason


def test_an_appended_forged_entry_is_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    forged = dict(entries[-1], seq=len(entries) + 1)
    entries.append(forged)
    rehash(head, entries, start=len(entries))
    head["entries"] -= 1
    head["head"] = entries[-2]["hash"]
    found = refusal(dump(head, entries))
    assert found.entry == len(entries) and "appended" in found.reason
    rehash(head, entries)  # header promises updated too: the rules still refuse it
    found = refusal(dump(head, entries))
    assert found.entry == len(entries) and found.rule in ("2.1", "2.2")


def test_a_teleported_stack_is_refused_by_the_rules_even_with_a_perfect_chain(
    exported: list[str],
) -> None:
    head, entries = parse(exported)
    k = first_of(entries, "move_stack")
    data = entries[k - 1]["data"]
    paths = data["command"]["paths"]
    for block in paths:
        paths[block] = ["edo"]
    for event in data["events"]:
        if event["type"] == "stack_moved":
            event["paths"] = dict(paths)
    rehash(head, entries)
    found = refusal(dump(head, entries))
    assert found.entry == k and found.rule == "4.1" and "no road" in found.reason


def test_a_flipped_winner_is_refused_with_a_perfect_chain(exported: list[str]) -> None:
    head, entries = parse(exported)
    k, event = next((e["seq"], ev) for e in entries for ev in e["data"]["events"]
                    if ev["type"] == "game_won")
    event["winner"] = "ishida" if event["winner"] == "tokugawa" else "tokugawa"
    rehash(head, entries)
    found = refusal(dump(head, entries))
    assert found.entry == k and "ruled differently" in found.reason and "winner" in found.reason


def test_a_changed_command_whose_ruling_differs_is_named(exported: list[str]) -> None:
    head, entries = parse(exported)
    k = first_of(entries, "buy_movement")
    command = entries[k - 1]["data"]["command"]
    command["level"] = "none" if command["level"] != "none" else "minimal"
    rehash(head, entries)
    found = refusal(dump(head, entries))
    assert found.entry == k


@pytest.mark.parametrize("trials", [300, pytest.param(3000, marks=pytest.mark.slow)])
def test_mutated_logs_are_refused_at_the_mutated_entry_never_a_crash(
    exported: list[str], trials: int
) -> None:
    rng = random.Random(8 + trials)
    head0, entries0 = parse(exported)
    lines = [canonical_json(entry) for entry in entries0]
    assert [canonical_json(head0), *lines] == exported  # so the texts below are full dumps
    junk: list[Any] = [None, 0, -1, 99, "", "edo", "I01", "zzz", [], {}, True, 3.5, ["gifu"]]
    for _ in range(trials):
        k = rng.randrange(1, len(entries0) + 1)
        # the entries before k are untouched: only entry k (mutated) and those after it
        # (re-hashed) are copied and written again
        head = json.loads(exported[0])
        entries = [*entries0[:k - 1], json.loads(lines[k - 1]),
                   *(dict(entry) for entry in entries0[k:])]
        data = entries[k - 1]["data"]
        target = rng.choice([data["command"], *data["events"]] if data["events"]
                            else [data["command"]])
        key = rng.choice(sorted(target))
        before = target[key]
        target[key] = rng.choice(junk)
        if target[key] == before:
            continue
        rehash(head, entries, start=k)
        text = "\n".join([canonical_json(head), *lines[:k - 1],
                          *(canonical_json(entry) for entry in entries[k - 1:])]) + "\n"
        export = records.read_export(text)
        try:
            records.check(export.log, count=export.count, head=export.head)
        except records.LogRefused as refused:
            assert refused.entry == k, (k, key, refused)
        else:
            raise AssertionError(f"entry {k} {key}={target[key]!r} was not refused")


def test_export_import_export_is_byte_identical(exported: list[str], tmp_path: Path) -> None:
    text = "\n".join(exported) + "\n"
    with Store.open(tmp_path / "other.sqlite") as store:
        game_id = records.import_export(store, records.read_export(text))
        assert records.export_text(store.load(game_id)) == text
        assert store.unfinished() == []  # a finished game stays finished
        with pytest.raises(StoreError, match="already in"):
            records.import_export(store, records.read_export(text))


def test_an_export_from_a_newer_version_is_refused(exported: list[str]) -> None:
    head, entries = parse(exported)
    head["version"] = records.EXPORT_VERSION + 1
    with pytest.raises(StoreError, match="newer version") as newer:
        records.read_export(dump(head, entries))
    assert newer.value.reason == "newer"


def test_resume_re_adjudicates_and_keeps_recording(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    rng = random.Random(11)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    with Store.open(path) as store:
        game_id, game = records.start(store)
        while len(game.events) < 150:
            result = game.submit(player.command(game.state))
            if isinstance(result, Accepted):
                for event in result.events:
                    table.observe(event)
        before = (game.events, game.state)
    with Store.open(path) as store:  # the power came back
        assert [g.id for g in store.unfinished()] == [game_id]
        _, resumed = records.resume(store, game_id)
        assert (resumed.events, resumed.state) == before
        entries = len(store.load(game_id).entries)
        for _ in range(50):
            result = resumed.submit(player.command(resumed.state))
            if isinstance(result, Accepted):
                break
        assert len(store.load(game_id).entries) == entries + 1
        assert records.check(store.load(game_id)).state == resumed.state


def test_resume_refuses_a_tampered_database_naming_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game(records.GAME, records.new_header())
        play_game(5, check=False, recorder=CommandRecorder(store, game_id))
    with Store.open(path) as store:
        store._db.execute("UPDATE entries SET body = (SELECT body FROM entries WHERE seq = 13)"
                          " WHERE seq = 12")
        with pytest.raises(records.LogRefused) as refused:
            records.resume(store, game_id)
    assert refused.value.entry == 12
    assert "entry 12" in refused.value.public() and not BLOCK_ID.search(refused.value.public())


# ---------------------------------------------------------------------- the commands


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_referee_commands_on_files(exported: list[str], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "game.jsonl"
    good.write_text("\n".join(exported) + "\n")
    code, out, err = run(capsys, "referee", "verify", str(good))
    assert code == 0 and out.startswith("verified:") and len(out.splitlines()) == 1

    head, entries = parse(exported)
    del entries[9]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(dump(head, entries))
    code, out, err = run(capsys, "referee", "verify", str(bad))
    assert code == 1 and "entry 10" in err and "removed" in err and "Traceback" not in err

    code, out, _ = run(capsys, "referee", "replay", str(good), "--at", "60", "--view", "public",
                       "--json")
    shown = json.loads(out)
    assert code == 0 and shown["entry"] == 60 and not BLOCK_ID.search(out)
    code, out, _ = run(capsys, "referee", "replay", str(good), "--at", "60")
    assert code == 0 and "after entry 60 (referee view)" in out and BLOCK_ID.search(out)
    code, out, _ = run(capsys, "referee", "replay", str(good), "--at", "60", "--view", "ishida")
    assert code == 0 and not re.search(r"\bT\d\d\b", out)

    deploy = first_of(parse(exported)[1], "deploy")
    code, out, _ = run(capsys, "referee", "explain", str(good), str(deploy))
    assert code == 0 and re.search(r"\[8\.[34]", out) and "Impact" in out  # 8.3 or 8.4.x
    move = first_of(parse(exported)[1], "move_stack")
    code, out, _ = run(capsys, "referee", "explain", str(good), str(move))
    assert code == 0 and re.search(r"\[7\.3(\.3)?\] .* moved against an allowance of \d+ \(base 1",
                                   out)
    code, out, _ = run(capsys, "referee", "explain", str(good), str(deploy), "--json")
    assert json.loads(out)["verdict"] == "upheld"

    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    code, _, err = run(capsys, "referee", "verify", str(junk))
    assert code == 2 and err.count("\n") == 1 and "not JSON" in err
    code, _, err = run(capsys, "referee", "verify", str(tmp_path / "absent.jsonl"))
    assert code == 2 and "cannot read" in err


def test_game_list_export_import_commands(exported: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.jsonl"
    source.write_text("\n".join(exported) + "\n")
    db = str(tmp_path / "cli.sqlite")
    code, out, _ = run(capsys, "game", "import", str(source), "--db", db)
    assert code == 0 and "as game 1" in out
    code, out, _ = run(capsys, "game", "list", "--db", db)
    assert code == 0 and "finished" in out and f"{len(exported) - 1} entries" in out
    again = tmp_path / "again.jsonl"
    code, _, _ = run(capsys, "game", "export", "1", "-o", str(again), "--db", db)
    assert code == 0 and again.read_bytes() == source.read_bytes()
    code, out, _ = run(capsys, "referee", "verify", "1", "--db", db)
    assert code == 0 and out.startswith("verified:")
    code, _, err = run(capsys, "game", "export", "7", "--db", db)
    assert code == 2 and "no game 7" in err


def test_selfplay_export_writes_games_that_verify(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "--games", "2", "--seed", "4", "--no-checks",
                       "--export", str(tmp_path / "games"))
    assert code == 0 and json.loads(out)["completed"] == 2
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == ["selfplay-seed-4.jsonl", "selfplay-seed-5.jsonl"]
    for file in files:
        code, out, _ = run(capsys, "referee", "verify", str(file))
        assert code == 0 and "won" in out
