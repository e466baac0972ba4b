"""The bridge's clock: monotonic seconds that a machine's hand may move on.

What the bridge times about pieces (the settle rule's rest, a block given up as missing)
reads :attr:`~firmware_bridge.bridge.Bridge.piece_clock`; a hub's silence and a command's retry
read :attr:`~firmware_bridge.bridge.Bridge.clock`. With people at the table both are the real
monotonic clock. A machine's hand (the headless demo,
the whole-app tests) knows when it is done with the pieces it set down, so rather than sleep
through the rest the settle rule asks for, it moves a :class:`TableClock` on past it
(:meth:`firmware_bridge.tablelink.TableLink.rest_over`): the rules are then judged exactly as
after a real rest, without the wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class TableClock:
    """Monotonic seconds (``time.monotonic`` by default) plus however far :meth:`skip` has moved
    them on. Callable, like the clock it wraps; safe from any thread."""

    def __init__(self, base: Callable[[], float] = time.monotonic) -> None:
        self.base = base
        """The clock moved on: what a hub's silence is measured on (a machine's hand moves
        the pieces' time, never the hubs')."""
        self._ahead = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.base() + self._ahead

    @property
    def skipped(self) -> float:
        """Seconds moved on so far."""
        with self._lock:
            return self._ahead

    def skip(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` (never back)."""
        if seconds < 0:
            raise ValueError("a clock moves on, never back")
        with self._lock:
            self._ahead += seconds
