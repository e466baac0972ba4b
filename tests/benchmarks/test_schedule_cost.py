"""A short run of the schedule-cost benchmark: its output says it is computed and has one row
per hub and one board line per position, a schedule never makes a sweep faster, and per-slot
lengths (protocol 1.2) make it faster than one length for every slot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_schedule_cost_prints_computed_sweeps_per_hub_and_board() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "schedule_cost.py"), "--runs", "1",
         "--positions", "empty,crowded"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("source=computed(time model) ")
    heads = [re.fullmatch(r"position=(\w+) blocks=(\d+) fixed_slot_ms=50 adaptive_slot_ms=(\d+) "
                          r"per_slot_ms=([\d/]+)", line)
             for line in lines if line.startswith("position=")]
    assert [(h.group(1), h.group(2)) for h in heads if h] == [("empty", "0"), ("crowded", "96")]
    slots = {h.group(1): int(h.group(3)) for h in heads if h}
    assert 50 < slots["empty"] < slots["crowded"] <= 1000
    for head in heads:
        assert head is not None
        lengths = [int(n) for n in head.group(4).split("/")]
        assert len(lengths) == 4 and max(lengths) == int(head.group(3))  # the busiest slot
        assert min(lengths) < max(lengths)
    rows = [line for line in lines if re.fullmatch(
        r"   hub-\d +\d+ +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+", line)]
    assert len(rows) == 10  # five hubs, two positions
    boards = [re.fullmatch(r"board position=(\w+) unscheduled_ms=(\d+) fixed_ms=(\d+) "
                           r"adaptive_ms=(\d+) per_slot_ms=(\d+)", line) for line in lines
              if line.startswith("board ")]
    assert len(boards) == 2 and all(boards)
    for board in boards:
        assert board is not None
        unscheduled, fixed, adaptive, per_slot = (int(board.group(i)) for i in (2, 3, 4, 5))
        assert 0 < unscheduled <= fixed and unscheduled <= adaptive
        assert unscheduled <= per_slot < adaptive


def test_the_focused_revisit_on_the_crowded_position_is_a_quarter_second_at_250_us() -> None:
    """Issue 17: with a block lifted and its destinations lit, slots sized for the focused
    antennas' quick reads bring each round at most every 250 ms at 250 us per SPI instruction
    (computed), where sizing for every stack's full read took over a second."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "schedule_cost.py"), "--positions", "",
         "--instr-us", "120,250", "--focus-origins", "kyoto,osaka"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stdout.splitlines() if line.startswith("focus ")]
    assert "source=computed(" in lines[0]
    found = {}
    for line in lines[1:]:
        m = re.fullmatch(r"focus origin=(\w+) lit=([\w,]+) instr_us=(\d+) origin_read=(quick|full) "
                         r"before_revisit_ms=(\d+) after_revisit_ms=(\d+) "
                         r"before_slot_ms=([\d/]+) after_slot_ms=([\d/]+)", line)
        assert m is not None, line
        before, after = int(m.group(5)), int(m.group(6))
        assert before == sum(int(n) for n in m.group(7).split("/"))
        assert after == sum(int(n) for n in m.group(8).split("/"))
        found[(m.group(1), int(m.group(3)), m.group(4))] = (before, after)
    assert len(found) == 8
    for (_, instr, kind), (before, after) in found.items():
        assert after < before
        assert kind == "full" or after <= 250
        assert instr == 120 or before > 1000
    assert found[("kyoto", 250, "full")][1] > found[("kyoto", 250, "quick")][1]
