"""A few trials of the crash-recovery benchmark: SIGKILL a recording game, nothing lost."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_few_killed_games_lose_nothing() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "crash_recovery.py"), "--trials", "4",
         "--seed", "3"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    last = run.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"trials=4 acknowledged_events=(\d+) lost_events=0 "
                         r"corrupt_databases=0 recovery_p99_ms=[\d.]+", last)
    assert found is not None, (last, run.stderr)
    assert int(found.group(1)) > 0
    assert run.returncode == 0
