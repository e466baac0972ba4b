"""The ``emulated`` tier: the Raspberry Pi install tried in an arm64 root under qemu (minutes,
root, Debian's debootstrap and qemu-user-static). Not in the default run: only when asked for,
``pytest -m emulated tests/packaging``."""

from __future__ import annotations

import re

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "emulated: the Pi install in an arm64 root under qemu (minutes; "
        "run with -m emulated)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    asked = re.search(r"(?<!not )\bemulated\b", str(config.getoption("markexpr") or ""))
    if asked:
        return
    skip = pytest.mark.skip(reason="emulated: run with -m emulated (minutes)")
    for item in items:
        if item.get_closest_marker("emulated") is not None:
            item.add_marker(skip)
