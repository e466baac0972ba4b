#!/usr/bin/env python3
"""What the cross-hub scan schedule costs in scan time, computed from the time model.

Nothing here is measured on hardware. As in ``benchmarks/hub_sweep.py`` (whose pieces this
reuses), the real hub firmware (``sekihub.hub.Hub``: its slot clock, the PN5180 driver, the
inventory) runs under CPython against ``tests/hardware/hw_fakes.FakePN5180``, whose clock
advances by the ISO/IEC 15693 air time, the SPI transfers and *estimated* MicroPython and BUSY
costs. The slot table is the host's (``firmware_bridge.schedule.plan_schedule`` over the
game's antenna layout and the default wiring); the adaptive slot lengths are what the host
would choose for the stacks (``needed_slot_ms``, from the per-read model of
``firmware_bridge/airtime.py``).

For each position (an empty board, the set-up position of rule 5.2, and a crowded board: the
96-block mid-game position of ``hardware/tools/scan_budget.py``, stacks up to 14) it prints
the **full-board sweep**: the time until every antenna has been read once, per hub and for the
board (hubs run in parallel: the slowest hub), for three ways of running the hubs:

* ``unscheduled``: each hub reads its antennas back to back (protocol 1.0; neighbours on two
  hubs may transmit together);
* ``fixed``: the schedule with the default 50 ms slot (a read longer than what is left of a
  window waits for the next cycle; a read longer than the window overruns it);
* ``adaptive``: every slot as long as the host sizes the busiest one for the stacks (protocol
  1.1, or 1.2 with a 1.1 hub on the table);
* ``per_slot``: each slot as long as its busiest hub needs (protocol 1.2): the cycle is the
  sum of the slots' lengths.

A scheduled sweep counts from the start of slot 0 (the SYNC), with a cold hub: no antenna read
yet, so each counts as half its slot until read (``sekihub.slots``), and a slot full of such
antennas may leave some to the next cycle.

Then the **focused revisit** on the crowded position (protocol 1.3, docs/protocol.md 5.2): a
block lifted from ``--focus-origins`` (one fewer on it), the origin and the places a road away
lit (an approximation of the engine's lit destinations) as the focus. A hub reads a slot's
focused antennas first in every window, so each comes round once a cycle: the revisit is the
cycle, the sum of the per-slot lengths the host chooses. ``before`` sizes every slot for every
stack's full read (the host before focus-aware sizing); ``after`` for the focused antennas'
quick reads (in full for an empty one, and for the origin when ``origin_read=full``: the
``!`` of a stack a hand may lift from) and a little background
(``firmware_bridge.schedule.needed_slot_ms``). Computed from ``firmware_bridge/airtime.py`` at
each ``--instr-us``, not run on the firmware. Usage:
``.venv/bin/python benchmarks/schedule_cost.py [--runs 5] [--positions empty,setup,crowded]
[--instr-us 120,250] [--focus-origins kyoto,osaka]``
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("", "benchmarks", "hardware/firmware", "hardware/tools", "tests/hardware"):
    sys.path.insert(0, str(ROOT / sub))

import placement_sheet  # noqa: E402
from hub_sweep import _hub, hub_cycle_ms  # noqa: E402
from scan_budget import SCENARIO  # noqa: E402

from companion.core.table import game_table  # noqa: E402
from companion.games.sekigahara.components import Board, default_board  # noqa: E402
from firmware_bridge import protocol as p  # noqa: E402
from firmware_bridge.airtime import quick_read_ms, read_ms  # noqa: E402
from firmware_bridge.schedule import (  # noqa: E402
    SLOT_MS,
    ScanSchedule,
    antenna_spots,
    needed_slot_ms,
    plan_schedule,
)
from firmware_bridge.wiring import AntennaKey  # noqa: E402

GIVE_UP_MS = 60_000


def setup_position(board: Board) -> dict[str, int]:
    """Blocks on each zone at set-up (5.2): its random draws and its fixed setup symbols."""
    counts: dict[str, int] = {}
    for zone in [*board.locations.values(), *board.boxes.values()]:
        n = sum(zone.setup.random.values()) + sum(
            sum(symbols.values()) for symbols in zone.setup.fixed.values())
        if n:
            counts[zone.id] = n
    return counts


def scheduled_sweep_ms(counts: list[int], schedule: p.Schedule, args: argparse.Namespace,
                       rng: random.Random) -> float:
    """Time from slot 0's start until a scheduled hub has read every antenna once."""
    hub, clock, port = _hub(counts, args, rng)
    port.inbox += p.encode(schedule, 1) + p.encode(p.Sync(0, 0), 2)
    hub.service_host()
    start = clock.us
    port.take_lines()
    unread = set(range(len(counts)))
    while unread and clock.us - start < GIVE_UP_MS * 1000:
        before = clock.us
        hub.step()
        for line in port.take_lines():
            message = p.decode_line(line).message
            if isinstance(message, p.Snapshot):
                unread.discard(message.antenna)
        if clock.us == before:
            clock.sleep_us(1000)  # the run loop's idle sleep
    return (clock.us - start) / 1000


def sweep_ms(counts: list[int], schedule: p.Schedule | None, args: argparse.Namespace,
             rng: random.Random) -> float:
    """Median full sweep of one hub over ``args.runs`` runs, unscheduled when ``schedule`` is
    None (hub_sweep's back-to-back cycle)."""
    runs = [hub_cycle_ms(counts, args, rng) if schedule is None
            else scheduled_sweep_ms(counts, schedule, args, rng) for _ in range(args.runs)]
    return statistics.median(runs)


def focused_revisit(board: Board, wiring: dict[AntennaKey, str], plan: ScanSchedule,
                    origin: str, instr_us: float, origin_full: bool
                    ) -> tuple[tuple[int, ...], tuple[int, ...], list[str]]:
    """Per-slot lengths before and after focus-aware sizing on the crowded position with a
    block lifted from ``origin`` and the places a road away lit; and those places."""
    position = dict(SCENARIO)
    position[origin] = max(0, position.get(origin, 0) - 1)  # the block in hand
    lit = [z for z in board.neighbours(origin) if z in set(wiring.values())]
    shares: dict[str, int] = {}
    counts = {}
    for key in sorted(wiring):
        zone = wiring[key]
        channel = shares[zone] = shares.get(zone, -1) + 1
        channels = sum(1 for z in wiring.values() if z == zone)
        counts[key] = placement_sheet.share(position.get(zone, 0), channel, channels)
    sizes = {h: 1 + max(k.antenna for k in wiring if k.hub == h) for h in {k.hub for k in wiring}}
    tables = {h: plan.for_hub(h, n).slots for h, n in sizes.items()}
    focus = {k for k, z in wiring.items() if z == origin or z in lit}
    full = {k for k, z in wiring.items() if z == origin} if origin_full else set()
    read = functools.partial(read_ms, instr_us=instr_us)

    def quick(known: int, new: int) -> float:
        return quick_read_ms(known, new, instr_us)

    before = needed_slot_ms(tables, counts, plan.count, plan.guard_ms, read, quick=quick)
    after = needed_slot_ms(tables, counts, plan.count, plan.guard_ms, read, quick=quick,
                           focus=focus, focus_full=full)
    return before, after, lit


def print_focus(board: Board, wiring: dict[AntennaKey, str], plan: ScanSchedule,
                origins: list[str], instrs: list[float]) -> None:
    print("focus position=crowded source=computed(time model, slot lengths) revisit = cycle: "
          "a focused antenna is read once a cycle, first in its slot's window")
    for origin in origins:
        for instr_us in instrs:
            for origin_full in (False, True):
                before, after, lit = focused_revisit(board, wiring, plan, origin, instr_us,
                                                     origin_full)
                print(f"focus origin={origin} lit={','.join(lit)} instr_us={instr_us:g} "
                      f"origin_read={'full' if origin_full else 'quick'} "
                      f"before_revisit_ms={sum(before)} after_revisit_ms={sum(after)} "
                      f"before_slot_ms={'/'.join(map(str, before))} "
                      f"after_slot_ms={'/'.join(map(str, after))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spi-hz", type=int, default=1_000_000)
    parser.add_argument("--call-us", type=int, default=25,
                        help="estimated MicroPython cost of one SPI call (us)")
    parser.add_argument("--noise", type=float, default=0.02,
                        help="share of tag answers received damaged")
    parser.add_argument("--runs", type=int, default=5, help="sweeps per hub and way (median)")
    parser.add_argument("--positions", default="empty,setup,crowded")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--instr-us", default="120,250",
                        help="the focused revisit at these us per SPI instruction (estimates)")
    parser.add_argument("--focus-origins", default="kyoto,osaka",
                        help="the focused revisit with a block lifted from each of these")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    per_slot_rng = random.Random(args.seed + 1)  # its own draws: the other columns stay as
    # they were before it was added
    board = default_board()
    lay = placement_sheet.layout(board)
    wiring = {AntennaKey(lay.hub_id(m.hub), m.antenna): m.zone for m in lay.marks}
    spots = antenna_spots(game_table("sekigahara"))
    plan = plan_schedule(wiring, spots)
    positions = {"empty": {}, "setup": setup_position(board), "crowded": dict(SCENARIO)}
    print(f"source=computed(time model) firmware on tests/hardware/hw_fakes.FakePN5180, not "
          f"measured: SPI {args.spi_hz / 1e6:g} MHz, {args.call_us} us per SPI call "
          f"(estimate), noise {args.noise:g}; adaptive and per-slot lengths from "
          f"firmware_bridge/airtime.py; "
          f"{plan.count} slots, {len(plan.pairs)} neighbour pairs; median of {args.runs}")
    for name in filter(None, args.positions.split(",")):
        position = positions[name]
        members = {h: sorted((m for m in lay.marks if m.hub == h), key=lambda m: m.antenna)
                   for h in sorted(lay.hub_positions)}
        counts = {lay.hub_id(h): [placement_sheet.share(position.get(m.zone, 0), m.channel,
                                                        m.channels) for m in ms]
                  for h, ms in members.items()}
        tables = {hub: plan.for_hub(hub, len(c)).slots for hub, c in counts.items()}
        by_key = {AntennaKey(hub, a): n for hub, c in counts.items() for a, n in enumerate(c)}
        lengths = needed_slot_ms(tables, by_key, plan.count, plan.guard_ms)
        adaptive = max(lengths)
        ways: dict[str, ScanSchedule | None] = {
            "unscheduled": None, "fixed": plan, "adaptive": plan.with_lengths(
                (adaptive,) * plan.count), "per_slot": plan.with_lengths(lengths)}
        print(f"position={name} blocks={sum(position.values())} fixed_slot_ms={SLOT_MS} "
              f"adaptive_slot_ms={adaptive} per_slot_ms={'/'.join(map(str, lengths))}")
        print("   hub     antennas  tags  unscheduled_ms  fixed_ms  adaptive_ms  per_slot_ms")
        board_ms = dict.fromkeys(ways, 0.0)
        for hub, c in counts.items():
            row = {}
            for way, schedule in ways.items():
                table = None if schedule is None else schedule.for_hub(hub, len(c))
                row[way] = sweep_ms(c, table, args, per_slot_rng if way == "per_slot" else rng)
                board_ms[way] = max(board_ms[way], row[way])
            print(f"   {hub:7s} {len(c):8d}  {sum(c):4d}  {row['unscheduled']:14.1f}  "
                  f"{row['fixed']:8.1f}  {row['adaptive']:11.1f}  {row['per_slot']:11.1f}")
        print(f"board position={name} unscheduled_ms={board_ms['unscheduled']:.0f} "
              f"fixed_ms={board_ms['fixed']:.0f} adaptive_ms={board_ms['adaptive']:.0f} "
              f"per_slot_ms={board_ms['per_slot']:.0f}")
    print_focus(board, wiring, plan, args.focus_origins.split(","),
                [float(x) for x in args.instr_us.split(",")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
