"""What is wrong with the hubs, for the players: a hub unplugged (lost), gone quiet (silent),
reporting a fault of its own, replaced by a hub the wiring map does not know, or not heard
since the start (missing), and a reader that failed under one place.

:func:`find_problems` works them out from the bridge's hub states (docs/protocol.md 6: a hub
silent for 1.5 s is pinged and given up after 4 s; a hub sends ``BEAT`` after 1 s of nothing,
so 1.5 s of silence is already wrong); :meth:`HubProblem.words` says each in the game's names
of the places the hub reads, with what to do. The bridge tells its watchers whenever the list
changes (:meth:`firmware_bridge.bridge.Bridge.watch_hubs`); the play screens draw it
(:mod:`ui.shell.hubstatus`) and docs/touchscreen.md, "When something is wrong", explains it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.table import GameTable
from firmware_bridge.wiring import AntennaKey, WiringMap
from firmware_bridge.zones import active_table, zone_name

if TYPE_CHECKING:
    from firmware_bridge.bridge import HubStatus

SILENT_AFTER_S = 1.5
"""A connected hub that sent nothing valid this long is shown as not answering (it sends a
``BEAT`` after 1 s of nothing; the link pings it now and gives it up after 4 s)."""
START_GRACE_S = 5.0
"""A hub of the wiring map may take this long after the start to say ``HELLO`` (a real hub
boots when its port opens)."""
FAULT_STANDS_S = 5.0
"""A hub's own fault is shown until it restarts (a new ``HELLO``) or has not been repeated for
this long."""
PLACES_NAMED = 3
"""Places named in a hub's line; the rest are counted."""

KINDS = ("lost", "silent", "missing", "fault", "replaced", "unknown", "duplicate", "antennas",
         "reader", "refused")

_FAULTS = {
    "OVERHEAT": "is overheating: let it cool down",
    "BROWNOUT": "is short of power: check its power supply",
    "CONFIG": "has wrong settings: see the build guide",
    "POWER": "has lost the power for its readers: check the 12 V adapter and its plug",
    "RESET": "restarted its readers after one stopped answering: if it happens again, "
             "check that reader's cable",
}
_READER_FAULTS = {
    "RF_COLLISION": "is drowned out by a neighbouring reader: see the hardware check",
    "OVERFLOW": "sees more {pieces} than it can report: spread the stack out",
}
_STANDARD_ID = re.compile(r"hub-(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class HubProblem:
    """One thing wrong. ``hub`` is the hub's id (the port of a refused hub); ``zones`` the
    places it leaves unread; ``detail`` the technical reason (for the log); ``ports``, for a
    ``duplicate``, the port read first and the one set aside."""

    kind: str
    hub: str
    zones: tuple[str, ...]
    detail: str = ""
    ports: tuple[str, ...] = ()

    def words(self, table: GameTable | None = None) -> str:
        """One sentence for the shared screen: the hub, its places, what to do."""
        table = table or active_table()
        places = [zone_name(z, table) for z in self.zones]
        if self.kind == "reader":
            where = places[0] if places else "a place"
            what = _READER_FAULTS.get(self.detail.split(" ", 1)[0].upper(),
                                      "has failed: check its antenna cable").format(
                                          pieces=f"{table.piece_word}s")
            return (f"The reader under {where} {what}. "
                    f"The {table.piece_word}s there are kept as they were.")
        if self.kind == "refused":
            return f"The hub on {self.hub} needs new firmware: it is not used."
        if self.kind == "unknown":
            return ("A hub the wiring map does not know is plugged in: its places are not "
                    "read. Run the hardware wiring again.")
        if self.kind == "duplicate":
            first, other = self.ports
            return (f"Two hubs both say they are {hub_label(self.hub)}: on {first} and "
                    f"{other}. Only the first is read: give the other its own HUB_ID (the build "
                    "guide, section 8).")
        if self.kind == "antennas":
            said = int(self.detail.split(" ", 1)[0])
            more = len(self.zones)
            return (f"{hub_label(self.hub)} says it has only {said} "
                    f"antenna{'' if said == 1 else 's'}, but the wiring map puts {more} more "
                    f"place{'' if more == 1 else 's'} on it: "
                    f"{'it is' if more == 1 else 'they are'} still read. If it really has "
                    "fewer, check READERS in its hub_config.py.")
        named = ", ".join(places[:PLACES_NAMED])
        if len(places) > PLACES_NAMED:
            named += f" and {len(places) - PLACES_NAMED} more"
        who = hub_label(self.hub) + (f" ({named})" if named else "")
        what = {
            "lost": "is not answering: check its USB cable",
            "silent": "has gone quiet: unplug its USB cable and plug it back in",
            "missing": "has not answered since the start: check its USB cable and power",
            "replaced": "is not answering and another hub is plugged in: if it replaces "
                        f"{hub_label(self.hub)}, run the hardware wiring again",
        }.get(self.kind) or _fault_words(self.detail)
        return (f"{who} {what}. Its places keep their last {table.piece_word}s until it is "
                "back.")


def hub_label(hub: str) -> str:
    """``hub-2`` -> "Hub 2" (the build guide's ids, written on the hubs)."""
    found = _STANDARD_ID.fullmatch(hub)
    return f"Hub {found.group(1)}" if found else f"Hub {hub}"


def _fault_words(detail: str) -> str:
    code = detail.split(" ", 1)[0].upper()
    return _FAULTS.get(code, "reports a fault: unplug its USB cable and plug it back in")


def find_problems(wiring: WiringMap, hubs: Mapping[str, HubStatus],
                  frozen: Mapping[AntennaKey, str], refused: Mapping[str, str], now: float,
                  started_at: float, claims: Mapping[str, str] | None = None
                  ) -> tuple[HubProblem, ...]:
    """Everything wrong now, hubs in wiring-map order, then readers, then refused ports.

    A lost hub stays a problem until every antenna of it has reported again (until then its
    places are still frozen); a hub the wiring map does not know makes a lost or missing hub of
    the map "replaced" (a hub swapped for a new one). ``claims``: port -> hub id, for the ports
    set aside because another port already is that hub (``duplicate``, once per port: the hub
    read first is not lost). A hub whose ``HELLO`` announces fewer antennas than the wiring map
    gives it is an ``antennas`` problem (its places are still read)."""
    table = wiring.table()
    unknown = [h for h, s in hubs.items() if s.connected and h not in wiring.hubs]
    found: list[HubProblem] = []
    readers: list[HubProblem] = []
    for hub_id in wiring.hubs:
        zones = tuple(zone for key, zone in sorted(table.items()) if key.hub == hub_id)
        status = hubs.get(hub_id)
        kind = _hub_kind(hub_id, status, frozen, now, started_at)
        if kind in ("lost", "missing") and unknown:
            kind = "replaced"
        if kind is not None:
            detail = status.lost_reason if status is not None and kind != "fault" else ""
            if kind == "fault" and status is not None:
                detail = status.fault or ""
            found.append(HubProblem(kind, hub_id, zones, detail))
            continue
        if status is None:  # not heard yet, still booting
            continue
        if status.connected and status.hello.antennas < status.wired:
            beyond = tuple(zone for key, zone in sorted(table.items())
                           if key.hub == hub_id and key.antenna >= status.hello.antennas)
            found.append(HubProblem("antennas", hub_id, beyond,
                                    f"{status.hello.antennas} announced, {status.wired} wired"))
        for antenna, ant in sorted(status.antennas.items()):
            key = AntennaKey(hub_id, antenna)
            if ant.fault is not None and key in table:
                readers.append(HubProblem("reader", hub_id, (table[key],), ant.fault))
    if unknown and not any(p.kind == "replaced" for p in found):
        found.extend(HubProblem("unknown", hub, ()) for hub in unknown)
    for port, hub_id in sorted((claims or {}).items()):
        first = hubs[hub_id].port if hub_id in hubs else "?"
        found.append(HubProblem("duplicate", hub_id, (), f"on {first} and {port}",
                                (first, port)))
    return (*found, *readers,
            *(HubProblem("refused", port, (), why) for port, why in sorted(refused.items())))


def _hub_kind(hub_id: str, status: HubStatus | None, frozen: Mapping[AntennaKey, str],
              now: float, started_at: float) -> str | None:
    if status is None:
        return "missing" if now - started_at >= START_GRACE_S else None
    if not status.connected:
        return "silent" if status.lost_reason.startswith("silent") else "lost"
    if status.link is not None and now - status.link.heard_at > SILENT_AFTER_S:
        return "silent"
    if any(key.hub == hub_id and why.startswith("hub lost") for key, why in frozen.items()):
        return "lost"  # back, but not every antenna has reported yet
    if status.fault_at is not None and now - status.fault_at < FAULT_STANDS_S:
        return "fault"
    return None
