"""A stored game followed entry by entry, for the tournament: each entry's public lines and the
table's status at a glance (docs/tournament.md, "Topics").

Game-neutral: a game says what tournament play needs of it through its descriptor's
``tournament`` (:class:`GameFeed`); only its ``lines`` decide what an entry shows, and they are
the shared feed's words, so nothing hidden leaves the table. The follower re-adjudicates each
command as it comes (:func:`companion.core.records.step`), so a line is always the rules' reading
of the stored entry, and an undo rebuilds the game as the referee tools do.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

from pydantic import TypeAdapter

from companion.core.descriptor import DescriptorError, descriptor
from companion.core.explain import what_of
from companion.core.game import GameRules, Recorder
from companion.core.records import (
    UNDO,
    LogRefused,
    NotUndoable,
    Rebuilt,
    Undoable,
    readjudicate,
    step,
)
from companion.core.seals import seals
from companion.core.store import Entry, GameLog

Line = dict[str, Any]
"""``{"text": ..., "rule": ... or None}``: one line of the public feed."""


class GameFeed(Protocol):
    """What tournament play needs of a game (``GameDescriptor.tournament``)."""

    game: str
    commands: TypeAdapter[Any]

    def rules(self) -> GameRules[Any, Any, Any]: ...

    def undo(self, command: Any, events: Any) -> Undoable | NotUndoable: ...

    def lines(self, before: Any, events: Sequence[Any]) -> list[tuple[str, str | None]]:
        """The events' lines as the shared screen shows them, each with its rule."""
        ...

    def glance(self, state: Any) -> dict[str, Any]:
        """``stage``, ``score`` (plain words) and ``waiting_for`` (a side or None)."""
        ...

    def result(self, state: Any) -> str | None: ...

    def header(self) -> dict[str, Any]: ...

    def selfplay(self, seed: int, recorder: Recorder) -> Any: ...


def feed_of(game: str) -> GameFeed:
    """The game's :class:`GameFeed`; DescriptorError when it has none."""
    found: GameFeed = descriptor(game).load("tournament")
    return found


@lru_cache(maxsize=64)
def title_of(game: str) -> str:
    """The game's name for players ("Tenka Meidou")."""
    try:
        return descriptor(game).title
    except (KeyError, DescriptorError):
        return game


def seals_of(log: GameLog) -> list[dict[str, Any]]:
    """The game's seals as the table shows them (:func:`companion.core.seals.seals`), as
    ``[{"entry", "label", "code"}]``."""
    return [{"entry": s.entry, "label": s.label, "code": s.code} for s in seals(log)]


class Follower:
    """One stored game, followed entry by entry."""

    def __init__(self, feed: GameFeed) -> None:
        self.feed = feed
        self._rules = feed.rules()
        self.rebuilt: Rebuilt[Any] = Rebuilt(self._rules.initial_state())
        self.entries: list[Entry] = []
        self.last_ruling: dict[str, Any] | None = None
        self.broken: str | None = None
        """Why the stored game stopped holding (the public words), or None."""

    @property
    def count(self) -> int:
        return len(self.entries)

    def advance(self, entry: Entry) -> list[Line]:
        """Follow ``entry`` (the next one); its public lines."""
        self.entries.append(entry)
        if self.broken is not None:
            return []
        try:
            if entry.kind == "command":
                before = self.rebuilt.state
                events = step(self._rules, self.feed.commands, self.rebuilt, entry)
                found = [{"text": t, "rule": r} for t, r in self.feed.lines(before, events)]
            elif entry.data.get("action") == UNDO:
                self.rebuilt = readjudicate(self._rules, self.feed.commands, self.entries,
                                            undo=self.feed.undo)
                what = str(entry.data.get("note", "")).removeprefix("Undo: ")
                found = [{"text": f"Undone: {what}", "rule": None}]
            else:
                found = [{"text": what_of(entry, self.feed.undo).capitalize(), "rule": None}]
        except LogRefused as exc:
            self.broken = exc.public()
            return [{"text": f"The referee is needed: {self.broken}", "rule": exc.rule}]
        for line in found:
            if line["rule"]:
                self.last_ruling = {"entry": entry.seq, **line}
        return found

    def glance(self) -> dict[str, Any]:
        if self.broken is not None:
            return {"stage": f"Stopped: {self.broken}", "score": None, "waiting_for": None}
        return self.feed.glance(self.rebuilt.state)


def status_body(log: GameLog, follower: Follower, *, title: str, players: dict[str, str],
                discrepancies: int, alert: bool,
                last_seal: dict[str, Any] | None) -> dict[str, Any]:
    """The ``status`` message's body (without ``table``, ``seq``, ``sent``)."""
    glance = follower.glance()
    return {"game": log.summary.game, "title": title, "game_id": log.summary.id,
            "players": players, "stage": glance["stage"], "score": glance["score"],
            "discrepancies": discrepancies, "waiting_for": glance["waiting_for"],
            "last_ruling": follower.last_ruling, "last_seal": last_seal,
            "board": glance.get("board"), "winner": glance.get("winner"),
            "finished": log.summary.finished is not None, "result": log.summary.result,
            "alert": alert}
