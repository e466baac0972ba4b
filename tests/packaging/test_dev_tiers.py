"""``python3 dev.py test``'s tiers: the default leaves the slow tier out (under 5 minutes on two
cores), ``--full`` (what CI runs) takes every tier, and a ``-m`` of the caller's wins."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("dev_script", module)
    spec.loader.exec_module(module)
    return module


def marks(command: list[str]) -> str | None:
    """The marker expression given to pytest (after ``python -m pytest``)."""
    args = command[command.index("pytest") + 1:]
    return args[args.index("-m") + 1] if "-m" in args else None


def test_the_default_leaves_the_slow_tier_to_the_full_run() -> None:
    command = dev().pytest_command
    assert marks(command([], full=False)) == "not slow"
    assert marks(command([], full=True)) == "emulated or not emulated"
    assert marks(command(["-m", "slow"], full=False)) == "slow"
    assert command(["-m", "slow"], full=False).count("-m") == 2  # "-m pytest", the caller's
    assert "-n" in command([], full=False)
