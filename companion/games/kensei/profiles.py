"""Kensei troop profiles as user data (B2.3, B2.4, B16).

The rulebook's army-list annex is empty (B19.1): no unit profile survives in the text, so
profiles are data a player types in from the printed book or the publisher's army builder.
The package ships only the class defaults the rulebook prints and a few profiles made up for
the examples, each marked ``example: true``: nothing invented is presented as official.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from companion.core.datafiles import parse_yaml, validate
from companion.core.inputs import short
from companion.games.kensei import userfiles
from companion.games.kensei.rules import RangedWeapon, rules
from companion.games.kensei.userfiles import UserFileError as UserFileError

ProfileClass = Literal["H", "E", "G", "A", "K", "O", "C", "M", "I"]
"""Hero, Elite, Warrior (Guerrero), Villager (Aldeano), Komuso, Onmyouji, and the Colossal,
Major and Inferior creatures (B2.3)."""
TroopType = Literal["infantry", "cavalry", "skirmishers", "spiritual", "creature", "machine"]
Availability = Literal["normal", "unique", "legendary"]
Clan = Literal["kuge", "buke", "sohei", "otokodate", "kuroi-te", "hattori", "common"]
Trait = Literal["samurai", "ashigaru", "ninja", "monk", "undead", "spirit", "villager", "senshi"]
Attribute = Annotated[int, Field(ge=0, le=20)]


class Profile(BaseModel):
    """One troop profile (B2.3). ``cost`` is per model."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)]
    name: Annotated[str, Field(min_length=1, max_length=80)]
    clan: Clan
    cls: ProfileClass = Field(alias="class")
    mov: Attribute
    at: Attribute
    at_ranged: Attribute
    ini: Attribute
    ho: Attribute
    hr: Annotated[int, Field(ge=1, le=20)]
    troop_type: TroopType
    mounted: bool = False
    weapon: Annotated[int, Field(ge=0, le=7)] | None = None
    ranged: RangedWeapon | None = None
    armour: Literal["none", "samurai"] = "none"
    trait: Trait | None = None
    skills: tuple[Annotated[str, Field(max_length=60)], ...] = ()
    volume: Annotated[int, Field(ge=1, le=4)] = 2
    leader: bool = False
    availability: Availability = "normal"
    cost: Annotated[int, Field(ge=0, le=1000)]
    equipment: tuple[Annotated[str, Field(max_length=60)], ...] = ()
    example: bool = False
    source: Annotated[str, Field(max_length=200)] = ""


EXAMPLE_NOTE = "example profile, not from the book"
"""Shown beside every example profile wherever one is shown (CLI, screens, docs)."""

ATTRIBUTES = ("mov", "at", "at_ranged", "ini", "ho", "hr")
"""The attributes a profile may leave to its class (B2.4)."""


class _ClassRow(BaseModel):
    """One row of ``data/profiles/classes.yaml``: what the calculators' class table
    (``data/rules.yaml``) lacks, or, for the classes it has no row for, the whole row."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mov: Attribute
    mov_mounted: Attribute
    ini: Attribute
    at: Attribute | None = None
    at_ranged: Attribute | None = None
    ho: Attribute | None = None
    hr: Annotated[int, Field(ge=1, le=20)] | None = None


class _ClassTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: dict[ProfileClass, _ClassRow]

    @model_validator(mode="after")
    def _complete(self) -> _ClassTable:
        for cls in get_args(ProfileClass):
            row = self.rows.get(cls)
            if row is None:
                raise ValueError(f"no row for class {cls}")
            given = [v is not None for v in (row.at, row.at_ranged, row.ho, row.hr)]
            if all(given) == (cls in ("H", "E", "G", "A")) or any(given) != all(given):
                raise ValueError(f"class {cls}: at, at_ranged, ho and hr are "
                                 + ("in rules.yaml" if cls in "HEGA" else "all needed"))
        return self


@cache
def _classes() -> _ClassTable:
    text = resources.files(__package__ or "companion.games.kensei").joinpath(
        "data", "profiles", "classes.yaml").read_text("utf-8")
    return validate(_ClassTable, {"rows": parse_yaml(text, "classes.yaml")}, "classes.yaml")


def class_defaults(cls: ProfileClass, mounted: bool = False) -> dict[str, int]:
    """The attributes the rulebook prints for class ``cls`` (B2.4): ``mov`` (the mounted
    column when ``mounted``; for creatures, C M I, the second column is flying and is never
    taken by default), ``at``, ``at_ranged``, ``ini``, ``ho`` (Presence for creatures) and
    ``hr``. Hero, Elite, Warrior and Villager attack, honour and wounds are the calculators'
    own table (``data/rules.yaml``)."""
    row = _classes().rows[cls]
    mov = row.mov_mounted if mounted and cls not in ("C", "M", "I") else row.mov
    printed = rules().classes.get(cls) if cls in ("H", "E", "G", "A") else None
    if printed is not None:
        at, at_ranged, ho, hr = printed.at_melee, printed.at_ranged, printed.ho, printed.hr
    else:
        at, at_ranged, ho, hr = (v if v is not None else 0
                                 for v in (row.at, row.at_ranged, row.ho, row.hr))
    return {"mov": mov, "at": at, "at_ranged": at_ranged, "ini": row.ini, "ho": ho, "hr": hr}


def _filled(item: dict[str, Any]) -> dict[str, Any]:
    """``item`` with what its owner left out: the class attributes (B2.4), ``mounted`` for
    cavalry, the volume of its size (B2.5: V3 mounted, V4 colossal, else V2) and the
    availability of a leader (always unique, B2.7)."""
    filled = dict(item)
    if "mounted" not in filled and filled.get("troop_type") == "cavalry":
        filled["mounted"] = True
    mounted = filled.get("mounted") is True
    cls = filled.get("class", filled.get("cls"))
    if isinstance(cls, str) and cls in _classes().rows:
        defaults = class_defaults(cls, mounted)
        for key in ATTRIBUTES:
            filled.setdefault(key, defaults[key])
        filled.setdefault("volume", 4 if cls == "C" else 3 if mounted else 2)
    if filled.get("leader") is True:
        filled.setdefault("availability", "unique")
    return filled


def _consistent(profile: Profile) -> tuple[str, str] | None:
    """The field and the reason a valid profile still breaks the rulebook, if it does."""
    if profile.leader and profile.cls not in ("H", "E"):
        return "leader", "only a hero or an elite can have the rank Líder (B2.7)"
    if profile.mounted and profile.troop_type != "cavalry":
        return "mounted", "a mounted troop is cavalry: its troop_type must be cavalry"
    return None


def load_profiles(text: str, file: str) -> dict[str, Profile]:
    """The profiles of a user's YAML file, by id: a list of profiles, or a mapping whose only
    key is ``profiles``. Attributes left out take the class defaults (:func:`class_defaults`).
    Refused in one line naming the file, the line and the field (:class:`UserFileError`): a
    wrong field, an id given twice (both lines), a field given twice."""
    data, root = userfiles.read(text, file)
    items, node = data, root
    if isinstance(data, dict):
        extra = [k for k in data if k != "profiles"]
        if extra:
            raise UserFileError(
                f"{file}, line {userfiles.line_at(root, [str(extra[0])])}: "
                f"{short(extra[0])!r} is not known; the file holds a list of profiles, or "
                "'profiles:' and the list")
        items, node = data.get("profiles"), userfiles.child(root, "profiles")
    if not isinstance(items, list) or not items:
        raise UserFileError(f"{file}, line {userfiles.line(node)}: holds no profiles (a list "
                            "of profiles, or 'profiles:' and the list)")
    found: dict[str, Profile] = {}
    lines: dict[str, int] = {}
    for n, item in enumerate(items):
        at = userfiles.child(node, n)
        ident = item.get("id") if isinstance(item, dict) else None
        who = f"profile {short(ident)!r}" if isinstance(ident, str) else f"profile {n + 1}"
        where = f"{file}, line {userfiles.line(at)}, {who}"
        if not isinstance(item, dict):
            raise UserFileError(f"{where}: must be a mapping of fields (id, name, class...)")
        userfiles.check_keys(item, where, "a profile")
        repeated = userfiles.twice(at)
        if repeated:
            key, first, second = repeated
            raise UserFileError(f"{file}, line {second}, {who}, field {short(key)!r}: given "
                                f"twice (lines {first} and {second})")
        try:
            profile = Profile.model_validate(_filled(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = [p for p in err["loc"] if isinstance(p, str | int)]
            raise UserFileError(
                f"{file}, line {userfiles.line_at(at, loc)}, {who}, field "
                f"{userfiles.field_of(err)!r}: {userfiles.plain(err, Profile, 'a profile')}"
            ) from None
        wrong = _consistent(profile)
        if wrong:
            field, reason = wrong
            raise UserFileError(f"{file}, line {userfiles.line_at(at, [field])}, {who}, field "
                                f"{field!r}: {reason}")
        here = userfiles.line(at)
        if profile.id in found:
            raise UserFileError(f"{file}, line {here}, {who}: the id is given twice (lines "
                                f"{lines[profile.id]} and {here})")
        found[profile.id], lines[profile.id] = profile, here
    return found


@cache
def _bundled() -> tuple[Profile, ...]:
    text = resources.files(__package__ or "companion.games.kensei").joinpath(
        "data", "profiles", "examples.yaml").read_text("utf-8")
    return tuple(load_profiles(text, "examples.yaml").values())


def bundled_profiles() -> dict[str, Profile]:
    """The example profiles shipped with the package (package data, read once), by id: every
    one ``example: true``, made up from the class table, the traits, the weapon types and the
    sample lists' costs, and shown as "example profile, not from the book"."""
    return {p.id: p for p in _bundled()}


def shown_name(profile: Profile) -> str:
    """A profile's name as players see it: an example says so."""
    return f"{profile.name} ({EXAMPLE_NOTE})" if profile.example else profile.name
