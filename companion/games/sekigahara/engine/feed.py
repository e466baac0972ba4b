"""The rulings feed: each accepted event as one line in plain words ending with its rule number.

Lines are built from :func:`~companion.games.sekigahara.engine.views.public_event` (the one place
that decides what an event may show on the shared screen) or, for events that reveal nothing,
from their public fields here; :func:`rule_of` names the rule each event applies, so a player can
tap any line and read that rule.
"""

from __future__ import annotations

import re
from collections import Counter

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, CARDS, FACES
from companion.games.sekigahara.engine.state import Level, Phase
from companion.games.sekigahara.engine.views import public_event
from companion.games.sekigahara.zones import (
    clan_name,
    count_words,
    side_colour,
    side_name,
    zone_name,
)

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


ENGINE_PLACES = {"@bag": "the bag", "@recruitment": "the Recruitment Box",
                 "@mori": "the Mōri box", "@dead": "the casualty tray", "@aside": "the game box"}
"""The engine's own off-map zones in the players' words."""


def place(zone: str) -> str:
    """A location or box by the name printed on the board (the engine's own off-map zones,
    ``@bag`` and the like, in plain words)."""
    if zone.startswith("@"):
        return ENGINE_PLACES.get(zone, zone.lstrip("@").replace("_", " "))
    return zone_name(zone)


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


def face_words(block: str) -> str:
    """A block whose face the event shows (it is revealed, 3.1): "Ukita 1-mon gun"."""
    face = FACES[block]
    extra = f" {face.attack.value}" if face.attack else ""
    return f"{clan_name(face.clan)} {face.mon}-mon{extra}{' leader' if face.leader else ''}"


def faces_words(units: tuple[str, ...] | list[str]) -> str:
    """Revealed blocks and disks (8.9.4) in plain words; "none" for none."""
    words = [face_words(u) if u in FACES else f"the {u.capitalize()} disk" for u in units]
    return ", ".join(words) or "none"


def _blocks(n: int, side: Side) -> str:
    return count_words(n, f"{side_colour(side)} block")


def _plain(event: ev.Event) -> str | None:
    """Lines for events whose every field is public; None: ask the views module. Faces are
    named only where :func:`~companion.games.sekigahara.engine.views.public_event` names
    them (revealed blocks)."""
    match event:
        case ev.BlocksPlaced(side=side, zone=zone, blocks=blocks, random=random):
            n = len(blocks)
            where = (f"in the {side_name(side)} Recruitment Box" if zone.startswith("@recruit")
                     else "in the Mōri box" if zone.startswith("@mori") else f"on {place(zone)}")
            if not random:  # 5.2.1: the players have yet to stand them
                return f"Set-up: {_blocks(n, side)} with set-up symbols start {where}"
            return f"{_blocks(n, side)} drawn from the bag and set {where}"
        case ev.CardsDiscarded(side=side, count=count, cards=cards):
            shown = f": {', '.join(card_words(c) for c in cards)}" if cards else ""
            return f"{side_name(side)} discards {count_words(count, 'card')}{shown}"
        case ev.CardsDrawn(side=side, count=count):
            return f"{side_name(side)} draws {count_words(count, 'card')}"
        case ev.BidPlaced(side=side):
            return f"{side_name(side)} bids a card face down"
        case ev.BidsRevealed(cards=cards, winner=winner):
            bids = ", ".join(f"{side_name(s)} {CARDS[c].bid}" for s, c in cards.items())
            return f"Bids revealed ({bids}): {side_name(winner)} wins the bid"
        case ev.MovementBought(side=side, level=level, cards=cards):
            if level is Level.NONE:
                return f"{side_name(side)} buys no movement"
            paid = "free" if cards == 0 else f"for {count_words(cards, 'card')}"
            return f"{side_name(side)} buys {level.value} movement {paid}"
        case ev.Mustered(side=side, location=loc, blocks=blocks, option=option):
            shown = f", shown: {faces_words(blocks)}" if option == "A" else ""
            return f"{side_name(side)} musters {_blocks(len(blocks), side)} at {place(loc)}{shown}"
        case ev.MoriArrived(blocks=blocks):
            return f"Mōri blocks arrive at Osaka: {faces_words(blocks)}"
        case ev.StackMoved(side=side, origin=origin, paths=paths, leadership=leadership):
            ends = Counter(p[-1] for p in paths.values())
            parts = ", ".join(f"{n} to {place(loc)}" for loc, n in sorted(ends.items()))
            if len(ends) == 1:
                parts = f"to {place(next(iter(ends)))}"
            lead = " with a leader's Leadership" if leadership else ""
            return f"{_blocks(len(paths), side)} moved from {place(origin)}{lead} {parts}"
        case ev.Overrun(location=loc, side=side, blocks=blocks):
            return f"Overrun at {place(loc)}: {side_name(side)} loses {faces_words(blocks)}"
        case ev.CombatOpened(location=loc, siege=siege, inside=inside):
            if siege:
                return (f"Siege of {place(loc)}: {_blocks(len(inside), _owner(inside))} "
                        "inside the castle" if inside else f"Siege of {place(loc)}")
            return f"Battle at {place(loc)}"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "deploy":
            units = [u for u in action.get("blocks", ()) if u in FACES]
            card = action.get("card")
            with_card = (f" with {_card_played(card)}" if card
                         else " without a card (a leader, 8.2.4)")
            return f"{side_name(side)} deploys {faces_words(units)}{with_card}"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "lose":
            return f"{side_name(side)} loses {faces_words(action.get('losses', ()))}"
        case ev.CombatEnded(location=loc, winner=winner, losses=losses):
            lost = "; ".join(f"{side_name(s)} loses {faces_words(b)}" for s, b in losses.items())
            won = f"{side_name(winner)} wins" if winner else "nobody wins"
            return f"Combat at {place(loc)} ends, {won}: {lost}"
        case ev.Retreated(side=side, origin=origin, destination=dest, blocks=blocks,
                          into_castle=inside):
            castle = f", {count_words(len(inside), 'block')} into the castle" if inside else ""
            to = f" to {place(dest)}" if dest else ""
            verb = "retreats" if len(blocks) == 1 else "retreat"
            return f"{_blocks(len(blocks), side)} {verb} from {place(origin)}{to}{castle}"
        case ev.GameStarted():
            return "The game begins: week 1, five cards to each side"
        case ev.PhaseBegan(phase=phase, week=week, turn=turn, active=active):
            who = f", {side_name(active)} to play" if active is not None else ""
            return f"Week {week}, turn {turn}: {_PHASES.get(phase, phase.value)}{who}"
        case ev.FirstPlayerChosen(side=side, first=first):
            return f"{side_name(side)} chooses {side_name(first)} to move first this week"
        case ev.ResourceControlled(location=loc, side=side):
            return f"{side_name(side)} now controls the Resource Location {place(loc)}"
        case ev.CombatDeclared(location=loc, attacker=attacker):
            return f"{side_name(attacker)} declares combat at {place(loc)}"
        case ev.StayedInside(location=loc, side=side, inside=inside):
            choice = "stays inside the castle" if inside else "comes out to fight"
            return f"{side_name(side)} {choice} at {place(loc)}"
        case ev.LocationResolved(location=loc):
            return f"Combat at {place(loc)} is over"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "finish":
            return f"{side_name(side)} has finished"
        case ev.CombatActed(side=side, action=action) if action.get("type") == "challenge":
            outcome = ("refuted: the block stays" if action.get("refuted")
                       else "not refuted: the block changes sides")
            return f"{side_name(side)} plays a Loyalty Challenge, {outcome}"
        case ev.GameWon(winner=winner, reason=reason, score=score):
            points = (f" ({', '.join(f'{side_name(s)} {n}' for s, n in score.items())})"
                      if score else "")
            return f"{side_name(winner)} wins: {CITATION.sub('', reason).strip()}{points}"
    return None


_NAMES = re.compile(r"\b(" + "|".join(sorted(BOARD.locations, key=len, reverse=True))
                    + r"|ishida|tokugawa)\b")


def plain_words(line: str) -> str:
    """Location ids and side values as players read them ("gifu" -> "Gifu")."""
    def name_of(found: re.Match[str]) -> str:
        word = found.group(1)
        return BOARD.locations[word].name if word in BOARD.locations else word.capitalize()
    return _NAMES.sub(name_of, line)


def card_words(card_id: str) -> str:
    """A card as players name it: "Mōri special (bid 3)", "Loyalty (bid 7)"."""
    card = CARDS[card_id]
    clan = f"{clan_name(card.clan)} " if card.clan else ""
    kind = card.kind.value if card.clan else card.kind.value.capitalize()
    return f"{clan}{kind} (bid {card.bid})"


def _card_played(card: dict[str, object]) -> str:
    clan = card.get("clan")
    kind = str(card.get("kind", ""))
    if clan:
        return f"a {clan_name(str(clan))} {kind} card"
    return f"a {kind} card"


def _owner(units: tuple[str, ...]) -> Side:
    return next((FACES[u].side for u in units if u in FACES), Side.ISHIDA)


def feed_line(event: ev.Event) -> str:
    """One line for the shared screen, ending with the rule it applies."""
    line = plain_words(_plain(event) or public_event(event))
    if CITATION.search(line):
        return line
    return f"{line} ({rule_of(event)})"


def citation(line: str) -> str | None:
    """The rule number a feed line ends with, if any."""
    found = CITATION.search(line)
    return found.group(1) if found else None
