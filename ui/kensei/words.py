"""Plain words for the Kensei calculators' keys and ids: the game's own words on every button,
the itemised modifiers with their Spanish headings, refusals without key paths."""

from __future__ import annotations

import re
from functools import cache

from companion.games.kensei.rules import Modifier, rules

CLASSES = {"H": "Hero", "E": "Elite", "G": "Warrior", "A": "Villager"}
"""The attribute table's classes (B2.4)."""

WEAPONS = {
    0: "Type 0: basic (farm tools, bo, tanto)",
    1: "Type 1: long haft (yari)",
    2: "Type 2: long blade (naginata)",
    3: "Type 3: katana",
    4: "Type 4: swords (wakizashi)",
    5: "Type 5: blunt (kanabo)",
    6: "Type 6: long weapons (no-dachi)",
    7: "Type 7: short weapons (jitte, sai)",
}
"""The melee weapon types of ARMAS DE COMBATE CUERPO A CUERPO (B8)."""

RANGED = {
    "cerbatana": "Cerbatana (short)", "shuriken": "Shuriken (short)",
    "granada": "Granada (short)", "ishitsubute": "Ishitsubute (short)",
    "ozutsu": "Ozutsu (medium, gunpowder)", "bo-hiya": "Bo-hiya (medium, gunpowder)",
    "arcabuz": "Arcabuz (medium, gunpowder)", "teppo": "Teppo (long, gunpowder)",
    "yumi": "Yumi (long)", "mosquete": "Mosquete (long, gunpowder)",
}
"""The ranged weapons of ARMAS DE DISPARO (B8), with their reach."""

ORDERS = {"charge": "Charge", "fight": "Fight", "fight_reaction": "Fight (reaction)"}
ATTACKS = {"front": "front", "flank": "flank", "rear": "rear"}
CONTACT = {"direct": "direct contact", "support": "in support", "none": "not in contact"}
TRAITS = {None: "none", "samurai": "Samurai", "ashigaru": "Ashigaru", "undead": "Undead",
          "spirit": "Spirit", "villager": "Villager"}
SAMURAI_CHOICE = {None: "not chosen", "stay": "stay", "fall_back": "fall back"}
OUTCOMES = {"passed": "passes", "hold": "holds, one more wound",
            "stay": "stays, one more wound", "fall_back": "falls back",
            "retreat": "retreats", "extra_wound": "takes a wound"}
MARKERS = {"used": "Used", "retreat": "Retreat", "dishonoured": "Dishonoured"}

KEYS = {
    "a": "Side A", "b": "Side B", "class": "class", "at": "AT", "ho": "HO", "hr": "HR",
    "models": "models", "single": "single troop", "mounted": "mounted",
    "armour": "Samurai armour", "skirmishers": "skirmishers", "trait": "trait",
    "weapon": "weapon", "models_in_melee": "models in melee", "leader": "leader",
    "ranks": "ranks", "rear_ranks_in_melee": "rear ranks in melee", "order": "order",
    "charge_outside_zoc": "charge from outside the zone of control",
    "out_of_formation": "out of formation", "out_of_coherence": "out of coherence",
    "used": "Used", "retreat_marker": "Retreat marker", "parapeted": "Parapeted",
    "potenciar": "Potenciar", "banner_in_front": "banner in front", "in_cover": "in cover",
    "shooting_unit": "shooting unit", "several_enemies_in_contact": "several enemies in contact",
    "attacks": "attacks", "stunned": "Stunned markers", "wound_markers": "wound markers",
    "crits_to_leader": "criticals on the leader", "dice": "dice", "combat": "combat",
    "wound": "wound", "protect": "protect", "honour": "honour", "shoot": "shooting",
    "contact": "contact", "in_front": "in front", "wounds": "wounds", "adjacent":
    "models beside him", "general": "the general", "dishonoured": "Dishonoured",
    "general_dead": "general dead", "general_in_range": "general near",
    "hold": "hold", "samurai_choice": "samurai choice", "ranks_after": "ranks after",
    "turn_initiative": "turn initiative", "shooter": "shooter", "target": "target",
    "distance_cm": "distance", "models_with_los": "models that see the target",
    "los": "sees the target", "visible": "visible models", "affected": "can be hit",
    "ran": "ran this turn", "in_melee": "in melee", "charged": "charged",
    "unloaded": "unloaded", "in_melee_with_friend": "in melee with a friend",
    "initiative": "initiative", "caller": "caller", "bids": "bids",
    "battle_points": "battle size", "duel_this_pair": "a duel already this pair",
}
"""Every key of the calculator inputs, as a player says it."""

READINGS = {
    1: "a mounted charge adds two dice (the table is the detailed rule)",
    2: "a long-range weapon loses a die at short and at long distance",
    3: "Stunned markers from an earlier combat this turn count",
    4: "a samurai failing honour stays or falls back, whatever the ranks",
    5: "a mounted samurai falls back 2D6",
    6: "the charged shooting unit takes the -1 on its own roll",
    7: "a pool below 0 rolls one die, a success only on a 6",
    8: "the undead trait's damage roll is the wound roll",
    9: "Potenciar with a Combatir reaction is not allowed",
    10: "the villagers' margin is the loser's loss count less the winner's",
    11: "skirmishers have no flank; a single model's rear can be attacked",
    12: "the leader in direct contact adds his AT, in support one die",
    13: "the shooting leader adds his dice when he sees the target",
    14: "the last model's honour -1 counts this combat's casualties",
    15: "cover and a parapet together are one -1",
    16: "a general killed in this combat allows no re-roll",
    17: "between two single models the one with more wounds loses",
    18: "the leader is not counted for the half-unit honour roll",
    19: "shooting wounds beyond the visible models are lost",
    20: "a unit whose leader lives has no last model",
}
"""The companion's readings of ambiguous rules (docs/kensei.md, "Readings"): ours, not the
publisher's."""


def side_name(side: str, names: dict[str, str] | None = None) -> str:
    return (names or {}).get(side) or KEYS.get(side, side)


def key_words(key: str) -> str:
    return KEYS.get(key, key.replace("_", " "))


def path_words(path: str, names: dict[str, str] | None = None) -> str:
    """``a.leader.wounds`` as "Side A, leader, wounds"; a die's index as "die 3"."""
    parts: list[str] = []
    for part in path.split("."):
        if part.isdigit():
            parts.append(f"die {int(part) + 1}")
        elif part in ("a", "b"):
            parts.append(side_name(part, names))
        else:
            parts.append(key_words(part))
    return ", ".join(parts)


_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def plain(message: str, names: dict[str, str] | None = None) -> str:
    """A calculator's refusal in plain words: the key path before the first colon said as the
    form says it, and any key named in the sentence too."""
    where, colon, said = message.partition(": ")
    if colon and re.fullmatch(r"[a-z_]+(?:\.[a-z0-9_]+)*", where):
        message = f"{path_words(where, names)}: {said}"
    message = _KEY.sub(lambda m: key_words(m.group(0)), message)
    message = re.sub(r"(?<![\d.])\b1 dice\b", "1 die", message)
    return message[:1].upper() + message[1:]


@cache
def modifiers() -> dict[str, Modifier]:
    """Every printed modifier by heading and id (``"melee_pool.charge"``)."""
    r = rules()
    out: dict[str, Modifier] = {}
    for table in ("melee_pool", "melee_hit", "melee_wound", "shoot_pool", "shoot_hit",
                  "shoot_wound", "honour"):
        for key, row in getattr(r, table).rows.items():
            out[f"{table}.{key}"] = row
    return out


def cite(row: Modifier) -> str:
    """A modifier's rule: its heading as printed, the digest section, what it is for and the
    reading taken, when there is one."""
    text = f"{row.rule} ({row.section}): {row.says}."
    if row.reading is not None and row.reading in READINGS:
        text += f" Our reading {row.reading}: {READINGS[row.reading]}."
    return text


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def dice(n: int) -> str:
    return f"{n} die" if abs(n) == 1 else f"{n} dice"
