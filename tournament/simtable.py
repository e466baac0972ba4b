"""One simulated table: a seeded self-play game stored and published at table speed, for the
scale benchmark and the dashboard's tests (``benchmarks/tournament.py``).

The game is the game's own self-play (its descriptor's ``tournament``), stored in a real
:class:`~companion.core.store.Store` through a recorder that waits ``pace_s`` before each entry,
and published by the real :class:`~tournament.publisher.TablePublisher`, which also answers
record requests until the table is stopped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from companion.core.game import Recorder
from companion.core.store import CommandRecorder, Store
from tournament.publisher import TablePublisher
from tournament.status import feed_of

LINGER_S = 30.0
"""Without a ``stop``, how long a finished table waits for the broker to acknowledge the rest."""


class Stopped(Exception):
    """The table was told to stop before the game ended."""


@dataclass(frozen=True)
class SimResult:
    game_id: int
    entries: int
    finished: bool
    result: str | None
    last_seq: int
    """The table's last ``seq`` given."""
    pending: int
    """Messages the broker had not acknowledged when the table stopped (kept in ``db``)."""
    errors: tuple[str, ...] = ()


class _Paced:
    """Stores each command ``pace_s`` after the last, then tells the publisher."""

    def __init__(self, inner: CommandRecorder, table: TablePublisher, pace_s: float,
                 stop: threading.Event) -> None:
        self.inner, self.table, self.pace_s, self.stop = inner, table, pace_s, stop
        self.entries = 0

    def record(self, command: BaseModel, events: Sequence[BaseModel]) -> None:
        if self.pace_s > 0:
            self.stop.wait(self.pace_s)
        if self.stop.is_set():
            raise Stopped
        self.inner.record(command, events)
        self.entries += 1
        self.table.recorded(self.inner.game_id)


def play_and_publish(url: str, db: Path, game: str, seed: int, pace_s: float,
                     stop: threading.Event | None = None) -> SimResult:
    """Play the seeded self-play game ``game`` (``sekigahara``, ``tenka-meidou``) into the
    store at ``db``, one entry every ``pace_s`` seconds (0: as fast as it plays), publishing
    it as the table ``url`` names. With ``stop``: the game ends early when it is set, and a
    finished table keeps answering record requests until it is; without: returns once the
    broker acknowledged everything (at most :data:`LINGER_S` after the game)."""
    feed = feed_of(game)
    halt = stop if stop is not None else threading.Event()
    with Store.open(db) as store, TablePublisher(url, db, store=store, retry_s=0.2) as table:
        game_id = store.create_game(feed.game, feed.header())
        table.recorded(game_id)
        recorder = _Paced(CommandRecorder(store, game_id), table, pace_s, halt)
        paced: Recorder = recorder
        result: str | None = None
        try:
            state = feed.selfplay(seed, paced)
        except Exception:
            if not halt.is_set():
                raise
        else:
            result = feed.result(state)
            if result is not None:
                store.finish(game_id, result)
                table.recorded(game_id)
        table.kept()
        if stop is not None:
            stop.wait()
        else:
            deadline = time.monotonic() + LINGER_S
            while not table.idle() and time.monotonic() < deadline:
                time.sleep(0.05)  # the broker's acknowledgements: real I/O
        counts = table.outbox.counts()
        return SimResult(game_id, recorder.entries, result is not None, result,
                         table.outbox.last_seq(), counts["pending"], tuple(table.errors))
