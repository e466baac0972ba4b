"""The zones of the table as the bridge names them, and the words players read for them.

Board location ids, ``mori_box``, ``<side>_recruitment``, ``<side>_deployment`` (8.2.3), the
casualty tray ``casualties`` (7.4, 8.7.2), ``<side>_bag`` (5.2.2, 6.2) and the game box ``box``
(5.2.1); with the few word helpers every Sekigahara screen shares (one spelling per name:
"Mōri", as the rulebook and the board print it).
"""

from __future__ import annotations

from companion.games.sekigahara.components import Clan, Side
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.state import MORI_BOX, RECRUITMENT
from companion.games.sekigahara.table import GAME_BOX

CASUALTIES = "casualties"
MORI_ZONE = "mori_box"


def bag_zone(side: Side) -> str:
    """A side's bag: no antenna watches it (5.2.2, 6.2)."""
    return f"{side.value}_bag"


def recruitment_zone(side: Side) -> str:
    """A side's Recruitment Box (7.2), as the board data names it."""
    return f"{side.value}_recruitment"


def deployment_zone(side: Side) -> str:
    """The tray where a side's blocks deployed in the battle stand revealed (8.2.3)."""
    return f"{side.value}_deployment"


def side_zone(zone: str, kind: str) -> Side | None:
    return next((s for s in Side if zone == f"{s.value}_{kind}"), None)


def zone_label(zone: str) -> str:
    """The name players read for a zone."""
    if zone in BOARD.locations:
        return BOARD.locations[zone].name
    if zone in BOARD.boxes:
        return BOARD.boxes[zone].name
    if zone == CASUALTIES:
        return "the casualty tray"
    if zone == GAME_BOX:
        return "the game box"
    for kind, what in (("deployment", "deployment tray"), ("bag", "bag")):
        side = side_zone(zone, kind)
        if side is not None:
            return f"{side.value.capitalize()}'s {what}"
    return zone


def where_words(zone: str) -> str:
    """ "on Osaka", "in the Mōri box", "on the casualty tray": a zone after a verb."""
    label = zone_label(zone)
    if zone in BOARD.boxes:
        return f"in the {label}"
    if side_zone(zone, "bag") is not None or zone == GAME_BOX:
        return f"in {label}"
    return f"on {label}"


def clan_name(clan: Clan | str) -> str:
    """A clan as the rulebook and the board print it: "Mōri", "Ukita"."""
    value = clan.value if isinstance(clan, Clan) else clan
    return "Mōri" if value == Clan.MORI.value else value.capitalize()


def count_words(n: int, what: str = "block") -> str:
    """ "1 block", "3 blocks": never "block(s)"."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def engine_zone(zone: str) -> str:
    if zone == MORI_ZONE:
        return MORI_BOX
    if side_zone(zone, "recruitment") is not None:
        return RECRUITMENT
    return zone
