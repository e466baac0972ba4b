"""Running a simulated table from the command line: replay scripts and the link directory.

A script is a file of ``SECONDS COMMAND...`` lines (times from the start of the replay, ``#``
comments); :func:`parse_script` checks every line before anything runs, so a typo is one clear
error naming the file and line. :class:`ScriptPlayer` replays a script in the background while a
``companion hardware ... --simulate`` command runs against the same table. :func:`claim_dir`
keeps two ``companion simulate`` runs from sharing a directory of port links.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.core.inputs import InputError, Limits, read_text, short
from firmware_bridge.simtable import COMMANDS, SimulatedTable

SCRIPT_LIMITS = Limits(size=1_000_000)
"""A script is read no further than this (an endless pipe or /dev/zero is cut)."""

Echo = Callable[[str], None]


@dataclass(frozen=True)
class ScriptLine:
    number: int
    at: float
    command: str


def parse_script(path: Path) -> list[ScriptLine]:
    """Every command line of the script; ValueError naming the file and line."""
    try:
        lines = read_text(path, SCRIPT_LIMITS).splitlines()
    except InputError as exc:
        raise ValueError(exc.message) from None
    parsed: list[ScriptLine] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        when, _, command = line.partition(" ")
        try:
            at = float(when)
        except ValueError:
            raise ValueError(f"{path}:{number}: {short(when)!r} is not a number of "
                             "seconds") from None
        word = command.split(maxsplit=1)[0].lower() if command.strip() else ""
        if word not in COMMANDS:
            raise ValueError(f"{path}:{number}: unknown command {short(word)!r}")
        parsed.append(ScriptLine(number, at, command))
    return parsed


def run_script(
    table: SimulatedTable, path: Path, echo: Echo, should_stop: Callable[[], bool] = lambda: False
) -> None:
    """Replay the script now, in this thread. ValueError naming the file and line."""
    start = time.monotonic()
    for line in parse_script(path):
        while not should_stop() and time.monotonic() < start + line.at:
            time.sleep(min(0.05, start + line.at - time.monotonic()))
        if should_stop():
            return
        try:
            output = table.execute(line.command)
        except ValueError as exc:
            raise ValueError(f"{path}:{line.number}: {exc}") from None
        if output:
            echo(output)


class ScriptPlayer:
    """Replays a script against a table on a background thread (checked before it starts);
    an error while it runs is echoed as one line and stops the replay."""

    def __init__(self, table: SimulatedTable, path: Path, echo: Echo) -> None:
        parse_script(path)
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, args=(table, path, echo),
                                         name="sim-script", daemon=True)

    def _play(self, table: SimulatedTable, path: Path, echo: Echo) -> None:
        try:
            run_script(table, path, echo, self._stop.is_set)
        except ValueError as exc:
            self.error = str(exc)
            echo(f"simulator script: error: {exc}")

    def start(self) -> ScriptPlayer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def __enter__(self) -> ScriptPlayer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def claim_dir(directory: Path) -> Iterator[Path]:
    """Hold ``directory`` for one simulator: ValueError if another live one holds it. The lock
    is the kernel's (flock), so a simulator that was killed leaves nothing stale behind."""
    directory.mkdir(parents=True, exist_ok=True)
    lock = os.open(directory / ".simulate.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(lock, 32, 0).decode("ascii", "replace").strip() or "?"
            raise ValueError(f"{directory} is in use by another companion simulate "
                             f"(pid {owner}); give this one another --dir") from None
        os.ftruncate(lock, 0)
        os.pwrite(lock, f"{os.getpid()}\n".encode(), 0)
        yield directory
    finally:
        os.close(lock)
