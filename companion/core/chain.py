"""The hash chain that makes a stored game tamper-evident (game-neutral).

Every entry carries ``prev`` (the hash of the entry before it; for entry 1, the hash of the
game's header) and ``hash = sha256(prev + canonical JSON of {seq, kind, at, data})``: its time
(``at``) and its author (a correction's ``by``; a command's side or colour) are inside what is
hashed, and so is the game's header (its ``uid``, ``created``, rules version).
:func:`check_chain` walks a game's entries and names the first one that was edited, removed,
reordered or forged, and why. A forger who rewrites *every* later hash (and the export
header's count and head) makes a chain that checks; that is why the table shows a **seal** of
the chain at each week's and the game's end, for the players' score sheets and the tournament
(:mod:`companion.core.seals`), and why re-adjudication checks every command against the rules.
A game's ``result`` and ``finished`` are read from the chain, not trusted
(:func:`companion.core.records.check_end`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


def canonical_json(value: Any) -> str:
    """The one JSON text hashed and exported for ``value``: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def entry_hash(previous: str, entry: Mapping[str, Any]) -> str:
    """``sha256(previous hash + canonical JSON of the entry)``, hex. ``entry`` is
    ``{"seq", "kind", "at", "data"}`` (the hashes excluded); for a header, the header."""
    return hashlib.sha256((previous + canonical_json(dict(entry))).encode("utf-8")).hexdigest()


class Linked(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def prev(self) -> str: ...
    @property
    def hash(self) -> str: ...
    def body(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ChainBreak:
    """Where and why a chain does not hold. ``entry`` is the entry number (0: the header)."""

    entry: int
    reason: str

    def __str__(self) -> str:
        return f"entry {self.entry}: {self.reason}" if self.entry else self.reason


def check_chain(
    header_hash: str,
    entries: Sequence[Linked],
    *,
    count: int | None = None,
    head: str | None = None,
) -> ChainBreak | None:
    """The first break in the chain, or None. ``count`` and ``head`` are what an export's
    header promises (the number of entries and the last hash), to catch removed or appended
    entries at the end."""
    seqs = [e.seq for e in entries]
    running = header_hash
    for n, entry in enumerate(entries, start=1):
        if entry.seq != n:
            if n in seqs[n:]:
                return ChainBreak(n, f"entries were reordered: entry {entry.seq} stands where "
                                     f"entry {n} belongs")
            if entry.seq > n:
                return ChainBreak(n, f"entry {n} was removed (entry {entry.seq} follows "
                                     f"entry {n - 1})")
            return ChainBreak(n, f"entry {entry.seq} appears again where entry {n} belongs")
        if entry_hash(entry.prev, entry.body()) != entry.hash:
            return ChainBreak(n, f"entry {n} was edited: its hash does not match its content")
        if entry.prev != running:
            if n == 1:
                return ChainBreak(0, "the game's header was edited: entry 1 does not link to it")
            return ChainBreak(n - 1, f"entry {n - 1} was edited or replaced: entry {n} does "
                                     f"not link to it")
        running = entry.hash
    if count is not None and count != len(entries):
        if count > len(entries):
            return ChainBreak(len(entries) + 1, f"entry {len(entries) + 1} was removed: the "
                              f"header lists {count} entries, the file holds {len(entries)}")
        return ChainBreak(count + 1, f"entry {count + 1} was appended: the header lists "
                          f"{count} entries, the file holds {len(entries)}")
    if head is not None and head != running:
        return ChainBreak(len(entries), f"entry {len(entries)} was replaced: it is not the "
                          "last entry the header names")
    return None
