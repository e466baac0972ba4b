"""Faults shown where the players look (issue 15, item 8): a hub unplugged, gone quiet or back
again shows on the play screen of either game by itself (the app is woken, no touch, no piece
moved), and the places it reads are judged again when it returns. Hubs are the simulator's on
real pseudo-terminals; a hub's silence is judged on an injected clock."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ui_helpers import app_options

from companion.games.sekigahara.engine.game import new_game
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.tablelink import open_readers
from firmware_bridge.zones import active_table, use_table
from ui.sekigahara.app import TableApp
from ui.sekigahara.control import TableControl
from ui.sekigahara.demo import Demo
from ui.sekigahara.play import PlayScreen
from ui.shell.app import App
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo

WAIT_S = 10.0
"""Real seconds at most for frames to cross the ptys and the loop to redraw (a bound, not a
sleep: the waits end as soon as the screen shows it)."""


class Frames:
    """The strings of every frame the app's own loop drew (never a forced redraw)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.last: list[str] = []
        app.on_frame = lambda _at: setattr(self, "last", [t for _s, t in app.drawn])
        app.invalidate()  # the screen as it is now; every later frame is the loop's own

    def until(self, check: Callable[[list[str]], bool], what: str) -> list[str]:
        deadline = time.monotonic() + WAIT_S
        while not check(self.last):
            assert time.monotonic() < deadline, f"the screen never showed {what}: {self.last}"
            self.app.pump(15)
        return self.last


def hub_line(hub: str) -> Callable[[list[str]], bool]:
    return lambda strings: any(s.startswith(f"{hub} (") and "not answering" in s
                               for s in strings)


def no_hub_problem(strings: list[str]) -> bool:
    return not any("not answering" in s or "has gone quiet" in s or "is not reporting" in s
                   for s in strings)


@pytest.fixture
def sekigahara(tmp_path: Path) -> Iterator[TableApp]:
    app = TableApp(app_options(tmp_path))
    try:
        yield app
    finally:
        app.close()


def test_an_unplugged_hub_shows_on_the_sekigahara_play_screen_and_clears(
        sekigahara: TableApp) -> None:
    demo = Demo(sekigahara, seed=1)
    demo.start()
    demo.wait(demo._settled, "the set-up blocks")
    frames = Frames(sekigahara.app)
    frames.until(no_hub_problem, "a quiet table")
    sim = sekigahara.control.readers.simulated
    assert sim is not None
    sim.hubs["hub-2"].unplug()
    shown = frames.until(hub_line("Hub 2"), "the unplugged hub")
    assert sekigahara.app.painter.screen == "setup", "on the play screen"
    line = next(s for s in shown if s.startswith("Hub 2 ("))
    assert "check its USB cable" in line
    assert not any("is not reporting" in s or "table differs" in s for s in shown), \
        "said once for the hub, not once per place"
    sim.hubs["hub-2"].replug()
    frames.until(no_hub_problem, "the hub back and its places read again")


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def test_a_quiet_hub_shows_within_2_s_of_clock_and_clears_when_it_speaks(
        tmp_path: Path) -> None:
    served = active_table()
    use_table("sekigahara")
    clock = Clock()
    readers = open_readers(["sim"], tmp_path, tmp_path / "run", rate_hz=50)
    control = TableControl(readers, settle_s=0.25, clock=clock)
    app = App((800, 480))
    control.on_change = app.wake
    control.start()
    try:
        control.bridge.wait_for(lambda b: len(b.hubs()) == len(readers.ports), WAIT_S)
        control.follow(new_game())
        control.start_game()
        app.show(PlayScreen(app, control, leave=lambda: None))
        frames = Frames(app)
        frames.until(lambda s: bool(s) and no_hub_problem(s), "the set-up page")
        sim = readers.simulated
        assert isinstance(sim, SimulatedTable)
        sim.execute("silent hub-3 on")
        healthy = [h for h in sim.hubs if h != "hub-3"]
        start = clock.now
        while not hub_line("Hub 3")(frames.last) and clock.now - start < 2.0:
            clock.now += 0.25
            control.bridge.wait_for(lambda b: all(
                (link := b.hubs()[h].link) is not None and link.heard_at >= clock.now
                for h in healthy), WAIT_S)
            app.pump(150)  # the bridge looks every 0.1 s
        frames.until(lambda s: any(t.startswith("Hub 3 (") and "has gone quiet" in t
                                   for t in s), "the quiet hub")
        assert clock.now - start <= 2.0
        sim.execute("silent hub-3 off")
        frames.until(no_hub_problem, "the hub answering again")
    finally:
        control.stop()  # and the simulated hubs
        use_table(served)


def test_an_unplugged_hub_shows_on_the_tenka_meidou_play_screen_and_clears(
        tmp_path: Path) -> None:
    options = TenkaOptions(seed=2, virtual_table=False, hubs=["sim"], rate_hz=DEMO_RATE_HZ,
                           settle_s=DEMO_SETTLE_S, workdir=tmp_path / "run",
                           db=tmp_path / "games.sqlite")
    tenka = TenkaApp(options)
    try:
        TenkaDemo(tenka, seed=2).start(players=3, advanced=False)
        frames = Frames(tenka.app)
        frames.until(lambda s: bool(s) and no_hub_problem(s), "the board")
        sim = tenka.control.readers.simulated
        assert sim is not None
        sim.hubs["hub-1"].unplug()
        shown = frames.until(hub_line("Hub 1"), "the unplugged hub")
        assert tenka.app.painter.screen == "board"
        line = next(s for s in shown if s.startswith("Hub 1 ("))
        assert "-jō" in line and "check its USB cable" in line, "its castles, by name"
        sim.hubs["hub-1"].replug()
        frames.until(no_hub_problem, "the hub back")
    finally:
        tenka.close()
