"""``benchmarks/table_latency.py`` runs end to end with tiny counts and prints its result line.

Only the shape of the output is checked, never the timings (the machine may be busy).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULT = re.compile(
    r"tag_to_pixels_p50_ms=(\S+) tag_to_pixels_p99_ms=(\S+) debounce_ms=(\S+) "
    r"idle_cpu_percent=(\S+) first_frame_s=(\S+) rss_mb=(\S+)"
)


def test_table_latency_benchmark_prints_its_result_line() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "table_latency.py"), "--trials", "2",
         "--idle-seconds", "0.5", "--first-frame-runs", "1", "--rate", "20"],
        cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, capture_output=True,
        text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    match = RESULT.fullmatch(lines[-1])
    assert match is not None, lines[-1]
    values = [float(v) for v in match.groups()]
    assert all(v >= 0 for v in values)
    p50, p99 = values[0], values[1]
    assert p50 <= p99
    assert any("51/51 locations populated" in line for line in lines), lines
