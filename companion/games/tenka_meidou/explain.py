"""Stored Tenka Meidou games for the referee: why an entry was ruled as it was, and the table
after entry N in one of the views (public, a player's, the referee's).

:func:`explain_entry` re-adjudicates entries 1..N-1, judges entry N again and reports the
sections that govern its command and each event in plain words with its section and arithmetic
(:mod:`.explain_words`): the dice of a deployment, the War zone by zone (5.II) and every term
of the final score (6). :data:`RECORDS` is what the referee tools use
(:mod:`companion.core.referee_cli`); the game-neutral half is :mod:`companion.core.explain`.
"""

from __future__ import annotations

from typing import Any

from companion.core import explain as core_explain
from companion.core.records import GameRecords, Rebuilt
from companion.core.store import GameLog
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.events import TenkaEvent
from companion.games.tenka_meidou.explain_words import Words, command_words, event_rulings, who
from companion.games.tenka_meidou.records import (
    COMMANDS,
    GAME,
    check,
    seal_points,
    undo_policy,
)
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.views import player_view, public_view, referee_view

VIEWS = ("public", *(c.value for c in Colour), "referee")

COMMAND_RULES: dict[str, str] = {
    "start": "3", "choose_daimyo": "9", "deploy": "5.I.1", "tactic": "5.I.2, 7",
    "daimyo": "9, 10",
}
"""The sections that judge each command."""



def view_at(log: GameLog, at: int, view: str) -> dict[str, Any]:
    """The table after entry ``at`` (0: before the first), as the JSON of the asked view."""
    return core_explain.view_at(log, at, view, TenkaRules(), COMMANDS, undo_policy, _view)


def _view(state: State, view: str) -> dict[str, Any]:
    if view == "public":
        return public_view(state).payload.model_dump(mode="json")
    if view == "referee":
        return referee_view(state).payload.model_dump(mode="json")
    return player_view(state, Colour(view)).payload.model_dump(mode="json")


PHASES = {"setup": "Set-up", "daimyo": "The Daimyo draft (9)",
          "deployment": "The Deployment phase (5.I)", "over": "The War is fought (5.II)"}


def view_text(shown: dict[str, Any]) -> str:
    """A readable page of :func:`view_at`'s result: zones, cards and colours by name."""
    words = Words(TenkaRules())
    table = shown["state"]
    turn = f", {who(table['current'])} to play" if table.get("current") else ""
    lines = [f"after entry {shown['entry']} ({core_explain.view_name(shown['view'])}) of "
        f"{shown['entries']}: "
             f"{shown['what']}",
             f"{PHASES.get(table['phase'], table['phase'])}; players "
             f"{', '.join(who(c) for c in table['players']) or 'not yet seated'}{turn}"]
    if table.get("war"):
        war = table["war"]
        lines.append(f"{who(war['winner'])} won; castle points "
                     + ", ".join(f"{who(c)} {n}" for c, n in war["scores"].items()))
    lines.append("Soldiers in reserve: "
                 + (", ".join(f"{who(c)} {n}" for c, n in table["reserve"].items()) or "none"))
    waiting = [who(c) for c in table["daimyo"] if c not in (table.get("daimyo_at") or {})]
    if waiting:
        lines.append(f"Daimyo pawns still in reserve: {', '.join(waiting)}")
    lines.append("Swords: " + (", ".join(f"{who(c)} {n}" for c, n in table["swords"].items())
                               or "none taken yet"))
    offer = table.get("tactic_offer") or []
    lines.append("Tactic offer: " + (", ".join(words.tactic(t) for t in offer) or "empty"))
    used = table.get("tactic_used") or {}
    if used:
        lines.append("Tactic cards used: "
                     + ", ".join(f"{who(c)} {words.tactic(t)}" for c, t in used.items()))
    if table["daimyo"]:
        lines.append("Daimyo cards: " + ", ".join(
            f"{who(c)} {words.card(card) if card else 'face down'}"
            for c, card in table["daimyo"].items()))
    daimyo_at = table.get("daimyo_at") or {}
    lines.append("Zones, lowest castle first (soldiers by colour):")
    for zone, value in sorted(table["castles"].items(), key=lambda item: item[1]):
        here = table["soldiers"].get(zone, {})
        pawns = [f"{who(c)} {n}" for c, n in sorted(here.items()) if n]
        pawns += [f"{who(c)}'s Daimyo" for c, at in sorted(daimyo_at.items()) if at == zone]
        lines.append(f"  {words.zone(zone)} ({value}): {', '.join(pawns) or 'empty'}")
    return "\n".join(lines)


def explain_entry(log: GameLog, n: int) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was (see the module docstring)."""
    rules = TenkaRules()
    words = Words(rules)

    def rulings(before: State, produced: list[TenkaEvent]) -> list[core_explain.Ruling]:
        out: list[core_explain.Ruling] = []
        state = before
        for event in produced:
            out += event_rulings(words, state, event)
            state = rules.apply(state, event)
        return out

    return core_explain.explain_entry(log, n, rules, COMMANDS, undo_policy, COMMAND_RULES,
                                      rulings, said=lambda _, c: command_words(words, c))


def standing(_log: GameLog, rebuilt: Rebuilt[Any]) -> str:
    """How a verified game stands: the winner and scores, or whose turn it is."""
    state: State = rebuilt.state
    if state.phase is Phase.OVER and state.war is not None:
        scores = ", ".join(f"{c.value} {n}" for c, n in state.war.scores.items())
        return f"{state.war.winner.value} won ({scores})"
    return f"{state.phase.value}, {state.current.value if state.current else 'no'} to play"


RECORDS = GameRecords(game=GAME, views=VIEWS, check=check, standing=standing, view_at=view_at,
                      view_text=view_text, explain_entry=explain_entry,
                      seal_points=seal_points)
"""Named by Tenka Meidou's descriptor (``records``)."""
