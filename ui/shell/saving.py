"""The game database as a table app sees it (game-neutral): opened when the app starts, the
newest unfinished game of this game offered to resume, and a store that cannot be opened said on
the start screen with its reason (never silent) so the players may try again or play unsaved.

Each game's app turns a summary into a running game with its own ``records`` module (the
re-adjudication is :mod:`companion.core.records`).
"""

from __future__ import annotations

from pathlib import Path

from companion.core.store import GameSummary, Store, StoreError


class SavedGames:
    """``store`` is None while the database cannot be opened; ``problem`` then says why."""

    def __init__(self, db: Path | None, game: str) -> None:
        self.db = db
        self.game = game
        self.store: Store | None = None
        self.problem: str | None = None
        self.open()

    def open(self) -> Store | None:
        """(Re)open the database if it is not open; the store, or None with ``problem`` set."""
        if self.store is None:
            try:
                self.store = Store.open(self.db)
                self.problem = None
            except StoreError as exc:
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
