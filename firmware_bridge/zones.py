"""The places the readers watch, for the game being served.

The bridge knows no game: places come from a :class:`~companion.core.table.GameTable` found in
the core's registry. One game is served per process: :func:`active_table` (Sekigahara unless
:func:`use_table` chose another, e.g. ``companion hardware --game tenka-meidou``). Every function
here takes an explicit ``table`` too. Zone ids are plain strings; player-facing text uses
:func:`zone_name`.
"""

from __future__ import annotations

from companion.core.table import DEFAULT_GAME, REGISTRATION, GameTable, PlaceKind, game_table

__all__ = ["REGISTRATION", "active_table", "is_board_location", "is_unwatched", "one_antenna",
           "use_table",
           "zone_name", "zone_names"]

_active: list[GameTable] = []


def use_table(table: GameTable | str) -> GameTable:
    """Serve ``table`` (or the game of that name) from now on in this process."""
    chosen = game_table(table) if isinstance(table, str) else table
    _active[:] = [chosen]
    return chosen


def active_table() -> GameTable:
    """The game being served: Sekigahara unless :func:`use_table` chose another."""
    return _active[0] if _active else game_table(DEFAULT_GAME)


def zone_names(table: GameTable | None = None) -> dict[str, str]:
    """Zone id -> the name players read, for every zone an antenna may watch."""
    places = (table or active_table()).places()
    return {p.id: p.label for p in places.values() if p.watched}


def zone_name(zone: str, table: GameTable | None = None) -> str:
    place = (table or active_table()).places().get(zone)
    return zone if place is None else place.label


def is_board_location(zone: str, table: GameTable | None = None) -> bool:
    """A place on the map itself (not a tray, box or pad)."""
    place = (table or active_table()).places().get(zone)
    return place is not None and place.kind is PlaceKind.LOCATION


def one_antenna(zone: str, table: GameTable | None = None) -> bool:
    """At most one antenna may watch ``zone`` (a map location that is not wide)."""
    place = (table or active_table()).places().get(zone)
    return place is not None and place.one_antenna


def is_unwatched(zone: str, table: GameTable | None = None) -> bool:
    """No antenna watches ``zone`` (a bag): pieces there are never reported missing."""
    place = (table or active_table()).places().get(zone)
    return place is not None and not place.watched
