"""Plain words for Tenka Meidou's ids: colours, zones, cards; and engine text made readable."""

from __future__ import annotations

import re
from functools import cache

from companion.games.tenka_meidou.components import (
    Colour,
    Daimyo,
    Tactic,
    default_board,
    default_components,
)
from companion.games.tenka_meidou.state import PawnMove
from ui.shell import theme as th

COLOUR_NAME = {Colour.RED: "Red", Colour.BLUE: "Blue", Colour.YELLOW: "Yellow",
               Colour.BLACK: "Black"}
PAWN_FILL: dict[Colour, th.Colour] = {
    Colour.RED: (200, 62, 52), Colour.BLUE: (64, 118, 214), Colour.YELLOW: (226, 196, 64),
    Colour.BLACK: (24, 24, 26)}
"""The pawns' own colours."""
TEXT_COLOUR: dict[Colour, th.Colour] = {
    Colour.RED: (236, 110, 96), Colour.BLUE: (120, 164, 240), Colour.YELLOW: (236, 210, 96),
    Colour.BLACK: (196, 196, 190)}
"""A colour's text on the dark screen (black pawns' text is drawn light grey)."""
SUFFIXES = ("-jō", "-yakata", "-date")
SMALLEST = th.MIN_TEXT
"""No string on a player screen is drawn in a smaller font (lines 14 px high): readable at arm's
length on the 7" panel."""


def colour_name(colour: Colour | str) -> str:
    return COLOUR_NAME[Colour(colour)]


@cache
def zone_names() -> dict[str, str]:
    return {z.id: z.name for z in default_board().zones}


def zone_name(zone: str) -> str:
    return zone_names().get(zone, zone)


def short_zone(zone: str) -> str:
    """``Yoshida-Kōriyama`` for ``Yoshida-Kōriyama-jō``, ``Kyoto`` for ``Kyō (Kyoto)``."""
    name = zone_name(zone)
    if "(" in name:
        return name[name.index("(") + 1:name.index(")")]
    for suffix in SUFFIXES:
        name = name.removesuffix(suffix)
    return name


@cache
def _card_names() -> dict[str, str]:
    c = default_components()
    names = {card.id: card.en for card in (*c.tactic_cards, *c.daimyo_cards)}
    return names


def card_name(card: Tactic | Daimyo | str) -> str:
    return _card_names().get(str(card), str(card))


@cache
def _ids() -> re.Pattern[str]:
    words = sorted({*zone_names(), *_card_names()}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")


def readable(text: str) -> str:
    """Engine text with zone and card ids as their names."""
    def name(match: re.Match[str]) -> str:
        word = match.group(1)
        return short_zone(word) if word in zone_names() else card_name(word)
    return _ids().sub(name, text)


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised."""
    return text[:1].upper() + text[1:]


_COLOURS = re.compile(r"\b(red|blue|yellow|black)\b")
_PLURAL = re.compile(r"\b(\d+) ([A-Za-z]+)\(s\)")


def words(text: str) -> str:
    """Engine and table-session text as the players read it: zones and cards by name
    ("Kyō (Kyoto)" and ``kyoto`` -> "Kyoto"), colours as names ("red's" -> "Red's"), no "(s)"
    plurals."""
    for zone in sorted(zone_names(), key=lambda z: -len(zone_names()[z])):
        text = text.replace(zone_names()[zone], short_zone(zone))
    text = _COLOURS.sub(lambda m: colour_name(m.group(1)), readable(text))
    return _PLURAL.sub(lambda m: f"{m.group(1)} {m.group(2)}{'' if m.group(1) == '1' else 's'}",
                       text)


def describe_move(m: PawnMove) -> str:
    what = "Daimyo" if m.pawn == "daimyo" else f"{m.count} soldier{'s' if m.count > 1 else ''}"
    origin = "the reserve" if m.origin == "reserve" else short_zone(m.origin)
    to = "the reserve" if m.destination == "reserve" else short_zone(m.destination)
    return f"{colour_name(m.colour)} {what} from {origin} to {to}"


CARD_TEXT = {
    "explorar": "Move 1 of your soldiers to an adjacent zone.",
    "cruzar_montana": "Move 2 of your soldiers from one zone to a zone it borders by land.",
    "cruzar_mar": "Move 2 of your soldiers from one zone to a zone joined to it by sea.",
    "dividir_ejercito": "Move half (rounded down) of your soldiers in a zone holding 2 or more "
                        "to an adjacent zone.",
    "ninja": "Move 1 of your soldiers to any zone where you have soldiers.",
    "ocupar_kioto": "Move any of your soldiers in zones next to Kyoto into Kyoto.",
    "apoyo": "Place 1 soldier from your reserve where you have soldiers.",
    "rebelion": "Send 1 rival soldier home and put 1 of yours in its place.",
    "exilio": "Move 1 rival soldier out of a zone where you have soldiers to an adjacent zone.",
    "prisionero": "Move 1 rival soldier into an adjacent zone where you have soldiers.",
    "senuelo": "Move 1 of yours and 2 of one rival, from one zone, together to an adjacent zone.",
    "retirada": "Take 2 of your soldiers, from one zone or two, back to your reserve.",
    "uesugi_kenshin": "Move up to 3 of your soldiers from your Daimyo's zone across land.",
    "oda_nobunaga": "Move your Daimyo to an adjacent zone, with 1 of your soldiers if you like.",
    "takeda_shingen": "Move up to 3 soldiers of one rival from your Daimyo's zone to adjacent "
                      "zones.",
    "mori_motonari": "Place 1 soldier from your reserve in each of up to 3 zones next to your "
                     "Daimyo.",
    "chosokabe_motochika": "Move up to 3 of your pawns from your Daimyo's zone across the sea.",
    "otomo_sorin": "In up to 2 zones next to your Daimyo, replace 1 rival soldier with 1 of "
                   "yours from your reserve.",
}
"""Each card's effect in a line (the project's words; the printed card is the authority)."""
