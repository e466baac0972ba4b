"""Tenka Meidou game records: start, resume and finish games in the store.

A game in the store (:mod:`companion.core.store`) holds every accepted command with its events;
resuming re-adjudicates every one of them through :class:`~.rules.TenkaRules`
(:mod:`companion.core.records`), so a log the rules do not give back is refused naming its entry.
The header carries the rules version; the store's ``game`` column is ``tenka-meidou``.

For the app::

    game_id, game = start(store)                 # a new game, recording
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
from companion.games.tenka_meidou.events import TenkaCommand, TenkaEvent
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State

__all__ = ["GAME", "LogRefused", "check", "finish_if_over", "progress", "result", "resume",
           "rules_version", "seal_points", "start", "undo_policy"]

GAME = "tenka-meidou"
COMMANDS = TypeAdapter[Any](TenkaCommand)
TenkaGame = Game[State, TenkaCommand, TenkaEvent]



def undo_policy(command: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
                ) -> core_records.Undoable | core_records.NotUndoable:
    """What an undo may take back (docs/referee.md, Undo): a Daimyo card chosen from the offer
    (section 9; it is face down, so taking it back shows nothing). Never dice rolled or pawns
    the readers saw placed or moved (the table is the record), a card played face up, or the
    War."""
    kind = str(command.get("type"))
    colour = str(command.get("colour", "")).capitalize()
    what = {"choose_daimyo": f"{colour}'s Daimyo choice", "deploy": f"{colour}'s deployment",
            "tactic": f"{colour}'s tactic card", "daimyo": f"{colour}'s Daimyo card",
            "start": "start of the game"}.get(kind, kind)
    if any(e.get("type") == "war_fought" for e in events):
        return core_records.NotUndoable("the War was fought (5.II)", what)
    if kind == "choose_daimyo":
        return core_records.Undoable(what, str(command.get("colour")))
    if kind == "start":
        return core_records.NotUndoable("it started the game: use New game instead", what)
    if kind == "deploy":
        return core_records.NotUndoable("the dice were rolled and the readers saw the pawns "
                                        "placed: the table is the record", what)
    return core_records.NotUndoable("the card was shown and the readers saw its pawns move",
                                    what)


def progress(log: GameLog) -> str:
    """How far a stored game went, for the Saved games page ("3 players, 12 turns played"),
    read from its recorded events (resuming re-adjudicates them)."""
    events = core_records.standing_events(log.entries)
    started = next((e for e in events if e.get("type") == "game_started"), None)
    if started is None:
        return "Not started"
    players = len(started.get("players", ()))
    turns = sum(1 for e in events
                if e.get("type") in ("deployed", "tactic_played", "daimyo_played"))
    mode = "advanced" if started.get("advanced") else "basic"
    if any(e.get("type") == "war_fought" for e in events):
        return f"{players} players, {mode} game: the War is fought"
    return (f"{players} players, {mode} game: {turns} turn{'s' if turns != 1 else ''} "
            "played")


def check(log: GameLog, *, count: int | None = None, head: str | None = None) -> Rebuilt[State]:
    """The hash chain, then re-adjudication, then the stored end against the record;
    LogRefused at the first entry at fault."""
    return core_records.check(log, GAME, "Tenka Meidou", TenkaRules(), COMMANDS, count=count,
                              head=head, undo=undo_policy, result=result)


def result(state: State) -> str | None:
    """The game's result as stored, once the War is fought and scored (5.II, 6): "red wins
    (red 31, blue 27)"; None before."""
    war = state.war
    if state.phase is not Phase.OVER or war is None:
        return None
    scores = ", ".join(f"{c.value} {n}" for c, n in war.scores.items())
    return f"{war.winner.value} wins ({scores})"


def seal_points(entries: Sequence[Entry]) -> list[tuple[int, str]]:
    """Where a seal is shown (:mod:`companion.core.seals`): the entry whose War ends the game
    (5.II), "game". The War cannot be undone, so there is one."""
    for entry in entries:
        raw = entry.data.get("events") if entry.kind == "command" else None
        if isinstance(raw, list) and any(isinstance(e, dict) and e.get("type") == "war_fought"
                                         for e in raw):
            return [(entry.seq, "game")]
    return []


def start(store: Store, rules: TenkaRules | None = None) -> tuple[int, TenkaGame]:
    """A new game in ``store``, recording every accepted command."""
    game_id = store.create_game(GAME, {"rules_version": rules_version()})
    game: TenkaGame = Game(rules or TenkaRules(), recorder=CommandRecorder(store, game_id))
    return game_id, game


def resume(store: Store, game_id: int, rules: TenkaRules | None = None
           ) -> tuple[int, TenkaGame]:
    """Rebuild a stored game by re-adjudicating it; recording resumes where it stopped.
    Raises LogRefused if the log does not hold, StoreError if it cannot be read."""
    log = store.load(game_id)
    rebuilt = check(log)
    game: TenkaGame = Game(rules or TenkaRules(), rebuilt.events,
                           recorder=CommandRecorder(store, game_id,
                                                    last=core_records.last_standing(log.entries)))
    return game_id, game


def finish_if_over(store: Store, game_id: int, game: TenkaGame) -> bool:
    """Mark the game finished once the War is fought and scored (5.II, 6)."""
    ended = result(game.state)
    if ended is None:
        return False
    store.finish(game_id, ended)
    return True
