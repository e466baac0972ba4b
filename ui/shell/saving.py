"""The game database as a table app sees it (game-neutral): opened when the app starts, the
newest unfinished game of this game offered to resume, and a store that cannot be opened said on
the start screen with its reason (never silent) so the players may try again or play unsaved.

Each game's app turns a summary into a running game with its own ``records`` module (the
re-adjudication is :mod:`companion.core.records`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.core.inuse import DatabaseLock
from companion.core.records import LogRefused, Rebuilt
from companion.core.store import GameLog, GameSummary, Store, StoreError
from ui.shell import theme as th

MenuEntry = tuple[str, Callable[[], None] | None, th.Colour]
"""A start-screen button: its words, what a tap does (None: greyed) and its colour."""


class SavedGames:
    """``store`` is None while the database cannot be opened; ``problem`` then says why."""

    def __init__(self, db: Path | None, game: str) -> None:
        self.db = db
        self.game = game
        self.store: Store | None = None
        self.problem: str | None = None
        self.lock = DatabaseLock(db)
        """One app per database (:mod:`companion.core.inuse`), held while the store is open."""
        self.open()

    def open(self) -> Store | None:
        """(Re)open the database if it is not open; the store, or None with ``problem`` set
        (another app holding the database is one such problem)."""
        if self.store is None:
            try:
                self.lock.acquire()
                self.store = Store.open(self.db)
                self.problem = None
            except StoreError as exc:
                self.lock.release()
                self.store, self.problem = None, exc.message
        return self.store

    def latest(self) -> GameSummary | None:
        """The newest unfinished game of this game, if any."""
        if self.store is None:
            return None
        try:
            found = self.store.unfinished(self.game)
        except StoreError as exc:
            self.problem = exc.message
            return None
        return found[0] if found else None

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
        self.lock.release()

    def verify(self, game_id: int | None, check: Callable[[GameLog], Rebuilt[Any]],
               events: Sequence[object]) -> tuple[bool, str]:
        """The referee's "Verify this game": the stored game's hash chain, then every command
        re-adjudicated (``check``, the game's ``records.check``), then that the game on the
        screen is the one recorded. (it holds, one sentence for the referee)."""
        if game_id is None or self.store is None:
            return False, ("This game is not being saved, so there is no record to verify"
                           + (f": {self.problem}" if self.problem else ""))
        try:
            log = self.store.load(game_id)
            rebuilt = check(log)
        except LogRefused as exc:
            rule = f" (rule {exc.rule})" if exc.rule else ""
            return False, f"The record does not hold at entry {exc.entry}: {exc.reason}{rule}"
        except StoreError as exc:
            return False, f"The record cannot be read: {exc.message}"
        if list(rebuilt.events) != list(events):
            return False, (f"The record holds ({rebuilt.commands} commands) but the game on the "
                           "screen differs from it")
        corrections = sum(1 for e in log.entries if e.kind == "correction")
        return True, (f"This game checks out: {_count(len(log.entries), 'entry', 'entries')}, "
                      f"{_count(rebuilt.commands, 'command')} re-adjudicated by the rules, "
                      f"{_count(corrections, 'correction')}, hash chain intact, "
                      f"head {log.head[:16]}")


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def game_entries(resume: Callable[[], None] | None, new_game: Callable[[], None] | None,
                 retry: Callable[[], None] | None,
                 without_saving: Callable[[], None] | None) -> list[MenuEntry]:
    """The start screen's buttons about the game and its saving, in every game's order:
    resume, a new game (greyed while the store cannot be opened), try saving again, a new game
    without saving (offered only then, never silently)."""
    entries: list[MenuEntry] = []
    if resume is not None:
        entries.append(("Resume the game", resume, th.ACCEPT))
    if new_game is not None or without_saving is None:
        entries.append(("New game", new_game, th.ACCEPT))
    if retry is not None:
        entries.append(("Try saving again", retry, th.WARN))
    if without_saving is not None:
        entries.append(("New game without saving", without_saving, th.DANGER))
    return entries
