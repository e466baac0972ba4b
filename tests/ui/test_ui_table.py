"""The table app end to end, headless: virtual table -> simulated hubs on real pseudo-terminals ->
bridge -> table session -> engine -> screens, driven by simulated touches and blocks moved on the
virtual table. Assertions are on what the screen shows (the strings drawn), not on internals."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ui_helpers import app_options

from companion.games.sekigahara import combat
from companion.games.sekigahara.engine.feed import place
from companion.games.sekigahara.engine.state import Phase
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo

WEEK = 1


@pytest.fixture
def table_app(tmp_path: Path) -> Iterator[TableApp]:
    options = app_options(tmp_path)
    app = TableApp(options)
    try:
        yield app
    finally:
        app.close()


class Screen:
    """What the screen showed: every frame's strings, as drawn."""

    def __init__(self, table_app: TableApp) -> None:
        self.app = table_app.app
        self.frames: list[tuple[str, list[str]]] = []
        self.app.on_frame = self._frame

    def _frame(self, _at: float) -> None:
        strings = [text for _screen, text in self.app.drawn]
        self.frames.append((self.app.painter.screen, strings))

    def now(self) -> list[str]:
        self.app.draw()
        return self.frames[-1][1]

    def name(self) -> str:
        self.app.draw()
        return self.frames[-1][0]

    def shows(self, text: str) -> bool:
        return any(text in s for s in self.now())

    def ever(self, text: str) -> bool:
        return any(text in s for _, strings in self.frames for s in strings)

    def screens(self) -> set[str]:
        return {name for name, _ in self.frames}


def _showing(screen: Screen, text: str) -> Callable[[], bool]:
    return lambda: screen.shows(text)


def test_the_guided_set_up_goes_step_by_step_confirmed_by_the_readers(
        table_app: TableApp) -> None:
    screen = Screen(table_app)
    demo = Demo(table_app, seed=1)
    assert screen.name() == "start" and screen.shows("New game")
    demo.tap("New game")
    assert screen.name() == "setup"
    assert screen.shows("Set-up: step 0 of 15")
    assert screen.shows("Stand the blocks with a set-up symbol (lower right corner) where the "
                        "map prints it (5.2.1)")
    assert screen.shows("6 gold squares on Osaka") and screen.shows("3 black stars on Kiyosu")
    assert not any("placed" in s for s in screen.now())  # nothing stands on the map yet
    # a gold block from the game box set on Kyoto: the difference names where it came from
    # and the set-up rule, never a move "from Osaka" or a deployment (8.2.3)
    rules = table_app.control.rules
    square = next(b for b, z in sorted(rules.setup_places().items()) if z == "osaka")
    demo._place((square,), "kyoto")
    demo.wait(_showing(screen, "The table differs"), "the set-up hint")
    [differs] = [s for s in screen.now() if s.startswith("The table differs")]
    assert differs.startswith("The table differs: a gold block moved from the game box to Kyoto")
    assert differs.endswith("(rule 5.2.1)") and "Osaka" not in differs and "8.2" not in differs
    demo._place((square,), "osaka")
    demo.wait(lambda: not screen.shows("The table differs"), "the set-up hint to clear")
    assert not screen.shows("6 gold squares on Osaka") and screen.shows("5 gold squares on Osaka")
    demo._set_out()
    assert screen.shows("Set-up: step 1 of 15")
    assert screen.shows("Draw 2 blocks from Ishida's bag and stand them on Osaka (5.2.2)")
    # a block drawn for Osaka lands on Kyoto: a hint says so and how to fix it
    stray = table_app.virtual.bag("ishida")[0]  # type: ignore[union-attr]
    demo._place((stray,), "kyoto")
    demo.wait(_showing(screen, "The table differs"), "the hint")
    hint = " ".join(screen.now())
    assert "Kyoto" in hint and "5.2.2" in hint
    demo._place((stray,), "osaka")
    demo.wait(lambda: not screen.shows("The table differs"), "the hint to clear")
    assert screen.shows("Set-up: step 1 of 15")
    table_app.virtual.to_bag(stray, "ishida")  # type: ignore[union-attr]
    demo.wait(demo._settled, "the table")
    while demo.state.phase is Phase.SETUP:
        demo.step()
    seen = [n for n in range(1, 15) if screen.ever(f"Set-up: step {n} of 15")]
    assert seen == list(range(1, 15))
    assert screen.name() == "bidding"
    assert screen.shows("tap the card you laid face down")


def test_a_week_of_movement_with_a_question_answered_and_a_discrepancy_fixed(
        table_app: TableApp) -> None:
    screen = Screen(table_app)
    demo = Demo(table_app, seed=1)
    demo.play(WEEK, until=lambda: demo.state.phase is Phase.MOVEMENT)
    assert screen.name() == "board" and screen.shows("buy movement")
    demo.step()  # buys movement by touch
    # a block teleported across the map: the table differs, with the fix; "Put it back"
    # is logged and the fix done by hand
    active = demo.state.active
    assert active is not None
    mine = active.value[0].upper()
    block, origin = next((b, z) for b, z in sorted(demo.state.pos.items())
                         if b.startswith(mine) and z in ("edo", "osaka"))
    far = "sendai" if origin == "osaka" else "himeji"
    demo._place((block,), far)
    demo.wait(_showing(screen, "The table differs"), "the discrepancy")
    assert screen.shows("Put it back") and screen.shows("Accept what is on the table")
    demo.tap("Put it back")
    demo.wait(lambda: screen.ever("The game is right, put it back"), "the correction in the feed")
    demo._place((block,), origin)
    demo.wait(lambda: not screen.shows("The table differs"), "the discrepancy to clear")
    demo.play(WEEK)
    assert demo.answered, "a question was asked and answered by a tap"
    assert screen.ever(demo.answered[0].split("?")[0])
    assert screen.ever("End movement")
    assert screen.ever("Combat Phase")


def _battle_with_challenge(screen: Screen) -> bool:
    return screen.name() == "battle" and screen.shows("plays a Loyalty Challenge")


def play_seeds(table_app: TableApp, seeds: list[int], until: Callable[[], bool]) -> Demo:
    """New games with these seeds, one after the other, until ``until()`` (random play reaches
    a given situation in some games only)."""
    for seed in seeds:
        demo = Demo(table_app, seed)
        demo.play(7, until=until)
        if until():
            return demo
    raise AssertionError(f"none of the seeds {seeds} got there")


def test_a_battle_with_a_loyalty_challenge(table_app: TableApp) -> None:
    screen = Screen(table_app)
    demo = play_seeds(table_app, [3, 5, 8, 9, 16], lambda: _battle_with_challenge(screen))
    shown = " ".join(screen.now())
    assert "Battle at" in shown and "Initiative:" in shown and "Impact" in shown
    challenger = next(s for s in screen.now() if "plays a Loyalty Challenge" in s)
    demo.tap(challenger)
    pending = demo.state.pending
    assert pending is not None and pending.combat is not None
    by = combat.challenge_window(pending.combat)
    assert by is not None  # 8.6.1: a refutation shows a card, so an empty hand has none
    assert screen.shows("refutes it") is (demo.state.hand[by.opponent] > 0)
    assert screen.shows("Not refuted")
    before = len(demo.control.events)
    demo.tap("Not refuted")
    demo.wait(lambda: len(demo.control.events) > before, "the challenge")
    demo._observe()
    assert screen.ever("challenged, defected")
    assert screen.ever("plays a Loyalty Challenge, not refuted: the block changes sides (8.6)")
    demo.play(7, until=lambda: demo.state.pending is None)
    assert screen.ever(" wins: ")  # the result with the losses
    assert screen.ever("(8.10)")  # and the cards drawn


def test_a_siege(table_app: TableApp) -> None:
    """The castle's owner, attacked with two blocks or fewer, taps "Stay inside the castle"
    (8.9.2): a siege follows."""
    screen = Screen(table_app)
    demo = play_seeds(table_app, [6, 0, 1, 2, 4, 5, 7, 8],
                      lambda: screen.shows("Stay inside the castle"))
    before = len(demo.control.events)
    demo.tap("Stay inside the castle")
    demo.wait(lambda: len(demo.control.events) > before, "the castle choice")
    demo._observe()
    demo.play(7, until=lambda: screen.ever("Siege of"))
    assert screen.ever("stays inside the castle")
    assert screen.ever("Siege of")
    assert any(s.startswith("Siege of") and s.endswith("(8.9.1)")  # the feed: opened as a
               for _, strings in screen.frames for s in strings)  # siege (8.9.1)


def test_the_end_screen_names_the_winner_and_plots_the_weeks(table_app: TableApp) -> None:
    screen = Screen(table_app)
    demo = Demo(table_app, seed=2)
    demo.play(7)
    assert demo.state.phase is Phase.GAME_OVER
    assert screen.name() == "end"
    shown = screen.now()
    assert any(s.endswith(" wins") for s in shown)
    for title in ("Victory points by week", "Castles held by week", "Cards in hand by week"):
        assert title in shown
    assert "W1" in shown
    demo.tap("Back to the start")
    assert screen.name() == "start" and not screen.shows("Resume")


def _deployed_and_losing(demo: Demo) -> bool:
    p = demo.state.pending
    return (p is not None and p.combat is not None
            and combat.awaiting_losses(p.combat) is not None
            and any(p.combat.is_deployed(b) for b, z in demo.state.pos.items()
                    if z == p.location))


def _act(demo: Demo) -> None:
    """One action as the demo's hands do it, without tidying the table afterwards."""
    before = len(demo.control.events)
    command = demo._physical(demo.player.command(demo.state))
    demo._perform(command)
    demo.wait(lambda: len(demo.control.events) > before or demo._asked(), "the ruling")
    for _ in range(8):
        if not demo._answer(command):
            break
        demo.wait(lambda: len(demo.control.events) > before or demo._asked(), "the answer")
    demo.wait(lambda: len(demo.control.events) > before, "the ruling")
    demo._observe()


def test_after_a_battle_the_screen_asks_for_the_deployed_blocks_back_and_the_check_waits(
        table_app: TableApp) -> None:
    """8.2.1: after the battle the deployed blocks stand concealed on the map again. The
    screen says so before anything else, and the table check waits for it: no "table
    differs" while they are still on the tray, none once the readers see them back."""
    screen = Screen(table_app)
    for seed in (3, 5, 8, 9):
        demo = Demo(table_app, seed)
        demo.play(7, until=lambda d=demo: _deployed_and_losing(d))  # type: ignore[misc]
        if _deployed_and_losing(demo):
            break
    else:
        raise AssertionError("no seed got to losses after a deployment")
    p = demo.state.pending
    assert p is not None
    site = p.location
    while demo.state.pending is not None and demo.state.pending.combat is not None:
        _act(demo)
    demo.wait(lambda: demo.control.snapshot().settling == 0, "the table to rest")
    snap = demo.control.snapshot()
    asked = [s for s in snap.prompt.table_steps if "deployed block" in s]
    assert asked and all(s.endswith(f"back on {place(site)}, concealed again (8.2.1)")
                         for s in asked)
    assert screen.shows(asked[0]) and not snap.discrepancies
    rules = table_app.control.rules
    trays = {b: table_app.virtual.where(b) for b in rules.returning()}  # type: ignore[union-attr]
    assert trays and all(z.endswith("_deployment") for z in trays.values())
    demo._tidy()  # the hands do what the screen says
    demo.wait(lambda: not rules.returning() and demo._settled(), "the readers to see them back")
    assert all(table_app.virtual.where(b) == site for b in trays)  # type: ignore[union-attr]
    assert [s for s in screen.now() if "deployed block" in s] == [] and rules.returning() == {}
    assert not screen.ever("The table differs")
