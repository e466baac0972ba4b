"""Kensei profiles as user data (B2.3, B2.4): class defaults, the loader's one-line errors
naming file, line and field, hostile files, the bundled examples and ``kensei profiles``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _kensei_kit import call

from companion.games.kensei.profiles import (
    EXAMPLE_NOTE,
    Profile,
    bundled_profiles,
    class_defaults,
    load_profiles,
)
from companion.games.kensei.rules import rules
from companion.games.kensei.userfiles import UserFileError

YARI = """\
profiles:
  - id: yari-ashigaru
    name: Yari Ashigaru
    clan: common
    class: G
    troop_type: infantry
    weapon: 1
    cost: 5
"""


def refused(text: str, file: str = "my-army.yaml") -> str:
    with pytest.raises(UserFileError) as caught:
        load_profiles(text, file)
    assert "\n" not in caught.value.message
    return caught.value.message


# --------------------------------------------------------------------------- class defaults

# The B2.4 table as the digest prints it: MOV foot/mounted (ground/flying), AT melee/ranged,
# INI, HO (PR for creatures), HR.
PRINTED = {
    "H": (10, 15, 4, 3, 3, 5, 3), "E": (10, 15, 3, 3, 2, 4, 2), "G": (10, 15, 2, 2, 1, 3, 1),
    "A": (10, 15, 0, 0, 0, 2, 1), "O": (10, 15, 3, 2, 3, 5, 3), "K": (10, 15, 3, 2, 3, 5, 3),
    "C": (15, 20, 6, 5, 4, 5, 4), "M": (10, 15, 5, 4, 2, 4, 3), "I": (10, 15, 3, 3, 1, 3, 2),
}


@pytest.mark.parametrize("cls", sorted(PRINTED))
def test_class_defaults_are_the_printed_table(cls: str) -> None:
    mov, mounted, at, at_ranged, ini, ho, hr = PRINTED[cls]
    assert class_defaults(cls) == {"mov": mov, "at": at, "at_ranged": at_ranged,  # type: ignore[arg-type]
                                   "ini": ini, "ho": ho, "hr": hr}
    creature = cls in ("C", "M", "I")  # the second column is flying, never a default
    assert class_defaults(cls, mounted=True)["mov"] == (mov if creature else mounted)  # type: ignore[arg-type]


def test_the_calculators_class_table_is_the_one_reused() -> None:
    for cls, row in rules().classes.items():
        d = class_defaults(cls)
        assert (d["at"], d["at_ranged"], d["ho"], d["hr"]) == (row.at_melee, row.at_ranged,
                                                               row.ho, row.hr)


# --------------------------------------------------------------------------- loading


def test_omitted_attributes_take_the_class_defaults() -> None:
    yari = load_profiles(YARI, "my-army.yaml")["yari-ashigaru"]
    assert (yari.mov, yari.at, yari.at_ranged, yari.ini, yari.ho, yari.hr) == (10, 2, 2, 1, 3, 1)
    assert yari.volume == 2 and not yari.mounted and not yari.example


def test_given_attributes_are_kept_and_a_plain_list_is_read() -> None:
    text = YARI.replace("profiles:\n", "").replace("    cost: 5", "    cost: 5\n    ini: 2\n"
                                                   "    hr: 2").replace("  - ", "- ")
    text = "\n".join(line[2:] if line.startswith("    ") else line for line in text.splitlines())
    yari = load_profiles(text, "x.yaml")["yari-ashigaru"]
    assert (yari.ini, yari.hr, yari.at) == (2, 2, 2)


def test_cavalry_is_mounted_and_moves_at_the_mounted_speed() -> None:
    text = YARI.replace("troop_type: infantry", "troop_type: cavalry")
    rider = load_profiles(text, "x.yaml")["yari-ashigaru"]
    assert rider.mounted and rider.mov == 15 and rider.volume == 3


def test_a_leader_is_unique_unless_told() -> None:
    text = YARI.replace("class: G", "class: H\n    leader: true")
    assert load_profiles(text, "x.yaml")["yari-ashigaru"].availability == "unique"


def test_a_wrong_field_names_file_line_profile_and_field() -> None:
    assert refused(YARI.replace("weapon: 1", "weapon: 9")) == (
        "my-army.yaml, line 7, profile 'yari-ashigaru', field 'weapon': must be 0 to 7")


def test_a_missing_field_names_the_profile_line() -> None:
    assert refused(YARI.replace("    cost: 5\n", "")) == (
        "my-army.yaml, line 2, profile 'yari-ashigaru', field 'cost': is missing")


def test_an_unknown_field_and_a_wrong_word() -> None:
    assert refused(YARI.replace("cost: 5", "cost: 5\n    armor: samurai")) == (
        "my-army.yaml, line 9, profile 'yari-ashigaru', field 'armor': is not a field of a "
        "profile")
    assert refused(YARI.replace("clan: common", "clan: namban")) == (
        "my-army.yaml, line 4, profile 'yari-ashigaru', field 'clan': must be kuge, buke, "
        "sohei, otokodate, kuroi-te, hattori or common")
    assert refused(YARI.replace("class: G", "class: X")) == (
        "my-army.yaml, line 5, profile 'yari-ashigaru', field 'class': must be H, E, G, A, K, "
        "O, C, M or I")
    assert refused(YARI.replace("cost: 5", "cost: five")) == (
        "my-army.yaml, line 8, profile 'yari-ashigaru', field 'cost': must be a whole number")


def test_an_id_given_twice_names_both_lines() -> None:
    again = YARI + YARI.removeprefix("profiles:\n")
    assert refused(again) == ("my-army.yaml, line 9, profile 'yari-ashigaru': the id is given "
                              "twice (lines 2 and 9)")


def test_a_field_given_twice_names_both_lines() -> None:
    assert refused(YARI.replace("cost: 5", "cost: 5\n    weapon: 2")) == (
        "my-army.yaml, line 9, profile 'yari-ashigaru', field 'weapon': given twice (lines 7 "
        "and 9)")


def test_what_the_book_forbids_a_valid_profile() -> None:
    assert refused(YARI.replace("cost: 5", "cost: 5\n    leader: true")) == (
        "my-army.yaml, line 9, profile 'yari-ashigaru', field 'leader': only a hero or an "
        "elite can have the rank Líder (B2.7)")
    assert refused(YARI.replace("cost: 5", "cost: 5\n    mounted: true")) == (
        "my-army.yaml, line 9, profile 'yari-ashigaru', field 'mounted': a mounted troop is "
        "cavalry: its troop_type must be cavalry")


@pytest.mark.parametrize(("text", "message"), [
    ("", "x.yaml, line 1: holds no profiles"),
    ("profiles: []\n", "x.yaml, line 1: holds no profiles"),
    ("armies: []\n", "x.yaml, line 1: 'armies' is not known"),
    ("- 3\n", "x.yaml, line 1, profile 1: must be a mapping of fields"),
])
def test_the_file_shape(text: str, message: str) -> None:
    assert refused(text, "x.yaml").startswith(message)


# --------------------------------------------------------------------------- hostile files


def cli_profiles(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    status = call(["kensei", "profiles", str(path)])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("raw", "words"), [
    (b"# " + b"x" * 1_100_000 + b"\n", "larger than 1000000 bytes"),
    (b"a: " + b"[" * 60 + b"]" * 60 + b"\n", "nested deeper than 32 levels"),
    (b"- id: \xff\xfe\n", "not UTF-8 text"),
    (b"a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + b"".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n".encode()
        for p, c in zip("abcdef", "bcdefg", strict=True)), "aliases are expanded"),
])
def test_a_hostile_file_gets_one_line(raw: bytes, words: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_bytes(raw)
    status, out = cli_profiles(path, capsys)
    assert status == 2
    error = out["error"]
    assert isinstance(error, dict) and error["rule"] is None
    assert words in error["message"] and "\n" not in error["message"]
    assert str(path) in error["message"]


# --------------------------------------------------------------------------- bundled examples


def test_every_bundled_profile_is_a_marked_example() -> None:
    profiles = bundled_profiles()
    assert len(profiles) >= 8
    for profile in profiles.values():
        assert profile.example
        assert "B2.4" in profile.source and "B14" in profile.source and "B8" in profile.source
    assert {p.clan for p in profiles.values()} >= {"kuge", "buke", "common"}


def test_the_bundled_profiles_are_fresh_copies() -> None:
    mine = bundled_profiles()
    mine.clear()
    assert bundled_profiles()


def test_kensei_profiles_marks_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert call(["kensei", "profiles"]) == 0
    shown = json.loads(capsys.readouterr().out)["profiles"]
    assert len(shown) == len(bundled_profiles())
    assert all(p["note"] == EXAMPLE_NOTE == "example profile, not from the book"
               for p in shown)
    assert all("class" in p for p in shown)


def test_kensei_profiles_reads_a_users_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(YARI, "utf-8")
    status, out = cli_profiles(path, capsys)
    assert status == 0
    (shown,) = out["profiles"]  # type: ignore[misc]
    assert "note" not in shown and shown["id"] == "yari-ashigaru" and shown["hr"] == 1
    path.write_text(YARI.replace("weapon: 1", "weapon: -1"), "utf-8")
    status, out = cli_profiles(path, capsys)
    assert status == 2
    assert out == {"error": {"rule": None, "message": f"{path}, line 7, profile "
                             "'yari-ashigaru', field 'weapon': must be 0 to 7"}}


def test_a_profile_round_trips_through_its_printed_form() -> None:
    for profile in bundled_profiles().values():
        assert Profile.model_validate(profile.model_dump(by_alias=True)) == profile


@pytest.mark.parametrize(("key", "shown"), [("1", "'1'"), ("null", "'null'")])
def test_a_key_that_is_not_text(key: str, shown: str) -> None:
    assert refused(YARI.replace("cost: 5", f"cost: 5\n    {key}: 2")) == (
        f"my-army.yaml, line 2, profile 'yari-ashigaru': {shown} is not a field of a profile")
