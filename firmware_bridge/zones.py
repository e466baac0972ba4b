"""Every place a block can be seen: the map's locations, its off-map boxes, and the trays and pads
the board data does not print (each side's deployment tray, the casualty tray, the card pads, the
registration antenna). Zone ids are plain strings; player-facing text uses :func:`zone_name`.
"""

from __future__ import annotations

from functools import cache

from companion.games.sekigahara.components import Board, Side, default_board

REGISTRATION = "registration"
CASUALTIES = "casualties"


def deployment_tray(side: Side) -> str:
    """The tray where a side's blocks revealed in battle are set out."""
    return f"{side.value}_deployment"


def bag(side: Side) -> str:
    """A side's bag. No antenna watches it: a block the rules put there is not reported missing,
    and one seen on a zone is a draw for the rules to judge (5.2.2, 6.2)."""
    return f"{side.value}_bag"


BAG_NAMES: dict[str, str] = {bag(s): f"{s.value.capitalize()}'s bag" for s in Side}


def is_bag(zone: str) -> bool:
    return zone in BAG_NAMES


def card_pad(side: Side) -> str:
    return f"{side.value}_cards"


def side_colour(side: Side) -> str:
    """How players name a side without naming a block: Ishida's blocks are gold, Tokugawa's
    black."""
    return "gold" if side is Side.ISHIDA else "black"


OFF_MAP_ZONES: dict[str, str] = {
    deployment_tray(Side.ISHIDA): "Ishida's deployment tray",
    deployment_tray(Side.TOKUGAWA): "Tokugawa's deployment tray",
    CASUALTIES: "the casualty tray",
    card_pad(Side.ISHIDA): "Ishida's card pad",
    card_pad(Side.TOKUGAWA): "Tokugawa's card pad",
    REGISTRATION: "the registration antenna",
}


def _zone_names(board: Board) -> dict[str, str]:
    names = {loc.id: loc.name for loc in board.locations.values()}
    names.update({box.id: box.name for box in board.boxes.values()})
    names.update(OFF_MAP_ZONES)
    return names


@cache
def _default_zone_names() -> dict[str, str]:
    return _zone_names(default_board())


def zone_names(board: Board | None = None) -> dict[str, str]:
    """Zone id -> the name players read, for every zone an antenna may watch."""
    return _default_zone_names() if board is None else _zone_names(board)


def zone_name(zone: str, board: Board | None = None) -> str:
    return zone_names(board).get(zone) or BAG_NAMES.get(zone, zone)


def is_board_location(zone: str, board: Board | None = None) -> bool:
    return zone in (board or default_board()).locations
