"""Sekigahara game records: start, resume, re-adjudicate, export and import stored games.

A stored game (:mod:`companion.core.store`) holds every accepted command with its events.
Nothing here trusts the recorded events: :func:`readjudicate` runs every stored command through
the rules again from the start and requires the very events that were recorded, so a log with
a teleported stack, a flipped winner or a damaged line is refused naming its entry (and never
raises a raw ``AssertionError``/``KeyError``).

For the app (the lead's ``companion run``)::

    store = Store.open(db_path)                  # StoreError: say it on screen
    game_id, game = start(store)                 # a new game, recording
    game_id, game = resume(store, game_id)       # LogRefused(entry, reason) if it does not
                                                 # re-adjudicate
    game.submit(command)                         # commits first; StoreError -> "not saved"
    finish_if_over(store, game_id, game)

Exports (``export_text``, ``read_export``, ...) are every game's format,
:mod:`companion.core.exports`; a Sekigahara header adds ``manifest_hash``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.core import exports
from companion.core import records as core_records
from companion.core.chain import canonical_json
from companion.core.exports import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    Export,
    export_lines,
    export_text,
    open_log,
    read_export,
    write_export,
)
from companion.core.records import rules_version
from companion.core.store import CommandRecorder, Entry, GameLog, Store
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import FACES
from companion.games.sekigahara.engine.feed import place
from companion.games.sekigahara.engine.game import (
    COMMANDS,
    SekigaharaGame,
    SekigaharaRules,
    new_game,
)
from companion.games.sekigahara.engine.state import Phase, State

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "GAME", "Export", "LogRefused", "Rebuilt",
           "check", "export_lines", "export_text", "finish_if_over", "import_export",
           "open_log", "progress", "read_export", "readjudicate", "result", "resume",
           "rules_version", "seal_points", "start", "step", "undo_policy", "write_export"]

GAME = "sekigahara"



def manifest_hash() -> str:
    """sha256 of the block manifest (id -> face) the rules use: block ids only mean the same
    faces under the same manifest."""
    faces = {b: f.model_dump(mode="json") for b, f in sorted(FACES.items())}
    return hashlib.sha256(canonical_json(faces).encode("utf-8")).hexdigest()


def new_header() -> dict[str, Any]:
    return {"rules_version": rules_version(), "manifest_hash": manifest_hash()}


Rebuilt = core_records.Rebuilt
LogRefused = core_records.LogRefused


# ---------------------------------------------------------------------- undo

TAPPED = {
    "bid": "bid", "choose_first": "choice of who moves first", "buy_movement": "choice of movement",
    "declare_combat": "combat declared", "choose_inside": "castle choice",
    "finish": "\u201chas finished\u201d",
}
"""Commands tapped on the touchscreen that an undo may take back, by what the button says."""

SEEN = {
    "draw_blocks": "blocks drawn from the bag", "muster": "the muster",
    "bring_mori": "the M\u014dri blocks brought in", "move_stack": "the move",
    "deploy": "the deployment", "take_losses": "the losses", "retreat": "the retreat",
}
"""Commands the readers saw (blocks moved): the blocks on the table are the record."""

OTHER = {"challenge": "Loyalty Challenge", "start_game": "start of the game"}

REVEALS = {
    "cards_drawn": "cards are drawn, and they cannot go back unseen",
    "bids_revealed": "both bids are shown",
    "combat_ended": "the battle is decided",
    "game_won": "the game is over",
}
"""Events after which nothing can be taken back: something hidden was shown or decided."""


def _tapped(kind: str, command: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
            ) -> str:
    """What the Undo button calls a tap (public words only), "" for one it never undoes."""
    if kind == "end_phase":
        began = next((e for e in events if e.get("type") == "phase_began"), None)
        return ("End movement" if began is not None and began.get("phase") == "combat"
                else "End combat phase")
    if kind == "declare_combat":
        where = place(str(command.get("location")))
        return f"{'choice to stay inside' if command.get('inside') else 'attack'} at {where}"
    if kind == "choose_inside":
        return f"choice to {'stay inside' if command.get('inside') else 'fight outside'}"
    return TAPPED.get(kind, "")


def undo_policy(command: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
                ) -> core_records.Undoable | core_records.NotUndoable:
    """What an undo may take back (docs/referee.md, Undo): a touchscreen tap (a bid, the
    first player, a movement level, End movement or End combat phase, a combat declared, a
    castle choice, "has finished") whose events showed nothing hidden. Never a change the
    readers saw (the blocks are the record: move them as the rules allow instead), a Loyalty
    Challenge (a card was shown, 8.6) or the start of the game."""
    kind = str(command.get("type"))
    side = command.get("side")
    who = f"{str(side).capitalize()}'s " if side else ""
    label = _tapped(kind, command, events)
    seen = SEEN.get(kind, "").removeprefix("the ")
    what = f"{who}{label or seen or OTHER.get(kind, kind.replace('_', ' '))}"
    if kind == "finish":
        what = f"\u201c{str(side).capitalize()} has finished\u201d"
    if kind in SEEN:
        return core_records.NotUndoable(
            f"the readers saw {SEEN[kind]}, and the blocks on the table are the record", what)
    if kind == "challenge":
        return core_records.NotUndoable("a Loyalty Challenge shows a card (8.6)", what)
    if not label:
        return core_records.NotUndoable("it started the game: use New game instead", what)
    shown = next((REVEALS[e["type"]] for e in events if e.get("type") in REVEALS), None)
    if shown is not None:
        return core_records.NotUndoable(shown, what)
    return core_records.Undoable(what, str(side) if side else None)


# ---------------------------------------------------------------------- re-adjudication
# (the game-neutral part is companion.core.records)


def readjudicate(entries: Iterable[Entry], *, upto: int | None = None) -> Rebuilt[State]:
    """Run every stored command (entries 1..``upto``) through the rules from the start and
    require the recorded events; raise :class:`LogRefused` at the first entry that differs."""
    return core_records.readjudicate(SekigaharaRules(), COMMANDS, entries, upto=upto,
                                     undo=undo_policy)


def step(rules: SekigaharaRules, rebuilt: Rebuilt[State], entry: Entry) -> list[ev.Event]:
    """Re-adjudicate one command entry onto ``rebuilt``; return the events it produced."""
    return core_records.step(rules, COMMANDS, rebuilt, entry)


def check(log: GameLog, *, count: int | None = None, head: str | None = None) -> Rebuilt[State]:
    """The hash chain, then re-adjudication, then the stored end against the record;
    LogRefused at the first entry at fault."""
    return core_records.check(log, GAME, "Sekigahara", SekigaharaRules(), COMMANDS,
                              count=count, head=head, undo=undo_policy, result=result)


def result(state: State) -> str | None:
    """The game's result as stored (2.1, 2.2): "ishida wins (...)", None while it is played."""
    if state.phase is not Phase.GAME_OVER or state.winner is None:
        return None
    return f"{state.winner.value} wins ({state.victory})"


def seal_points(entries: Sequence[Entry]) -> list[tuple[int, str]]:
    """Where a seal is shown (:mod:`companion.core.seals`): the entry that ends each week (its
    events begin the next week's first phase) and the one that ends the game (2.1, 2.2),
    "week 2" and "game". A week ended again after an undo is listed again."""
    points: list[tuple[int, str]] = []
    week: int | None = None
    before: dict[int, int | None] = {}
    for entry in entries:
        if entry.kind == "correction":
            target = _undone_entry(entry)
            if target in before:
                week = before[target]
            continue
        before[entry.seq] = week
        raw = entry.data.get("events")
        for event in raw if isinstance(raw, list) else ():
            kind = event.get("type") if isinstance(event, dict) else None
            if kind == "game_won":
                points.append((entry.seq, "game"))
                break
            began = event.get("week") if kind == "phase_began" else None
            if isinstance(began, int) and not isinstance(began, bool):
                if week is not None and began > week:
                    points.append((entry.seq, f"week {week}"))
                week = began
    return points


def _undone_entry(entry: Entry) -> int | None:
    detail = entry.data.get("detail")
    target = detail.get("entry") if isinstance(detail, dict) else None
    is_undo = entry.data.get("action") == core_records.UNDO
    return target if is_undo and isinstance(target, int) else None


# ---------------------------------------------------------------------- the app's store API


PHASES = {"setup": "Set-up", "reinforcement": "Reinforcement Step", "bid": "bidding",
          "choose_first": "bidding", "movement": "Movement Phase", "combat": "Combat Phase",
          "game_over": "game over"}


def progress(log: GameLog) -> str:
    """How far a stored game went, for the Saved games page ("Week 2, turn A: Movement
    Phase"), read from its recorded events (resuming re-adjudicates them)."""
    standing = core_records.standing_events(log.entries)
    began = next((e for e in reversed(standing) if e.get("type") == "phase_began"), None)
    if began is None:
        return "Set-up" if standing else "Not started"
    phase = PHASES.get(str(began.get("phase")), str(began.get("phase")))
    if began.get("phase") == "setup":
        return "Set-up"
    return f"Week {began.get('week')}, turn {began.get('turn')}: {phase}"


def start(store: Store) -> tuple[int, SekigaharaGame]:
    """A new game in ``store``, recording every accepted command."""
    game_id = store.create_game(GAME, new_header())
    game = new_game()
    game.recorder = CommandRecorder(store, game_id)
    return game_id, game


def resume(store: Store, game_id: int) -> tuple[int, SekigaharaGame]:
    """Rebuild a stored game by re-adjudicating it; recording resumes where it stopped.
    Raises LogRefused if the log does not hold, StoreError if it cannot be read."""
    log = store.load(game_id)
    rebuilt = check(log)
    game = new_game(rebuilt.events)
    game.recorder = CommandRecorder(store, game_id, last=core_records.last_standing(log.entries))
    return game_id, game


def finish_if_over(store: Store, game_id: int, game: SekigaharaGame) -> bool:
    """Mark the game finished in the store once the rules say it is over (2.1, 2.2)."""
    ended = result(game.state)
    if ended is None:
        return False
    store.finish(game_id, ended)
    return True


# ---------------------------------------------------------------------- export and import
# (the format is every game's: companion.core.exports)


def import_export(store: Store, export: Export) -> int:
    """Store a verified export of a Sekigahara game (:func:`companion.core.exports.
    import_export`); LogRefused if it does not verify, StoreError if already stored."""
    return exports.import_export(
        store, export, lambda e: check(e.log, count=e.count, head=e.head))


def events_json(events: Sequence[ev.Event]) -> list[dict[str, Any]]:
    return [e.model_dump(mode="json") for e in events]
