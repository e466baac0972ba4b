"""The game database as a table app sees it (game-neutral): opened when the app starts, the
newest unfinished game of this game offered to resume, and a store that cannot be opened said on
the start screen with its reason (never silent) so the players may try again or play unsaved.

No game is lost to a tap: "New game" while a game is unfinished asks first and says what
becomes of it (:class:`ConfirmNewGame`); "Saved games" lists every unfinished game of this game
and resumes the one tapped (:class:`SavedGamesScreen`). While the store is open this app holds
the database (:mod:`companion.core.inuse`): a second app on it is refused.

Each game's app turns a summary into a running game with its own ``records`` module (the
re-adjudication is :mod:`companion.core.records`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pygame

from companion.core.inuse import DatabaseLock
from companion.core.records import LogRefused, NotUndoable, Rebuilt, Undoable
from companion.core.store import GameLog, GameSummary, Store, StoreError
from ui.shell import theme as th
from ui.shell.canvas import Canvas, column
from ui.shell.pages import confirm_page, pager

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
        """The newest unfinished game of this game that can be read, if any (one that cannot
        is on the Saved games page, saying why)."""
        for game in self.unfinished():
            try:
                if game.problem is None and self.store is not None:
                    self.store.load(game.id)
                    return game
            except StoreError:
                continue
        return None

    def unfinished(self) -> list[GameSummary]:
        """The unfinished games of this game, newest first (none while the store is shut)."""
        if self.store is None:
            return []
        try:
            return self.store.unfinished(self.game)
        except StoreError as exc:
            self.problem = exc.message
            return []

    def saved_games(self, progress: Callable[[GameLog], str]) -> list[SavedGame]:
        """Every unfinished game of this game, newest first, with how far it went
        (``progress``, the game's ``records.progress``); one that cannot be read is listed
        with why (its ``problem``), the others as ever."""
        if self.store is None:
            return []
        try:
            found = self.store.unfinished(self.game)
        except StoreError as exc:
            self.problem = exc.message
            return []
        return [self._saved(s, progress) for s in found]

    def _saved(self, s: GameSummary, progress: Callable[[GameLog], str]) -> SavedGame:
        assert self.store is not None
        problem = s.problem
        if problem is None:
            try:
                return SavedGame(s.id, when(s.created), progress(self.store.load(s.id)),
                                 when(s.updated) if s.updated else "never")
            except StoreError as exc:
                problem = exc.message
            except Exception:  # progress reads events not yet re-adjudicated (their text
                problem = f"stored game {s.id}: its events cannot be read"  # may be secret)
        return SavedGame(s.id, when(s.created), "This saved game cannot be read", "",
                         problem=problem)

    def describe(self, game_id: int | None, progress: Callable[[GameLog], str]) -> str | None:
        """One game in a few words ("Week 2, turn A: Movement Phase, started 26 Nov 03:06"),
        None when it cannot be read."""
        if self.store is None or game_id is None:
            return None
        try:
            log = self.store.load(game_id)
            return f"{progress(log)}, started {when(log.summary.created)}"
        except Exception:  # StoreError, or events not yet re-adjudicated that progress trips on
            return None

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


def when(stamp: str) -> str:
    """A stored time ("2026-11-26T03:06:37+0000") as players read it: "26 Nov 03:06"."""
    try:
        parsed = time.strptime(stamp, "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return stamp
    return time.strftime("%d %b %H:%M", parsed).lstrip("0")


def game_entries(resume: Callable[[], None] | None, new_game: Callable[[], None] | None,
                 retry: Callable[[], None] | None,
                 without_saving: Callable[[], None] | None,
                 saved_games: Callable[[], None] | None = None) -> list[MenuEntry]:
    """The start screen's buttons about the game and its saving, in every game's order:
    resume, a new game (greyed while the store cannot be opened), the saved games (when there
    are any), try saving again, a new game without saving (offered only then, never
    silently)."""
    entries: list[MenuEntry] = []
    if resume is not None:
        entries.append(("Resume the game", resume, th.ACCEPT))
    if new_game is not None or without_saving is None:
        entries.append(("New game", new_game, th.ACCEPT))
    if saved_games is not None:
        entries.append(("Saved games", saved_games, th.PANEL_HI))
    if retry is not None:
        entries.append(("Try saving again", retry, th.WARN))
    if without_saving is not None:
        entries.append(("New game without saving", without_saving, th.DANGER))
    return entries


# ---------------------------------------------------------------------- screens


@dataclass(frozen=True)
class SavedGame:
    """One unfinished game as the Saved games page lists it."""

    id: int
    started: str
    progress: str
    last: str
    problem: str | None = None
    """Why it cannot be read ("stored game 3, entry 17: body is not a JSON object")."""

    @property
    def label(self) -> str:
        if self.problem is not None:
            return f"{self.progress}: {self.problem}"
        return f"{self.progress} \u00b7 started {self.started} \u00b7 last played {self.last}"


@dataclass
class SavedGamesScreen:
    """Every unfinished game of this game, newest first: how far it went, when it started and
    when it was last played; a tap resumes it (re-adjudicated from its record)."""

    title: str
    games: Sequence[SavedGame]
    resume: Callable[[int], None]
    back: Callable[[], None]
    page: int = 0
    name: str = "saved-games"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text(f"Saved games of {self.title}", (t.gap * 2, t.gap * 2), size=t.title,
                        bold=True).bottom + t.gap
        if not self.games:
            canvas.text("No unfinished game is saved.", (t.gap * 2, y), colour=th.DIM)
        else:
            y = canvas.text("Tap a game to resume it where it stood.", (t.gap * 2, y),
                            size=t.small, colour=th.DIM).bottom + t.gap
        bottom = r.bottom - t.target - 2 * t.gap
        height = max(t.target, t.body + t.small + 3 * t.gap)
        per_page = max(1, (bottom - y + t.gap) // (height + t.gap))
        pages = max(1, -(-len(self.games) // per_page))
        self.page = min(self.page, pages - 1)
        shown = list(self.games[self.page * per_page:(self.page + 1) * per_page])
        if shown:
            area = pygame.Rect(t.gap * 2, y, r.width - 4 * t.gap,
                               len(shown) * (height + t.gap) - t.gap)
            for cell, game in zip(column(area, len(shown), t.gap), shown, strict=True):
                self._row(canvas, cell, game)
        if pages > 1:
            pager(canvas, self.page, pages, self._turn, "Back", self.back)
        else:
            canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap,
                                      r.bottom - t.target - t.gap, 3 * t.target, t.target),
                          "Back", self.back)

    def _row(self, canvas: Canvas, cell: pygame.Rect, game: SavedGame) -> None:
        """How far the game went, large; when it started and was last played, below."""
        t = canvas.theme
        canvas.fill(th.PANEL_HI, cell, radius=t.gap)
        inner = cell.inflate(-2 * t.gap, -2 * t.gap)
        top = canvas.text(game.progress, inner.topleft, bold=True, width=inner.width,
                          max_lines=1).bottom
        below = (game.problem if game.problem is not None
                 else f"Started {game.started} \u00b7 last played {game.last}")
        canvas.text(below, (inner.x, top + 2), size=t.small,
                    colour=th.WARN if game.problem is not None else th.DIM, width=inner.width,
                    max_lines=1)
        canvas.tap_area(cell, game.label, partial(self.resume, game.id))

    def _turn(self, page: int) -> None:
        self.page = page


@dataclass
class ConfirmNewGame:
    """"New game" while a game is unfinished: say what becomes of it before anything happens.
    A saved game stays saved (resumable from "Saved games"); an unsaved one would be lost."""

    unfinished: str
    """The unfinished game in a few words ("Week 2, turn A: Movement Phase, started ...")."""
    start: Callable[[], None]
    back: Callable[[], None]
    saved: bool = True
    name: str = "confirm-new-game"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        if self.saved:
            said = ("It stays saved: resume it any time from \u201cSaved games\u201d on the "
                    "start screen.", th.INK)
        else:
            said = ("It is not being saved: a new game ends it for good.", th.WARN)
        confirm_page(canvas, "Start a new game?",
                     [(f"A game is unfinished: {self.unfinished}.", th.INK), said], self.back,
                     "Start a new game", self.start,
                     go_colour=th.ACCEPT if self.saved else th.DANGER)


def undo_button(canvas: Canvas, rect: pygame.Rect, offer: Undoable | NotUndoable | None,
                undo: Callable[[], None], say: Callable[[str], None]) -> int:
    """"Undo: Ishida's bid" while the last command may be taken back (docs/referee.md, Undo);
    a plain "Undo" that says why not otherwise; nothing when there is nothing to undo. Returns
    the bottom of what was drawn (``rect.y`` when nothing was)."""
    if offer is None or rect.width < canvas.theme.target:
        return rect.y
    if isinstance(offer, Undoable):
        drawn = canvas.button(rect, f"Undo: {offer.what}", undo, colour=th.WARN,
                              size=canvas.theme.small)
    else:
        drawn = canvas.button(rect, "Undo", partial(say, str(offer)), colour=th.PANEL,
                              size=canvas.theme.small)
    return drawn.bottom
