"""Kensei army lists (B14, B2.7): every restriction refused by a list that breaks only it,
citing the rule and the entry; points; the bundled lists; the list file's errors; ``kensei
list``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import call

from companion.games.kensei import armylist as al
from companion.games.kensei.armylist import (
    ArmyList,
    ListEntry,
    bundled_list,
    bundled_list_names,
    check_list,
    list_points,
    load_list,
    starting_points,
)
from companion.games.kensei.profiles import Profile, bundled_profiles, class_defaults
from companion.games.kensei.userfiles import UserFileError


def prof(ident: str, cls: str = "G", *, clan: str = "common", cost: int = 5,
         troop_type: str = "infantry", **keys: Any) -> Profile:
    mounted = keys.get("mounted", troop_type == "cavalry")
    return Profile.model_validate({
        "id": ident, "name": ident.replace("-", " ").title(), "clan": clan, "class": cls,
        "troop_type": troop_type, "cost": cost, "mounted": mounted, "weapon": 3,
        **class_defaults(cls, mounted), **keys})  # type: ignore[arg-type]


PROFILES = {p.id: p for p in (
    prof("hero", "H", clan="kuge", cost=20, leader=True, availability="unique"),
    prof("hero-two", "H", clan="kuge", cost=20, leader=True, availability="unique"),
    prof("archer-hero", "H", clan="kuge", cost=20, leader=True, availability="unique",
         ranged="yumi"),
    prof("rider-hero", "H", clan="kuge", cost=20, leader=True, availability="unique",
         troop_type="cavalry"),
    prof("elite-leader", "E", clan="kuge", cost=10, leader=True, availability="unique"),
    prof("warrior-leader", "G", clan="kuge", cost=10, leader=True, availability="unique"),
    prof("shinobi-hero", "H", clan="kuge", cost=20, leader=True, availability="unique",
         trait="ninja"),
    prof("ronin", "G", cost=10, availability="unique"),
    prof("spears"), prof("swords"), prof("axes"),
    prof("elites", "E"),
    prof("villagers", "A", cost=1, weapon=0),
    prof("bows", cost=11, ranged="yumi"),
    prof("teppo", cost=12, ranged="teppo"),
    prof("riders", cost=21, troop_type="cavalry"),
    prof("scouts", cost=6, troop_type="skirmishers"),
    prof("oni", "I", cost=11, troop_type="creature"),
    prof("onmyouji", "O", cost=30, troop_type="spiritual"),
    prof("komuso", "K", cost=30, troop_type="spiritual"),
    prof("cannon", cost=60, troop_type="machine"),
    prof("light-gun", cost=10, troop_type="machine"),
    prof("field-gun", cost=10, troop_type="machine"),
    prof("heavy-gun", cost=10, troop_type="machine", skills=("Máquina de asedio",)),
    prof("buke-samurai", clan="buke"),
    prof("hattori-genin", clan="hattori"),
    prof("hattori-chunin", clan="hattori"),
)}


def army(*entries: tuple[str, int] | ListEntry, clan: str = "kuge", size: int = 200,
         level: str = "hatamoto") -> ArmyList:
    """The base list (a general leading 10 spears, 10 swords: 120 pe, 2 units) then
    ``entries``."""
    base = [ListEntry(profile="hero", models=1, general=True, joins=2),
            ListEntry(profile="spears", models=10, banner=True),
            ListEntry(profile="swords", models=10)]
    extra = [e if isinstance(e, ListEntry) else ListEntry(profile=e[0], models=e[1])
             for e in entries]
    return ArmyList.model_validate({"name": "Test", "clan": clan, "commander_level": level,
                                    "size": size, "entries": (*base, *extra)})


def replaced(a: ArmyList, n: int, **keys: Any) -> ArmyList:
    """``a`` with entry ``n`` (1-based) changed."""
    entries = list(a.entries)
    entries[n - 1] = entries[n - 1].model_copy(update=keys)
    return a.model_copy(update={"entries": tuple(entries)})


def refusals(a: ArmyList) -> list[tuple[str, int | None]]:
    return [(r.rule, r.entry) for r in check_list(a, PROFILES)]


def test_the_base_list_is_legal() -> None:
    assert check_list(army(), PROFILES) == []
    assert list_points(army(), PROFILES) == 120


# --------------------------------------------------------------------------- one rule each


@pytest.mark.parametrize(("name", "a", "expected"), [
    ("unknown profile", army(("namban-pike", 5)), [(al.PROFILE, 4)]),
    ("daimyo within the size", army(("spears", 10), level="daimyo"), []),
    ("points over", army(("axes", 15), ("elites", 3), level="daimyo"), [(al.POINTS, None)]),
    ("leaders too few", army(("axes", 10), size=300), [(al.LEADERS, None)]),
    ("leaders too many", army(("elite-leader", 1), ("hero-two", 1)), [(al.LEADERS, 5)]),
    ("no general", replaced(army(), 1, general=False), [(al.GENERAL, None)]),
    ("general not a hero", replaced(army(ListEntry(profile="elite-leader", models=1,
                                                   general=True)), 1, general=False),
     [(al.GENERAL, 4)]),
    ("two generals", army(ListEntry(profile="hero-two", models=1, general=True)),
     [(al.GENERAL, 4)]),
    ("unique twice", army(("ronin", 1), ("ronin", 1)), [(al.AVAILABILITY, 5)]),
    ("unit too small", army(("axes", 2)), [(al.UNIT_SIZE, 4)]),
    ("a unit of 15", replaced(army(), 3, models=15), []),
    ("8 skirmishers", army(("scouts", 8)), []),
    ("skirmishers 11", replaced(army(("scouts", 4)), 4, models=11),
     [(al.UNIT_SIZE, 4), (al.SKIRMISHERS, None)]),
    ("single model as a unit", army(("ronin", 3)), [(al.UNIT_SIZE, 4)]),
    ("three of a profile", army(("spears", 3), ("spears", 3)), [(al.SAME_PROFILE, 5)]),
    ("two elite units", army(("elites", 3), ("elites", 3)), [(al.ELITE, 5)]),
    ("too few units", army().model_copy(update={"entries": army().entries[:2]}),
     [(al.UNITS, None)]),
    ("too many units", army(("axes", 3), ("villagers", 4), ("elites", 3)), [(al.UNITS, None)]),
    ("villagers odd", army(("villagers", 5)), [(al.VILLAGERS, 4)]),
    ("villagers two", replaced(army(("villagers", 4)), 4, models=3),
     [(al.VILLAGERS, 4)]),
    ("banner on a single model", replaced(army(), 1, banner=True), [(al.BANNER, 1)]),
    ("onmyouji and komuso", army(("onmyouji", 1), ("komuso", 1)), [(al.SPIRITUAL, 5)]),
    ("two onmyouji", army(("onmyouji", 1), ("onmyouji", 1)), [(al.SPIRITUAL, 5)]),
    ("two komuso", army(("komuso", 1), ("komuso", 1)), [(al.SPIRITUAL, 5)]),
    ("warriors under 20 %", army(("bows", 9)).model_copy(update={"entries": (
        ListEntry(profile="hero", models=1, general=True), ListEntry(profile="bows", models=9),
        ListEntry(profile="scouts", models=3), ListEntry(profile="spears", models=7))}),
     [(al.WARRIORS, None)]),
    ("ranged over 50 %", army(("bows", 10)).model_copy(update={"entries": (
        *army().entries[:2], ListEntry(profile="bows", models=10))}), [(al.RANGED, None)]),
    ("firearms over 25 %", army(("teppo", 5)), [(al.RANGED, None)]),
    ("cavalry over 50 %", army(("riders", 5)).model_copy(update={"entries": (
        *army().entries[:2], ListEntry(profile="riders", models=5))}), [(al.CAVALRY, None)]),
    ("skirmishers over 25 %", army(("scouts", 9)), [(al.SKIRMISHERS, None)]),
    ("creatures over 50 %", army(("oni", 10)).model_copy(update={"entries": (
        *army().entries[:2], ListEntry(profile="oni", models=10))}), [(al.CREATURES, None)]),
    ("machines over 25 %", army(("cannon", 1)), [(al.MACHINES, None)]),
    ("siege machine under 300", army(("heavy-gun", 1)), [(al.MACHINES, 4)]),
    ("two battle machines", army(("light-gun", 1), ("light-gun", 1)), []),
    ("three battle machines", army(("light-gun", 1), ("light-gun", 1), ("field-gun", 1)),
     [(al.MACHINES, 6)]),
    ("another clan", army(("buke-samurai", 5)), [(al.CLAN, 4)]),
    ("hattori without shinobi", army(("hattori-genin", 5)), [(al.CLAN, 4)]),
    ("joins itself", replaced(army(), 1, joins=1), [(al.JOINS, 1)]),
    ("joins past the end", replaced(army(), 1, joins=9), [(al.JOINS, 1)]),
    ("a unit joins", replaced(army(), 3, joins=2), [(al.JOINS, 3)]),
    ("joins a single model", army(ListEntry(profile="elite-leader", models=1, joins=1)),
     [(al.JOINS, 4)]),
    ("second leader", army(ListEntry(profile="elite-leader", models=1, joins=2)),
     [(al.JOINS, 4)]),
    ("lower class", army(("elites", 3), ListEntry(profile="warrior-leader", models=1,
                                                  joins=4)), [(al.JOINS, 5)]),
    ("not same type", replaced(army(("riders", 3)), 1, joins=4), [(al.JOINS, 1)]),
    ("hero without the missile", replaced(army(("bows", 3)), 1, joins=4), [(al.JOINS, 1)]),
    ("creatures are not led", replaced(army(("oni", 3)), 1, joins=4), [(al.JOINS, 1)]),
])
def test_a_list_breaking_one_rule(name: str, a: ArmyList,
                                  expected: list[tuple[str, int | None]]) -> None:
    assert refusals(a) == expected, name


def test_the_points_are_troops_and_commander() -> None:
    a = army(("axes", 5), level="taisho")
    assert starting_points(a, PROFILES) == {1: 20, 2: 50, 3: 50, 4: 25}
    assert list_points(a, PROFILES) == 155
    assert starting_points(army(("namban-pike", 5)), PROFILES)[4] == 0


def test_the_points_refusal_says_the_sums() -> None:
    (refusal,) = check_list(army(("axes", 15), ("elites", 3), level="daimyo"), PROFILES)
    assert refusal.message == ("the list costs 230 pe (troops 210 pe, Daimyo 20 pe), more than "
                               "the battle's 200 pe")


def test_leaders_and_units_follow_the_size_table() -> None:
    # B14's table: 300 pe 2/3 leaders and 3/5 units; 600 pe 3/6 and 6/8
    three = army(("elite-leader", 1), ("axes", 10), size=300)
    assert refusals(three) == []
    assert (al.LEADERS, None) in refusals(army(("axes", 10), size=300))


def test_a_joined_or_mounted_leader_is_not_counted_by_type() -> None:
    # 100 pe of cavalry is the 50 % limit; the mounted hero's 20 pe are not cavalry
    a = army(("riders", 4), ("rider-hero", 1))
    assert al.CAVALRY not in [r for r, _ in refusals(a)]
    assert list_points(a, PROFILES) == 120 + 84 + 20


def test_a_hero_joins_a_missile_unit_with_the_same_missile() -> None:
    a = army(("bows", 3)).model_copy(update={"entries": (
        ListEntry(profile="archer-hero", models=1, general=True, joins=4),
        *army().entries[1:], ListEntry(profile="bows", models=3))})
    assert refusals(a) == []


def test_elite_units_two_per_profile_from_600() -> None:
    assert al.ELITE not in [r for r, _ in refusals(army(("elites", 3), ("elites", 3),
                                                        size=600))]


def test_otokodate_take_firearms_to_40_percent() -> None:
    profiles = dict(PROFILES, boss=prof("boss", "H", clan="otokodate", cost=20, leader=True))
    a = army(("teppo", 6), clan="otokodate")
    a = replaced(a, 1, profile="boss")
    assert check_list(a, profiles) == []
    assert [r.rule for r in check_list(replaced(a, 1, profile="boss").model_copy(
        update={"clan": "sohei"}), profiles)] == [al.CLAN, al.RANGED]


def test_hattori_rules() -> None:
    jonin = prof("jonin", "H", clan="hattori", cost=20, leader=True, trait="ninja")
    shuriken = prof("shuriken-genin", clan="hattori", ranged="shuriken", cost=10)
    scouts = prof("hattori-scouts", clan="hattori", troop_type="skirmishers", cost=10)
    profiles = dict(PROFILES, **{p.id: p for p in (jonin, shuriken, scouts)})
    a = ArmyList.model_validate({"name": "H", "clan": "hattori", "commander_level": "hatamoto",
                                 "size": 200, "entries": [
                                     {"profile": "jonin", "models": 1, "general": True},
                                     {"profile": "shuriken-genin", "models": 5},
                                     {"profile": "hattori-scouts", "models": 9}]})
    # ranged warriors count for the 20 %, and skirmishers go to 50 % (90 pe)
    assert check_list(a, profiles) == []
    common = a.model_copy(update={"entries": (*a.entries, ListEntry(profile="spears", models=3))})
    assert [(r.rule, r.entry) for r in check_list(common, profiles)] == [(al.CLAN, 4)]


def test_kuge_with_a_shinobi_hero_add_one_hattori_unit() -> None:
    a = army(ListEntry(profile="shinobi-hero", models=1), ("hattori-genin", 5))
    assert refusals(a) == []
    assert refusals(army(ListEntry(profile="shinobi-hero", models=1), ("hattori-genin", 3),
                         ("hattori-chunin", 3))) == [(al.CLAN, 6)]


def test_kuroi_te_rules() -> None:
    boss = prof("boss", "H", clan="kuroi-te", cost=20, leader=True)
    ghouls = prof("ghouls", "I", clan="kuroi-te", cost=5, troop_type="creature")
    dead = prof("dead", clan="kuroi-te", cost=5)
    komuso = prof("komuso-k", "K", clan="kuroi-te", cost=30, troop_type="spiritual")
    sage = prof("sage", "O", clan="kuroi-te", cost=30, troop_type="spiritual")
    infernal = prof("infernal-onmyouji", "O", clan="kuroi-te", cost=30, troop_type="spiritual")
    profiles = {p.id: p for p in (boss, ghouls, dead, komuso, sage, infernal)}
    profiles["spears"] = PROFILES["spears"]

    def kuroi(*more: tuple[str, int]) -> list[tuple[str, int | None]]:
        a = ArmyList.model_validate({"name": "K", "clan": "kuroi-te",
                                     "commander_level": "hatamoto", "size": 200, "entries": [
                                         {"profile": "boss", "models": 1, "general": True},
                                         {"profile": "ghouls", "models": 10},
                                         {"profile": "dead", "models": 3},
                                         *({"profile": p, "models": m} for p, m in more)]})
        return [(r.rule, r.entry) for r in check_list(a, profiles)]

    assert kuroi() == []  # the creatures count towards the 20 % of warriors
    assert kuroi(("komuso-k", 1)) == [(al.CLAN, 4)]
    assert kuroi(("sage", 1)) == [(al.CLAN, 4)]
    assert kuroi(("infernal-onmyouji", 1)) == []
    assert kuroi(("spears", 3)) == [(al.CLAN, 4)]


def test_every_refusal_reads_plainly() -> None:
    for a in (army(("axes", 2)), army(("teppo", 5)), replaced(army(), 1, joins=3)):
        for refusal in check_list(a, PROFILES):
            assert refusal.rule.startswith(("B14 ", "B2.")) and "(" in refusal.rule
            assert refusal.rule not in refusal.message and "_" not in refusal.message


# --------------------------------------------------------------------------- bundled lists


@pytest.mark.parametrize("name", ["kuge-200", "buke-200"])
def test_a_bundled_list_is_legal_and_complete(name: str) -> None:
    a = bundled_list(name)
    profiles = bundled_profiles()
    assert a.size == 200 and check_list(a, profiles) == []
    assert list_points(a, profiles) <= 200
    assert sum(e.general for e in a.entries) == 1
    assert any(e.joins for e in a.entries) and any(e.banner for e in a.entries)
    assert all(profiles[e.profile].example for e in a.entries)


def test_the_bundled_lists_are_two_clans() -> None:
    assert bundled_list_names() == ("buke-200", "kuge-200")
    assert {bundled_list(n).clan for n in bundled_list_names()} == {"kuge", "buke"}
    with pytest.raises(KeyError):
        bundled_list("../profiles/examples")


# --------------------------------------------------------------------------- list files

LIST = """\
name: Ana's Kuge
clan: kuge
commander_level: hatamoto
size: 200
entries:
  - {profile: kuge-hero-naginata, models: 1, general: true, joins: 2}
  - profile: yari-ashigaru
    models: 10
    banner: true
"""


def refused(text: str) -> str:
    with pytest.raises(UserFileError) as caught:
        load_list(text, "kuge.yaml")
    return caught.value.message


def test_a_list_file_reads() -> None:
    a = load_list(LIST, "kuge.yaml")
    assert a.name == "Ana's Kuge" and a.entries[0].joins == 2 and a.entries[1].banner


@pytest.mark.parametrize(("old", "new", "message"), [
    ("models: 10", "models: 16",
     "kuge.yaml, line 8, entry 2 ('yari-ashigaru'), field 'models': must be 1 to 15"),
    ("models: 1,", "models: 0,",
     "kuge.yaml, line 6, entry 1 ('kuge-hero-naginata'), field 'models': must be 1 to 15"),
    ("banner: true", "banner: yes please",
     "kuge.yaml, line 9, entry 2 ('yari-ashigaru'), field 'banner': must be true or false"),
    ("banner: true", "flag: true",
     "kuge.yaml, line 9, entry 2 ('yari-ashigaru'), field 'flag': is not a field of an entry"),
    ("size: 200", "size: 250", "kuge.yaml, line 4, field 'size': must be a multiple of 100"),
    ("clan: kuge", "clan: namban", "kuge.yaml, line 2, field 'clan': must be kuge, buke, "
     "sohei, otokodate, kuroi-te or hattori"),
    ("commander_level: hatamoto\n", "",
     "kuge.yaml, line 1, field 'commander_level': is missing"),
    ("size: 200", "size: 200\nsize: 300",
     "kuge.yaml, line 5, field 'size': given twice (lines 4 and 5)"),
    ("entries:\n", "entries: []\nx:\n", "kuge.yaml, line 5, field 'entries': must hold at "
     "least 1"),
])
def test_a_wrong_list_names_file_line_entry_and_field(old: str, new: str, message: str) -> None:
    assert old in LIST
    assert refused(LIST.replace(old, new)) == message


def test_a_list_that_is_not_a_mapping() -> None:
    assert refused("- a\n") == ("kuge.yaml, line 1: an army list is a mapping of name, clan, "
                                "commander_level, size and entries")


# --------------------------------------------------------------------------- kensei list


def run_list(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
             *more: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "army.yaml"
    path.write_text(text, "utf-8")
    status = call(["kensei", "list", str(path), *more])
    return status, json.loads(capsys.readouterr().out)


def test_kensei_list_prints_points_and_troops(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import resources
    text = resources.files("companion.games.kensei").joinpath(
        "data", "lists", "buke-200.yaml").read_text("utf-8")
    status, out = run_list(text, tmp_path, capsys)
    assert status == 0 and out["legal"] and out["refusals"] == []
    assert out["points"] == 200 and out["clan"] == "Buke"
    assert out["commander"] == {"level": "Hatamoto", "points": 0}
    assert [t["points"] for t in out["troops"]] == [20, 25, 45, 50, 60]
    assert all(t["note"] == "example profile, not from the book" for t in out["troops"])
    assert out["troops"][0]["general"] is True and out["troops"][0]["joins"] == 4


def test_kensei_list_exits_2_with_every_refusal(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_list(LIST.replace("models: 10", "models: 2"), tmp_path, capsys)
    assert status == 2 and not out["legal"]
    assert {(r["rule"], r["entry"]) for r in out["refusals"]} == {
        (al.UNIT_SIZE, 2), (al.UNITS, None), (al.WARRIORS, None)}


def test_kensei_list_with_a_profile_file(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("- {id: kuge-hero-naginata, name: Hero, clan: kuge, class: H, leader: "
                    "true, troop_type: infantry, cost: 30}\n", "utf-8")
    status, out = run_list(LIST, tmp_path, capsys, "--profiles", str(mine))
    assert status == 2
    assert out["troops"][0]["points"] == 30 and "note" not in out["troops"][0]
    assert (al.PROFILE, 2) in {(r["rule"], r["entry"]) for r in out["refusals"]}


def test_kensei_list_refuses_a_bad_file_in_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_list(LIST.replace("size: 200", "size: 250"), tmp_path, capsys)
    assert status == 2
    assert out == {"error": {"rule": None, "message": f"{tmp_path / 'army.yaml'}, line 4, "
                             "field 'size': must be a multiple of 100"}}
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"name: \xff\n")
    assert call(["kensei", "list", str(path)]) == 2
    assert "not UTF-8" in json.loads(capsys.readouterr().out)["error"]["message"]
