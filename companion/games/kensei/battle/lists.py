"""The army-list check a battle begins with (B14), through the list checker of armylist.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.games.kensei.armylist import ArmyList, check_list
from companion.games.kensei.profiles import Profile

ListCheck = Callable[[ArmyList, Mapping[str, Profile]], list[str]]


def refusals(army: ArmyList, profiles: Mapping[str, Profile]) -> list[str]:
    """Every reason ``army`` is not a legal list, each citing its section (B14)."""
    return [f"{r.message} ({r.rule})" for r in check_list(army, profiles)]
