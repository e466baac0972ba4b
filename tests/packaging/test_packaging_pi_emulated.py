"""The Raspberry Pi install, tried for real: hardware/pi/try-arm64.sh makes an arm64 Debian
bookworm root (cached in /var/cache/sekigahara-arm64), runs hardware/pi/install.sh in it under
qemu with the locked dependencies, from a checkout as docs/touchscreen.md says (the wheel built
there) or with a wheel built here, then plays the headless demo there. Minutes:
``pytest -m emulated tests/packaging``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hardware" / "pi" / "try-arm64.sh"

pytestmark = pytest.mark.emulated


@pytest.mark.parametrize("source", ["checkout", "wheel"])
def test_the_pi_install_plays_the_demo_on_arm64(tmp_path: Path, source: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root (debootstrap, chroot)")
    for tool in ("debootstrap", "update-binfmts"):
        if shutil.which(tool) is None:
            pytest.skip("apt-get install debootstrap qemu-user-static binfmt-support")
    command = ["bash", str(SCRIPT)]
    if source == "wheel":
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                        "--wheel-dir", str(tmp_path), str(ROOT)], check=True, timeout=600)
        command += ["--wheel", str(next(tmp_path.glob("sekigahara_companion-*.whl")))]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    took = time.monotonic() - started
    log = done.stdout + done.stderr
    print(log)
    print(f"try-arm64.sh took {took:.0f} s")
    assert done.returncode == 0, log[-4000:]
    timings = dict(re.findall(r"^timing: (\w+) (\d+)$", done.stdout, re.MULTILINE))
    assert {"install", "demo"} <= set(timings), log[-4000:]
    assert re.search(r"^demo: seed 3, week \d, .* \d+ events, \d+ actions$", done.stdout,
                     re.MULTILINE), log[-4000:]
    assert "machine: aarch64, Python 3.11" in done.stdout
    if source == "checkout":
        assert "== building the wheel from the checkout" in done.stdout
