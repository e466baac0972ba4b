"""What the table shows, as the ``Sighting`` (place -> pawn ids) that
:mod:`companion.games.tenka_meidou.table`'s checks take.

One small adapter for every source: the virtual table reports each place's pawns directly
(:meth:`Sightings.see`); a reader hub reports tag uids per antenna, which
:meth:`Sightings.see_tags` turns into pawn ids and places through the wiring map and the tag
registry. A zone may span several antennas: each source is kept apart and a place shows the union.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from companion.games.tenka_meidou.table import PawnRegistry, Sighting, TableWiring


class Sightings:
    """The latest pawns seen at each place, from any number of sources; thread-safe."""

    def __init__(self) -> None:
        self._by_source: dict[tuple[str, str], frozenset[str]] = {}
        self._lock = threading.Lock()
        self.unknown_tags: set[str] = set()
        """Tags a reader saw that the registry does not know (shown by a hardware check)."""

    def see(self, place: str, pawns: Iterable[str], source: str = "") -> None:
        """``source`` (an antenna, say) now sees exactly ``pawns`` at ``place``."""
        with self._lock:
            self._by_source[(place, source)] = frozenset(pawns)

    def see_tags(self, wiring: TableWiring, registry: PawnRegistry, hub: str, antenna: str,
                 uids: Iterable[str]) -> None:
        """A reader's report: the tags one antenna of one hub sees now."""
        place = wiring.hubs.get(hub, {}).get(antenna)
        if place is None:
            return
        pawns = []
        for uid in uids:
            pawn = registry.tags.get(uid)
            if pawn is None:
                self.unknown_tags.add(uid)
            else:
                pawns.append(pawn)
        self.see(place, pawns, source=f"{hub}/{antenna}")

    def sighting(self) -> Sighting:
        """place -> every pawn seen there now."""
        out: dict[str, set[str]] = {}
        with self._lock:
            for (place, _source), pawns in self._by_source.items():
                out.setdefault(place, set()).update(pawns)
        return {place: frozenset(pawns) for place, pawns in out.items() if pawns}
