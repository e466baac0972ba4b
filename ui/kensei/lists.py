"""The army lists a battle can begin with (B14): the bundled example lists, marked "example list,
not from the book", and the user's own list files in the data directory
(``<data>/kensei/lists/*.yaml``, profiles from ``<data>/kensei/profiles/*.yaml`` beside the
bundled examples). A file that cannot be read is offered with its error, never hidden."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion.core.paths import data_dir
from companion.games.kensei.armylist import (
    ArmyList,
    ListRefusal,
    bundled_list,
    bundled_list_names,
    check_list,
    list_points,
    load_list,
)
from companion.games.kensei.profiles import Profile, bundled_profiles, load_profiles

EXAMPLE = "example list, not from the book"


@dataclass(frozen=True)
class ListChoice:
    label: str
    army: ArmyList | None
    profiles: dict[str, Profile] = field(default_factory=dict)
    example: bool = False
    problem: str | None = None
    """Why the file cannot be read (file, line and field)."""

    def refusals(self) -> list[ListRefusal]:
        return [] if self.army is None else check_list(self.army, self.profiles)

    def points(self) -> int | None:
        if self.army is None:
            return None
        try:
            return list_points(self.army, self.profiles)
        except KeyError:
            return None

    def describe(self) -> str:
        if self.army is None:
            return f"{self.label}: {self.problem}"
        kind = EXAMPLE if self.example else "your list"
        points = self.points()
        spent = f"{points} of {self.army.size} points" if points is not None else (
            f"{self.army.size} points")
        return f"{self.army.name} ({kind}) · {spent}"


def default_dir() -> Path:
    return data_dir() / "kensei"


def _user_profiles(folder: Path, problems: list[str]) -> dict[str, Profile]:
    found: dict[str, Profile] = {}
    for path in sorted((folder / "profiles").glob("*.yaml")):
        try:
            found.update(load_profiles(path.read_text("utf-8"), path.name))
        except (OSError, ValueError) as exc:
            problems.append(str(exc))
    return found


def choices(folder: Path | None = None) -> list[ListChoice]:
    """The bundled example lists, then the user's list files."""
    bundled = bundled_profiles()
    out = [ListChoice(name, bundled_list(name), bundled, example=True)
           for name in bundled_list_names()]
    folder = folder or default_dir()
    problems: list[str] = []
    profiles = {**bundled, **_user_profiles(folder, problems)}
    for path in sorted((folder / "lists").glob("*.yaml")):
        try:
            army = load_list(path.read_text("utf-8"), path.name)
        except (OSError, ValueError) as exc:
            out.append(ListChoice(path.stem, None, problem=str(exc)))
            continue
        out.append(ListChoice(path.stem, army, profiles))
    return out
