"""The per-read time model run with the hub firmware's own inventory.

The model itself is a module of the bridge (``firmware_bridge/airtime.py``: ISO/IEC 15693 air
time, the chip's timing, a CPython twin of the hub's inventory); the bridge sizes its scan
slots with it. Here it runs with the firmware's ``sekihub.inventory.run_inventory`` instead of
the twin, for the build guide and for the test that keeps the twin (and the driver's waits)
equal to the firmware (tests/hardware/test_hw_airtime.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

_FIRMWARE = str(Path(__file__).resolve().parents[1] / "firmware")
if _FIRMWARE not in sys.path:
    sys.path.insert(0, _FIRMWARE)

from sekihub.inventory import run_inventory  # noqa: E402

from firmware_bridge.airtime import TimingChip, antenna_time  # noqa: E402


def firmware_inventory(chip: TimingChip) -> set[int]:
    """The firmware's own inventory on the timing chip: the UIDs it found."""
    found: set[int] = run_inventory(chip).uids
    return found


def firmware_antenna_time(n_tags: int, instr_us: float, trials: int = 200,
                          seed: int = 1) -> tuple[float, float, float, float]:
    """:func:`firmware_bridge.airtime.antenna_time` with the firmware's inventory."""
    return antenna_time(n_tags, instr_us, trials, seed, run=firmware_inventory)
