"""``benchmarks/table_latency.py`` runs end to end with tiny counts and prints its result lines.

The timings are checked only for plausibility (the machine may be busy): what can be told
without a stopwatch. A read of the antennas that matter comes round no faster than the air-time
model's shortest read allows; a block is shown landed no later than its move is ruled; the
output says which figures are computed and which measured.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.airtime import read_ms

ROOT = Path(__file__).resolve().parents[2]
OLD = re.compile(
    r"tag_to_pixels_p50_ms=(\S+) tag_to_pixels_p99_ms=(\S+) debounce_ms=(\S+) "
    r"idle_cpu_percent=(\S+) first_frame_s=(\S+) rss_mb=(\S+)"
)
NEW = re.compile(
    r"revisit_ms_p50=(\d+) putdown_to_shown_ms_p50=(\d+) putdown_to_shown_ms_p90=(\d+) "
    r"putdown_to_ruled_ms_p50=(\d+) putdown_to_ruled_ms_p90=(\d+)"
)


@pytest.mark.slow
def test_table_latency_prints_the_time_model_figures_measured_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "table_latency.py"), "--trials", "2",
         "--idle-seconds", "0.5", "--first-frame-runs", "1", "--position", "crowded",
         "--instr-us", "250"],
        cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy"}, capture_output=True,
        text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    new = NEW.fullmatch(lines[-1])
    assert new is not None, lines[-1]
    revisit, shown50, shown90, ruled50, ruled90 = (int(v) for v in new.groups())
    assert revisit >= read_ms(0, 250.0)  # no antenna is read twice faster than an empty read
    assert 0 < shown50 <= shown90
    assert shown50 <= ruled50 <= ruled90
    old = OLD.fullmatch(lines[-2])
    assert old is not None, lines[-2]
    values = [float(v) for v in old.groups()]
    assert all(v >= 0 for v in values) and values[0] <= values[1]
    text = "\n".join(lines)
    assert "51/51 locations populated" in text
    assert "250 us per SPI instruction (COMPUTED)" in text
    assert "MEASURED end to end" in text
    assert "2 trials on the crowded position" in text
