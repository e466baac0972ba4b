"""The wheel works on its own (issue 16): built from the source, installed with its dependencies
and the ``ui`` extra into a fresh virtualenv outside the checkout, and run from a directory
outside it, it checks simulated hubs with their scan schedule in force, plays a headless demo of
each game, and holds every data file the packages read. Nothing of the checkout
(``hardware/``, the editable install, ``PYTHONPATH``) is in reach.

About a minute here, most of it pip (``-m packaging`` selects it; ``-m "not packaging"`` skips
it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "firmware_bridge", "ui")
_SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__", "*.egg-info",
                               ".*_cache", ".hypothesis", "var")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    workdir: Path
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.venv / "bin" / args[0]), *args[1:]], cwd=self.workdir,
                              env=self.env, capture_output=True, text=True, timeout=timeout,
                              check=False)


def _ok(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 0, f"{run.args}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"  # a copy: the build leaves build/ behind, never in the checkout
    shutil.copytree(ROOT, source, ignore=_SKIP)
    _ok(subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                        "--wheel-dir", str(base / "dist"), str(source)],
                       capture_output=True, text=True, timeout=300, check=False))
    (wheel,) = (base / "dist").glob("*.whl")
    shutil.rmtree(source)
    venv, workdir = base / "venv", base / "elsewhere"
    workdir.mkdir()
    # nothing of the checkout in reach: a PYTHONPATH to it would even let pip take the
    # package as installed already
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SEKIGAHARA_CONFIG")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               XDG_CONFIG_HOME=str(base / "config"), XDG_DATA_HOME=str(base / "data"),
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    for step in ([sys.executable, "-m", "venv", str(venv)],
                 [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                  f"{wheel}[ui]"]):
        _ok(subprocess.run(step, cwd=workdir, env=env, capture_output=True, text=True,
                           timeout=600, check=False))
    return Installed(wheel, venv, workdir, env)


def test_the_wheel_holds_every_data_file_of_the_packages(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    data = {str(p.relative_to(ROOT)) for package in PACKAGES for p in (ROOT / package).rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert "companion/games/sekigahara/data/antennas.yaml" in data
    assert "companion/games/tenka_meidou/data/wiring.default.yaml" in data
    assert data <= names, sorted(data - names)
    assert not any(n.startswith(("hardware/", "tests/")) for n in names)


def test_the_commands_run_the_installed_packages_not_the_checkout(installed: Installed) -> None:
    out = _ok(installed.run("python", "-c", "import companion, firmware_bridge, ui\n"
                            "for m in (companion, firmware_bridge, ui): print(m.__file__)"))
    files = [Path(line) for line in out.splitlines()]
    assert len(files) == 3
    assert all(installed.venv in f.parents and ROOT not in f.parents for f in files), files


@pytest.mark.parametrize(("game", "slots"), [("sekigahara", 4), ("tenka-meidou", 2)])
def test_simulated_hubs_are_checked_and_scanned_on_their_schedule(
    installed: Installed, game: str, slots: int
) -> None:
    """Every hub is sent the slot table planned from the game's own antenna layout (package
    data): Sekigahara's 4 slots, Tenka Meidou's 2; none is left unscheduled."""
    out = _ok(installed.run("companion", "hardware", "check", "--simulate", "--seconds", "1",
                            "--game", game))
    hubs = [line for line in out.splitlines() if line.startswith("hub hub-")]
    assert len(hubs) == 5
    assert all(re.search(rf"scan slots: {slots} of [\d/]+ ms", line) for line in hubs), hubs
    assert "unscheduled" not in out and "no scan schedule" not in out
    assert out.rstrip().endswith("all good")


def test_the_crosstalk_matrix_has_every_neighbour_pair_of_the_layout(
    installed: Installed,
) -> None:
    out = _ok(installed.run("companion", "hardware", "crosstalk", "--simulate", "--seconds",
                            "0.5", "--json"))
    cells = json.loads(out)["cells"]
    assert len(cells) == 2 * 48  # Sekigahara's neighbour pairs, both ways
    assert sum(c["across_hubs"] for c in cells) == 2 * 4


@pytest.mark.parametrize(("game", "said"), [("sekigahara", "demo: seed 0, week "),
                                            ("tenka-meidou", "demo: seed 0, ")])
def test_a_headless_demo_of_each_game_plays(installed: Installed, game: str, said: str) -> None:
    db = installed.workdir / f"{game}.sqlite"
    out = _ok(installed.run("companion", "run", "--headless", "--demo", "--game", game,
                            "--weeks", "1", "--db", str(db), timeout=300))
    assert said in out
    assert db.stat().st_size > 0
