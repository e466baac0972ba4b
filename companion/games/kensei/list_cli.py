"""``companion kensei list FILE [--profiles FILE]`` and ``companion kensei profiles [FILE]``:
an army list's points and every restriction it breaks (B14), and the profiles a list can use
(docs/kensei.md, "Profiles and army lists").

Both print one JSON object, as the calculators do: exit status 0, or 2 with
``{"error": {"rule": null, "message": ...}}`` for a file that cannot be used; ``list`` also
exits 2 for a list the rulebook refuses, with every refusal in ``refusals``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.core.inputs import InputError, read_text
from companion.games.kensei.armylist import (
    CLAN_NAME,
    COMMANDER_COST,
    COMMANDER_NAME,
    ArmyList,
    check_list,
    list_points,
    load_list,
    starting_points,
)
from companion.games.kensei.profiles import (
    EXAMPLE_NOTE,
    Profile,
    bundled_profiles,
    load_profiles,
)

EXIT_OK = 0
EXIT_ERROR = 2


def _print(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _error(message: str) -> int:
    _print({"error": {"rule": None, "message": message}})
    return EXIT_ERROR


def _profiles(source: str | None) -> dict[str, Profile]:
    if source is None:
        return bundled_profiles()
    name = "standard input" if source == "-" else source
    return load_profiles(read_text(source), name)


def profile_json(profile: Profile) -> dict[str, Any]:
    """A profile as printed: its fields, and for an example, the note that it is one."""
    shown = profile.model_dump(mode="json", by_alias=True)
    if profile.example:
        shown = {"note": EXAMPLE_NOTE, **shown}
    return shown


def list_json(army: ArmyList, profiles: dict[str, Profile]) -> dict[str, Any]:
    """A list as printed: its troops with their points, its total and every refusal."""
    points = starting_points(army, profiles)
    troops: list[dict[str, Any]] = []
    for n, entry in enumerate(army.entries, 1):
        profile = profiles.get(entry.profile)
        troop: dict[str, Any] = {"entry": n, "profile": entry.profile,
                                 "name": profile.name if profile else None,
                                 "models": entry.models, "points": points[n]}
        if profile is not None and profile.example:
            troop["note"] = EXAMPLE_NOTE
        troop.update({k: v for k, v in (("general", entry.general), ("banner", entry.banner),
                                        ("joins", entry.joins)) if v})
        troops.append(troop)
    refusals = check_list(army, profiles)
    return {
        "list": army.name, "clan": CLAN_NAME[army.clan], "size": army.size,
        "commander": {"level": COMMANDER_NAME[army.commander_level],
                      "points": COMMANDER_COST[army.commander_level]},
        "troops": troops, "points": list_points(army, profiles), "legal": not refusals,
        "refusals": [r.model_dump() for r in refusals],
    }


def _run_list(args: argparse.Namespace) -> int:
    try:
        profiles = _profiles(args.profiles)
        name = "standard input" if args.file == "-" else args.file
        army = load_list(read_text(args.file), name)
    except InputError as exc:
        return _error(exc.message)
    payload = list_json(army, profiles)
    _print(payload)
    return EXIT_OK if payload["legal"] else EXIT_ERROR


def _run_profiles(args: argparse.Namespace) -> int:
    try:
        profiles = _profiles(args.file)
    except InputError as exc:
        return _error(exc.message)
    _print({"profiles": [profile_json(p) for p in profiles.values()]})
    return EXIT_OK


def register(inner: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``kensei list`` and ``kensei profiles`` to the ``kensei`` command."""
    sub = inner.add_parser(
        "list", help="an army list: its points and every restriction it breaks (B14)",
        description="Kensei: check an army list (YAML) against the rulebook's army building "
        "(B14). Prints one JSON object; exit status 2 for a list the rules refuse or a file "
        "that cannot be read.")
    sub.add_argument("file", metavar="FILE", help="the army list as YAML, or - for stdin")
    sub.add_argument("--profiles", metavar="FILE", default=None,
                     help="the profiles the list uses (YAML); the bundled examples without it")
    sub.set_defaults(handler=_run_list)
    sub = inner.add_parser(
        "profiles", help="the troop profiles of a file, or the bundled examples",
        description="Kensei: print the troop profiles of FILE (YAML), or without FILE the "
        "bundled example profiles, which are not from the book.")
    sub.add_argument("file", metavar="FILE", nargs="?", default=None,
                     help="a profile file as YAML, or - for stdin")
    sub.set_defaults(handler=_run_profiles)
