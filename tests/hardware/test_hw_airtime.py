"""The bridge's air-time model (firmware_bridge/airtime.py) gives the figures the hub firmware's
own inventory gives: its CPython twin of the inventory and its copy of the driver's waits must
not drift from hardware/firmware/sekihub."""

from __future__ import annotations

import random

import pytest
from airtime import firmware_antenna_time
from sekihub import inventory, pn5180
from sekihub.inventory import run_inventory, run_watch

from firmware_bridge import airtime
from firmware_bridge import protocol as p


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


def firmware_quick_read(chip: airtime.TimingChip, known: list[int]) -> set[int]:
    """The firmware's quick read (what ``sekihub.hub`` asks the driver for): the tags listed
    last time, in the hub's order, told to stay quiet, then the inventory."""
    found: set[int] = run_inventory(chip, quiet=known).uids
    return found


@pytest.mark.parametrize(("known", "new"), [(1, 0), (3, 0), (8, 1), (14, 0), (14, 2)])
def test_the_quick_read_model_costs_what_the_firmwares_quick_read_costs(known: int,
                                                                         new: int) -> None:
    """quick_read_ms's model (protocol 1.3): the same STAY QUIETs and the same inventory of the
    newcomers as the firmware, to the microsecond."""
    for seed in (1, 2):
        model = airtime.antenna_time(new, 250.0, trials=10, seed=seed, known=known)
        firmware = airtime.antenna_time(new, 250.0, trials=10, seed=seed, known=known,
                                        quick=firmware_quick_read)
        assert model == pytest.approx(firmware, abs=1e-9)
    assert airtime.quick_read_ms(known, new, 250.0) < airtime.read_ms(known + new, 250.0)


def test_a_quick_read_that_forgot_a_stay_quiet_would_be_caught() -> None:
    def forgetful(chip: airtime.TimingChip, known: list[int]) -> set[int]:
        found: set[int] = run_inventory(chip, quiet=known[1:]).uids
        return found

    with pytest.raises(AssertionError, match="found"):
        airtime.antenna_time(0, 250.0, trials=3, known=5, quick=forgetful)


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


@pytest.mark.parametrize(("stack", "wanted", "present"), [(0, 1, 0), (3, 1, 1), (14, 2, 1),
                                                        (8, 4, 4)])
def test_the_watch_read_model_probes_as_the_firmwares_watch(stack: int, wanted: int,
                                                            present: int) -> None:
    """watch_read_ms's model (protocol 1.3): the firmware's ``run_watch`` sends the same masked
    probes on the same chip and finds the same tags, in the same time; the stack on the
    antenna never answers, so a watch costs the same whatever its height."""
    rng = random.Random(stack * 100 + wanted)
    others = {0xE004010000000000 | rng.getrandbits(40) for _ in range(stack)}
    want = [0xE004010000000000 | rng.getrandbits(40) for _ in range(wanted)]
    twin_budget, firmware_budget = airtime.Budget(250.0), airtime.Budget(250.0)
    tags = others | set(want[:present])
    twin = airtime.watch(airtime.TimingChip(set(tags), twin_budget), want)
    firmware = run_watch(airtime.TimingChip(set(tags), firmware_budget), want)
    assert twin == firmware.uids == set(want[:present]) and firmware.complete
    assert (twin_budget.air, twin_budget.hub) == (firmware_budget.air, firmware_budget.hub)
    assert inventory.WANT_MASK_BITS == airtime.WANT_MASK_BITS == p.WANT_MASK_BITS
    assert airtime.watch_read_ms(1, 0, 250.0, 14) < airtime.quick_read_ms(14, 0, 250.0) / 5
