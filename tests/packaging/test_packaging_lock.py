"""The Raspberry Pi's lock (hardware/pi/requirements-lock.txt, made by hardware/pi/lock.sh) pins
exactly what pyproject.toml declares for the app (its dependencies and the ``ui`` and ``usb``
extras) and everything those need, each with hashes: it cannot silently go stale."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "hardware" / "pi" / "requirements-lock.txt"
PROJECT = "sekigahara-companion (pyproject.toml)"
PI = {**default_environment(), "platform_machine": "aarch64", "sys_platform": "linux",
      "platform_system": "Linux", "python_version": "3.11", "extra": ""}
"""Raspberry Pi OS bookworm: arm64 Linux, Python 3.11."""


class Pin:
    def __init__(self, name: str, version: str) -> None:
        self.name, self.version = canonicalize_name(name), version
        self.hashes: list[str] = []
        self.via: set[str] = set()


def read_lock(text: str) -> dict[str, Pin]:
    pins: dict[str, Pin] = {}
    pin: Pin | None = None
    for line in text.splitlines():
        if match := re.match(r"([A-Za-z0-9._-]+)==(\S+)", line):
            pin = Pin(match[1], match[2])
            pins[pin.name] = pin
        elif pin is not None and (digest := re.search(r"--hash=(sha256:[0-9a-f]{64})", line)):
            pin.hashes.append(digest[1])
        elif pin is not None and (via := re.match(r"\s+# (?:via |  +)(\S.*)$", line)):
            pin.via.add(via[1] if via[1] == PROJECT else canonicalize_name(via[1]))
    return pins


def declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    wanted = [*project["dependencies"], *extras["ui"], *extras["usb"]]
    return {canonicalize_name(r.name): r for r in map(Requirement, wanted)}


@pytest.fixture(scope="module")
def pins() -> dict[str, Pin]:
    return read_lock(LOCK.read_text())


def test_the_lock_pins_what_pyproject_declares(pins: dict[str, Pin]) -> None:
    direct = {name for name, pin in pins.items() if PROJECT in pin.via}
    assert direct == set(declared()), "run hardware/pi/lock.sh"
    for name, requirement in declared().items():
        assert requirement.specifier.contains(pins[name].version, prereleases=True), (
            f"{name} {pins[name].version} is outside {requirement}: run hardware/pi/lock.sh")


def test_every_pin_has_hashes_and_a_reason(pins: dict[str, Pin]) -> None:
    """--require-hashes needs a hash for each; a pin nothing needs any more is stale."""
    assert len(pins) >= len(declared())
    for name, pin in pins.items():
        assert pin.hashes, f"{name} has no hash"
        assert pin.via and pin.via <= {PROJECT, *pins}, f"{name}: needed by {pin.via}"


def test_the_lock_is_closed(pins: dict[str, Pin]) -> None:
    """What each pinned release requires on the Pi is pinned too (read from the releases
    installed here that are the locked ones: a newer release here is not the lock's business)."""
    checked = 0
    for name, pin in pins.items():
        try:
            installed = distribution(name)
        except PackageNotFoundError:
            continue
        if installed.version != pin.version:
            continue
        checked += 1
        for line in installed.requires or []:
            needed = Requirement(line)
            if needed.marker is None or needed.marker.evaluate(PI):
                assert canonicalize_name(needed.name) in pins, f"{name} needs {needed}"
    if not checked:  # the Pi's pip check (install.sh) still sees it
        pytest.skip("no locked release is installed here: pip install -r the lock to check")


def test_the_reader_sees_hashes_and_reasons() -> None:
    """The parser itself, on a lock in uv's format."""
    text = (f"foo-bar==1.2 \\\n    --hash=sha256:{'a' * 64}\n    # via {PROJECT}\n"
            f"baz==3 \\\n    --hash=sha256:{'b' * 64}\n    # via\n    #   foo-bar\n    #   qux\n")
    pins = read_lock(text)
    assert {n: (p.version, p.hashes, p.via) for n, p in pins.items()} == {
        "foo-bar": ("1.2", [f"sha256:{'a' * 64}"], {PROJECT}),
        "baz": ("3", [f"sha256:{'b' * 64}"], {"foo-bar", "qux"}),
    }
