"""The battle's words on the shared screen: scenarios, secondary missions, orders, markers and a
troop's state, in the game's own terms (B1.1, B3, B4, B15). Nothing here names a card id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.kensei import explain_words

SCENARIOS = explain_words.SCENARIO_NAMES
"""B15: the scenario table, 1D6 (the one table the records' words use too)."""
MISSIONS = explain_words.MISSIONS
"""B15: each scenario's secondary mission, which a player's secret 1D6 names. SECRET until the
end: shown only on a private step, and on the score."""
MARKERS = explain_words.MARKER_NAMES
"""B1.1's markers as the players call them."""
plural = explain_words.plural

ORDERS: dict[str, str] = {
    "move": "Move", "run": "Run", "regroup": "Regroup", "fight": "Fight", "charge": "Charge",
    "disengage": "Disengage", "challenge": "Challenge to a duel", "shoot": "Shoot",
    "empower": "Empower", "reload": "Reload", "take_cover": "Take cover",
    "interact": "Interact", "flee": "Flee (reaction)", "fight_reaction": "Fight (reaction)",
    "opportunity_charge": "Opportunity charge (reaction)",
    "stand_and_shoot": "Stand and shoot (reaction)", "leave_unit": "Leave the unit",
}
"""B4's orders (MOVER, CORRER, REAGRUPAR, COMBATIR, CARGAR, ...)."""
TARGETED = frozenset({"fight", "charge", "challenge", "shoot", "fight_reaction",
                      "opportunity_charge", "stand_and_shoot"})
"""The orders given against an enemy troop."""

SITUATION: dict[str, str] = {
    "in_contact": "Base in contact with the target",
    "in_melee": "Locked in a melee",
    "charged": "It is the target of a charge",
    "in_zoc_of_enemy": "In an enemy's zone of control",
    "enemy_crossed_zoc": "An enemy crossed its zone of control",
    "difficult_terrain": "Starts in difficult terrain",
    "out_of_coherence": "Out of coherence",
    "out_of_formation": "Out of formation",
    "target_in_melee_with_friend": "Target in melee with a friend",
    "disengaged_from_target": "The target disengaged from it this turn",
    "obstacle_blocks": "An obstacle blocks the move",
}
"""The players' assertions an order is checked with (B4); ``stunned`` comes from the troop."""

HAND_MARKERS = ("parapeted", "unloaded", "ran", "stunned", "retreat", "dishonoured",
                "immobilised", "poisoned", "cursed")
"""The markers players may place or clear by hand on the roster."""

ORDER_ITEMS = {"base_ini": "INI", "leader_ini": "the leader's INI", "dishonoured": "Dishonoured",
               "general_dead": "general dead", "banner": "Hata-Jurushi"}
SCORE_LINES = {"more_points": "more army points on the table",
               "destroyed": "enemy troops destroyed",
               "half_lost": "enemy units with half their models lost"}


def army(names: Mapping[str, str], side: str) -> str:
    return names.get(side, "")


def mission(die: int) -> str:
    name, what = MISSIONS[die]
    return f"{name}: {what}"


def troop_state(t: Mapping[str, Any], leader: Mapping[str, Any] | None = None) -> str:
    """One troop's line on the roster: models, wounds and every marker on it (B1.1)."""
    if not t.get("alive"):
        return "destroyed"
    parts = [plural(t["models"], "model") if t["models_start"] > 1 else "single model"]
    if t["models_start"] > 1 and t["models"] < t["models_start"]:
        parts[0] += f" of {t['models_start']}"
    if t.get("wound_markers"):
        parts.append(plural(t["wound_markers"], "wound"))
    if t.get("stunned"):
        parts.append("Stunned" if t["stunned"] == 1 else f"Stunned ×{t['stunned']}")
    parts += [MARKERS[m] for m in ("used", "retreat", "dishonoured", "parapeted", "unloaded",
                                   "ran", "immobilised", "poisoned", "cursed") if t.get(m)]
    if t.get("general"):
        parts.append("general")
    if t.get("banner"):
        parts.append("banner")
    if t.get("in_reserve"):
        parts.append("in the reserve tray")
    if leader is not None and leader.get("alive"):
        led = f"led by {leader['name']}"
        if leader.get("general"):
            led += " (general)"
        if leader.get("wound_markers"):
            led += f", {plural(leader['wound_markers'], 'wound')}"
        parts.append(led)
    return " · ".join(parts)


def order_sum(die: int, items: list[dict[str, Any]], total: int) -> str:
    """The order roll's arithmetic (TIRADA DE ÓRDENES): "die 4 + INI 2 + Hata-Jurushi 1 = 7"."""
    terms = [f"die {die}"]
    for item in items:
        value = item["value"]
        sign = "+" if value >= 0 else "−"
        terms.append(f"{sign} {ORDER_ITEMS.get(item['id'], item['id'])} {abs(value)}")
    return " ".join(terms) + f" = {total}"


def orders_result(orders: int, fumble: bool, ki: bool) -> str:
    if fumble:
        return "a natural 1: one order"
    return plural(orders, "order") + (" and ki" if ki else "")


RULES = {
    "B1.1": "Markers: Used, Stunned, Retreat, Dishonoured, Parapeted, Unloaded, Ran and wound "
            "markers sit beside a troop until a rule takes them away.",
    "B1.2": "Both players agree the battle size; both lists are built to it.",
    "B1.3": "Before the battle: lists and scenario, the strategy roll (1D6 + commander "
            "level; the winner picks side and role), scenery, the secret secondary missions, "
            "then deployment one troop at a time, units first.",
    "B3": "A turn: maintenance, initiative, then activations in pairs until the troops are "
          "spent; at most five turns.",
    "B3.1": "Maintenance: the rout check, new command cards, an honour roll for each troop in "
            "Retreat (−1 in melee; a fail removes it), then Used and Stunned markers cleared.",
    "B3.2": "Initiative: both roll 1D6, the higher holds it for the turn; a tie is rolled "
            "again.",
    "B3.3": "Activation: each player names a troop without a Used marker; each rolls 1D6 + "
            "INI for orders (1 to 3: one order, 4 and 5: two, 6 or more: two and ki); then "
            "both troops, and every troop given an order, are marked Used.",
    "B4": "Orders: move, run, charge, fight, shoot and the rest, each with its conditions; "
          "run, empower and a challenge cost two; one combat order per activation.",
    "B7": "Combat resolution: casualties, wound markers, Stunned markers and the honour roll "
          "of the troop that took losses.",
    "B9.1": "Command deck: 24 cards worth 0 to 3; a hand each turn; duels for the initiative "
            "and offerings on rolls.",
    "B12": "Clan actions: the Kuroi-te and the Hattori may keep a troop in the reserve tray.",
    "B14": "Army lists: points, commander level, leaders and general, unit sizes and the "
           "share of each kind of troop.",
    "B15": "Scenarios: a primary mission for both, a secret secondary mission each, five "
           "turns, and a rout at 75 % of the army's points lost.",
    "B17": "Hidden information: hands, face-down cards and secondary missions stay secret.",
    "B18": "The players say what the table shows (contact, sight, range); the app keeps the "
           "count.",
}
"""What each section the battle cites says, in a line (the digest's sections)."""


def rule_summary(rule: str) -> str | None:
    """The line for a citation such as "B3.3 TIRADA DE ÓRDENES" or "B4, HUIR"."""
    section = rule.replace(",", " ").split()[0] if rule.strip() else ""
    while section and section not in RULES:
        section = section.rpartition(".")[0]
    return RULES.get(section)
