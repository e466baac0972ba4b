"""The interactive flows and the diagnostics report, written against a running :class:`Bridge`.

Each flow takes ``say`` (print a line) and ``ask`` (prompt and read a line) so the CLI runs it on
the console and the tests drive it against the simulator.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.bridge import AntennaStatus, Bridge, HubStatus
from firmware_bridge.registry import TagRegistry, resolve_piece
from firmware_bridge.wiring import AntennaKey, WiringBuilder, WiringMap
from firmware_bridge.zones import REGISTRATION, active_table, zone_name

Say = Callable[[str], None]
Ask = Callable[[str], str]


def build_wiring(
    bridge: Bridge, zones: list[str], out: Path, say: Say,
    should_stop: Callable[[], bool], start: WiringMap | None = None, poll_s: float = 0.05,
) -> WiringMap:
    """Wire ``zones`` one by one (see :class:`WiringBuilder`), saving ``out`` after each."""
    builder = WiringBuilder(zones, start or WiringMap())
    say(builder.prompt())
    last = ""
    while not builder.done and not should_stop():
        message = builder.observe(bridge.antenna_tags())
        if message and message != last:
            say(message)
            last = message
            builder.wiring.save(out)
        time.sleep(poll_s)
    return builder.wiring


@dataclass
class RegistrationResult:
    registry: TagRegistry
    registered: int


def register_tags(
    bridge: Bridge, registry: TagRegistry, out: Path, say: Say, ask: Ask,
    should_stop: Callable[[], bool], zone: str = REGISTRATION, poll_s: float = 0.05,
) -> RegistrationResult:
    """Put each piece on the registration antenna and say what it is; saves ``out`` each time."""
    if not bridge.wiring.antennas_of(zone):
        raise ValueError(f"the wiring map has no antenna for {zone!r} (companion hardware wiring)")
    count = 0
    word = active_table().piece_word
    say(f"put one {word} on {zone_name(zone)} (Ctrl-C to finish)")
    while not should_stop():
        uids = bridge.view().where
        here = sorted(u for u, z in uids.items() if z == zone)
        if len(here) != 1:
            if len(here) > 1:
                say(f"{len(here)} tags on {zone_name(zone)}: one {word} at a time")
                _wait(bridge, lambda: sum(1 for z in bridge.view().where.values() if z == zone)
                      <= 1, should_stop, poll_s)
            time.sleep(poll_s)
            continue
        uid = here[0]
        known = registry.block_of(uid)
        if known is None:
            registry, count = _ask_block(registry, uid, out, say, ask, count)
        else:
            say(f"tag {uid} is already {word} {known}")
        say(f"lift it, then put the next {word} on")
        _wait(bridge, _lifted(bridge, uid, zone), should_stop, poll_s)
        bridge.set_registry(registry)
    return RegistrationResult(registry, count)


def _ask_block(
    registry: TagRegistry, uid: str, out: Path, say: Say, ask: Ask, count: int
) -> tuple[TagRegistry, int]:
    while True:
        table = active_table()
        answer = ask(f"tag {uid}: which {table.piece_word} is this? ({table.piece_hint}; "
                     "empty to skip) ")
        if not answer.strip():
            return registry, count
        try:
            piece = resolve_piece(answer, registry)
        except ValueError as exc:
            say(str(exc))
            continue
        registry = registry.with_tag(uid, piece)
        registry.save(out)
        say(f"registered {piece} ({table.describe_piece(piece)}); "
            f"{len(registry.unregistered(table))} {table.piece_word}s to go")
        return registry, count + 1


def _lifted(bridge: Bridge, uid: str, zone: str) -> Callable[[], bool]:
    return lambda: bridge.view().where.get(uid) != zone


def _wait(bridge: Bridge, done: Callable[[], bool], should_stop: Callable[[], bool],
          poll_s: float) -> None:
    while not done() and not should_stop():
        time.sleep(poll_s)


# --------------------------------------------------------------------------- diagnostics


def check_report(
    bridge: Bridge, self_test: dict[AntennaKey, str] | None, since: float | None = None
) -> tuple[list[str], int]:
    """Lines describing every hub and antenna, and the number of problems found.

    With ``since`` (a ``time.monotonic()`` value: when the check began), a hub unplugged or a
    reader that faulted after it counts as a problem even if it has recovered by now.
    """
    lines: list[str] = []
    problems = 0
    hubs = bridge.hubs()
    for port, why in sorted(bridge.refused_ports().items()):
        lines.append(f"refused {port}: {why}")
        problems += 1
    for port, hub_id in sorted(bridge.set_aside().items()):
        first = hubs[hub_id].port if hub_id in hubs else "?"
        lines.append(f"{port} also says it is hub {hub_id}, which is on {first}: it is not read "
                     "(give it its own HUB_ID in its hub_config.py)")
        problems += 1
    serving = {h.port for h in hubs.values() if h.connected}
    for port, why in sorted(bridge.open_failures().items()):
        if port not in serving:
            lines.append(f"cannot open {port}: {why}")
            problems += 1
    if not hubs:
        return [*lines, "no hub answered (check the cable, or name the port with --port)"], \
            problems + 1
    for hub in sorted(hubs.values(), key=lambda h: h.hub_id):
        hub_lines, hub_problems = _hub_report(bridge, hub, self_test, since)
        lines += hub_lines
        problems += hub_problems
    for name in sorted(set(bridge.wiring.hubs) - set(hubs)):
        lines.append(f"hub {name} is in the wiring map but did not answer")
        problems += 1
    no_schedule = bridge.schedule_problem()
    if no_schedule is not None:
        lines.append(f"no scan schedule: {no_schedule}; every hub scans unscheduled, so "
                     "neighbouring antennas may collide")
        problems += 1
    crosstalk = crosstalk_report(bridge, hubs)
    lines += crosstalk
    problems += len(crosstalk)
    unmapped = bridge.wiring.unmapped_zones()
    if unmapped:
        lines.append(f"{len(unmapped)} zones have no antenna in the wiring map: "
                     + ", ".join(unmapped[:8]) + (" ..." if len(unmapped) > 8 else "")
                     + " (companion hardware wiring)")
        problems += 1
    return lines, problems


def crosstalk_report(bridge: Bridge, hubs: dict[str, HubStatus]) -> list[str]:
    """One line per antenna that reported ``FAULT RF_COLLISION`` (another field kept its own off
    for a second): its zone and the neighbours, from the scan schedule's geometry, whose fields
    can reach it. Those on another hub are the likely culprits."""
    table = bridge.wiring.table()
    schedule = bridge.schedule()
    lines = []
    for hub in sorted(hubs.values(), key=lambda h: h.hub_id):
        for a, ant in sorted(hub.antennas.items()):
            if not ant.rf_collisions:
                continue
            key = AntennaKey(hub.hub_id, a)
            here = zone_name(table[key]) if key in table else "(not in the wiring map)"
            near = schedule.neighbours_of(key) if schedule is not None else []
            named = [f"{zone_name(table[k]) if k in table else '?'} ({k}, {gap:.0f} mm"
                     + (", another hub)" if k.hub != key.hub else ")") for k, gap in near]
            who = ("with " + ", ".join(named)) if named else (
                "with no neighbour the layout knows of (another reader nearby?)")
            plan = ("; the hubs are scheduled, so a hub's clock is off or the stack outlasts "
                    "its slot" if hub.scheduled else
                    "; this hub runs unscheduled (protocol 1.0 firmware: update it)")
            lines.append(f"cross-talk: {here} ({key}) collided {ant.rf_collisions} times "
                         f"{who}{plan}; move the antennas apart")
    return lines


def _schedule_state(bridge: Bridge, hub: HubStatus) -> str:
    refused = hub.link.refusals.get("Schedule") if hub.link is not None else None
    if refused:
        return f"unscheduled (it refused its slot table: {refused})"
    if hub.scheduled:
        s = bridge.schedule()
        if s is None:
            return "scan slots"
        if s.per_slot:
            return (f"scan slots: {s.count} of {'/'.join(map(str, s.slot_ms))} ms "
                    f"(cycle {s.cycle_ms} ms)")
        if not hub.per_slot:
            return f"scan slots: {s.count} of {s.period_ms} ms (one length: protocol 1.1)"
        older = sorted(h.hub_id for h in bridge.hubs().values()
                       if h.connected and h.scheduled and not h.per_slot)
        if older:  # every hub must agree where each slot begins (docs/protocol.md 5.1)
            return (f"scan slots: {s.count} of {s.period_ms} ms (one length: "
                    f"{', '.join(older)} speaks protocol 1.1)")
        return f"scan slots: {s.count} of {s.period_ms} ms"
    if hub.hello.protocol < (1, 1):
        return "unscheduled (protocol 1.0)"
    return "unscheduled (no scan schedule)" if bridge.schedule_problem() else "unscheduled"


def _read_words(ant: AntennaStatus | None) -> str:
    """", 45 ms a read (worst 80), 60 % full" for an antenna whose hub reports read times."""
    if ant is None or not ant.read_ms:
        return ""
    text = (f", {statistics.median(ant.read_ms):.0f} ms a read "
            f"(worst {max(ant.read_ms)})")
    kinds = ant.full_reads + ant.quick_reads
    return text + (f", {ant.full_reads / kinds:.0%} full" if kinds else "")


def _hub_reads(hub: HubStatus) -> str:
    """The hub's read times and completeness in one line (protocol 1.3: docs/protocol.md 4.2)."""
    times = [ms for ant in hub.antennas.values() for ms in ant.read_ms]
    if not times:
        why = ("its firmware is older than protocol 1.3" if hub.hello.protocol < (1, 3)
               else "none reported yet (a hub reports them once the companion focuses it)")
        return f"read times: {why}"
    full = sum(ant.full_reads for ant in hub.antennas.values())
    quick = sum(ant.quick_reads for ant in hub.antennas.values())
    share = (f"; {full / (full + quick):.0%} of {full + quick} reads full (a quick read asks "
             "only for new tags)") if full + quick else ""
    return (f"read times: median {statistics.median(times):.0f} ms, worst {max(times)} ms "
            f"over the last {len(times)} reads{share}")


def _hub_report(
    bridge: Bridge, hub: HubStatus, self_test: dict[AntennaKey, str] | None, since: float | None
) -> tuple[list[str], int]:
    table = bridge.wiring.table()
    problems = 0
    state = "connected" if hub.connected else f"LOST ({hub.lost_reason})"
    if hub.connected and since is not None and hub.lost_at is not None and hub.lost_at >= since:
        state = "connected again, but was LOST during the check"
        problems += 1
    h = hub.hello
    lines = [f"hub {hub.hub_id} on {hub.port}: {state}, firmware {h.firmware}, "
             f"protocol {h.protocol[0]}.{h.protocol[1]}, {h.antennas} antennas, "
             f"{h.rate_hz} scans/s, {_schedule_state(bridge, hub)}"]
    problems += 0 if hub.connected else 1
    if h.antennas < hub.wired:
        lines.append(f"  the wiring map gives it {hub.wired} antennas: all {hub.wired} are read "
                     "(check READERS in its hub_config.py)")
        problems += 1
    if hub.fault:
        lines.append(f"  hub fault: {hub.fault}")
        problems += 1
    for a in range(hub.read_antennas):
        key = AntennaKey(hub.hub_id, a)
        ant = hub.antennas.get(a)
        zone = table.get(key)
        where = zone_name(zone) if zone else "(not in the wiring map)"
        rate = ant.read_rate() if ant else 0.0
        tags = ant.tags if ant else 0
        flags = []
        if ant is None or ant.snapshots == 0 or rate == 0.0:
            flags.append("DEAD: no snapshots")
        if ant is not None and ant.fault:
            flags.append(f"FAULT {ant.fault}")
        elif (ant is not None and since is not None and ant.last_fault_at is not None
              and ant.last_fault_at >= since):
            flags.append(f"faulted during the check ({ant.last_fault}), reads again now")
        test = (self_test or {}).get(key)
        if test is not None and test != "PASS":
            flags.append(f"self-test {test}")
        problems += 1 if flags else 0
        note = "  <-- " + "; ".join(flags) if flags else ""
        lines.append(f"  A{a:02d} {where:<28} {tags:3d} tags {rate:6.1f} reads/s"
                     f"{_read_words(ant)}{note}")
    lines.append("  " + _hub_reads(hub))
    s = hub.stats
    rejected = ", ".join(f"{r} {n}" for r, n in sorted(s.rejected.items())) or "none"
    lines.append(f"  frames {sum(s.frames.values())}, rejected: {rejected}; "
                 f"sequence gaps {s.gaps} ({s.frames_lost} frames lost), "
                 f"repeated frames {s.duplicates}; "
                 f"unanswered commands {s.commands_unanswered}")
    return lines, problems
