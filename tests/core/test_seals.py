"""Seals (issue 19, point 5): a short code of the chain's head at each checkpoint, read and
checked against a stored game (docs/referee.md, Seals)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.core.seals import (
    ALPHABET,
    BadSeal,
    Seal,
    check_seals,
    last_seal,
    normal_code,
    parse_seal,
    read_seals,
    seal_code,
    seals,
)
from companion.core.store import CommandRecorder, GameLog, Store

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "tenka_meidou"))
from _tenka_kit import play_stored


def sekigahara_game(store: Store, seed: int = 3) -> int:
    """A whole seeded Sekigahara self-play game, stored and marked finished."""
    from companion.games.sekigahara import records
    from companion.games.sekigahara.engine.simulator import play_game

    game_id = store.create_game(records.GAME, records.new_header())
    report = play_game(seed, check=False, recorder=CommandRecorder(store, game_id))
    assert report.game is not None
    assert records.finish_if_over(store, game_id, report.game)
    return game_id


@pytest.fixture(scope="module")
def sekigahara(tmp_path_factory: pytest.TempPathFactory) -> GameLog:
    with Store.open(tmp_path_factory.mktemp("seal") / "s.sqlite", durable=False) as store:
        return store.load(sekigahara_game(store))


def test_a_code_is_40_bits_in_two_groups_of_an_unambiguous_alphabet() -> None:
    code = seal_code("ab" * 32)
    assert code == seal_code("ab" * 32)
    assert len(code) == 9 and code[4] == "-"
    assert all(c in ALPHABET for c in code.replace("-", ""))
    assert not set("ILOU") & set(ALPHABET)
    assert seal_code("ab" * 31 + "ac") != code


def test_a_written_code_reads_however_it_was_written() -> None:
    assert normal_code("k7q2 m9xd") == "K7Q2-M9XD"
    assert normal_code("K7Q2M9XD") == "K7Q2-M9XD"
    assert normal_code("O1l2-M9XD") == "0112-M9XD"
    assert normal_code("K7Q2-M9X") is None
    assert normal_code("K7Q2-M9XU") is None


def test_every_week_and_the_game_of_a_sekigahara_game_is_sealed(sekigahara: GameLog) -> None:
    found = seals(sekigahara)
    labels = [s.label for s in found]
    assert labels[-1] == "game" and found[-1].entry == sekigahara.entries[-1].seq
    assert labels[:-1] == [f"week {n}" for n in range(1, len(labels))]
    assert len(labels) >= 3
    assert [s.entry for s in found] == sorted({s.entry for s in found})
    by_seq = {e.seq: e for e in sekigahara.entries}
    assert all(s.code == seal_code(by_seq[s.entry].hash) for s in found)
    assert last_seal(sekigahara) == found[-1]
    assert str(found[0]) == f"Seal of week 1: {found[0].code}"
    assert found[-1].name == "Seal of the game"


def test_a_tenka_meidou_game_is_sealed_at_its_war(tmp_path: Path) -> None:
    with Store.open(tmp_path / "t.sqlite", durable=False) as store:
        log = store.load(play_stored(store, 7))
    found = seals(log)
    assert [s.label for s in found] == ["game"]
    war = found[0].entry
    events = log.entries[war - 1].data["events"]
    assert any(e["type"] == "war_fought" for e in events)


def test_the_honest_record_matches_its_seals_by_label_and_by_entry(
        sekigahara: GameLog) -> None:
    found = seals(sekigahara)
    assert check_seals(sekigahara, found) is None
    assert check_seals(sekigahara, [Seal(0, s.label.upper(), s.code.lower())
                                    for s in found]) is None
    assert check_seals(sekigahara, [Seal(s.entry, "", s.code) for s in found]) is None
    assert check_seals(sekigahara, []) is None


def test_a_wrong_code_names_its_seal_and_the_entries_between(sekigahara: GameLog) -> None:
    found = seals(sekigahara)
    wrong = Seal(0, "week 3", "0000-0000")
    broken = check_seals(sekigahara, [*found[:2], wrong])
    assert broken is not None
    assert broken.entry == found[2].entry and broken.since == found[1].entry
    assert broken.seal == wrong
    assert f"gives {found[2].code}" in str(broken)
    assert f"entries {found[1].entry + 1} to {found[2].entry}" in str(broken)
    missing = check_seals(sekigahara, [Seal(0, "week 12", found[0].code)])
    assert missing is not None and "no week 12" in missing.reason
    beyond = check_seals(sekigahara, [Seal(10_000, "", found[0].code)])
    assert beyond is not None and beyond.entry == 10_000


def test_seals_are_read_from_the_command_line_and_from_a_file() -> None:
    assert parse_seal("week 2=k7q2 m9xd") == Seal(0, "week 2", "K7Q2-M9XD")
    assert parse_seal("57=K7Q2M9XD") == Seal(57, "", "K7Q2-M9XD")
    text = ("# table 12, Ann and Bo\n\nweek 1 = 8097-FYCY  # Bo's sheet\n"
            "week 2 = ____-____\ngame=6XCQ-ECYS\n")
    assert read_seals(text) == [Seal(0, "week 1", "8097-FYCY"), Seal(0, "game", "6XCQ-ECYS")]
    for bad in ("week 2", "week 2=K7Q2", "=K7Q2-M9XD"):
        with pytest.raises(BadSeal):
            parse_seal(bad)
    with pytest.raises(BadSeal, match="line 2"):
        read_seals("game=6XCQ-ECYS\nweek 1=K7Q2-M9X!\n")
