"""The cross-talk matrix (``companion hardware crosstalk``): zones x neighbours, collisions.

Each row is an antenna the scan schedule's geometry gives neighbours (or one that reported
collisions with none known); each entry one of its neighbours, its gap and the collisions the
row's antenna reported (``FAULT RF_COLLISION``: a neighbour's field kept its own off for a
second) during the check. A hub reports collisions per antenna, not per culprit, so the count
stands against every neighbour **on another hub** that could have caused it; a neighbour on
the same hub shows ``-`` (a hub drives one antenna at a time: they are never on together).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from firmware_bridge.bridge import Bridge
from firmware_bridge.wiring import AntennaKey


@dataclass(frozen=True, slots=True)
class Entry:
    """One cell: ``antenna`` (reading ``zone``) next to ``neighbour`` (reading its zone)."""

    zone: str
    antenna: str
    neighbour_zone: str
    neighbour: str
    gap_mm: float | None
    across_hubs: bool
    collisions: int | None
    """The row antenna's collision reports; None where the neighbour cannot be the cause."""


def crosstalk_matrix(bridge: Bridge) -> list[Entry]:
    """Every neighbour pair of the schedule, both ways, with the row antenna's collisions."""
    table = bridge.wiring.table()
    schedule = bridge.schedule()
    counts = {AntennaKey(h.hub_id, a): s.rf_collisions
              for h in bridge.hubs().values() for a, s in h.antennas.items()}
    rows: list[Entry] = []
    keys = sorted(set(schedule.slots) if schedule is not None else set())
    for key in keys:
        for near, gap in schedule.neighbours_of(key) if schedule is not None else []:
            across = near.hub != key.hub
            rows.append(Entry(table.get(key, "?"), str(key), table.get(near, "?"), str(near),
                              gap, across, counts.get(key, 0) if across else None))
    listed = {row.antenna for row in rows}
    for key, n in sorted(counts.items()):
        if n and str(key) not in listed:
            rows.append(Entry(table.get(key, "?"), str(key), "?", "?", None, True, n))
    return rows


def format_matrix(rows: list[Entry], seconds: float, only_colliding: bool = True) -> list[str]:
    """The matrix as text: a line per zone, its neighbours and counts across."""
    by_antenna: dict[str, list[Entry]] = {}
    for row in rows:
        by_antenna.setdefault(row.antenna, []).append(row)
    shown = {a: r for a, r in by_antenna.items()
             if not only_colliding or any(e.collisions for e in r)}
    total = sum(max((e.collisions or 0) for e in r) for r in by_antenna.values())
    lines = [f"cross-talk matrix: {len(by_antenna)} antennas with neighbours, "
             f"{sum(1 for r in by_antenna.values() if any(e.collisions for e in r))} collided "
             f"({total} FAULT RF_COLLISION reports in {seconds:g} s; a count stands against "
             "every neighbour on another hub, '-' = same hub, never on together)"]
    for antenna, entries in shown.items():
        cells = "  ".join(
            f"{e.neighbour_zone} ({e.neighbour}"
            + (f", {e.gap_mm:.0f} mm" if e.gap_mm is not None else "") + ") "
            + ("-" if e.collisions is None else str(e.collisions)) for e in entries)
        lines.append(f"{entries[0].zone} ({antenna}): {cells}")
    if only_colliding and not shown:
        lines.append("no collisions (--all lists every zone and its neighbours)")
    return lines


def as_json(rows: list[Entry], seconds: float) -> dict[str, object]:
    """The matrix for ``--json``: every cell, and the listening time."""
    return {"seconds": seconds, "source": "FAULT RF_COLLISION reports",
            "cells": [asdict(row) for row in rows]}
