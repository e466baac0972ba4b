"""Fixtures for the drawing components: a headless display, a real mid-game position and a
running simulated table."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from ui_helpers import play_until

from companion.games.sekigahara.engine.game import SekigaharaGame
from firmware_bridge.simtable import SimulatedTable


@pytest.fixture(scope="session", autouse=True)
def _display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield


@pytest.fixture(scope="session")
def midgame() -> SekigaharaGame:
    """Week 2 or later with a combat in progress."""
    return play_until(3, lambda s: s.week >= 2 and s.pending is not None)


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[SimulatedTable]:
    table = SimulatedTable.create(tmp_path / "links", hubs=5).start()
    try:
        yield table
    finally:
        table.stop()
