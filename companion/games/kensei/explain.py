"""Stored Kensei battles for the referee: why an entry was ruled as it was, and the battle after
entry N in one of the views (public, each army's, the referee's).

:func:`explain_entry` re-adjudicates entries 1..N-1, judges entry N again and reports the rule
that governs its command and each event in plain words with its rule and arithmetic
(:mod:`.explain_words`): the order roll's INI terms, a melee's pools, hits, wounds and honour
roll, every victory point of the score. :data:`RECORDS` is what the referee tools use
(:mod:`companion.core.referee_cli`); the game-neutral half is :mod:`companion.core.explain`.
"""

from __future__ import annotations

from typing import Any

from companion.core import explain as core_explain
from companion.core.records import GameRecords, Rebuilt
from companion.core.store import GameLog
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import State
from companion.games.kensei.battle.views import public_view, referee_view, side_view
from companion.games.kensei.explain_words import (
    MARKER_NAMES,
    SCENARIO_NAMES,
    Words,
    command_words,
    event_rulings,
    plural,
)
from companion.games.kensei.records import COMMANDS, GAME, check, seal_points, undo_policy

VIEWS = ("public", "a", "b", "referee")

COMMAND_RULES: dict[str, str] = {
    "begin": "B1.3, B14", "scenario_roll": "B15", "strategy_roll": "B1.3",
    "choose_side": "B1.3", "scenery_roll": "B1.3", "secondary_mission": "B1.3, B15",
    "deploy": "B1.3", "hold_back": "B12", "draw_cards": "B3.1, B9.1",
    "retreat_honour": "B3.1, B7", "initiative_roll": "B3.2", "command_duel": "B9.1",
    "activate": "B3.3", "order_roll": "B3.3", "order": "B3.3, B4", "melee": "B5, B7, B8",
    "shoot": "B6, B7, B8", "offering": "B9.1", "marker": "B1.1",
    "end_activation": "B3.3", "commander_activation": "B3.3, B9.1", "end_turn": "B3.1, B3.3",
    "score": "B15", "concede": "B15",
}
"""The sections that judge each command."""

PHASES = {"setup": "Before the battle", "scenario": "The scenario roll (B15)",
          "strategy": "The strategy roll (B1.3)", "side": "Choosing side and role (B1.3)",
          "scenery": "The scenery (B1.3)", "secondary": "The secret secondary missions (B1.3)",
          "deployment": "Deployment (B1.3)", "maintenance": "Maintenance (B3.1)",
          "initiative": "Initiative (B3.2)", "activation": "Activations (B3.3)",
          "scoring": "The battle is over: scoring (B15)", "over": "The battle is over (B15)"}


def view_at(log: GameLog, at: int, view: str) -> dict[str, Any]:
    """The battle after entry ``at`` (0: before the first), as the JSON of the asked view."""
    return core_explain.view_at(log, at, view, KenseiRules(), COMMANDS, undo_policy, _view)


def _view(state: State, view: str) -> dict[str, Any]:
    if view == "public":
        return public_view(state)
    if view == "referee":
        return referee_view(state)
    return side_view(state, "a" if view == "a" else "b")


def view_text(shown: dict[str, Any]) -> str:
    """A readable page of :func:`view_at`'s result: armies, troops and markers by name."""
    battle = shown["state"]
    armies = battle.get("armies") or {}
    names = {s: str(a.get("name")) for s, a in armies.items()}
    view = shown["view"]
    which = (core_explain.view_name(view) if view in ("public", "referee")
             else f"{names.get(view, view)}'s view")
    lines = [f"after entry {shown['entry']} ({which}) of {shown['entries']}: {shown['what']}"]
    phase = PHASES.get(str(battle.get("phase")), str(battle.get("phase")))
    turn = f", turn {battle['turn']}" if battle.get("turn") else ""
    lines.append(f"{phase}{turn}")
    if battle.get("scenario"):
        lines.append(f"Scenario {battle['scenario']}, "
                     f"{SCENARIO_NAMES.get(battle['scenario'], '')}")
    if battle.get("initiative"):
        lines.append(f"{names.get(battle['initiative'], '')} holds the initiative")
    if battle.get("vp"):
        lines.append("Victory points: " + ", ".join(f"{names.get(s, s)} {n}"
                                                    for s, n in battle["vp"].items()))
    decks = battle.get("deck") or {}
    for side, name in names.items():
        own = decks.get(side) if isinstance(decks, dict) else None
        cards = (f"; {plural(int(own['hand']), 'command card')} in hand, "
                 f"{int(own['pile'])} in the deck" if isinstance(own, dict) else "")
        hidden = (battle.get("off_table") or {}).get(side)
        off = f"; {plural(int(hidden), 'troop')} off the table" if hidden else ""
        lines.append(f"{name}{cards}{off}")
        on_view = [t for t in battle.get("troops", []) if t.get("side") == side]
        lines += ["  " + _troop_line(troop) for troop in on_view]
        ids = {t.get("id") for t in on_view}
        lines += ["  " + _troop_line(troop) + " (only this army sees it)"
                  for troop in battle.get("own_troops", [])
                  if troop.get("side") == side and troop.get("id") not in ids]
    for key in ("hands", "hand"):
        if battle.get(key):
            lines.append(f"Cards in hand (secret): {_hands(battle[key], names)}")
    return "\n".join(lines)


def _troop_line(troop: dict[str, Any]) -> str:
    marks = [MARKER_NAMES[m] for m in MARKER_NAMES if troop.get(m)]
    if troop.get("wound_markers"):
        marks.append(plural(int(troop["wound_markers"]), "wound marker"))
    models = (f"{troop.get('models')} of {troop.get('models_start')} models"
              if int(troop.get("models_start") or 1) > 1 else "a single model")
    state = "" if troop.get("alive", True) else ", destroyed"
    extra = ", the general" if troop.get("general") else ""
    extra += ", in the reserve" if troop.get("in_reserve") else ""
    return (f"{troop.get('name')}: {models}{extra}{state}"
            + (f"; {', '.join(marks)}" if marks else ""))


def _hands(hands: Any, names: dict[str, str]) -> str:
    if isinstance(hands, dict) and "hand" in hands:
        hands = {"": hands}
    parts = []
    for side, held in hands.items():
        values = [str(c.get("value")) for c in (held or {}).get("hand", [])]
        who = f"{names.get(side, '')} " if side else ""
        parts.append(f"{who}worth {', '.join(values) or 'nothing'}")
    return "; ".join(parts)


def explain_entry(log: GameLog, n: int) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was (see the module docstring)."""
    rules = KenseiRules()

    def rulings(before: State, produced: list[Any]) -> list[core_explain.Ruling]:
        out: list[core_explain.Ruling] = []
        state = before
        for event in produced:
            out += event_rulings(Words.of(state), state, event)
            state = rules.apply(state, event)
        return out

    return core_explain.explain_entry(log, n, rules, COMMANDS, undo_policy, COMMAND_RULES,
                                      rulings,
                                      said=lambda s, c: command_words(Words.of(s), c))


def standing(_log: GameLog, rebuilt: Rebuilt[Any]) -> str:
    """How a verified battle stands: the winner and victory points, or where it is."""
    state: State = rebuilt.state
    words = Words.of(state)
    if state.phase == "over":
        vp = ", ".join(f"{words.side(s)} {state.vp.get(s, 0)} VP" for s in ("a", "b"))
        won = f"{words.side(state.winner)} won" if state.winner else "a draw"
        return f"{won} ({vp})"
    turn = f", turn {state.turn}" if state.turn else ""
    return f"{PHASES.get(state.phase, state.phase)}{turn}"


RECORDS = GameRecords(game=GAME, views=VIEWS, check=check, standing=standing, view_at=view_at,
                      view_text=view_text, explain_entry=explain_entry,
                      seal_points=seal_points)
"""Named by Kensei's descriptor (``records``)."""
