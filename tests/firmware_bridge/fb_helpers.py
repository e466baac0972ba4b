"""Constants and helpers shared by the bridge tests (a unique name: tests/ has no packages)."""

from __future__ import annotations

from firmware_bridge.bridge import Bridge

RATE_HZ = 50
WAIT_S = 20.0
"""The longest a bridge test waits for what the simulated hubs do on real pseudo-terminals;
a wait ends as soon as its condition holds, so this only bounds a failure (generous: the
suite runs tests side by side on two cores)."""


def placed(bridge: Bridge, block: str, zone: str | None) -> bool:
    return bridge.placements().get(block) == zone
