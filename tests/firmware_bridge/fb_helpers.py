"""Constants and helpers shared by the bridge tests (a unique name: tests/ has no packages)."""

from __future__ import annotations

from firmware_bridge.bridge import Bridge

RATE_HZ = 50
WAIT_S = 5.0


def placed(bridge: Bridge, block: str, zone: str | None) -> bool:
    return bridge.placements().get(block) == zone
