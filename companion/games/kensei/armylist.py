"""A Kensei army list (B14): the troops a player brings, by profile.

Checking a list against every restriction the rulebook gives is :func:`check_list`; a list file
is read by :func:`load_list`, and two legal 200-pe lists of example profiles ship with the
package (:func:`bundled_list`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.core.inputs import short
from companion.games.kensei import userfiles
from companion.games.kensei.profiles import Profile
from companion.games.kensei.rules import rules

CommanderLevel = Literal["hatamoto", "taisho", "daimyo"]
"""The commander level, bought with points (B14): Hatamoto 0, Taisho 10, Daimyo 20."""


class ListEntry(BaseModel):
    """One troop of a list: a unit of ``models`` of one profile, or a single model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    profile: Annotated[str, Field(max_length=60)]
    models: Annotated[int, Field(ge=1, le=15)]
    general: bool = False
    """This hero is the army's general (B2.7)."""
    banner: bool = False
    """The unit carries a Hata-Jurushi (B2.6)."""
    joins: Annotated[int, Field(ge=1, le=40)] | None = None
    """A leader deployed inside entry ``joins`` (1-based) as its unit leader (B2.7)."""


class ArmyList(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=60)]
    clan: Literal["kuge", "buke", "sohei", "otokodate", "kuroi-te", "hattori"]
    commander_level: CommanderLevel
    size: Annotated[int, Field(ge=100, le=2000, multiple_of=100)]
    entries: Annotated[tuple[ListEntry, ...], Field(min_length=1, max_length=40)]


# --------------------------------------------------------------------------- checking


class ListRefusal(BaseModel):
    """One restriction a list breaks: the rule (section and the Spanish heading it is printed
    under), the entry (1-based; None: the list as a whole) and what is wrong, in plain words."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    entry: int | None
    message: str


COMMANDER_COST: dict[CommanderLevel, int] = {"hatamoto": 0, "taisho": 10, "daimyo": 20}
"""What each commander level costs (B14, NIVEL DE COMANDANTE), as printed. The book prints
the same +1 strategy roll for Hatamoto and Taisho though Taisho costs 10 pe more (B19.2); the
costs stand as printed, and the strategy roll is the battle's (``battle/pregame.py``)."""
COMMANDER_NAME: dict[CommanderLevel, str] = {
    "hatamoto": "Hatamoto", "taisho": "Taisho", "daimyo": "Daimyo"}
CLAN_NAME = {"kuge": "Kuge", "buke": "Buke", "sohei": "Sohei", "otokodate": "Otokodate",
             "kuroi-te": "Kuroi-te", "hattori": "Hattori", "common": "common"}

PROFILE = "B14 Army list (Selección de tropas)"
POINTS = "B14 Total points (Nivel de comandante)"
LEADERS = "B14 Leaders (Líderes de ejército)"
GENERAL = "B14 General (General del ejército)"
AVAILABILITY = "B2.3 Availability (Disponibilidad)"
UNIT_SIZE = "B14 Unit size (Unidades en general)"
SAME_PROFILE = "B14 Same profile (Perfiles máximos)"
ELITE = "B14 Elite and creature units (Unidades de élite y de criaturas)"
UNITS = "B14 Number of units (Número de unidades)"
VILLAGERS = "B14 Villagers (Aldeanos)"
BANNER = "B14 Banners (Hata-Jurushi)"
SPIRITUAL = "B14 Onmyouji and Komuso (Onmyouji, Komuso)"
WARRIORS = "B14 Melee warriors (Infantería de guerreros sólo con armas CC)"
RANGED = "B14 Ranged units (Unidades con armas de disparo)"
CAVALRY = "B14 Cavalry (Unidades de caballería)"
SKIRMISHERS = "B14 Skirmishers (Tropas de hostigadores)"
CREATURES = "B14 Creatures (Unidades de criaturas)"
MACHINES = "B14 War machines (Tabla de restricciones de las máquinas de guerra)"
CLAN = "B14 Clan rules (Reglas especiales de clan)"
JOINS = "B2.7 Unit leader (Líder de unidad)"

_RANK = {"H": 3, "E": 2, "G": 1, "A": 0}
"""The classes that lead and are led, highest first (B2.7: Héroe, Élite, Guerrero, Aldeano)."""


def single_model(profile: Profile) -> bool:
    """Whether a profile fields one model, not a unit (B2.6): a leader (always unique, B2.7),
    a unique or legendary troop (B2.3), a spiritual troop or a war machine."""
    return (profile.leader or profile.availability != "normal"
            or profile.troop_type in ("spiritual", "machine"))


def creature(profile: Profile) -> bool:
    return profile.cls in ("C", "M", "I") or profile.troop_type == "creature"


def shinobi_hero(profile: Profile) -> bool:
    """Reading: a Shinobi Hero (B14, Kuge "Aliados Hattori") is a hero with the ninja trait."""
    return profile.cls == "H" and profile.trait == "ninja"


def siege_machine(profile: Profile) -> bool:
    """Reading: a war machine is a siege machine when its skills name *Máquina de asedio*
    (as the Oo-Dzutsu's do, B11); every other machine is a battle machine."""
    return profile.troop_type == "machine" and any(
        "asedio" in s.lower() or "siege" in s.lower() for s in profile.skills)


def gunpowder(profile: Profile) -> bool:
    return profile.ranged is not None and rules().ranged_weapons[profile.ranged].gunpowder


def starting_points(army: ArmyList, profiles: Mapping[str, Profile]) -> dict[int, int]:
    """The points of each troop as deployed, by entry number (1-based; troop ``f"{side}{n}"``):
    models × cost per model (B14). An unknown profile counts 0. The engine's rout check
    (B3.1, 75 % of the starting points) and scenario 1 (B15) count these; the commander level
    is not a troop and is in none of them. The book does not say how a partly destroyed unit
    counts towards the rout (B19.14): per model, as its scenarios count "model by model"."""
    return {n: entry.models * profiles[entry.profile].cost if entry.profile in profiles else 0
            for n, entry in enumerate(army.entries, 1)}


def list_points(army: ArmyList, profiles: Mapping[str, Profile]) -> int:
    """What the list costs: its troops plus its commander level (B14), the sum that may not
    pass the battle size."""
    return sum(starting_points(army, profiles).values()) + COMMANDER_COST[army.commander_level]


def _pe(points: int) -> str:
    return f"{points} pe"


def check_list(army: ArmyList, profiles: Mapping[str, Profile]) -> list[ListRefusal]:
    """Every restriction of the rulebook's army building (B14, TABLA DE RESTRICCIONES and
    REGLAS ESPECIALES DE CLAN) and of unit leaders (B2.7) the list breaks; empty: legal.

    Readings (docs/kensei.md, "Profiles and army lists"): the percentages are of the battle
    size, as the book's own table works them out (20 % of 200 is 40); a Hata-Jurushi is one of
    its unit's models and costs nothing more; a "unit" is an entry of several models, so
    leaders, unique troops, spiritual troops and machines are not counted among the units;
    a leader joined to a unit still counts among the leaders and not in the unit's type."""
    out: list[ListRefusal] = []

    def refuse(rule: str, entry: int | None, message: str) -> None:
        out.append(ListRefusal(rule=rule, entry=entry, message=message))

    known: list[tuple[int, ListEntry, Profile]] = []
    for n, entry in enumerate(army.entries, 1):
        profile = profiles.get(entry.profile)
        if profile is None:
            refuse(PROFILE, n, f"there is no profile {short(entry.profile)!r}")
        else:
            known.append((n, entry, profile))
    _clans(army, known, refuse)
    _points(army, profiles, refuse)
    _leaders(army, known, refuse)
    _sizes(army, known, refuse)
    _spiritual(army, known, refuse)
    _percentages(army, known, refuse)
    _joins(army, known, refuse)
    return out


Refuse = Callable[[str, int | None, str], None]
Known = list[tuple[int, ListEntry, Profile]]


def _clans(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """A profile of another clan, common troops where the clan takes none, and the one Hattori
    unit a Kuge army with a Shinobi Hero may add (B14, REGLAS ESPECIALES DE CLAN)."""
    clan = CLAN_NAME[army.clan]
    ally_taken = False
    shinobi = any(shinobi_hero(p) for _, _, p in known)
    for n, _, profile in known:
        if profile.clan == army.clan:
            continue
        if profile.clan == "common":
            if army.clan in ("kuroi-te", "hattori"):
                refuse(CLAN, n, f"a {clan} army takes no common troops ({profile.name})")
            continue
        if (army.clan == "kuge" and profile.clan == "hattori" and shinobi and not ally_taken
                and profile.cls in ("G", "E") and not single_model(profile)):
            ally_taken = True
            continue
        if army.clan == "kuge" and profile.clan == "hattori":
            refuse(CLAN, n, "a Kuge army adds one Hattori unit of warriors or elites, and only "
                   f"with a Shinobi Hero ({profile.name})")
            continue
        refuse(CLAN, n, f"{profile.name} is a {CLAN_NAME[profile.clan]} troop, not a {clan} "
               "or common one")


def _points(army: ArmyList, profiles: Mapping[str, Profile], refuse: Refuse) -> None:
    total = list_points(army, profiles)
    if total > army.size:
        level = COMMANDER_COST[army.commander_level]
        refuse(POINTS, None, f"the list costs {_pe(total)} (troops {_pe(total - level)}, "
               f"{COMMANDER_NAME[army.commander_level]} {_pe(level)}), more than the battle's "
               f"{_pe(army.size)}")


def _leaders(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """B14 Líderes de ejército: at least 1 per started 200 pe, at most 1 per 100 pe, one a
    hero named general; a unique troop at most once (B2.3)."""
    leaders = [(n, p) for n, _, p in known if p.leader]
    least, most = -(-army.size // 200), army.size // 100
    if len(leaders) < least:
        refuse(LEADERS, None, f"a {_pe(army.size)} army needs at least {least} leader"
               f"{'s' if least > 1 else ''}; the list has {len(leaders)}")
    elif len(leaders) > most:
        refuse(LEADERS, leaders[most][0], f"a {_pe(army.size)} army has at most {most} "
               f"leader{'s' if most > 1 else ''}; the list has {len(leaders)}")
    generals = [(n, p) for n, e, p in known if e.general]
    if not generals and not any(e.general for e in army.entries):
        refuse(GENERAL, None, "name one hero of the list as the general")
    for n, profile in generals:
        if profile.cls != "H" or not profile.leader:
            refuse(GENERAL, n, f"the general must be a hero with the rank Líder; {profile.name} "
                   "is not")
    for n, _ in generals[1:]:
        refuse(GENERAL, n, "the army has one general only")
    seen: dict[str, int] = {}
    for n, _, profile in known:
        if profile.availability != "normal" or profile.leader:
            if profile.id in seen:
                refuse(AVAILABILITY, n, f"{profile.name} is unique: one in the army at most "
                       f"(entry {seen[profile.id]} has it)")
            seen.setdefault(profile.id, n)


def _sizes(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """B14 Unidades en general: unit sizes, two troops of a profile at most, elite and creature
    units one per profile (two from 600 pe), the number of units; villagers; banners. The
    maximum size is the restriction table's, 15 or 10 for skirmishers (the text elsewhere says
    "between 10 and 15 depending on type", B19.18)."""
    per_profile: dict[str, int] = {}
    units = 0
    for n, entry, profile in known:
        per_profile[profile.id] = per_profile.get(profile.id, 0) + 1
        if per_profile[profile.id] == 3:
            refuse(SAME_PROFILE, n, f"two troops of {profile.name} at most")
        if single_model(profile):
            if entry.models != 1:
                refuse(UNIT_SIZE, n, f"{profile.name} is a single model: models must be 1")
            if entry.banner:
                refuse(BANNER, n, "a Hata-Jurushi is carried inside a unit, not by a single "
                       "model")
            continue
        units += 1
        most = 10 if profile.troop_type == "skirmishers" else 15
        if not 3 <= entry.models <= most:
            kind = "a unit of skirmishers" if most == 10 else "a unit"
            refuse(UNIT_SIZE, n, f"{kind} has 3 to {most} models, not {entry.models}")
        if profile.cls == "A" and (entry.models % 2 or entry.models < 4):
            refuse(VILLAGERS, n, f"villagers come in even numbers, at least 4, not "
                   f"{entry.models}")
        if profile.cls == "E" or creature(profile):
            allowed = 1 if army.size < 600 else 2
            if per_profile[profile.id] == allowed + 1:
                kind = "elite" if profile.cls == "E" else "creature"
                refuse(ELITE, n, f"{allowed} {kind} unit{'s' if allowed > 1 else ''} of "
                       f"{profile.name} at most in a {_pe(army.size)} army")
    least = army.size // 100
    if not least <= units <= least + 2:
        refuse(UNITS, None, f"a {_pe(army.size)} army has {least} to {least + 2} units; the "
               f"list has {units}")


def _spiritual(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """B14 Onmyouji and Komuso: one at most of each, never both; Kuroi-te take no Komuso and
    only an Infernal or Death Onmyouji (reading: its path is in its name or skills)."""
    onmyouji = [(n, p) for n, _, p in known if p.cls == "O"]
    komuso = [(n, p) for n, _, p in known if p.cls == "K"]
    for kind, found in (("Onmyouji", onmyouji), ("Komuso", komuso)):
        for n, _ in found[1:]:
            refuse(SPIRITUAL, n, f"one {kind} at most")
    if onmyouji and komuso:
        refuse(SPIRITUAL, komuso[0][0], "an army takes an Onmyouji or a Komuso, not both")
    if army.clan == "kuroi-te":
        for n, _ in komuso:
            refuse(CLAN, n, "a Kuroi-te army takes no Komuso")
        for n, p in onmyouji:
            words = " ".join((p.name, *p.skills)).lower()
            if not any(w in words for w in ("infernal", "death", "muerte")):
                refuse(CLAN, n, "a Kuroi-te army takes only an Infernal or Death Onmyouji")


def _percentages(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """B14 RESTRICCIONES SEGÚN TIPO DE UNIDAD, of the battle size; leaders and the general do
    not count (B14, 1. General del ejército)."""
    troops = [(e.models * p.cost, p) for _, e, p in known if not p.leader and not e.general]

    def total(test: Callable[[Profile], bool]) -> int:
        return sum(points for points, p in troops if test(p))

    def share(percent: int) -> int:
        return army.size * percent // 100

    def warrior(p: Profile) -> bool:
        if army.clan == "kuroi-te" and creature(p):
            return True
        return (p.cls == "G" and p.troop_type == "infantry"
                and (p.ranged is None or army.clan == "hattori"))

    melee = total(warrior)
    if melee < share(20):
        kind = "warrior infantry" if army.clan == "hattori" else "melee-only warrior infantry"
        refuse(WARRIORS, None, f"at least {_pe(share(20))} of {kind}; the list has {_pe(melee)}")
    fire_percent = 40 if army.clan == "otokodate" else 25
    limits = (
        (RANGED, "units with ranged weapons", lambda p: p.ranged is not None, 50),
        (RANGED, "units with firearms", gunpowder, fire_percent),
        (CAVALRY, "cavalry", lambda p: p.mounted or p.troop_type == "cavalry", 50),
        (SKIRMISHERS, "skirmishers", lambda p: p.troop_type == "skirmishers",
         50 if army.clan == "hattori" else 25),
        (CREATURES, "creature units", creature, 50),
        (MACHINES, "war machines", lambda p: p.troop_type == "machine", 25),
    )
    for rule, kind, test, percent in limits:
        if total(test) > share(percent):
            refuse(rule, None, f"{kind} at most {_pe(share(percent))} ({percent} %); the list "
                   f"has {_pe(total(test))}")
    siege = [n for n, _, p in known if siege_machine(p)]
    battle = [n for n, _, p in known if p.troop_type == "machine" and not siege_machine(p)]
    for kind, found, most in (("battle machine", battle, army.size // 100),
                              ("siege machine", siege, army.size // 300)):
        if len(found) > most:
            refuse(MACHINES, found[most], f"{most} {kind}{'s' if most != 1 else ''} at most in "
                   f"a {_pe(army.size)} army")


def _joins(army: ArmyList, known: Known, refuse: Refuse) -> None:
    """B2.7 LÍDER DE UNIDAD: a leader joins a unit of his troop type whose class is not above
    his, which has no other leader; a hero joins a missile unit only with its missile."""
    by_number = {n: p for n, _, p in known}
    led: dict[int, int] = {}
    for n, entry, leader in known:
        if entry.joins is None:
            continue
        target = entry.joins
        if target == n or not 1 <= target <= len(army.entries):
            refuse(JOINS, n, f"joins entry {target}, which is not another entry of the list")
            continue
        unit = by_number.get(target)
        if unit is None:
            continue  # already refused: an unknown profile
        if not leader.leader:
            refuse(JOINS, n, f"{leader.name} does not have the rank Líder: only a leader joins "
                   "a unit")
        elif single_model(unit):
            refuse(JOINS, n, f"{unit.name} is a single model, not a unit a leader can join")
        elif target in led:
            refuse(JOINS, n, f"entry {target} already has a leader (entry {led[target]})")
        elif leader.cls not in _RANK or unit.cls not in _RANK:
            refuse(JOINS, n, "only heroes, elites, warriors and villagers lead or are led")
        elif _RANK[leader.cls] < _RANK[unit.cls]:
            refuse(JOINS, n, f"{leader.name} is of a lower class than {unit.name}")
        elif leader.troop_type != unit.troop_type:
            refuse(JOINS, n, f"{leader.name} ({leader.troop_type}) and {unit.name} "
                   f"({unit.troop_type}) are not the same troop type")
        elif leader.cls == "H" and unit.ranged is not None and leader.ranged != unit.ranged:
            refuse(JOINS, n, f"a hero joins {unit.name} only carrying a {unit.ranged} too")
        led.setdefault(target, n)


# --------------------------------------------------------------------------- files


def load_list(text: str, file: str) -> ArmyList:
    """The army list in a user's YAML file (name, clan, commander_level, size, entries);
    refused in one line naming the file, the line, the entry and the field
    (:class:`~companion.games.kensei.userfiles.UserFileError`)."""
    data, root = userfiles.read(text, file)
    if not isinstance(data, dict):
        raise userfiles.UserFileError(
            f"{file}, line {userfiles.line(root)}: an army list is a mapping of name, clan, "
            "commander_level, size and entries")
    userfiles.check_keys(data, f"{file}, line {userfiles.line(root)}", "an army list")
    repeated = userfiles.twice(root)
    if repeated:
        key, first, second = repeated
        raise userfiles.UserFileError(f"{file}, line {second}, field {short(key)!r}: given "
                                      f"twice (lines {first} and {second})")
    entries = data.get("entries")
    node = userfiles.child(root, "entries")
    checked: list[Any] = []
    if isinstance(entries, list):
        for n, item in enumerate(entries):
            at = userfiles.child(node, n)
            ident = item.get("profile") if isinstance(item, dict) else None
            who = f"entry {n + 1}" + (f" ({short(ident)!r})" if isinstance(ident, str) else "")
            if isinstance(item, dict):
                userfiles.check_keys(item, f"{file}, line {userfiles.line(at)}, {who}",
                                     "an entry")
            repeated = userfiles.twice(at)
            if repeated:
                key, first, second = repeated
                raise userfiles.UserFileError(
                    f"{file}, line {second}, {who}, field {short(key)!r}: given twice (lines "
                    f"{first} and {second})")
            try:
                checked.append(ListEntry.model_validate(item))
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = [p for p in err["loc"] if isinstance(p, str | int)]
                field = f", field {userfiles.field_of(err)!r}" if loc else ""
                raise userfiles.UserFileError(
                    f"{file}, line {userfiles.line_at(at, loc)}, {who}{field}: "
                    f"{userfiles.plain(err, ListEntry, 'an entry')}") from None
    try:
        return ArmyList.model_validate({**data, "entries": checked} if checked else data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [p for p in err["loc"] if isinstance(p, str | int)]
        field = f", field {userfiles.field_of(err)!r}" if loc else ""
        raise userfiles.UserFileError(
            f"{file}, line {userfiles.line_at(root, loc)}{field}: "
            f"{userfiles.plain(err, ArmyList, 'an army list')}") from None


def bundled_list_names() -> tuple[str, ...]:
    """The lists shipped with the package ("buke-200", "kuge-200")."""
    folder = resources.files(__package__ or "companion.games.kensei").joinpath("data", "lists")
    return tuple(sorted(f.name.removesuffix(".yaml") for f in folder.iterdir()
                        if f.name.endswith(".yaml")))


def bundled_list(name: str) -> ArmyList:
    """A list shipped with the package, made of the example profiles
    (:func:`~companion.games.kensei.profiles.bundled_profiles`): legal at 200 pe, each with a
    general, a leader joined to a unit and a Hata-Jurushi. Built after the sample lists of
    the book (B14, "Listas de ejército de ejemplo")."""
    if name not in bundled_list_names():
        raise KeyError(f"no bundled list {short(name)!r}; there are "
                       f"{', '.join(bundled_list_names())}")
    text = resources.files(__package__ or "companion.games.kensei").joinpath(
        "data", "lists", f"{name}.yaml").read_text("utf-8")
    return load_list(text, f"{name}.yaml")
