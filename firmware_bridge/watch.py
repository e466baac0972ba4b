"""``companion hardware watch``: moves and discrepancies as they happen, without the engine.

The rules are the served game's watch rules (:meth:`companion.core.table.GameTable.watch_rules`:
for Sekigahara, moves along one road, with every block not on the table at the start in its
side's bag). Each pass prints only what
changed: a discrepancy when it appears (``!``) and when it is gone (``ok``), never the whole
list again; and a warning when no hub answers, or when every hub was lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.core.table import GameTable
from firmware_bridge.bridge import Bridge
from firmware_bridge.discrepancy import count_pieces
from firmware_bridge.tracking import BlocksMissing, StackMoved, TrackEvent
from firmware_bridge.zones import active_table, zone_name

Say = Callable[[str], None]

NO_HUB = ("warning: no hub answers (is it plugged in? name its port with --port, or run "
          "companion hardware check)")


def describe_event(event: TrackEvent, table: GameTable | None = None) -> str | None:
    """Player-safe text for a tracking event (no identities)."""
    table = table or active_table()
    if isinstance(event, StackMoved):
        what = count_pieces(event.block_ids, table)
        if event.origin is None:
            return f"{what} placed on {zone_name(event.destination, table)}"
        return (f"{what} moved from {zone_name(event.origin, table)} to "
                f"{zone_name(event.destination, table)}")
    if isinstance(event, BlocksMissing):
        what = count_pieces(event.block_ids, table)
        return f"{what} lifted from {zone_name(event.origin, table)} and not put down"
    return None


class Watcher:
    """One reconcile pass at a time (:meth:`step`), printing the differences from the last."""

    def __init__(self, bridge: Bridge, say: Say, table: GameTable | None = None) -> None:
        self.bridge = bridge
        self.say = say
        self.table = table or active_table()
        self.rules = self.table.watch_rules(bridge.placements())
        self.shown: dict[str, str] = {}
        self._hubs_seen = bool(bridge.hubs())
        if not self._hubs_seen:
            say(NO_HUB)

    def start(self) -> None:
        self.say(self.rules.summary())
        self.bridge.subscribe(self._event)

    def _event(self, event: TrackEvent) -> None:
        text = describe_event(event, self.table)
        if text:
            self.say(text)

    def step(self) -> None:
        connected = any(h.connected for h in self.bridge.hubs().values())
        if connected != self._hubs_seen:
            self._hubs_seen = connected
            self.say("a hub answers again" if connected else NO_HUB)
        result = self.bridge.reconcile(self.rules)
        for move in result.legal_moves:
            self.rules.apply(move)
        now = {d.key: d.public() for d in result.discrepancies}
        for key, text in now.items():
            if key not in self.shown:
                self.say(f"  ! {text}")
        for key, text in self.shown.items():
            if key not in now:
                self.say(f"  ok: {text.split(' - ')[0]}: resolved")
        self.shown = now

    def run(self, seconds: float, should_stop: Callable[[], bool], poll_s: float = 0.2) -> None:
        deadline = time.monotonic() + seconds if seconds else None
        while not should_stop() and (deadline is None or time.monotonic() < deadline):
            self.step()
            time.sleep(poll_s)
