"""The referee's plain words for Tenka Meidou's commands and events, each with its section and
its arithmetic (docs/referee.md, explain): the dice of a deployment, the pawns a card moved,
each zone of the War and every term of the final score.

A referee tool: a face-down Daimyo card is named (the referee sees all). Zones, cards and
colours are named as the table names them ("Kyō (Kyoto)", "Split the Army", "Red").
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from companion.games.tenka_meidou import events as tev
from companion.games.tenka_meidou.components import Colour, Components, Daimyo, Tactic
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State
from companion.games.tenka_meidou.war import DAIMYO_POWER, WarResult, ZoneResult

Ruling = dict[str, Any]


class Words:
    """Names as the table says them, from the board and components the rules use."""

    def __init__(self, rules: TenkaRules) -> None:
        self.components: Components = rules.components
        self.zones = {z.id: z.name for z in rules.board.zones}
        self.tactics = {c.id: c.en for c in rules.components.tactic_cards}
        self.daimyo = {c.id: c.en for c in rules.components.daimyo_cards}

    def zone(self, zone: str) -> str:
        return self.zones.get(zone, zone.replace("_", " ").title())

    def tactic(self, card: Tactic | str) -> str:
        value = card.value if isinstance(card, Tactic) else card
        return self.tactics.get(value, value.replace("_", " ").title())

    def card(self, card: Daimyo | str) -> str:
        value = card.value if isinstance(card, Daimyo) else card
        return self.daimyo.get(value, value.replace("_", " ").title())

    def place(self, place: str, colour: Colour) -> str:
        return f"{who(colour)}'s reserve" if place == RESERVE else self.zone(place)

    def move(self, m: PawnMove) -> str:
        pawn = ("Daimyo pawn" if m.pawn == "daimyo"
                else f"soldier{'s' if m.count != 1 else ''}")
        count = "" if m.pawn == "daimyo" else f"{m.count} "
        return (f"{count}{who(m.colour)} {pawn} from {self.place(m.origin, m.colour)} to "
                f"{self.place(m.destination, m.colour)}")

    def moves(self, moves: tuple[PawnMove, ...]) -> str:
        return "; ".join(self.move(m) for m in moves) or "no pawn moved"


def who(colour: Colour | str) -> str:
    return str(colour.value if isinstance(colour, Colour) else colour).capitalize()


def _r(rule: str, text: str) -> Ruling:
    return {"rule": rule, "text": text}


def _soldiers(n: int) -> str:
    return f"{n} soldier{'s' if n != 1 else ''}"


def command_words(words: Words, command: Mapping[str, Any]) -> str:
    """What a command asked, in the referee's plain words."""
    kind = str(command.get("type"))
    colour = who(str(command.get("colour", "")))
    if kind == "start":
        players = ", ".join(who(c) for c in command.get("players", ()))
        mode = "an advanced" if command.get("advanced") else "a basic"
        return f"Start {mode} game for {players}"
    if kind == "choose_daimyo":
        return f"{colour} takes {words.card(str(command.get('card')))} from the Daimyo offer"
    if kind == "deploy":
        rolls = " then ".join(", ".join(map(str, roll)) for roll in command.get("rolls", ()))
        return f"{colour} rolls {rolls} and keeps {command.get('single')} as the single die"
    if kind == "tactic":
        return f"{colour} plays the tactic card {words.tactic(str(command.get('card')))}"
    if kind == "daimyo":
        return f"{colour} turns the Daimyo card face up and plays it"
    return f"{colour} {kind.replace('_', ' ')}".strip()


def event_rulings(words: Words, before: State, event: tev.TenkaEvent) -> list[Ruling]:
    """One event in plain words with its section and arithmetic (``before``: the table just
    before it)."""
    match event:
        case tev.GameStarted():
            return _started(words, event)
        case tev.DaimyoChosen(colour=colour, card=card):
            left = len(before.daimyo_offer) - 1
            return [_r("9", f"{who(colour)} takes {words.card(card)} from the Daimyo offer, "
                        f"face down ({left} left in the offer); the choice goes from the "
                        "first player's right, counter-clockwise")]
        case tev.SoldiersDeployed():
            return [_deployed(words, before, event)]
        case tev.TacticPlayed(colour=colour, card=card, moves=moves):
            return [_r("7", f"{who(colour)} plays {words.tactic(card)}, the one tactic card a "
                        f"player may use in a game (5.I.2): {words.moves(moves)}")]
        case tev.DaimyoPlayed(colour=colour, card=card, moves=moves):
            where = before.daimyo_at.get(colour)
            at = f" from {words.zone(where)}, where the Daimyo pawn stands" if where else ""
            return [_r("10", f"{who(colour)} turns {words.card(card)} face up and plays it"
                        f"{at}, once a game: {words.moves(moves)}")]
        case tev.SwordTaken(colour=colour, sword=sword):
            taken = sorted(before.swords.values(), reverse=True)
            others = (f" (taken before: {', '.join(map(str, taken))})" if taken else "")
            return [_r("5.I", f"{who(colour)} has placed every pawn and takes the highest "
                        f"sword left, {sword}{others}: no more tactic or Daimyo cards for "
                        "anyone (5.I.2), and a higher sword wins a tie")]
        case tev.WarFought(result=result):
            return _war(words, before, result)
    return [_r("5", type(event).__name__)]


def _started(words: Words, e: tev.GameStarted) -> list[Ruling]:
    players = ", ".join(who(c) for c in e.players)
    castles = ", ".join(f"{words.zone(z)} {v}" for z, v in
                        sorted(e.castles.items(), key=lambda item: item[1]))
    out = [_r("3", f"{'Advanced' if e.advanced else 'Basic'} game for {players}, clockwise "
              f"from the first player; {_soldiers(e.soldiers_per_colour)} to each"
              + (" (16 and the Daimyo pawn in the advanced game, 9)" if e.advanced else "")),
           _r("3.2", f"The large castle tokens lie as they fell: {castles}"),
           _r("3.3", "The tactic offer: " + ", ".join(words.tactic(t) for t in e.tactic_offer)
              + f" ({len(e.players) + 1} cards for {len(e.players)} players)")]
    if e.daimyo_offer:
        out.append(_r("9", "The Daimyo offer: "
                      + ", ".join(words.card(c) for c in e.daimyo_offer)))
    return out


def _deployed(words: Words, before: State, e: tev.SoldiersDeployed) -> Ruling:
    colour = who(e.colour)
    rolls = e.rolls
    reroll = (f"rolls {', '.join(map(str, rolls[0]))} and re-rolls all three: "
              if len(rolls) > 1 else "rolls ")
    final = ", ".join(map(str, rolls[-1]))
    wanted = words.components.die_to_soldiers[e.single]
    left = before.pawns_left(e.colour)
    placed = min(wanted, left)
    short = (f", but only {placed} {'pawn is' if placed == 1 else 'pawns are'} left"
             if placed < wanted else "")
    daimyo = (f"; the Daimyo pawn goes as one of them (9), so {_soldiers(e.soldiers)} and the "
              "Daimyo" if e.daimyo else "")
    counted = (", the Daimyo pawn among them" if before.daimyo_in_reserve(e.colour)
               and not e.daimyo else "")
    return _r("5.I.1", (
        f"{colour} {reroll}{final}; the pair {e.pair[0]} + {e.pair[1]} = {sum(e.pair)} names "
        f"{words.zone(e.zone)} (castle {sum(e.pair)}); the single die {e.single} places "
        f"{wanted} (the die table on the board){short}{daimyo}; {colour} has "
        f"{left} - {placed} = {left - placed} {'pawn' if left - placed == 1 else 'pawns'} "
        f"left{counted}"))


def _war(words: Words, before: State, result: WarResult) -> list[Ruling]:
    out = [_r("5.II", "Every player has placed every pawn: the War is fought zone by zone, "
              "from the lowest castle to the highest")]
    terms: dict[Colour, list[str]] = {c: [] for c in before.players}
    for zone in result.zones:
        out += _zone(words, before, zone)
        out += _short_supply(words, result, zone)
        if zone.winner is not None:
            terms[zone.winner].append(f"{words.zone(zone.zone)} {zone.value}")
        if zone.second is not None and zone.small_value is not None:
            terms[zone.second].append(f"{words.zone(zone.zone)} small {zone.small_value}")
    for colour in before.players:
        listed = " + ".join(terms[colour]) or "no castle"
        out.append(_r("6", f"{who(colour)}: {listed} = {result.scores.get(colour, 0)}"))
    ranked = sorted(before.players, key=lambda c: (result.scores.get(c, 0),
                                                   before.swords.get(c, 0)), reverse=True)
    top = ranked[0]
    tied = [c for c in ranked[1:] if result.scores.get(c) == result.scores.get(top)]
    tie = (f"; tied on {result.scores.get(top)} with "
           f"{', '.join(who(c) for c in tied)}, {who(top)} holds the higher sword "
           f"({before.swords.get(top)})" if tied else "")
    out.append(_r("6", f"{who(result.winner)} wins with {result.scores.get(top)} castle "
                  f"points{tie}"))
    return out


def _short_supply(words: Words, result: WarResult, z: ZoneResult) -> list[Ruling]:
    """5.II.3: the white pawns ran out while ``z``'s winner sent reinforcements (the War's own
    ruling, which follows that zone's; the pawns come from zones already fought)."""
    if z.winner is None or not z.reinforcements:
        return []
    name = words.zone(z.zone)
    out = []
    rulings = list(result.rulings)
    sent = next((i for i, r in enumerate(rulings) if r.rule == "5.II.3"
                 and r.text.startswith(f"{z.winner} reinforces from {z.zone}:")), None)
    for ruling in rulings[:sent][::-1] if sent is not None else []:
        if ruling.rule != "5.II.3" or "supply is out" not in ruling.text:
            break
        short = ruling.text.split(": ", 1)[1].split(" ", 1)[0]
        out.append(_r("5.II.3", f"The white pawns run out as {who(z.winner)} reinforces from "
                      f"{name}: {short} taken from zones already fought"))
    return out[::-1]


def _zone(words: Words, before: State, z: ZoneResult) -> list[Ruling]:
    name = f"{words.zone(z.zone)} (castle {z.value})"
    if z.winner is None:
        return [_r("5.II", f"{name}: no pawn there; the token is set aside, nobody scores it")]
    order = sorted(z.power, key=lambda c: (z.power[c], before.swords.get(c, 0)), reverse=True)
    parts = []
    for colour in order:
        soldiers = before.on_board(z.zone, colour)
        daimyo = DAIMYO_POWER if before.daimyo_at.get(colour) == z.zone else 0
        sent = z.power[colour] - soldiers - daimyo
        terms = [_soldiers(soldiers)]
        if daimyo:
            terms.append(f"{daimyo} for the Daimyo (9)")
        if sent:
            terms.append(f"{sent} {'reinforcement' if sent == 1 else 'reinforcements'}")
        parts.append(f"{who(colour)} {' + '.join(terms)} = {z.power[colour]}")
    out = [_r("5.II.1", f"{name}: power {'; '.join(parts)}")]
    for a, b in itertools.pairwise(order):
        if z.power[a] == z.power[b]:
            out.append(_r("5.II.1", f"{name}: {who(a)} and {who(b)} tie at {z.power[a]}; "
                          f"{who(a)}'s sword {before.swords.get(a)} beats "
                          f"{before.swords.get(b)}"))
    if z.second is not None and z.small_value is not None:
        out.append(_r("5.II.2", f"{name}: {who(z.winner)} takes the large token, {z.value}; "
                      f"{who(z.second)}, second, the small token, {z.value} / 2 rounded down "
                      f"= {z.small_value}"))
    else:
        why = ("nobody else has pawns there" if z.second is None
               else "no small tokens with two players (3.4)")
        out.append(_r("5.II.2", f"{name}: {who(z.winner)} takes the large token, {z.value}; "
                      f"no small token: {why}"))
    if z.reinforcements:
        listed = ", ".join(f"{n} to {words.zone(other)}"
                           for other, n in z.reinforcements.items())
        out.append(_r("5.II.3", f"{who(z.winner)} sends reinforcements from {name} to every "
                      f"adjacent zone not yet resolved that holds its soldiers: {listed}"))
    return out
