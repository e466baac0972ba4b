"""``benchmarks/kensei_rulings.py`` on one battle: every command replays, the figures print."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_battle_replays_and_prints_its_ruling_times() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "kensei_rulings.py"), "1"],
                         capture_output=True, text=True, timeout=120, check=False)
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0, run.stderr
    first = re.fullmatch(r"(\d+) rulings over 1 battle: median [\d.]+ ms, p99 [\d.]+ ms",
                         lines[0])
    assert first is not None and int(first.group(1)) > 50, lines[0]
    kinds = {line.split()[0] for line in lines[1:-1]}
    assert {"begin", "melee", "order_roll", "end_turn"} <= kinds
    assert re.fullmatch(r"[\d.]+ stored battles/s verified \(\d+ entries; .*\)", lines[-1])
