"""The zones of Sekigahara's table as the reader bridge names them, and the words players read
for them: the one place a zone id or a zone's name is defined.

Board location ids and box ids (``mori_box``, ``<side>_recruitment``, 7.2, 9.3), each side's
deployment tray ``<side>_deployment`` (8.2.3), the casualty tray ``casualties`` (7.4, 8.7.2), the
card pads ``<side>_cards`` and the registration antenna; unwatched: each side's bag
``<side>_bag`` (5.2.2, 6.2) and the game box ``box`` (5.2.1). With the few word helpers every
Sekigahara screen shares (one spelling per name: "Mōri", as the rulebook and the board print it).

Only the printed components are read here (never the engine), so the bridge's table, the
engine's session rules and the screens all name zones from this one module.
"""

from __future__ import annotations

from functools import cache

from companion.core.table import REGISTRATION
from companion.games.sekigahara.components import Board, Clan, Side, default_board

CASUALTIES = "casualties"
GAME_BOX = "box"
"""The game box: blocks not yet on the table (set-up, 5.2.1). No antenna watches it."""
MORI_ZONE = "mori_box"


def bag_zone(side: Side) -> str:
    """A side's bag. No antenna watches it: a block the rules put there is not reported missing,
    and one seen on a zone is a draw for the rules to judge (5.2.2, 6.2)."""
    return f"{side.value}_bag"


def recruitment_zone(side: Side) -> str:
    """A side's Recruitment Box (7.2), as the board data names it."""
    return f"{side.value}_recruitment"


def deployment_zone(side: Side) -> str:
    """The tray where a side's blocks deployed in the battle stand revealed (8.2.3)."""
    return f"{side.value}_deployment"


def card_pad_zone(side: Side) -> str:
    """The pad a side's played cards are read on."""
    return f"{side.value}_cards"


def side_zone(zone: str, kind: str) -> Side | None:
    """The side whose ``kind`` zone (``bag``, ``deployment``, ``recruitment``) ``zone`` is."""
    return next((s for s in Side if zone == f"{s.value}_{kind}"), None)


def is_bag(zone: str) -> bool:
    return zone in BAG_NAMES


BAG_NAMES: dict[str, str] = {bag_zone(s): f"{s.value.capitalize()}'s bag" for s in Side}
UNWATCHED_NAMES: dict[str, str] = {**BAG_NAMES, GAME_BOX: "the game box"}
"""The zones no antenna watches, by name."""

OFF_MAP_ZONES: dict[str, str] = {
    deployment_zone(Side.ISHIDA): "Ishida's deployment tray",
    deployment_zone(Side.TOKUGAWA): "Tokugawa's deployment tray",
    CASUALTIES: "the casualty tray",
    card_pad_zone(Side.ISHIDA): "Ishida's card pad",
    card_pad_zone(Side.TOKUGAWA): "Tokugawa's card pad",
    REGISTRATION: "the registration antenna",
}
"""The watched zones the board data does not print, by name."""


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
    """The name players read for any zone, watched or not ("Osaka", "Ishida's bag")."""
    return zone_names(board).get(zone) or UNWATCHED_NAMES.get(zone, zone)


def where_words(zone: str) -> str:
    """ "on Osaka", "in the Mōri box", "on the casualty tray": a zone after a verb."""
    label = zone_name(zone)
    if zone in default_board().boxes:
        return f"in the {label}"
    if zone in UNWATCHED_NAMES:
        return f"in {label}"
    return f"on {label}"


def side_name(side: Side) -> str:
    """A side as players name it: "Ishida", "Tokugawa"."""
    return side.value.capitalize()


def side_colour(side: Side) -> str:
    """How players name a side without naming a block: Ishida's blocks are gold, Tokugawa's
    black (3.1)."""
    return "gold" if side is Side.ISHIDA else "black"


def clan_name(clan: Clan | str) -> str:
    """A clan as the rulebook and the board print it: "Mōri", "Ukita"."""
    value = clan.value if isinstance(clan, Clan) else clan
    return "Mōri" if value == Clan.MORI.value else value.capitalize()


def count_words(n: int, what: str = "block") -> str:
    """ "1 block", "3 blocks": never "block(s)"."""
    return f"{n} {what}{'' if n == 1 else 's'}"
