"""The wiring map: which (hub, antenna) watches which location or zone.

A user edits it as YAML::

    hubs:
      hub-1:
        A00: gifu
        A01: kiso
      hub-2:
        A00: ishida_deployment

or builds it with ``companion hardware wiring`` (:class:`WiringBuilder`), which asks for a tagged
piece on each location in turn. Zones are the places of the game being served
(:mod:`firmware_bridge.zones`). A map location is watched by at most one antenna; an off-map
zone (a tray, a box) or a wide zone may span several.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, field_validator

from firmware_bridge.files import load_model, save_yaml
from firmware_bridge.protocol import MAX_ANTENNAS, antenna_name
from firmware_bridge.zones import one_antenna, zone_name, zone_names

_HUB_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_ANTENNA = re.compile(r"A([0-9]{2,3})")


class AntennaKey(NamedTuple):
    """One antenna: the hub's id and the antenna's index on it."""

    hub: str
    antenna: int

    def __str__(self) -> str:
        return f"{self.hub}/{antenna_name(self.antenna)}"


class WiringMap(BaseModel):
    """hub id -> antenna name (``A03``) -> zone id."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hubs: dict[str, dict[str, str]] = {}

    @field_validator("hubs")
    @classmethod
    def _valid(cls, hubs: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        known = zone_names()
        seen: dict[str, str] = {}
        for hub, antennas in hubs.items():
            if _HUB_ID.fullmatch(hub) is None:
                raise ValueError(f"hub id {hub!r} must be 1-32 of A-Z a-z 0-9 _ . -")
            for antenna, zone in antennas.items():
                m = _ANTENNA.fullmatch(antenna)
                if m is None or int(m.group(1)) >= MAX_ANTENNAS:
                    raise ValueError(f"{hub}.{antenna}: antenna must be A00..A127")
                if zone not in known:
                    raise ValueError(f"{hub}.{antenna}: unknown zone {zone!r}")
                here = f"{hub}.{antenna}"
                if one_antenna(zone) and zone in seen:
                    raise ValueError(f"{here}: {zone} is already watched by {seen[zone]}")
                seen[zone] = here
        return hubs

    @classmethod
    def load(cls, path: Path) -> WiringMap:
        return load_model(path, cls)

    def save(self, path: Path) -> None:
        save_yaml(
            path,
            self.model_dump(),
            "Wiring map: hub id -> antenna -> location or zone (see docs/bridge.md).",
        )

    def table(self) -> dict[AntennaKey, str]:
        """(hub, antenna index) -> zone."""
        return {
            AntennaKey(hub, int(antenna[1:])): zone
            for hub, antennas in self.hubs.items()
            for antenna, zone in antennas.items()
        }

    def antennas_of(self, zone: str) -> list[AntennaKey]:
        return [key for key, z in self.table().items() if z == zone]

    def with_antenna(self, key: AntennaKey, zone: str) -> WiringMap:
        hubs = {hub: dict(antennas) for hub, antennas in self.hubs.items()}
        hubs.setdefault(key.hub, {})[antenna_name(key.antenna)] = zone
        return WiringMap(hubs=hubs)

    def unmapped_zones(self) -> list[str]:
        mapped = set(self.table().values())
        return [z for z in zone_names() if z not in mapped]


@dataclass
class WiringBuilder:
    """Builds a wiring map one zone at a time from what the antennas see.

    For each zone in turn, the user puts one tagged block on it; as soon as exactly one antenna
    not yet in the map sees a tag, that antenna is wired to the zone. The user then lifts the
    block and the builder moves on once that antenna is empty again. Other antennas must stay
    empty meanwhile (the builder says so when two see tags).
    """

    zones: list[str]
    wiring: WiringMap = field(default_factory=WiringMap)
    index: int = 0
    waiting_for_lift: AntennaKey | None = None

    @property
    def done(self) -> bool:
        return self.index >= len(self.zones) and self.waiting_for_lift is None

    def prompt(self) -> str:
        if self.waiting_for_lift is not None:
            return f"lift the block off {zone_name(self.wiring.table()[self.waiting_for_lift])}"
        if self.done:
            return "every zone is wired"
        return f"put one tagged block on {zone_name(self.zones[self.index])}"

    def skip(self) -> None:
        if self.waiting_for_lift is None and not self.done:
            self.index += 1

    def observe(self, seen: Mapping[AntennaKey, Iterable[str]]) -> str | None:
        """Feed what every antenna sees now; returns a message when something happened."""
        occupied = {key for key, uids in seen.items() if any(True for _ in uids)}
        if self.waiting_for_lift is not None:
            if self.waiting_for_lift not in occupied:
                self.waiting_for_lift = None
                return self.prompt()
            return None
        if self.done:
            return None
        table = self.wiring.table()
        candidates = sorted(occupied - table.keys())
        if len(candidates) > 1:
            names = ", ".join(str(c) for c in candidates)
            return f"several unwired antennas see tags ({names}): leave only one block out"
        if not candidates:
            return None
        key, zone = candidates[0], self.zones[self.index]
        self.wiring = self.wiring.with_antenna(key, zone)
        self.index += 1
        self.waiting_for_lift = key
        return f"{zone_name(zone)} is {key}; {self.prompt()}"
