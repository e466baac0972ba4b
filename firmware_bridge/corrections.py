"""Explicit, logged corrections: how players override what the readers say.

Two kinds, both appended to a JSON-lines log (one object a line, with the time and a note):

* ``declare``: "block X is on zone Z" - for a block whose tag cannot be read (a dead tag, a
  block under another one). The tracker uses the declared zone while the tag is unseen.
* ``dismiss``: accept a discrepancy as it is; it stays hidden while it stays the same.
* ``undeclare``: withdraw a declaration.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge.discrepancy import Discrepancy
from firmware_bridge.tracking import Tracker

log = logging.getLogger(__name__)


@dataclass
class CorrectionLog:
    path: Path | None = None
    dismissed: set[str] = field(default_factory=set)
    entries: list[dict[str, str]] = field(default_factory=list)

    def _record(self, entry: dict[str, str]) -> None:
        entry = {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **entry}
        self.entries.append(entry)
        log.info("correction: %s", _public(entry))
        log.debug("correction: %s", entry)
        if self.path is not None:
            with Path(self.path).open("a", encoding="utf-8") as out:
                out.write(json.dumps(entry) + "\n")

    def declare(self, tracker: Tracker, block_id: str, zone: str, note: str) -> None:
        tracker.declared[block_id] = zone
        self._record({"kind": "declare", "block": block_id, "zone": zone, "note": note})

    def undeclare(self, tracker: Tracker, block_id: str, note: str) -> None:
        tracker.declared.pop(block_id, None)
        self._record({"kind": "undeclare", "block": block_id, "note": note})

    def dismiss(self, discrepancy: Discrepancy, note: str) -> None:
        self.dismissed.add(discrepancy.key)
        self._record({"kind": "dismiss", "key": discrepancy.key, "text": discrepancy.public(),
                      "note": note})



def _public(entry: dict[str, str]) -> str:
    """What the log at INFO may say of a correction: its kind and the public words, never the
    block (a block's identity is hidden information, and its id is in ``block`` and ``key``)."""
    if entry["kind"] == "declare":
        return f"declare a block on {entry['zone']}"
    if entry["kind"] == "dismiss":
        return f"dismiss: {entry['text']}"
    return entry["kind"]
