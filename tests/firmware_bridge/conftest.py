"""Fixtures: a simulated table on real pseudo-terminals and the real bridge reading it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_helpers import RATE_HZ, WAIT_S

from firmware_bridge.bridge import Bridge
from firmware_bridge.schedule import antenna_spots
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.tracking import TrackEvent


@pytest.fixture(scope="session", autouse=True)
def antenna_layout() -> None:
    """Read the antenna layout once, before any timed test: every Bridge plans its scan
    schedule from it (package data, parsed and validated once a process)."""
    antenna_spots()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=RATE_HZ,
                               seed=7) as sim:
        yield sim


@pytest.fixture
def bridge(table: SimulatedTable) -> Iterator[Bridge]:
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry) as running:
        running.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield running


@pytest.fixture
def events(bridge: Bridge) -> list[TrackEvent]:
    received: list[TrackEvent] = []
    bridge.subscribe(received.append)
    return received
