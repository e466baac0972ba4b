"""Two small 200-pe armies made up for the examples, self-play and tests: every profile is
the class defaults of B2.4 with made-up equipment and costs (``example: true``), nothing
official (B19.1)."""

from __future__ import annotations

from typing import Any

from companion.games.kensei.armylist import ArmyList, ListEntry
from companion.games.kensei.battle.commands import Army
from companion.games.kensei.profiles import Profile

CLASS_DEFAULTS: dict[str, dict[str, int]] = {
    "H": {"mov": 10, "at": 4, "at_ranged": 3, "ini": 3, "ho": 5, "hr": 3},
    "E": {"mov": 10, "at": 3, "at_ranged": 3, "ini": 2, "ho": 4, "hr": 2},
    "G": {"mov": 10, "at": 2, "at_ranged": 2, "ini": 1, "ho": 3, "hr": 1},
}
"""B2.4's attributes by class (foot MOV)."""


def example_profile(id: str, name: str, clan: str, cls: str, cost: int,
                    **fields: Any) -> Profile:
    data: dict[str, Any] = {
        "id": id, "name": name, "clan": clan, "class": cls, **CLASS_DEFAULTS[cls],
        "troop_type": "infantry", "cost": cost, "example": True,
        "source": "class defaults, B2.4; equipment and cost made up", **fields}
    return Profile.model_validate(data)


def kuge() -> Army:
    profiles = [
        example_profile("kuge-hero", "Kuge Hero", "kuge", "H", 20, weapon=2, leader=True,
                        availability="unique", armour="samurai", trait="samurai"),
        example_profile("yari-ashigaru", "Yari Ashigaru", "common", "G", 5, weapon=1,
                        trait="ashigaru"),
        example_profile("teppo-ashigaru", "Teppo Ashigaru", "common", "G", 10, weapon=0,
                        ranged="teppo", trait="ashigaru"),
        example_profile("kuge-samurai", "Kuge Samurai", "kuge", "E", 10, weapon=3,
                        armour="samurai", trait="samurai"),
    ]
    entries = (ListEntry(profile="kuge-hero", models=1, general=True, joins=2),
               ListEntry(profile="yari-ashigaru", models=10),
               ListEntry(profile="teppo-ashigaru", models=5),
               ListEntry(profile="kuge-samurai", models=5))
    return Army(list=ArmyList(name="Ana's Kuge", clan="kuge", commander_level="hatamoto",
                              size=200, entries=entries),
                profiles={p.id: p for p in profiles})


def buke() -> Army:
    profiles = [
        example_profile("buke-taisho", "Buke Taisho", "buke", "H", 20, weapon=3,
                        leader=True, availability="unique", armour="samurai",
                        trait="samurai"),
        example_profile("yari-ashigaru", "Yari Ashigaru", "common", "G", 5, weapon=1,
                        trait="ashigaru"),
        example_profile("yumi-samurai", "Yumi Samurai", "buke", "E", 15, weapon=3,
                        ranged="yumi", armour="samurai", trait="samurai"),
        example_profile("spear-samurai", "Samurai with Spear", "buke", "G", 5, weapon=1,
                        trait="samurai"),
    ]
    entries = (ListEntry(profile="buke-taisho", models=1, general=True),
               ListEntry(profile="yari-ashigaru", models=9, banner=True),
               ListEntry(profile="yumi-samurai", models=4),
               ListEntry(profile="spear-samurai", models=5))
    return Army(list=ArmyList(name="Ben's Buke", clan="buke", commander_level="taisho",
                              size=200, entries=entries),
                profiles={p.id: p for p in profiles})


def kuroi_te() -> Army:
    """A Kuroi-te army, whose commander may keep one unit hidden in the reserve (B12)."""
    profiles = [
        example_profile("kuroi-taisho", "Kuroi-te Taisho", "kuroi-te", "H", 20, weapon=3,
                        leader=True, availability="unique", trait="undead"),
        example_profile("undead-ashigaru", "Undead Ashigaru", "kuroi-te", "G", 5, weapon=1,
                        trait="undead"),
        example_profile("yurei", "Yurei", "kuroi-te", "E", 10, weapon=2, trait="spirit"),
    ]
    entries = (ListEntry(profile="kuroi-taisho", models=1, general=True),
               ListEntry(profile="undead-ashigaru", models=10),
               ListEntry(profile="yurei", models=5))
    return Army(list=ArmyList(name="Kei's Kuroi-te", clan="kuroi-te",
                              commander_level="hatamoto", size=200, entries=entries),
                profiles={p.id: p for p in profiles})
