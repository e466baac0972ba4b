"""Why a stored entry was ruled as it was, and how the game stood after it (for the referee).

:func:`explain_entry` re-adjudicates entries 1..N-1, then judges entry N again and reports the
rules that govern its command and every event as a ruling in plain words with its rule and
arithmetic (:mod:`.explain_words`, :mod:`.explain_combat`: bids 6.3, movement 7.1-7.3 and its
Leadership, musters 7.2, Mōri 9.3, Overruns 7.4, each deployment's Impact 8.3-8.4, losses 8.7,
ties 8.2.1, retreats 8.8, cards 8.10, every victory-point term 2.2). :func:`view_at` is the
game after entry N in one of the four views (public, one side's, the referee's).
:data:`RECORDS` is what the referee tools use (:mod:`companion.core.referee_cli`); the
game-neutral half is :mod:`companion.core.explain`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import explain as core_explain
from companion.core.records import GameRecords
from companion.core.store import GameLog
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import FACES
from companion.games.sekigahara.engine.feed import card_words, face_words, place
from companion.games.sekigahara.engine.game import COMMANDS, SekigaharaRules
from companion.games.sekigahara.engine.state import State
from companion.games.sekigahara.engine.views import public_view, referee_view, side_view
from companion.games.sekigahara.explain_combat import combat_rulings
from companion.games.sekigahara.explain_words import command_words, event_rulings
from companion.games.sekigahara.records import (
    GAME,
    Rebuilt,
    check,
    manifest_hash,
    seal_points,
    undo_policy,
)

VIEWS = ("public", "tokugawa", "ishida", "referee")

COMMAND_RULES: dict[str, str] = {
    "start_game": "5.1, 5.2.1",
    "draw_blocks": "5.2.2, 5.2.3, 6.2",
    "bid": "6.3, C11",
    "choose_first": "6.3",
    "buy_movement": "7.1",
    "muster": "7.1, 7.2",
    "bring_mori": "9.3",
    "move_stack": "7.3, 7.4, 8.9.6, 4.2",
    "end_phase": "6.4, 8.1",
    "declare_combat": "8.1, 8.9.2",
    "choose_inside": "8.9.2",
    "deploy": "8.2-8.4, 8.6",
    "challenge": "8.6",
    "finish": "8.5, 8.9.4",
    "take_losses": "8.7",
    "retreat": "8.8.1-8.8.5",
}
"""The rules that judge each command (docs/engine.md, Commands)."""


def view_at(log: GameLog, at: int, view: str) -> dict[str, Any]:
    """The game after entry ``at`` (0: before the first), as the JSON of the asked view."""
    return core_explain.view_at(log, at, view, SekigaharaRules(), COMMANDS, undo_policy, _view)


def _view(state: State, view: str) -> dict[str, Any]:
    if view == "public":
        return public_view(state).payload.model_dump(mode="json")
    if view == "referee":
        return referee_view(state).payload.model_dump(mode="json")
    return side_view(state, Side(view)).payload.model_dump(mode="json")


PHASES = {"setup": "Set-up", "reinforcement": "Reinforcement Step", "bid": "Turn Order Step",
          "choose_first": "Turn Order Step", "movement": "Movement Phase",
          "combat": "Combat Phase", "game_over": "the game is over"}


def view_text(shown: dict[str, Any]) -> str:
    """A readable page of :func:`view_at`'s result: places and sides by name, blocks by face
    (with their manifest id, to match the record), as far as the view shows them."""
    state = shown["state"]
    public = state.get("public", state)
    over = public["phase"] == "game_over"
    active = f", {_side(public['active'])} to play" if public.get("active") and not over else ""
    first = f"; {_side(public['first'])} moves first" if public.get("first") else ""
    lines = [
        f"after entry {shown['entry']} ({core_explain.view_name(shown['view'])}) of "
        f"{shown['entries']}: "
        f"{shown['what']}",
        f"Week {public['week']}, turn {public['turn']}: "
        f"{PHASES.get(public['phase'], public['phase'])}{active}{first}",
    ]
    if public.get("winner") is not None:
        lines.append(f"{_side(public['winner'])} won: {public.get('victory')} "
                     f"({_pairs(public.get('score') or {})})")
    lines.append(f"Cards in hand: {_pairs(public['hand'])}; draw piles: "
                 f"{_pairs(public['draw_pile'])}; discard piles: "
                 f"{_pairs(public.get('discard_pile') or {})}")
    lines.append("Units on the board (Ishida / Tokugawa):")
    for name, stack in sorted(public["locations"].items(), key=lambda item: place(item[0])):
        if stack["ishida"] or stack["tokugawa"]:
            lines.append(f"  {place(name)}: {stack['ishida']} / {stack['tokugawa']}")
    blocks: dict[str, str] = state.get("positions") or state.get("blocks") or {}
    if blocks:
        lines.append("Blocks (the manifest id after each face):")
        by_zone: dict[str, list[str]] = {}
        for block, zone in sorted(blocks.items()):
            by_zone.setdefault(zone, []).append(block)
        for zone, ids in sorted(by_zone.items(), key=lambda item: place(item[0])):
            named = ", ".join(f"{face_words(b)} ({b})" if b in FACES else b for b in ids)
            lines.append(f"  {place(zone)}: {named}")
    bids = state.get("bids") or {}
    if bids:
        lines.append("Bids face down: " + ", ".join(
            f"{_side(side)} {card_words(card)}" for side, card in sorted(bids.items())))
    if public.get("battle"):
        battle = public["battle"]
        lines.append(f"Combat at {place(battle['location'])}: {battle['stage']}, Impact "
                     f"{_pairs(battle['impact'])}")
    return "\n".join(lines)


def _side(value: str) -> str:
    return str(value).capitalize()


def _pairs(values: Mapping[Any, Any]) -> str:
    return ", ".join(f"{_side(getattr(k, 'value', k))} {v}" for k, v in sorted(values.items()))


def explain_entry(log: GameLog, n: int) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was (see the module docstring)."""
    return core_explain.explain_entry(log, n, SekigaharaRules(), COMMANDS, undo_policy,
                                      COMMAND_RULES, _rulings, said=command_words)


def _rulings(before: State, produced: list[ev.Event]) -> list[dict[str, Any]]:
    """Each event against the state just before it; a combat action as the combat rules'
    own events (explain_words)."""
    rules = SekigaharaRules()
    state = before
    rulings: list[dict[str, Any]] = []
    for event in produced:
        after = rules.apply(state, event)
        if isinstance(event, ev.CombatActed):
            combat_before = state.pending.combat if state.pending is not None else None
            combat_after = after.pending.combat if after.pending is not None else None
            if combat_after is not None:
                seen = len(combat_before.log) if combat_before is not None else 0
                rulings += combat_rulings(combat_after, combat_after.log[seen:])
        else:
            rulings += event_rulings(state, event, after)
        state = after
    return rulings


explain_text = core_explain.explain_text


def standing(log: GameLog, rebuilt: Rebuilt[Any]) -> str:
    """How a verified game stands: the winner, or where the game is."""
    state: State = rebuilt.state
    where = (f"{state.winner.value} won ({state.victory})" if state.winner is not None
             else f"week {state.week} turn {state.turn}, {state.phase.value}")
    manifest = ("" if log.header.get("manifest_hash") == manifest_hash()
                else "; note: made with a different block manifest")
    return where + manifest


RECORDS = GameRecords(game=GAME, views=VIEWS, check=check, standing=standing, view_at=view_at,
                      view_text=view_text, explain_entry=explain_entry,
                      seal_points=seal_points)
"""Named by Sekigahara's descriptor (``records``)."""
