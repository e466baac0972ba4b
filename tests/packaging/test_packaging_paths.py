"""One configuration directory for every command (companion/core/paths.py): the wiring map and
tag registry that ``companion hardware`` writes are the ones ``companion run`` reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.core.paths import config_dir

ROOT = Path(__file__).resolve().parents[2]
APP = "sekigahara-companion"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SEKIGAHARA_CONFIG", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_config_dir_follows_xdg_and_sekigahara_config(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert config_dir() == Path.home() / ".config" / APP
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")
    assert config_dir() == Path.home() / ".config" / APP
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / APP
    monkeypatch.setenv("SEKIGAHARA_CONFIG", str(tmp_path / "table"))
    assert config_dir() == tmp_path / "table"  # the directory itself, over XDG_CONFIG_HOME
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SEKIGAHARA_CONFIG", "mine")
    assert config_dir() == tmp_path / "mine"  # made absolute: the app may change directory


@pytest.mark.parametrize("variable, value, expected", [
    ("SEKIGAHARA_CONFIG", "table", "table"),
    ("XDG_CONFIG_HOME", "xdg", f"xdg/{APP}"),
])
def test_companion_run_reads_the_hubs_set_up_there(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        variable: str, value: str, expected: str) -> None:
    """Real hubs (a character device stands for a hub's port) with no wiring map yet: the one
    line names the file where ``companion hardware wiring`` would have written it."""
    monkeypatch.setenv(variable, str(tmp_path / value))
    code = main(["run", "--game", "sekigahara", "--headless", "--hubs", "/dev/null",
                 "--db", str(tmp_path / "games.sqlite")])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{tmp_path / expected / 'wiring.yaml'} is missing" in err, err


def test_no_command_works_out_the_directories_itself() -> None:
    """Only paths.py reads the variables that place the companion's files; ``companion
    hardware`` (wiring, register-tags, check) takes its default from the same function."""
    from firmware_bridge import cli as hardware_cli

    assert hardware_cli.config_dir is config_dir
    pattern = re.compile(r"XDG_(CONFIG|DATA)_HOME|SEKIGAHARA_CONFIG|\.config\b.*sekigahara")
    readers = sorted(
        str(path.relative_to(ROOT)) for package in ("companion", "firmware_bridge", "ui")
        for path in (ROOT / package).rglob("*.py") if pattern.search(path.read_text()))
    assert readers == ["companion/core/paths.py"]
