"""The bridge's air-time model (firmware_bridge/airtime.py) gives the figures the hub firmware's
own inventory gives: its CPython twin of the inventory and its copy of the driver's waits must
not drift from hardware/firmware/sekihub."""

from __future__ import annotations

import pytest
from airtime import firmware_antenna_time
from sekihub import inventory, pn5180

from firmware_bridge import airtime


def test_the_driver_waits_are_the_firmwares() -> None:
    assert airtime.FIELD_SETTLE_US == pn5180.FIELD_SETTLE_US
    assert airtime.POLL_US == pn5180.POLL_US
    assert airtime.SOF_DEADLINE_US == pn5180.SOF_DEADLINE_US
    assert airtime.T2_US == pn5180.T2_US


def test_the_inventory_limits_are_the_firmwares() -> None:
    assert (airtime.EMPTY, airtime.TAG, airtime.GARBLED) == (
        inventory.EMPTY, inventory.TAG, inventory.GARBLED)
    assert airtime.MAX_MASK_LEN == inventory.MAX_MASK_LEN
    assert airtime.MAX_PROBES == inventory.MAX_PROBES


@pytest.mark.parametrize("tags", [0, 1, 2, 3, 8, 17, 40])
def test_the_twin_inventory_costs_what_the_firmwares_costs(tags: int) -> None:
    """Same UIDs, same chip: every probe, round, slot and STAY QUIET the same, so the same time
    to the microsecond."""
    for seed in (1, 2):
        twin = airtime.antenna_time(tags, 120.0, trials=10, seed=seed)
        firmware = firmware_antenna_time(tags, 120.0, trials=10, seed=seed)
        assert twin == pytest.approx(firmware, abs=1e-9)


def test_a_twin_that_skips_the_last_probe_would_be_caught() -> None:
    """The comparison can fail: an inventory that stops without the closing probe costs less."""
    def hasty(chip: airtime.TimingChip) -> set[int]:
        found: set[int] = set()
        for kind, uid in chip.inventory_round(0, 0):
            if kind == airtime.TAG and uid is not None:
                found.add(uid)
        return found

    short = airtime.antenna_time(1, 120.0, trials=5, run=hasty)
    assert short != pytest.approx(firmware_antenna_time(1, 120.0, trials=5), abs=1e-9)
