"""What each screen may see (B17). The public view never holds a hand, a card id of a draw
or a face-down discard, an unrevealed bid, a secondary mission before the end, or which troop
a Kuroi-te player keeps hidden in the reserve."""

from __future__ import annotations

from typing import Any

from companion.core.events import Event
from companion.games.kensei.battle import deck, pregame, turn, upkeep
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.events import SecondaryRolled, TroopHeldBack
from companion.games.kensei.battle.state import SIDES, State, Troop, other
from companion.games.kensei.battle.troops import eligible, name

ENDED = ("scoring", "over")


def _troop(state: State, t: Troop) -> dict[str, Any]:
    return {
        "id": t.id, "side": t.side, "name": name(state, t), "profile": t.profile,
        "models": t.models, "models_start": t.models_start, "alive": t.alive,
        "wound_markers": t.wound_markers, "stunned": t.stunned, "used": t.used,
        "retreat": t.retreat, "dishonoured": t.dishonoured, "parapeted": t.parapeted,
        "unloaded": t.unloaded, "ran": t.ran, "leader": t.leader, "inside": t.inside,
        "immobilised": t.immobilised, "poisoned": t.poisoned, "cursed": t.cursed,
        "general": t.general, "banner": t.banner, "in_reserve": t.held_back,
        "eligible": eligible(state, t),
    }


def _hidden(state: State, t: Troop) -> bool:
    """Not on the table for everyone to see: not deployed yet, or kept in a secret reserve."""
    if t.deployed:
        return False
    return not (t.held_back and state.army(t.side).list.clan == "hattori")


def public_view(state: State) -> dict[str, Any]:
    """The shared screen's view: safe for everyone at the table."""
    act = state.activation
    view: dict[str, Any] = {
        "phase": state.phase, "turn": state.turn, "scenario": state.scenario,
        "strategy_winner": state.strategy_winner, "roles": dict(state.roles),
        "scenery": state.scenery, "initiative": state.initiative,
        "armies": {s: {"name": a.list.name, "clan": a.list.clan,
                       "commander_level": a.list.commander_level, "size": a.list.size}
                   for s, a in state.armies.items()},
        "troops": [_troop(state, t) for t in state.troops.values() if not _hidden(state, t)],
        "off_table": {s: sum(_hidden(state, t) for t in state.side_troops(s)) for s in
                      state.armies},
        "activation": None if act is None else {
            "troops": dict(act.troops), "orders": dict(act.orders), "left": dict(act.left),
            "ki": dict(act.ki), "combat_order": dict(act.combat_order),
            "ordered": list(act.ordered), "solo": act.solo},
        "extra": state.extra, "general_dead": dict(state.general_dead),
        "routed": state.routed, "conceded": state.conceded, "end_reason": state.end_reason,
        "vp": dict(state.vp), "winner": state.winner,
        "secondary": {s: (state.secondary.get(s) if state.phase in ENDED else
                          "rolled" if s in state.secondary else None) for s in SIDES},
        "deck": None if state.decks is None else deck.public(state.decks),
        "due": due(state),
        "open_roll": None if state.open_roll is None else {
            "name": state.open_roll.name, "key": state.open_roll.key,
            "dice": list(state.open_roll.dice), "added": list(state.open_roll.added)},
    }
    return view


def side_view(state: State, side: Side) -> dict[str, Any]:
    """One player's private screen: the public view, their hand and their secrets."""
    view = public_view(state)
    view["side"] = side
    view["secondary_die"] = state.secondary.get(side)
    view["own_troops"] = [_troop(state, t) for t in state.side_troops(side)]
    view["hand"] = None if state.decks is None else deck.private(state.decks, side)
    return view


def referee_view(state: State) -> dict[str, Any]:
    """Everything, for the referee and the record's verifier."""
    view = public_view(state)
    view["secondary"] = dict(state.secondary)
    view["troops"] = [_troop(state, t) for t in state.troops.values()]
    view["hands"] = None if state.decks is None else {
        s: deck.private(state.decks, s) for s in SIDES}
    return view


def public_event(event: Event) -> dict[str, Any]:
    """An event as a public record may hold it (B17): card ids become counts (an id reveals
    its value), a secondary-mission die and a hidden reserve troop are left out; revealed
    cards (a duel's bids, an offering that adds) keep their values."""
    data = event.model_dump(mode="json")
    if isinstance(event, deck.DuelRevealed):
        return {"type": event.type, "sums": data["sums"],
                "bids": {s: sorted(deck.card_value(c) for c in getattr(event.bids, s))
                         for s in SIDES},
                "initiative_before": event.initiative_before,
                "initiative_after": event.initiative_after}
    if isinstance(event, deck.OfferingMade):
        data.pop("card")
        return data
    if isinstance(event, deck.EVENT_CLASSES):
        return {k: len(v) if k in ("cards", "under") else v for k, v in data.items()}
    if isinstance(event, SecondaryRolled):
        return {"type": event.type, "side": event.side}
    if isinstance(event, TroopHeldBack) and event.hidden:
        return {"type": event.type, "side": event.side, "hidden": True}
    return data


def due(state: State) -> dict[str, Any]:
    """What the battle waits for: the commands that may come next and who gives them, for the
    screens to offer (never a secret: only sides, public troop ids and counts)."""
    phase = state.phase
    simple = {"setup": "begin", "scenario": "scenario_roll", "strategy": "strategy_roll",
              "scenery": "scenery_roll", "initiative": "initiative_roll", "scoring": "score"}
    if phase in simple:
        return _roll({"commands": [simple[phase]], "sides": []}, state)
    if phase == "side":
        return {"commands": ["choose_side"], "sides": [state.strategy_winner]}
    if phase == "secondary":
        return {"commands": ["secondary_mission"],
                "sides": [s for s in SIDES if s not in state.secondary]}
    if phase == "deployment":
        side = pregame.deployer(state)
        return {"commands": ["deploy", "hold_back"], "sides": [side] if side else []}
    if phase == "maintenance":
        draw = [s for s in SIDES if s not in state.drawn]
        retreat = [t.id for t in state.troops.values() if t.alive and t.retreat
                   and not _hidden(state, t)]
        upkept = upkeep.entry_due(state) + upkeep.regeneration_due(state)
        if not draw and not retreat and upkept:   # B12 entry, B9.3 regeneration
            commands = (["enter"] if upkeep.entry_due(state) else []) + (
                ["regeneration"] if upkeep.regeneration_due(state) else [])
            sides = [s for s in SIDES if any(state.troops[t].side == s for t in upkept)]
            return _roll({"commands": commands, "sides": sides, "troops": upkept}, state)
        return _roll({"commands": ["draw_cards"] if draw else ["retreat_honour"],
                      "sides": draw, "troops": retreat}, state)
    if phase == "activation":
        return _roll(_activation_due(state), state)
    return {"commands": [], "sides": []}


def _roll(due: dict[str, Any], state: State) -> dict[str, Any]:
    """``roll``: the name of the roll just made, open to offerings (B9.1), when a player holds
    a card to offer."""
    roll, decks = state.open_roll, state.decks
    if roll is not None and decks is not None and any(decks.side(s).hand for s in SIDES):
        return {**due, "roll": roll.name}
    return due


def _activation_due(state: State) -> dict[str, Any]:
    decks, act = state.command_decks, state.activation
    if decks.duel is not None:
        return {"commands": ["command_duel"], "sides": [state.initiative]}
    if act is not None and act.challenge is not None and act.challenge.accepted is None:
        return {"commands": ["duel_answer"], "sides": [other(act.challenge.side)]}
    if act is None:
        ready = [s for s in SIDES if any(eligible(state, t) for t in state.side_troops(s))]
        extra = turn.extra_due(state)
        if len(ready) == 2:
            return {"commands": ["activate", "command_duel"], "sides": ready}
        commands = (["activate"] if extra or state.extra else []) + ["commander_activation",
                                                                      "end_turn"]
        return {"commands": commands, "sides": ready}
    if act.solo is None and len(act.troops) < 2:
        return {"commands": ["activate"], "sides": [s for s in SIDES if s not in act.troops]}
    rolls = [s for s in act.troops if s not in act.orders]
    if rolls:
        return {"commands": ["order_roll"], "sides": rolls}
    return {"commands": ["order", "melee", "shoot", "offering", "marker", "end_activation"],
            "sides": [s for s in SIDES if act.left.get(s, 0) > 0]}
