"""Kensei battle records: start, resume and finish battles in the store.

A battle in the store (:mod:`companion.core.store`) holds every accepted command with its
events; every command carries its dice and card ids (the engine never rolls), so resuming
re-adjudicates each one through :class:`~.battle.rules.KenseiRules`
(:mod:`companion.core.records`) and a log the rules do not give back is refused naming its
entry. The header carries the rules version; the store's ``game`` column is ``kensei``.

For the app::

    game_id, game = start(store)                 # a new battle, recording
    game_id, game = resume(store, game_id)       # LogRefused(entry, reason) if it does not hold
    game.submit(command)                         # commits first; StoreError -> "not saved"
    finish_if_over(store, game_id, game)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from companion.core import records as core_records
from companion.core.game import Game
from companion.core.records import LogRefused, Rebuilt, rules_version
from companion.core.store import CommandRecorder, Entry, GameLog, Store
from companion.games.kensei.battle.commands import KenseiCommand
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import State

__all__ = ["GAME", "LogRefused", "check", "finish_if_over", "progress", "result", "resume",
           "rules_version", "seal_points", "start", "undo_policy"]

GAME = "kensei"
COMMANDS = TypeAdapter[Any](KenseiCommand)
KenseiGame = Game[State, Any, Any]

ROLLED = "the dice were rolled: the roll stands"
DRAWN = "the cards were drawn from the deck and seen"
SHOWN = "the cards were laid or shown: the other player has seen them"
RULED = "the ruling was applied to the troops"

NEVER: dict[str, tuple[str, str]] = {
    "scenario_roll": ("the scenario roll", ROLLED),
    "strategy_roll": ("the strategy roll", ROLLED),
    "scenery_roll": ("the scenery roll", ROLLED),
    "secondary_mission": ("{side}'s secondary-mission roll", ROLLED + ", in secret"),
    "retreat_honour": ("a retreat honour roll", ROLLED),
    "initiative_roll": ("the initiative roll", ROLLED),
    "order_roll": ("{side}'s order roll", ROLLED),
    "melee": ("the melee", ROLLED + " and " + RULED),
    "shoot": ("the shot", ROLLED + " and " + RULED),
    "draw_cards": ("{side}'s draw", DRAWN),
    "command_duel": ("{side}'s command duel bid", SHOWN),
    "offering": ("{side}'s offering", "the card was spent on a roll already made"),
    "commander_activation": ("{side}'s commander activation",
                             "the hand was discarded face down"),
    "end_activation": ("the end of the activation",
                       "the troops were marked Used and a new pair began"),
    "end_turn": ("the end of the turn", "the turn is over and maintenance began (B3.1)"),
    "score": ("the score", "the battle was scored (B15)"),
    "concede": ("{side}'s concession", "the battle is over"),
    "begin": ("the start of the battle", "it began the battle: start a new one instead"),
}
"""Commands that stand, by type: what they are and why (docs/referee.md, Undo)."""

TAKE_BACK: dict[str, str] = {
    "marker": "the {marker} marker set by hand",
    "order": "{side}'s order",
    "activate": "{side}'s activation",
    "deploy": "{side}'s deployment",
    "hold_back": "{side}'s reserve",
    "choose_side": "{side}'s choice of side and role",
}
"""Commands the players may take back, while nothing was rolled or drawn after them."""

ENDING = ("battle_ended", "battle_scored", "army_routed", "turn_ended")



def _side_name(side: object) -> str:
    return {"a": "The first army", "b": "The second army"}.get(str(side), "A player")


def undo_policy(command: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
                ) -> core_records.Undoable | core_records.NotUndoable:
    """What an undo may take back (docs/referee.md, Undo), judged on the stored command and its
    events alone: a marker set by hand, an order declared before anything was rolled on it, a
    troop named for activation before its order roll, a troop deployed or held back, the
    choice of side. Never dice rolled (the scenario, strategy, scenery, secret mission,
    initiative, order, honour, melee and shooting rolls), cards drawn, bid or offered, a
    ruling applied (a melee, a shot, troops marked Used) or the end of a turn or battle. The
    words never name a hidden troop, a card or a mission: the Undo button is on the shared
    screen."""
    kind = str(command.get("type"))
    side = command.get("side")
    fields = {"side": _side_name(side), "marker": str(command.get("marker", "")).capitalize()}
    if any(e.get("type") in ENDING for e in events):
        what = NEVER.get(kind, (TAKE_BACK.get(kind, kind.replace("_", " ")), ""))[0]
        return core_records.NotUndoable("it ended a turn or the battle", _said(what, fields))
    if kind in TAKE_BACK:
        who = str(side) if side in ("a", "b") else None
        return core_records.Undoable(_said(TAKE_BACK[kind], fields), who)
    what, why = NEVER.get(kind, (kind.replace("_", " "), RULED))
    return core_records.NotUndoable(why, _said(what, fields))


def _said(template: str, fields: Mapping[str, str]) -> str:
    text = template.format(**fields)
    return text[:1].upper() + text[1:]


def progress(log: GameLog) -> str:
    """How far a stored battle went, for the Saved games page ("Turn 3 of 5"), read from its
    recorded events (resuming re-adjudicates them)."""
    events = core_records.standing_events(log.entries)
    begun = next((e for e in events if e.get("type") == "battle_begun"), None)
    if begun is None:
        return "Not started"
    raw = begun.get("armies")
    armies: dict[str, Any] = raw if isinstance(raw, dict) else {}
    names = [str(a.get("list", {}).get("name", "?")) for a in armies.values()
             if isinstance(a, dict)]
    against = " against ".join(names) or "two armies"
    if any(e.get("type") == "battle_scored" for e in events):
        return f"{against}: the battle is over and scored"
    turns = [e.get("turn") for e in events if e.get("type") == "turn_begun"]
    if not turns:
        return f"{against}: preparing the battle"
    return f"{against}: turn {turns[-1]} of 5"


def check(log: GameLog, *, count: int | None = None, head: str | None = None) -> Rebuilt[State]:
    """The hash chain, then re-adjudication, then the stored end against the record;
    LogRefused at the first entry at fault."""
    return core_records.check(log, GAME, "Kensei", KenseiRules(), COMMANDS, count=count,
                              head=head, undo=undo_policy, result=result)


def result(state: State) -> str | None:
    """The battle's result as stored once it is scored (B15): "Kuge vanguard wins (Kuge
    vanguard 9 VP, Buke host 4 VP)", "a draw (...)"; None before."""
    if state.phase != "over":
        return None
    names = {s: a.list.name for s, a in state.armies.items()}
    scores = ", ".join(f"{names.get(s, s)} {state.vp.get(s, 0)} VP" for s in sorted(names))
    if state.winner is None:
        return f"a draw ({scores})"
    return f"{names.get(state.winner, state.winner)} wins ({scores})"


def seal_points(entries: Sequence[Entry]) -> list[tuple[int, str]]:
    """Where a seal is shown (:mod:`companion.core.seals`): the entry that ends each turn
    ("turn 2") and the one that scores the battle ("game"). Neither can be undone."""
    found: list[tuple[int, str]] = []
    for entry in entries:
        raw = entry.data.get("events") if entry.kind == "command" else None
        if not isinstance(raw, list):
            continue
        for event in raw:
            if not isinstance(event, dict):
                continue
            if event.get("type") == "turn_ended":
                found.append((entry.seq, f"turn {event.get('turn')}"))
            elif event.get("type") == "battle_scored":
                found.append((entry.seq, "game"))
    return found


def start(store: Store, rules: KenseiRules | None = None) -> tuple[int, KenseiGame]:
    """A new battle in ``store``, recording every accepted command."""
    game_id = store.create_game(GAME, {"rules_version": rules_version()})
    game: KenseiGame = Game(rules or KenseiRules(), recorder=CommandRecorder(store, game_id))
    return game_id, game


def resume(store: Store, game_id: int, rules: KenseiRules | None = None
           ) -> tuple[int, KenseiGame]:
    """Rebuild a stored battle by re-adjudicating it; recording resumes where it stopped.
    Raises LogRefused if the log does not hold, StoreError if it cannot be read."""
    log = store.load(game_id)
    rebuilt = check(log)
    game: KenseiGame = Game(rules or KenseiRules(), rebuilt.events,
                            recorder=CommandRecorder(store, game_id,
                                                     last=core_records.last_standing(
                                                         log.entries)))
    return game_id, game


def finish_if_over(store: Store, game_id: int, game: KenseiGame) -> bool:
    """Mark the battle finished once it is scored (B15)."""
    ended = result(game.state)
    if ended is None:
        return False
    store.finish(game_id, ended)
    return True
