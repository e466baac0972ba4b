"""The referee's plain words for Sekigahara's commands and events, each with its rule and its
arithmetic (docs/referee.md, explain).

A referee tool: blocks and cards are named by their faces ("Ukita 3-mon", "Mōri plain (bid
5)"), never by an engine id, and hidden identities are shown, since the referee sees all.
:func:`event_rulings` reads an event against the state just before it and just after it;
the combat rules' own events are :mod:`.explain_combat`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import (
    blocks_at,
    castle_controller,
    castles_controlled,
    resources_controlled,
    units_count,
)
from companion.games.sekigahara.engine.data import BOARD, CARDS, CASTLES, FACES
from companion.games.sekigahara.engine.feed import card_words, face_words, faces_words, place
from companion.games.sekigahara.engine.queries import explain_stack_move
from companion.games.sekigahara.engine.retreat import retreat_options
from companion.games.sekigahara.engine.state import BAG, Level, Phase, State
from companion.games.sekigahara.explain_combat import Ruling, card_play, tally_words
from companion.games.sekigahara.explain_combat import ruling as _r
from companion.games.sekigahara.movement._graph import board_index
from companion.games.sekigahara.movement.distance import allowance_breakdown, movement_allowance
from companion.games.sekigahara.zones import count_words, side_name

LEVEL_WORDS = {Level.NONE: "No Movement", Level.MINIMAL: "Minimal Movement",
               Level.LIMITED: "Limited Movement", Level.TOTAL: "Total Movement"}
MOVES_FOR = {Level.NONE: "no stack move", Level.MINIMAL: "1 stack move",
             Level.LIMITED: "3 stack moves", Level.TOTAL: "a move for every stack"}
MOVES_BOUGHT = {Level.MINIMAL: 1, Level.LIMITED: 3}
PHASE_WORDS = {Phase.MOVEMENT: "Movement Phase", Phase.COMBAT: "Combat Phase"}


def _who(side: Side | str) -> str:
    return side_name(Side(side))


def _cards(n: int) -> str:
    return count_words(n, "card")


def _blocks(n: int) -> str:
    return count_words(n, "block")


# ---------------------------------------------------------------------- commands


def command_words(state: State, command: Mapping[str, Any]) -> str:
    """What a command asked, in the referee's plain words."""
    kind = str(command.get("type"))
    side = command.get("side")
    who = _who(side) if side in ("ishida", "tokugawa") else ""
    blocks = tuple(command.get("blocks", ()))
    match kind:
        case "start_game":
            return "Start the game"
        case "draw_blocks":
            return (f"{who} draws {_blocks(len(blocks))} from the bag for "
                    f"{place(str(command.get('zone')))}: {faces_words(blocks)}")
        case "bid":
            return f"{who} bids {card_words(str(command.get('card')))} face down"
        case "choose_first":
            return f"{who} chooses {_who(command['first'])} to move first"
        case "buy_movement":
            replace = int(command.get("replace", 0))
            extra = f", replacing {_cards(replace)}" if replace else ""
            return f"{who} buys {LEVEL_WORDS[Level(str(command.get('level')))]}{extra}"
        case "muster":
            return (f"{who} musters {faces_words(blocks)} at {place(str(command['location']))} "
                    f"with option {command.get('option')}")
        case "bring_mori":
            return f"{who} brings {faces_words(blocks)} from the Mōri box to Osaka"
        case "move_stack":
            paths = command.get("paths", {})
            routes = "; ".join(
                f"{face_words(b)} by {' - '.join(place(p) for p in path)}"
                for b, path in sorted(paths.items()))
            marches = len(command.get("force_marches", ()))
            march = f", with {count_words(marches, 'force march')}" if marches else ""
            return (f"{who} moves {_blocks(len(paths))} from {place(str(command['origin']))}"
                    f"{march}: {routes}")
        case "end_phase":
            return f"{who} ends the {PHASE_WORDS.get(state.phase, 'phase')}"
        case "declare_combat":
            inside = ", staying inside the castle" if command.get("inside") else ""
            return f"{who} declares combat at {place(str(command['location']))}{inside}"
        case "choose_inside":
            choice = "stays inside the castle" if command.get("inside") else "comes out to fight"
            return f"{who} {choice}"
        case "deploy":
            return f"{who} deploys {faces_words(blocks)} {card_play(command.get('card'))}"
        case "challenge":
            how = "refuted" if command.get("refuted") else "not refuted"
            return f"{who} plays a Loyalty Challenge ({how})"
        case "finish":
            return f"{who} has finished"
        case "take_losses":
            return f"{who} takes as losses {faces_words(tuple(command.get('losses', ())))}"
        case "retreat":
            dest = command.get("destination")
            kept = tuple(command.get("into_castle", ()))
            to = f" to {place(str(dest))}" if dest else ""
            castle = f", {faces_words(kept)} staying in the castle" if kept else ""
            return f"{who} retreats{to}{castle}"
    return f"{who} {kind.replace('_', ' ')}".strip()


# ---------------------------------------------------------------------- events


def event_rulings(before: State, event: ev.Event, after: State) -> list[Ruling]:
    """One engine event in plain words, with its rule and arithmetic (``before``/``after``:
    the state just before and just after it). Combat actions are :func:`combat_rulings`'."""
    match event:
        case ev.GameStarted():
            return [_r("5.1", "The game begins in week 1: both decks are shuffled and each side "
                        "is dealt five cards")]
        case ev.BlocksPlaced():
            return [_placed(before, event)]
        case ev.CardsDrawn():
            return [_drawn(before, event, after)]
        case ev.CardsDiscarded():
            return [_discarded(before, event, after)]
        case ev.PhaseBegan():
            return _phase(before, event)
        case ev.BidPlaced(side=side, card=card):
            return [_r("6.3", f"{side_name(side)} lays {card_words(card)} face down as a bid "
                        f"(bid value {CARDS[card].bid})")]
        case ev.BidsRevealed(cards=cards, winner=winner):
            bids = ", ".join(f"{side_name(s)} {CARDS[c].bid} ({card_words(c)})"
                             for s, c in sorted(cards.items()))
            high, low = sorted((CARDS[c].bid for c in cards.values()), reverse=True)
            return [_r("6.3", f"Both bids are shown: {bids}. {high} beats {low}, so "
                        f"{side_name(winner)} wins the bid (bids never tie: C11)")]
        case ev.FirstPlayerChosen(side=side, first=first):
            return [_r("6.3", f"{side_name(side)}, who won the bid, chooses {side_name(first)} "
                        f"to move first in both turns of week {before.week}")]
        case ev.MovementBought(side=side, level=level, cards=cards):
            muster = "" if level is Level.NONE else "; a muster may take the place of one (7.2)"
            return [_r("7.1", f"{side_name(side)} buys {LEVEL_WORDS[level]} for "
                        f"{_cards(cards)} (No and Minimal Movement cost no card, Limited 1, "
                        f"Total 2): {MOVES_FOR[level]} this phase{muster}")]
        case ev.Mustered():
            return [_mustered(after, event)]
        case ev.MoriArrived():
            return [_mori(event)]
        case ev.StackMoved():
            return _moved(before, event)
        case ev.Overrun():
            return [_overrun(before, event)]
        case ev.ResourceControlled(location=loc, side=side):
            return [_r("4.2", f"{side_name(side)} now controls the Resource Location "
                        f"{place(loc)}: the last side to move a block onto or through a Resource "
                        "Location controls it")]
        case ev.CombatDeclared():
            return [_declared(before, event)]
        case ev.CombatOpened():
            return [_opened(after, event)]
        case ev.StayedInside(location=loc, side=side, inside=inside, combat=combat):
            if not combat:
                return [_r("8.9.2", f"{side_name(side)} owns the castle at {place(loc)} with at "
                            "most two blocks there and stays inside: no combat there this "
                            "phase")]
            choice = ("stays inside: a siege" if inside else "comes out to fight: a battle")
            return [_r("8.9.2", f"{side_name(side)}, owner of the castle at {place(loc)} with "
                        f"at most two blocks there, {choice}")]
        case ev.CombatEnded():
            return _combat_ended(before, event)
        case ev.Retreated():
            return [_retreated(before, event)]
        case ev.LocationResolved(location=loc):
            return [_r("8.1", f"Combat at {place(loc)} is over for this phase: one side no "
                        "longer has units there")]
        case ev.GameWon():
            return _won(before, event)
    return [_r("6", type(event).__name__)]  # a new kind of event: named, to be explained


def _placed(state: State, e: ev.BlocksPlaced) -> Ruling:
    who, n = side_name(e.side), len(e.blocks)
    shown = faces_words(e.blocks)
    if e.zone.startswith("@mori"):
        return _r("5.2.1", f"Set-up: the {_blocks(n)} of the Mōri box start there, face up: "
                  f"{shown}")
    if not e.random:
        return _r("5.2.1", f"Set-up: {who}'s {_blocks(n)} with the set-up symbol of "
                  f"{place(e.zone)} start there: {shown}")
    due = next((d[2] for d in state.draws_due if d[0] is e.side and d[1] == e.zone), n)
    if e.zone.startswith("@recruit"):
        rule = "5.2.3" if state.phase is Phase.SETUP else "6.2"
        why = ("the set-up draw into the Recruitment Box" if rule == "5.2.3"
               else "the Reinforcement Step's draw")
        return _r(rule, f"{who} draws {_blocks(n)} from the bag into the Recruitment Box "
                  f"({why}, {due} due): {shown}")
    return _r("5.2.2", f"{who} draws {_blocks(n)} from the bag for {place(e.zone)} (the "
              f"board's set-up number there is {due}): {shown}")


def _hand(before: State, after: State, side: Side) -> str:
    return f"hand {before.hand[side]} to {after.hand[side]}"


def _drawn(before: State, e: ev.CardsDrawn, after: State) -> Ruling:
    who, side = side_name(e.side), e.side
    why = {
        "5.1": "five to each side at the start",
        "6.2": _weekly_draw(before, side, e.count),
        "7.1": "as many as were discarded with No Movement",
        "8.10": "the cards played in the combat come back, plus the compensation for losses "
                "reckoned when the combat ended",
        "C1": "one per two blocks lost to the Overrun",
        "7.3.3": "force march",
    }.get(e.rule, "")
    reshuffled = ""
    if before.draw[side] < e.count and before.discard[side]:
        reshuffled = (f"; the draw pile ran out, so the discard pile "
                      f"({_cards(before.discard[side])}) was shuffled into a new draw pile (3.3)")
    got = after.hand[side] - before.hand[side]
    short = f"; only {got} could be drawn" if got < e.count else ""
    return _r(e.rule, f"{who} draws {_cards(e.count)}{': ' + why if why else ''} "
              f"({_hand(before, after, side)}){reshuffled}{short}")


def _weekly_draw(state: State, side: Side, count: int) -> str:
    mine, theirs = castles_controlled(state, side), castles_controlled(state, side.opponent)
    if mine > theirs:
        return f"5 + 1 for controlling more castles ({mine} to {theirs}) = {count}"
    return f"5, no extra card: castles {mine} to {theirs}, not more"


def _discarded(before: State, e: ev.CardsDiscarded, after: State) -> Ruling:
    who, side = side_name(e.side), e.side
    shown = f" ({', '.join(card_words(c) for c in e.cards)})" if e.cards else ""
    if e.from_table:
        what = (count_words(e.count, "bid card") if e.rule == "6.3"
                else f"{count_words(e.count, 'card')} played in the combat")
        verb = "goes" if e.count == 1 else "go"
        return _r(e.rule, f"{who}'s {what}{shown} {verb} from the table to the discard pile, "
                  "face up")
    why = {
        "6.2": f"half the hand, rounded down: {before.hand[side]} / 2 = {e.count}",
        "7.3.3": f"one per force march: {e.count}",
        "9.3": f"one per Mōri block brought to Osaka: {e.count}",
        "C1": "",
    }.get(e.rule, "")
    if e.rule == "7.1":
        why = ("replaced, as No Movement allows" if before.level is not None
               else f"the price of the movement bought: {e.count}")
    return _r(e.rule, f"{who} discards {_cards(e.count)}{shown}{': ' + why if why else ''} "
              f"({_hand(before, after, side)})")


def _phase(state: State, e: ev.PhaseBegan) -> list[Ruling]:
    when = f"Week {e.week}, turn {e.turn}"
    if e.phase is Phase.BID:
        return [_r("6.3", f"Week {e.week}: Turn Order Step: each side bids one card face "
                   "down")]
    if e.phase is Phase.CHOOSE_FIRST:
        return [_r("6.3", "The winner of the bid chooses who moves first")]
    if e.phase is Phase.REINFORCEMENT:
        return [_r("6.2", f"Week {e.week}: Reinforcement Step") ] + [
            _reinforcements(state, e.week, side, n) for side, _, n in e.draws_due]
    if e.phase in PHASE_WORDS and e.active is not None:
        order = "first" if e.active is state.first or state.first is None else "second"
        return [_r("6.4", f"{when}: {side_name(e.active)}'s {PHASE_WORDS[e.phase]}; "
                   f"{side_name(e.active)} plays {order} (each turn the first player has its "
                   "Movement then its Combat Phase, then the second player)")]
    return [_r("6", f"{when}: {e.phase.value.replace('_', ' ')}")]


def _reinforcements(state: State, week: int, side: Side, due: int) -> Ruling:
    row = BOARD.turn_track.recruitment[week - 1]
    mine, theirs = resources_controlled(state, side), resources_controlled(state, side.opponent)
    extra = int(mine >= theirs)
    bonus = (f" + 1 for controlling at least as many Resource Locations ({mine} to {theirs})"
             if extra else f", no extra block: Resource Locations {mine} to {theirs}")
    bag = len(blocks_at(state, BAG, side))
    cap = f"; the bag holds only {bag}" if row + extra > bag else ""
    return _r("6.2", f"{side_name(side)} draws {due} from the bag into the Recruitment Box: "
              f"the turn track gives {row} in week {week}{bonus}{cap}")


def _mustered(after: State, e: ev.Mustered) -> Ruling:
    who = side_name(e.side)
    how = ("option A: blocks of one daimyo onto a location showing that daimyo's mon, shown "
           "to the opponent" if e.option == "A"
           else "option B: one block onto any friendly recruitment location, kept hidden")
    left = ("" if after.level is Level.TOTAL
            else f"; it takes the place of a stack move ({after.moves_left} left)")
    they = "it" if len(e.blocks) == 1 else "they"
    return _r("7.2", f"{who} musters {faces_words(e.blocks)} at {place(e.location)} by {how}; "
              f"{they} may not move this turn{left}")


def _mori(e: ev.MoriArrived) -> Ruling:
    n = len(e.blocks)
    if e.attacked:
        return _r("9.3", f"Tokugawa attacks Osaka while the Mōri box holds {_blocks(n)}: all "
                  f"of them arrive at once to defend it: {faces_words(e.blocks)}")
    return _r("9.3", f"{_blocks(n)} come from the Mōri box to Osaka, one per card Ishida "
              f"discarded ({_cards(n)}); they may not move this turn: {faces_words(e.blocks)}")


def _moved(before: State, e: ev.StackMoved) -> list[Ruling]:
    who = side_name(e.side)
    ends = sorted({path[-1] for path in e.paths.values()})
    out = [_r("7.3", f"{who} moves {_blocks(len(e.paths))} from {place(e.origin)} to "
              f"{', '.join(place(x) for x in ends)}{_moves_left(before, e)}")]
    if e.leadership:
        out.append(_r("7.3.4", _leadership(before, e)))
    by_path: dict[tuple[str, ...], list[str]] = {}
    for block, path in e.paths.items():
        by_path.setdefault(tuple(path), []).append(block)
    for path, blocks in sorted(by_path.items()):
        found = explain_stack_move(before, e.side, e.origin, path[-1], tuple(blocks))
        route = next((r for r in found.routes if r.path == path), None)
        if route is not None:
            used, highway, march = route.allowance_used, route.all_highway, route.needs_force_march
        else:  # a longer route than the shortest ones the move analysis lists
            used, highway = len(path), _all_highway(e.origin, path)
            march = used > movement_allowance(len(blocks), leadership=e.leadership,
                                              highway=highway, force_march=False)
        parts = {"leadership": e.leadership, "highway": highway, "force_march": march}
        allowance = movement_allowance(len(blocks), **parts)
        out.append(_r("7.3.3" if march else "7.3", (
            f"{faces_words(tuple(sorted(blocks)))}: {place(e.origin)} - "
            f"{' - '.join(place(p) for p in path)}, {count_words(used, 'location')} moved "
            f"against an allowance of {allowance} ({allowance_breakdown(len(blocks), **parts)})"
            + (" with a force march, one card discarded" if march else ""))))
    return out


def _all_highway(origin: str, path: tuple[str, ...]) -> bool:
    """Whether every road of ``path`` is a highway (7.3.3, C9)."""
    index = board_index(BOARD)
    return any(raw.locations == path and raw.all_highway
               for raw in index.paths_between.get((origin, path[-1]), ()))


def _moves_left(before: State, e: ev.StackMoved) -> str:
    bought = MOVES_BOUGHT.get(before.level) if before.level is not None else None
    if bought is None:
        return ""
    level = LEVEL_WORDS[before.level] if before.level is not None else ""
    return f" (stack move {bought - before.moves_left + 1} of the {bought} that {level} buys, 7.1)"


def _leadership(state: State, e: ev.StackMoved) -> str:
    """7.3.4: what gave the +1, the leader by name when a leader block did."""
    loc = BOARD.locations[e.origin]
    if loc.capital is e.side:
        return (f"Leadership +1: {place(e.origin)} is {side_name(e.side)}'s capital (4.5)")
    if loc.castle is e.side and castle_controller(state, e.origin) is e.side:
        return (f"Leadership +1: the {side_name(e.side)} castle at {place(e.origin)}, which "
                f"{side_name(e.side)} controls (4.3)")
    leaders = [b for b in blocks_at(state, e.origin, e.side) if FACES[b].leader]
    moving = [b for b in leaders if b in e.paths]
    if moving or leaders:
        how = "moving with the stack" if moving else "standing there"
        return (f"Leadership +1 from {faces_words(tuple(moving or leaders))} at "
                f"{place(e.origin)}, {how} (a leader used for a move is declared, C10)")
    return "Leadership +1"


def _overrun(before: State, e: ev.Overrun) -> Ruling:
    victims = side_name(e.side)
    winners = e.side.opponent
    present = len(blocks_at(before, e.location, winners))
    enemy = units_count(before, e.location, e.side)
    return _r("7.4.1", f"Overrun at {place(e.location)}: {side_name(winners)} has "
              f"{_blocks(present)} against {count_words(enemy, 'unit')} of {victims}: "
              f"{present} is at least 4 x {enemy} = {4 * enemy}, and {victims} holds no castle "
              f"there; {victims} loses {faces_words(e.blocks)} (7.4.2)")


def _declared(before: State, e: ev.CombatDeclared) -> Ruling:
    who = side_name(e.attacker)
    mine = len(blocks_at(before, e.location, e.attacker))
    theirs = units_count(before, e.location, e.attacker.opponent)
    owner = (f"; the castle there belongs to {side_name(e.owner)} (8.9.1)"
             if e.owner is not None else "")
    if e.from_retreat:
        return _r("8.8.5", f"The retreat into {place(e.location)} meets "
                  f"{side_name(e.attacker.opponent)}: a new combat there, {who} attacking{owner}")
    return _r("8.1", f"{who} declares combat at {place(e.location)}: {_blocks(mine)} against "
              f"{count_words(theirs, 'unit')}{owner}")


def _opened(after: State, e: ev.CombatOpened) -> Ruling:
    p = after.pending
    attacker = p.attacker if p is not None else None
    if e.siege:
        inside = faces_words(e.inside) if e.inside else "no block, only its disk"
        who = side_name(attacker) if attacker else "the attacker"
        return _r("8.9.1", f"Siege of {place(e.location)}: {who} besieges; inside the castle: "
                  f"{inside}")
    sides = ", ".join(f"{side_name(s)} {_blocks(len(blocks_at(after, e.location, s)))}"
                      for s in Side)
    lead = f"{side_name(attacker)} attacks" if attacker else "the battle opens"
    return _r("8.2", f"Battle at {place(e.location)}: {lead} ({sides})")


def _combat_ended(before: State, e: ev.CombatEnded) -> list[Ruling]:
    won = f"{side_name(e.winner)} wins" if e.winner else "nobody wins"
    lost = "; ".join(f"{side_name(s)} loses {faces_words(b)}" for s, b in sorted(e.losses.items()))
    disks = f"; disks lost: {faces_words(tuple(d.value for d in e.disks_lost))}" \
        if e.disks_lost else ""
    castle = ""
    if e.siege:
        castle = "; the castle falls" if e.castle_falls else "; the castle holds"
    out = [_r("8.7.2", f"Combat at {place(e.location)} ends, {won}: {lost}{disks}{castle}; "
              "the blocks lost go to the casualty tray")]
    if e.retreating is not None:
        gone = set(e.losses.get(e.retreating, ()))
        left = set(blocks_at(before, e.location, e.retreating)) - gone
        out.append(_r("8.8.1", f"{side_name(e.retreating)} lost the battle with "
                      f"{_blocks(len(left))} left there: they must retreat"))
    return out


def _retreated(before: State, e: ev.Retreated) -> Ruling:
    who = side_name(e.side)
    p = before.pending
    legal, _ = retreat_options(before)
    attacker = p is not None and p.attacker is e.side
    rule = "8.8.2" if attacker else "8.8.3"
    why = ("the attacker retreats to a location it came from"
           if attacker else "the defender retreats to an adjacent location with no enemy "
           "unit, and not one the attacker came from")
    stay = "stays" if len(e.into_castle) == 1 else "stay"
    inside = (f"; {faces_words(e.into_castle)} {stay} inside the castle (8.8.4: up to two)"
              if e.into_castle else "")
    moving = [b for b in e.blocks if b not in e.into_castle]
    if e.destination is None:
        return _r("8.8.4", f"{who} retreats nobody out of {place(e.origin)}{inside}")
    join = ("; they join the friendly blocks besieged in the castle there (8.8.5)"
            if e.join_castle else "")
    options = ", ".join(place(x) for x in legal) or "none"
    return _r(rule, f"{who} retreats {faces_words(tuple(moving))} from {place(e.origin)} to "
              f"{place(e.destination)} ({why}; the legal destinations were {options})"
              f"{inside}{join}")


def _won(state: State, e: ev.GameWon) -> list[Ruling]:
    if not e.score:
        reason = e.reason
        rule = reason[reason.rfind("(") + 1:-1] if reason.endswith(")") else "2.1"
        plain = reason[:reason.rfind(" (")] if reason.endswith(")") else reason
        return [_r(rule, f"{plain}: {side_name(e.winner)} wins at once (instant victory)")]
    out = []
    for side in Side:
        castles = [c for c in CASTLES if castle_controller(state, c) is side]
        resources = sorted(loc for loc, s in state.resource_control.items() if s is side)
        total = 2 * len(castles) + len(resources)
        out.append(_r("2.2", (
            f"{side_name(side)}: {len(castles)} castles x 2 = {2 * len(castles)} "
            f"({', '.join(place(c) for c in castles) or 'none'}) + "
            f"{count_words(len(resources), 'Resource Location')} x 1 = {len(resources)} "
            f"({', '.join(place(r) for r in resources) or 'none'}) = {total} victory points"
            + ("" if total == e.score.get(side, total)
               else f" (recorded {e.score.get(side)})"))))
    scores = [e.score.get(s, 0) for s in Side]
    tie = "; a tie goes to Ishida" if scores[0] == scores[1] else ""
    out.append(_r("2.2", f"End of week {state.week}, the last: {side_name(e.winner)} wins on "
                  f"victory points ({tally_words(e.score)}){tie}"))
    return out
