"""Start-up faults (issue 15, item 8): a bad ``--hubs`` port is said on the screen with a
retry, never a silent exit; with no screen at all the app stops at once with one line; and no
``companion-*`` work directory is left behind on any way out (normal, error at start, SIGTERM
from systemd). Processes run with their own TMPDIR, so "nothing left" is checked exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.cli import main
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.tablelink import ReadersUnavailable, check_readers
from firmware_bridge.zones import active_table, use_table
from ui.shell.app import App
from ui.shell.startup import StartupScreen

ROOT = Path(__file__).resolve().parents[2]
START_S = 60.0
"""Real seconds a child process may take to reach a screen on a busy machine (a bound)."""


def env(tmp: Path, **extra: str) -> dict[str, str]:
    """A child's environment: this checkout first, its own temporary directory, no desktop."""
    found = {k: v for k, v in os.environ.items()
             if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    tmp.mkdir(exist_ok=True)
    found.update(PYTHONPATH=str(ROOT), TMPDIR=str(tmp), PYGAME_HIDE_SUPPORT_PROMPT="1",
                 XDG_DATA_HOME=str(tmp.parent / "data"), **extra)
    return found


def companion(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


def left(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir())


def until(check: Callable[[], bool], what: str, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + START_S
    while not check():
        assert child.poll() is None, f"exited ({child.returncode}) before {what}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.1)  # polling a child process's files, not pacing a test


def recorded(path: Path) -> list[str]:
    if not path.exists():
        return []
    return [json.loads(line)["text"] for line in path.read_text().splitlines() if line]


def terminate(child: subprocess.Popen[str]) -> tuple[int, str]:
    child.send_signal(signal.SIGTERM)
    _out, err = child.communicate(timeout=20)
    return child.returncode, err


# ---------------------------------------------------------------------- the screen itself


def test_try_again_says_the_problem_again_until_it_is_gone(tmp_path: Path) -> None:
    app = App((800, 480))
    problem: list[tuple[str, str] | None] = [("Cannot open /dev/ttyACM3", "no such port")]
    chosen: list[str] = []
    screen = StartupScreen("Cannot open /dev/ttyACM3", "no such port", lambda: problem[0],
                           chosen.append, simulator=False)
    app.show(screen)
    app.draw()
    assert app.find("Use the simulator") is None, "not offered on a kiosk"
    shown = [text for _s, text in app.drawn]
    assert "Cannot open /dev/ttyACM3:" in shown and "No such port." in shown
    assert app.tap("Try again") and not chosen
    app.draw()
    assert any(s.startswith("Tried 2 times.") for _s, s in app.drawn)
    problem[0] = None  # the hub is plugged in
    assert app.tap("Try again") and chosen == ["retry"]


# ---------------------------------------------------------------------- companion run, in process


@pytest.fixture
def taps(monkeypatch: pytest.MonkeyPatch, tmp_path: Path
         ) -> Iterator[tuple[list[str | None], list[tuple[str, list[str]]]]]:
    """A finger scripted over the real screens (as tests/ui/test_ui_game_choice.py): each time
    an app's loop runs, tap the next label (None: close the window). The app's temporary
    directories go to ``tmp_path/tmp``."""
    script: list[str | None] = []
    seen: list[tuple[str, list[str]]] = []
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))

    def run(app: App) -> None:
        app.pump()
        app.draw()
        seen.append((app.painter.screen, [text for _s, text in app.drawn]))
        label = script.pop(0)
        if label is None:
            app.running = False
            return
        assert app.tap(label), f"no {label!r} on {seen[-1]}"

    monkeypatch.setattr(App, "run", run)
    yield script, seen
    assert not script


def test_a_bad_port_is_said_on_the_screen_and_the_simulator_starts_the_game(
        tmp_path: Path, taps: tuple[list[str | None], list[tuple[str, list[str]]]]) -> None:
    script, seen = taps
    script += ["Use the simulator", None]
    served = active_table()
    try:
        status = main(["run", "--game", "sekigahara", "--hubs", str(tmp_path / "ttyNOPE"),
                       "--rate", "20", "--db", str(tmp_path / "games.sqlite")])
    finally:
        use_table(served)
    assert status == 0
    assert seen[0][0] == "startup" and "New game" in seen[1][1], "the game's start screen"
    assert f"Cannot open {tmp_path / 'ttyNOPE'}:" in seen[0][1]
    assert any(s.startswith("There is no such port") for s in seen[0][1])
    assert left(tmp_path / "tmp") == []


def test_quit_on_the_startup_screen_leaves_one_line(
        tmp_path: Path, taps: tuple[list[str | None], list[tuple[str, list[str]]]],
        capsys: pytest.CaptureFixture[str]) -> None:
    script, seen = taps
    script += ["Quit"]
    (tmp_path / "not-a-port").write_text("")
    status = main(["run", "--game", "tenka-meidou", "--hubs", str(tmp_path / "not-a-port"),
                   "--db", str(tmp_path / "games.sqlite")])
    assert status == 1 and seen[0][0] == "startup"
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion run: error: Cannot open {tmp_path / 'not-a-port'}: it is not "
                   "a serial port: give the hub's port after --hubs (like /dev/ttyACM0)"]
    assert left(tmp_path / "tmp") == []


# ---------------------------------------------------------------------- companion run, as run


def test_headless_with_a_bad_port_exits_with_one_line_and_nothing_left(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    done = subprocess.run(companion("run", "--headless", "--game", "sekigahara", "--hubs",
                                    "/dev/nonexistent", "--db", str(tmp_path / "g.sqlite")),
                          env=env(tmp), capture_output=True, text=True, timeout=START_S)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "companion run: error: Cannot open /dev/nonexistent: there is no such port: check the "
        "hub's USB cable, or the name after --hubs"]
    assert left(tmp) == []


@pytest.mark.parametrize("desktop", [{"DISPLAY": ":987"}, {}], ids=["dead-desktop", "none"])
def test_with_no_screen_the_app_stops_at_once_with_one_line(
        tmp_path: Path, desktop: dict[str, str]) -> None:
    if not desktop and Path("/dev/dri").exists():
        pytest.skip("this machine has a panel that SDL may open directly")
    tmp = tmp_path / "tmp"
    began = time.monotonic()
    done = subprocess.run(companion("run", "--db", str(tmp_path / "g.sqlite")),
                          env=env(tmp, **desktop), capture_output=True, text=True,
                          timeout=START_S)
    assert done.returncode == 1 and time.monotonic() - began < 20
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "companion run: error: no screen to show the table on: "), lines
    assert left(tmp) == []


def test_the_screen_retries_by_itself_until_the_hubs_are_plugged_in(tmp_path: Path) -> None:
    """Real ports: the start-up screen while they are missing, the game's start screen once
    they are plugged in (no touch), then systemd's SIGTERM: status 143, nothing left."""
    served = active_table()
    use_table("sekigahara")
    try:
        table = SimulatedTable.create(tmp_path / "links", hubs=5, rate_hz=20)
    finally:
        use_table(served)
    config = tmp_path / "config"
    config.mkdir()
    table.write_config(config)
    tmp, record = tmp_path / "tmp", tmp_path / "record"
    child = subprocess.Popen(
        companion("run", "--game", "sekigahara", "--hubs", *table.ports, "--config",
                  str(config), "--db", str(tmp_path / "g.sqlite"), "--record", str(record)),
        env=env(tmp, SDL_VIDEODRIVER="dummy"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        until(lambda: "The table cannot start" in recorded(record / "startup" / "text.jsonl"),
              "the start-up screen", child)
        table.start()
        until(lambda: "New game" in recorded(record / "text.jsonl"), "the start screen", child)
        assert left(tmp) != [], "the app's work directory, while it runs"
        status, err = terminate(child)
    finally:
        table.stop()
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert status == 128 + signal.SIGTERM and "Traceback" not in err
    assert left(tmp) == []


@pytest.mark.parametrize("command", [
    ("run", "--headless", "--game", "tenka-meidou", "--hubs", "sim", "--db", "g.sqlite"),
    # a demo long enough (all seven weeks) that the signal always finds it running
    ("run", "--headless", "--demo", "--game", "sekigahara", "--weeks", "7", "--seed", "3"),
], ids=["app", "demo"])
def test_sigterm_leaves_no_work_directory(tmp_path: Path, command: tuple[str, ...]) -> None:
    tmp = tmp_path / "tmp"
    command = tuple(str(tmp_path / c) if c.endswith(".sqlite") else c for c in command)
    child = subprocess.Popen(companion(*command),
                             env=env(tmp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        until(lambda: any((d / "hubs").exists() for d in tmp.glob("companion-*")),
              "the simulator's links", child)
        status, err = terminate(child)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert status == 128 + signal.SIGTERM and "Traceback" not in err
    assert left(tmp) == []


def test_the_hardware_check_on_the_simulator_leaves_nothing(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    done = subprocess.run(companion("hardware", "check", "--simulate"), env=env(tmp),
                          capture_output=True, text=True, timeout=START_S)
    assert done.returncode == 0, done.stderr
    assert left(tmp) == []


def test_real_hubs_need_their_wiring_map_before_they_start(tmp_path: Path) -> None:
    with pytest.raises(ReadersUnavailable) as found:
        check_readers(["/dev/null"], tmp_path)  # a character device anyone may open
    assert found.value.problem == "The hubs are not set up yet"
    assert found.value.advice == (f"{tmp_path / 'wiring.yaml'} is missing: run `companion "
                                  "hardware wiring` on this computer first")
    check_readers(["sim"], tmp_path)  # the simulator needs neither
