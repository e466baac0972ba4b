"""The rulings feed: each accepted event as one line in plain words ending with its rule number.

Lines are built from :func:`~companion.games.sekigahara.engine.views.public_event` (the one place
that decides what an event may show on the shared screen) or, for events that reveal nothing,
from their public fields here; :func:`rule_of` names the rule each event applies, so a player can
tap any line and read that rule.
"""

from __future__ import annotations

import re

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, CARDS
from companion.games.sekigahara.engine.state import Phase
from companion.games.sekigahara.engine.table import zone_label
from companion.games.sekigahara.engine.views import public_event

CITATION = re.compile(r"\((?:rule )?((?:\d+(?:\.\d+)*)|C\d+)\)\s*$")
"""A line's closing rule citation: "(7.4)", "(rule 8.2.3)" or "(C6)"."""

_RULES: dict[type[ev.Event], str] = {
    ev.GameStarted: "5.1", ev.BlocksPlaced: "5.2", ev.BidPlaced: "6.3", ev.BidsRevealed: "6.3",
    ev.FirstPlayerChosen: "6.3", ev.MovementBought: "7.1", ev.Mustered: "7.2",
    ev.MoriArrived: "9.3", ev.StackMoved: "7.3", ev.Overrun: "7.4",
    ev.ResourceControlled: "4.2", ev.CombatDeclared: "8.1", ev.CombatOpened: "8.9.1",
    ev.StayedInside: "8.9.2", ev.CombatActed: "8.2", ev.CombatEnded: "8.7",
    ev.Retreated: "8.8", ev.LocationResolved: "8.1", ev.GameWon: "2.2",
}
_PHASES = {
    Phase.SETUP: "Set-up", Phase.REINFORCEMENT: "Reinforcement Step",
    Phase.BID: "Turn Order Step: bid for the initiative", Phase.CHOOSE_FIRST: "Turn Order Step",
    Phase.MOVEMENT: "Movement Phase", Phase.COMBAT: "Combat Phase", Phase.GAME_OVER: "Game over",
}
_PHASE_RULES = {Phase.SETUP: "5.2", Phase.REINFORCEMENT: "6.2", Phase.BID: "6.3",
                Phase.CHOOSE_FIRST: "6.3", Phase.MOVEMENT: "7", Phase.COMBAT: "8",
                Phase.GAME_OVER: "2.2"}
_COMBAT_ACTIONS = {"deploy": "8.2.3", "challenge": "8.6", "finish": "8.5", "lose": "8.7.2"}


def place(zone: str) -> str:
    """A location or box by the name printed on the board (the engine's own off-map zones,
    ``@bag`` and the like, in plain words)."""
    return zone.lstrip("@").replace("_", " ") if zone.startswith("@") else zone_label(zone)


def name(side: Side) -> str:
    return side.value.capitalize()


def colour(side: Side) -> str:
    """Blocks are named by colour only (3.1): Ishida's gold, Tokugawa's black."""
    return "gold" if side is Side.ISHIDA else "black"


def rule_of(event: ev.Event) -> str:
    """The rule an event applies."""
    if isinstance(event, ev.CardsDrawn | ev.CardsDiscarded):
        return event.rule
    if isinstance(event, ev.PhaseBegan):
        return _PHASE_RULES.get(event.phase, "6")
    if isinstance(event, ev.BlocksPlaced):
        return "6.2" if event.zone.startswith("@recruit") else "5.2.2" if event.random else "5.2.1"
    if isinstance(event, ev.CombatActed):
        return _COMBAT_ACTIONS.get(str(event.action.get("type")), "8.2")
    if isinstance(event, ev.GameWon):
        found = CITATION.search(event.reason)
        return found.group(1) if found else "2.2"
    return _RULES.get(type(event), "6")


def _plain(event: ev.Event) -> str | None:
    """Lines for events whose every field is public; None: ask the views module."""
    match event:
        case ev.BlocksPlaced(side=side, zone=zone, blocks=blocks):
            n = len(blocks)
            where = (f"in the {name(side)} Recruitment Box" if zone.startswith("@recruit")
                     else "in the Mori box" if zone.startswith("@mori") else f"on {place(zone)}")
            return f"{n} {colour(side)} block{'s' * (n != 1)} placed {where}"
        case ev.CardsDiscarded(side=side, count=count, cards=cards):
            shown = f": {', '.join(card_words(c) for c in cards)}" if cards else ""
            return f"{name(side)} discards {count} card{'s' * (count != 1)}{shown}"
        case ev.CardsDrawn(side=side, count=count):
            return f"{name(side)} draws {count} card{'s' * (count != 1)}"
        case ev.GameStarted():
            return "The game begins: week 1, five cards to each side"
        case ev.PhaseBegan(phase=phase, week=week, turn=turn, active=active):
            who = f", {name(active)} to play" if active is not None else ""
            return f"Week {week}, turn {turn}: {_PHASES.get(phase, phase.value)}{who}"
        case ev.FirstPlayerChosen(side=side, first=first):
            return f"{name(side)} chooses {name(first)} to move first this week"
        case ev.MovementBought(side=side, level=level, cards=cards):
            return f"{name(side)} buys {level.value} movement for {cards} card(s)"
        case ev.ResourceControlled(location=loc, side=side):
            return f"{name(side)} now controls the Resource Location {place(loc)}"
        case ev.CombatDeclared(location=loc, attacker=attacker):
            return f"{name(attacker)} declares combat at {place(loc)}"
        case ev.StayedInside(location=loc, side=side, inside=inside):
            choice = "stays inside the castle" if inside else "comes out to fight"
            return f"{name(side)} {choice} at {place(loc)}"
        case ev.LocationResolved(location=loc):
            return f"Combat at {place(loc)} is over"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "finish":
            return f"{name(side)} has finished"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "challenge":
            outcome = ("refuted: the block stays" if action.get("refuted")
                       else "not refuted: the block changes sides")
            return f"{name(side)} plays a Loyalty Challenge, {outcome}"
        case ev.GameWon(winner=winner, reason=reason, score=score):
            points = (f" ({', '.join(f'{name(s)} {n}' for s, n in score.items())})"
                      if score else "")
            return f"{name(winner)} wins: {CITATION.sub('', reason).strip()}{points}"
    return None


_NAMES = re.compile(r"\b(" + "|".join(sorted(BOARD.locations, key=len, reverse=True))
                    + r"|ishida|tokugawa)\b")


def _named(line: str) -> str:
    """Location ids and side values as players read them ("gifu" -> "Gifu")."""
    def name_of(found: re.Match[str]) -> str:
        word = found.group(1)
        return BOARD.locations[word].name if word in BOARD.locations else word.capitalize()
    return _NAMES.sub(name_of, line)


def card_words(card_id: str) -> str:
    """A card as players name it: "a Mori special card (bid 3)"."""
    card = CARDS[card_id]
    clan = f"{card.clan.value.capitalize()} " if card.clan else ""
    return f"{clan}{card.kind.value} (bid {card.bid})"


def feed_line(event: ev.Event) -> str:
    """One line for the shared screen, ending with the rule it applies."""
    line = _named(_plain(event) or public_event(event))
    if CITATION.search(line):
        return line
    return f"{line} ({rule_of(event)})"


def citation(line: str) -> str | None:
    """The rule number a feed line ends with, if any."""
    found = CITATION.search(line)
    return found.group(1) if found else None
