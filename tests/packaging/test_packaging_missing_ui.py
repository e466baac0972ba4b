"""``pip install sekigahara-companion`` without the ``ui`` extra, then ``companion run``: one line
naming the fix, a non-zero exit, no traceback. pygame stays installed here: a sitecustomize in
the child process hides it, as an install without the extra has no pygame to find."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HIDE_PYGAME = '''
import sys

class NoPygame:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "pygame":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoPygame())
'''


@pytest.mark.parametrize("command", [
    ["run", "--headless", "--demo", "--weeks", "1"],
    ["run", "--game", "tenka-meidou", "--headless", "--hubs", "sim"],
])
def test_run_without_the_ui_extra_names_the_fix(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "sitecustomize.py").write_text(HIDE_PYGAME)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "SDL_VIDEODRIVER": "dummy", "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "companion", *command,
                           "--db", str(tmp_path / "games.sqlite")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "companion run: error: the table app needs pygame-ce, which this install lacks: "
        "pip install 'sekigahara-companion[ui]'"]


def test_the_hook_really_hides_pygame(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(HIDE_PYGAME)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", "import pygame"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert "ModuleNotFoundError: No module named 'pygame'" in done.stderr
