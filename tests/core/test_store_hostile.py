"""A damaged or hostile game database (issue 18): every row read back is type-checked and its
JSON decoded with bounds, so ``game list|export``, ``referee verify|replay|explain`` and the
store itself refuse it in one line naming the game and the entry, never with a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.core import store as store_module
from companion.core.chain import canonical_json
from companion.core.store import (
    MAX_DEPTH,
    MAX_TEXT,
    SCHEMA_VERSION,
    Store,
    StoreError,
    bounded_json,
)
from companion.games.sekigahara import records

GOOD_BODY = canonical_json({"command": {"type": "finish"}, "events": []})


def hostile_db(path: Path, **damage: tuple[str, object]) -> dict[str, int]:
    """A database with one sound Sekigahara game (id 1, no entries) and, for each ``damage``
    name, a Sekigahara game whose ``(column, value)`` is damaged: a ``games`` column, or
    ``body`` (entry 17's; entries 1-16 are sound rows)."""
    with Store.open(path) as store:
        ids = {"good": records.start(store)[0]}
        for name, (column, value) in damage.items():
            game_id, _ = records.start(store)
            ids[name] = game_id
            db = store._db
            for seq in range(1, 18):
                body = value if column == "body" and seq == 17 else GOOD_BODY
                db.execute("INSERT INTO entries VALUES (?, ?, 'command', ?, ?, 'p', 'h')",
                           (game_id, seq, "2026-11-26T03:00:00+0000", body))
            if column != "body":
                db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    return ids


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


DAMAGE: dict[str, tuple[tuple[str, object], str]] = {
    "deep": (("body", "[" * 5000 + "]" * 5000), f"entry 17: body is nested more than {MAX_DEPTH}"),
    "deep_object": (("body", '{"a":' * 5000 + "1" + "}" * 5000), "entry 17: body is nested"),
    "array": (("body", "[1, 2]"), "entry 17: body is not a JSON object"),
    "blob_body": (("body", b"\x00\xff"), "entry 17: body is a blob, not text"),
    "huge_int": (("body", '{"a": ' + "9" * 5000 + "}"),
                 "entry 17: body is not valid JSON (a number too long to read)"),
    "nan": (("body", '{"a": NaN}'), "entry 17: body is not valid JSON (NaN is not a JSON"),
    "cut": (("body", '{"a": [1, 2'), "entry 17: body is not valid JSON (Expecting ',' "
                                     "delimiter, character 11)"),
    "long": (("body", '{"a": "' + "x" * MAX_TEXT + '"}'), "entry 17: body is longer than"),
    "header": (("header", "[1, 2, 3]"), ": header is not a JSON object"),
    "deep_header": (("header", "[" * 5000 + "]" * 5000), ": header is nested more than"),
    "blob_finished": (("finished", b"\x01\x02"), ": finished is a blob, not text"),
    "blob_created": (("created", b"12"), ": created is a blob, not text"),
}


def test_every_damaged_row_is_one_line_naming_the_game_and_entry(tmp_path: Path) -> None:
    ids = hostile_db(tmp_path / "g.sqlite", **{k: v[0] for k, v in DAMAGE.items()})
    with Store.open(tmp_path / "g.sqlite", readonly=True) as store:
        assert store.load(ids["good"]).entries == ()
        for name, (_, said) in DAMAGE.items():
            with pytest.raises(StoreError) as refused:
                store.load(ids[name])
            message = refused.value.message
            assert message.startswith(f"stored game {ids[name]}") and said in message, message
            assert refused.value.reason == "corrupt" and "\n" not in message
            assert len(message) < 200
        listed = {g.id: g for g in store.list_games()}
    assert listed[ids["good"]].problem is None
    assert listed[ids["blob_finished"]].problem == (
        f"stored game {ids['blob_finished']}: finished is a blob, not text")
    assert [g for g, s in listed.items() if s.problem] == [ids["blob_created"],
                                                          ids["blob_finished"]]


@pytest.mark.parametrize("name", ["deep", "header", "blob_finished", "array", "huge_int"])
def test_the_referee_tools_refuse_a_damaged_stored_game_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    db = str(tmp_path / "g.sqlite")
    ids = hostile_db(Path(db), **{name: DAMAGE[name][0]})
    game = str(ids[name])
    for argv in (["game", "export", game], ["referee", "verify", game],
                 ["referee", "replay", game, "--at", "1"], ["referee", "explain", game, "1"]):
        code, out, err = run(capsys, *argv, "--db", db)
        assert code == 2 and out == "", (argv, out)
        assert err.count("\n") == 1 and err.startswith(f"companion: stored game {game}"), err
        assert DAMAGE[name][1] in err
    code, out, _ = run(capsys, "referee", "verify", str(ids["good"]), "--db", db)
    assert code == 0 and out.startswith("verified: 0 entries")


def test_game_list_lists_the_sound_games_and_names_the_damaged_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.sqlite")
    ids = hostile_db(Path(db), blob=DAMAGE["blob_finished"][0], deep=DAMAGE["deep"][0])
    code, out, err = run(capsys, "game", "list", "--db", db)
    assert code == 2
    assert err == f"companion: stored game {ids['blob']}: finished is a blob, not text\n"
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == [str(ids["deep"]), str(ids["good"])]  # its rows are read by load alone


def test_bounded_json_refuses_what_the_hash_chain_cannot_hold() -> None:
    assert bounded_json('{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert bounded_json(nested) is not None
    for bad, why in (("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested"),
                     ("[" * 100_000, "nested"), ("[Infinity]", "not valid JSON"),
                     ("1" * 5000, "not valid JSON"), ("{", "not valid JSON")):
        with pytest.raises(ValueError, match=why):
            bounded_json(bad)


def test_appending_to_a_game_whose_last_entry_is_damaged_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Store.open(path) as store:
        game_id = store.create_game("toy")
        store.append_command(game_id, {"type": "add"}, [])
        store._db.execute("UPDATE entries SET hash = x'00'")
        with pytest.raises(StoreError, match=f"stored game {game_id}: its last entry"):
            store.append_command(game_id, {"type": "add"}, [])
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT count(*) FROM entries").fetchone()[0] == 1


def test_a_database_built_without_column_types_is_type_checked_too(tmp_path: Path) -> None:
    """SQLite keeps whatever a column is given when it has no type: a hand-made database with
    the store's tables but no types can hand back numbers and text anywhere."""
    path = tmp_path / "g.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id, uid, game, header, header_hash, created, finished, "
               "result)")
    db.execute("CREATE TABLE entries (game_id, seq, kind, at, body, prev, hash)")
    db.execute("INSERT INTO games VALUES (1, 'u1', 'toy', '{}', 'h', 'c', NULL, NULL)")
    db.execute("INSERT INTO games VALUES (2, 'u2', 'toy', '{}', 'h', 'c', NULL, NULL)")
    db.execute("INSERT INTO games VALUES ('three', 'u3', 'toy', '{}', 'h', 'c', NULL, NULL)")
    db.execute("INSERT INTO entries VALUES (1, 1, 'command', 'at', 7, 'p', 'h')")
    db.execute("INSERT INTO entries VALUES (2, 'one', 'command', 'at', '{}', 'p', 'h')")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.commit()
    db.close()
    with Store.open(path, readonly=True) as store:
        with pytest.raises(StoreError, match=r"^stored game 1, entry 1: body is a number, not"):
            store.load(1)
        with pytest.raises(StoreError, match=r"^stored game 2: an entry's number is text, not"):
            store.load(2)
        with pytest.raises(StoreError, match=r"^a stored game's number is text, not a whole"):
            store.list_games()


def test_a_game_too_big_to_be_real_is_refused_before_it_is_loaded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = hostile_db(tmp_path / "g.sqlite", many=("body", GOOD_BODY))
    monkeypatch.setattr(store_module, "MAX_ENTRIES", 16)
    with Store.open(tmp_path / "g.sqlite", readonly=True) as store:
        with pytest.raises(StoreError, match=f"stored game {ids['many']} holds more than 16 "):
            store.load(ids["many"])
        monkeypatch.setattr(store_module, "MAX_ENTRIES", 17)
        assert len(store.load(ids["many"]).entries) == 17
        monkeypatch.setattr(store_module, "MAX_GAME_TEXT", 17 * len(GOOD_BODY) - 1)
        with pytest.raises(StoreError, match="characters of them: not a game the companion"):
            store.load(ids["many"])
