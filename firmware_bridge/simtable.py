"""A whole simulated table: virtual hubs wired to every zone, and a tag in every piece.

The table is the served game's (:func:`firmware_bridge.zones.active_table`, or the ``table``
given). :func:`default_wiring` spreads its zones (board locations, boxes, trays, pads, the
registration antenna) over ``hubs`` hubs of ``antennas`` antennas (the game's own default
wiring, package data its placement sheet generates, when it fits); :func:`default_registry`
gives piece number *n* of the game's manifest the tag ``E0040150000000nn``-style uid.
:class:`SimulatedTable` moves blocks by block id and zone, and :meth:`SimulatedTable.execute`
runs the console / script commands (``help`` lists them), so the same words drive ``companion
simulate`` interactively and from a replay file.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from companion.core.table import GameTable, PlaceKind
from firmware_bridge.protocol import antenna_name
from firmware_bridge.readmodel import Posture, ReadModel
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simulator import FrameObserver, VirtualHub
from firmware_bridge.wiring import AntennaKey, WiringMap
from firmware_bridge.zones import active_table, zone_names

HELP = """commands (zones are ids like gifu, mori_box, casualties; blocks are ids like I07):
  put BLOCK ZONE         put a block (or a raw 16-hex-digit tag uid) on a zone
  lift BLOCK             take a block off the table
  move ZONE ZONE         move every block from one zone to another
  stack ZONE POSTURE BLOCK...  pile blocks (bottom first) upright or face-up on a zone; each
                         is read with the chance readmodel.py gives (a model)
  populate               deal every piece round the map's locations
  show                   list the occupied zones
  flicker HUB P          each present tag is missed with probability P (0..1)
  crosstalk ZONE ZONE    the second zone's antenna also hears the first's tags (any hubs)
  nocrosstalk            stop all cross-talk
  noise HUB N            send N random bytes
  corrupt HUB N          flip a bit in the next N frames
  truncate HUB N         cut the next N frames short
  gap HUB N              skip N sequence numbers
  duplicate HUB N        send each of the next N frames twice
  fault ZONE CODE        that antenna reports a reader fault (CODE 'none' clears it)
  silent HUB on|off      stop / resume sending anything
  unplug HUB / replug HUB
  rate HUB HZ            change the scan rate
  reads HUB [N]          the hub's last N reads (with --time-model): zone, kind, tags, time
  leds                   show LEDs the host has lit
  sleep SECONDS          wait (for scripts)
  help, quit"""


def _fits(wiring: WiringMap, hubs: int, antennas: int) -> bool:
    names = {f"hub-{h + 1}" for h in range(hubs)}
    return set(wiring.hubs) <= names and all(
        key.antenna < antennas for key in wiring.table()
    )


def shipped_wiring(table: GameTable | None = None) -> WiringMap | None:
    """The wiring the game's placement sheet prints (its package data,
    :meth:`~companion.core.table.GameTable.default_wiring`), or None if it has none."""
    shipped = (table or active_table()).default_wiring()
    return None if shipped is None else WiringMap(hubs=shipped.hubs)


def default_wiring(hubs: int = 5, antennas: int = 16, table: GameTable | None = None
                   ) -> WiringMap:
    """The served game's shipped wiring (:func:`shipped_wiring`) when it fits ``hubs`` hubs of
    ``antennas`` antennas (Sekigahara's and Tenka Meidou's fit the defaults); otherwise every
    zone in order."""
    shipped = shipped_wiring(table)
    if shipped is not None and _fits(shipped, hubs, antennas):
        return WiringMap(hubs={f"hub-{h + 1}": dict(shipped.hubs.get(f"hub-{h + 1}", {}))
                               for h in range(hubs)})
    zones = list(zone_names(table))
    if len(zones) > hubs * antennas:
        raise ValueError(f"{len(zones)} zones need more than {hubs} hubs of {antennas} antennas")
    wired: dict[str, dict[str, str]] = {f"hub-{h + 1}": {} for h in range(hubs)}
    for i, zone in enumerate(zones):
        wired[f"hub-{i // antennas + 1}"][antenna_name(i % antennas)] = zone
    return WiringMap(hubs=wired)


def default_uid(index: int) -> str:
    return f"E00401500000{index:04X}"


def default_registry(table: GameTable | None = None) -> TagRegistry:
    pieces = (table or active_table()).pieces()
    return TagRegistry(tags={default_uid(i + 1): p.id for i, p in enumerate(pieces)})


@dataclass
class SimulatedTable:
    """Virtual hubs plus the wiring and registry that describe them."""

    hubs: dict[str, VirtualHub]
    wiring: WiringMap
    registry: TagRegistry
    table: GameTable
    @classmethod
    def create(
        cls,
        link_dir: Path,
        hubs: int = 5,
        antennas: int = 16,
        rate_hz: int = 10,
        seed: int | None = None,
        on_frame: FrameObserver | None = None,
        time_model: bool = False,
        instr_us: float = 250.0,
    ) -> SimulatedTable:
        """Virtual hubs for the served game (:func:`firmware_bridge.zones.use_table`); with
        ``time_model`` they keep the host's schedule and take the air-time model's time for
        each read at ``instr_us`` per SPI instruction (:mod:`firmware_bridge.simulator`)."""
        table = active_table()
        link_dir.mkdir(parents=True, exist_ok=True)
        wiring = default_wiring(hubs, antennas)
        virtual = {
            hub: VirtualHub(hub, antennas, rate_hz, link_dir / hub,
                            seed=None if seed is None else seed + n, on_frame=on_frame,
                            time_model=time_model, instr_us=instr_us)
            for n, hub in enumerate(wiring.hubs)
        }
        return cls(virtual, wiring, default_registry(table), table)

    def start(self) -> SimulatedTable:
        for hub in self.hubs.values():
            hub.start()
        return self

    def stop(self) -> None:
        for hub in self.hubs.values():
            hub.stop()

    def __enter__(self) -> SimulatedTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def ports(self) -> list[str]:
        return [hub.port for hub in self.hubs.values()]

    def write_config(self, directory: Path) -> tuple[Path, Path]:
        wiring, tags = directory / "wiring.yaml", directory / "tags.yaml"
        self.wiring.save(wiring)
        self.registry.save(tags)
        return wiring, tags

    # ------------------------------------------------------------------ moving blocks

    def antennas(self, zone: str) -> list[tuple[VirtualHub, int]]:
        """Every antenna that watches ``zone`` (a tray or box spans several modules)."""
        keys = self.wiring.antennas_of(zone)
        if not keys:
            raise ValueError(f"no antenna watches {zone!r}")
        return [(self.hubs[key.hub], key.antenna) for key in keys]

    def antenna(self, zone: str) -> tuple[VirtualHub, int]:
        return self.antennas(zone)[0]

    def uid(self, block_or_uid: str) -> str:
        if len(block_or_uid) == 16 and block_or_uid.upper().startswith("E0"):
            return block_or_uid.upper()
        uid = self.registry.uid_of(block_or_uid) or self.registry.uid_of(block_or_uid.upper())
        if uid is None:
            raise ValueError(f"unknown block {block_or_uid!r}")
        return uid

    def put(self, block: str, zone: str, spread: bool = True) -> None:
        """Set a block down on ``zone``: on a zone of several antennas (a tray, a box) over the
        one with the fewest tags, as blocks laid side by side spread over its modules; with
        ``spread`` False always over the first (a stack)."""
        uid = self.uid(block)
        self.lift(uid)
        choices = self.antennas(zone)
        hub, antenna = (min(choices, key=lambda c: len(c[0].tags(c[1]))) if spread
                        else choices[0])
        hub.place(antenna, uid)

    def lift(self, block: str) -> None:
        uid = self.uid(block)
        for hub in self.hubs.values():
            hub.remove_everywhere(uid)

    def stack(self, zone: str, posture: Posture, blocks: list[str],
              model: ReadModel | None = None) -> None:
        """Pile ``blocks`` (bottom first) on ``zone``; each tag is then read with the chance
        ``model`` gives for its height and posture (a model, not a measurement)."""
        model = model or ReadModel()
        for position, block in enumerate(blocks):
            self.put(block, zone, spread=False)
            hub, _ = self.antenna(zone)
            hub.set_read_chance(self.uid(block), model.read_chance(position, posture))

    def blocks_on(self, zone: str) -> list[str]:
        uids = {u for hub, antenna in self.antennas(zone) for u in hub.tags(antenna)}
        return sorted(self.registry.tags.get(u, u) for u in uids)

    def move(self, origin: str, destination: str) -> None:
        blocks = self.blocks_on(origin)
        for block in blocks:
            self.lift(block)
        for block in blocks:
            self.put(block, destination)

    def populate(self) -> None:
        """Every piece on the map, every location occupied (pieces dealt round the locations);
        a table with no map (Kensei's trays and pads) deals them round its trays."""
        places = self.table.places().values()
        locations = ([p.id for p in places if p.kind is PlaceKind.LOCATION]
                     or [p.id for p in places if p.kind is PlaceKind.TRAY])
        for i, piece in enumerate(self.table.pieces()):
            self.put(piece.id, locations[i % len(locations)])

    def occupied(self) -> Iterator[tuple[str, list[str]]]:
        """(zone, its blocks) for every zone with a block, a zone of several antennas once."""
        seen: dict[str, set[str]] = {}
        for key, zone in self.wiring.table().items():
            seen.setdefault(zone, set()).update(self.hubs[key.hub].tags(key.antenna))
        for zone, tags in seen.items():
            if tags:
                yield zone, sorted(self.registry.tags.get(u, u) for u in tags)

    # ------------------------------------------------------------------ console

    def execute(self, line: str, sleep: Callable[[float], None] = time.sleep) -> str:
        """Run one console command; returns what to print. ValueError for a bad command."""
        words = shlex.split(line, comments=True)
        if not words:
            return ""
        cmd, args = words[0].lower(), words[1:]
        try:
            return _run(self, cmd, args, sleep)
        except (IndexError, KeyError) as exc:
            raise ValueError(f"{cmd}: missing or unknown argument {exc}") from None

    def hub(self, name: str) -> VirtualHub:
        if name not in self.hubs:
            raise ValueError(f"no hub {name!r}; hubs: {', '.join(self.hubs)}")
        return self.hubs[name]


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None


def _posture(text: str) -> Posture:
    try:
        return Posture(text.lower())
    except ValueError:
        raise ValueError(f"posture must be {' or '.join(p.value for p in Posture)}") from None


def _show(table: SimulatedTable) -> str:
    lines = [f"{zone}: {' '.join(blocks)}" for zone, blocks in table.occupied()]
    return "\n".join(lines) or "the table is empty"


def _leds(table: SimulatedTable) -> str:
    lit = [
        f"{table.wiring.table().get(AntennaKey(name, a), f'{name}/{antenna_name(a)}')}: {mode}"
        for name, hub in table.hubs.items()
        for a, mode in sorted(hub.leds.items()) if mode != "OFF"
    ]
    return "\n".join(lit) or "no LED lit"


def _crosstalk(table: SimulatedTable, a: list[str]) -> str:
    hub, source = table.antenna(a[0])
    other, neighbour = table.antenna(a[1])
    if hub is other:
        hub.mischief.crosstalk[source] = neighbour
    else:  # neighbouring antennas on two hubs (along the strip boundaries)
        other.overhear(neighbour, hub, source)
    return ""


def _fault(table: SimulatedTable, a: list[str]) -> str:
    hub, antenna = table.antenna(a[0])
    if a[1].lower() == "none":
        hub.mischief.faults.pop(antenna, None)
    else:
        hub.mischief.faults[antenna] = a[1].upper()
    return ""


def _reads(table: SimulatedTable, name: str, count: int) -> str:
    hub = table.hub(name)
    if not hub.time_model:
        return f"{name} is not timed: start the simulator with --time-model"
    zones = table.wiring.table()
    lines = [f"{r.start / 1000:10.3f} s  "
             f"{zones.get(AntennaKey(name, r.antenna), antenna_name(r.antenna))}: "
             f"{'full' if r.full else 'quick'}, {len(r.uids)} tag{'s' * (len(r.uids) != 1)}, "
             f"{r.ms:.0f} ms" + (f", fault {r.fault}" if r.fault else "")
             for r in list(hub.reads)[-max(1, count):]]
    return "\n".join(lines) or "no read yet"


def _set(hub: VirtualHub, attribute: str, value: int) -> str:
    with hub._lock:
        setattr(hub.mischief, attribute, getattr(hub.mischief, attribute) + value)
    return ""


COMMANDS = frozenset({
    "help", "put", "lift", "move", "stack", "show", "populate", "leds", "flicker", "crosstalk",
    "nocrosstalk", "noise", "corrupt", "truncate", "gap", "duplicate", "fault", "silent",
    "unplug", "replug", "rate", "reads", "sleep",
})
"""The console's command words (what :meth:`SimulatedTable.execute` accepts)."""


def _run(table: SimulatedTable, cmd: str, a: list[str], sleep: Callable[[float], None]) -> str:
    match cmd:
        case "help":
            return HELP
        case "put":
            table.put(a[0], a[1])
        case "lift":
            table.lift(a[0])
        case "move":
            table.move(a[0], a[1])
        case "stack":
            table.stack(a[0], _posture(a[1]), a[2:])
        case "show":
            return _show(table)
        case "populate":
            table.populate()
        case "leds":
            return _leds(table)
        case "flicker":
            table.hub(a[0]).mischief.flicker = _float(a[1])
        case "crosstalk":
            return _crosstalk(table, a)
        case "nocrosstalk":
            for hub in table.hubs.values():
                hub.clear_crosstalk()
        case "noise":
            table.hub(a[0]).inject_garbage(int(_float(a[1])))
        case "corrupt" | "truncate" | "gap" | "duplicate":
            attribute = {"corrupt": "corrupt_frames", "truncate": "truncate_frames",
                         "gap": "skip_sequence", "duplicate": "duplicate_frames"}[cmd]
            return _set(table.hub(a[0]), attribute, int(_float(a[1])))
        case "fault":
            return _fault(table, a)
        case "silent":
            table.hub(a[0]).mischief.silent = a[1] == "on"
        case "unplug":
            table.hub(a[0]).unplug()
            return f"{a[0]} unplugged"
        case "replug":
            table.hub(a[0]).replug()
            return f"{a[0]} is on {table.hub(a[0]).path}"
        case "rate":
            table.hub(a[0]).rate_hz = max(1, min(50, int(_float(a[1]))))
        case "reads":
            return _reads(table, a[0], int(_float(a[1])) if len(a) > 1 else 16)
        case "sleep":
            sleep(_float(a[0]))
        case _:
            raise ValueError(f"unknown command {cmd!r} (try help)")
    return ""
