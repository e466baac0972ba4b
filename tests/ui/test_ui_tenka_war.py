"""The War of Tenka Meidou followed on the virtual table (5.II.3): the 30 white pawns stand in
the reinforcement supply, are dragged to the zones the table session names, and the War screen
says what to place, what the readers see placed, and any discrepancy with its fix. Assertions
on the strings the screens draw and on what the simulated hubs read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.tenka_meidou.table import SUPPLY
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, DemoError, TenkaDemo
from ui.tenka_meidou.virtual_table import WHITE


def _app(tmp_path: Path, seed: int, virtual_table: bool = False) -> TenkaApp:
    return TenkaApp(TenkaOptions(seed=seed, virtual_table=virtual_table, hubs=["sim"],
                                 rate_hz=DEMO_RATE_HZ, settle_s=DEMO_SETTLE_S,
                                 workdir=tmp_path / "run", db=tmp_path / "games.sqlite"))


def shown(app: TenkaApp) -> str:
    app.app.draw()
    return " | ".join(text for _screen, text in app.app.drawn)


def test_the_white_pawns_stand_in_the_supply_and_are_dragged_like_the_others(
        tmp_path: Path) -> None:
    app = _app(tmp_path, seed=3, virtual_table=True)
    try:
        demo = TenkaDemo(app, seed=3)
        demo.start(players=2, advanced=False)
        table = app.virtual
        assert table is not None
        assert len(table.table.blocks_on(SUPPLY)) == 30  # on the simulated hubs
        assert table.whites_at(SUPPLY) == 30
        demo.settled()
        assert app.control.snapshot().table == ()  # white pawns in the supply: all is well
        text = shown(app)
        assert "White supply" in text and "30" in text
        chip = table.drawn_at(SUPPLY, WHITE)
        red = table.drawn_at(f"reserve_{app.control.game.state.players[0].value}")
        app.app.draw()
        assert chip is not None and red is not None
        app.app.touch(chip, red)  # not on a reserve: it goes back
        app.app.pump()
        assert table.whites_at(SUPPLY) == 30
        colour = app.control.game.state.players[0]
        soldier = table.drawn_at(f"reserve_{colour.value}", colour)
        assert soldier is not None
        app.app.touch(soldier, chip)  # nor a soldier on the supply
        app.app.pump()
        assert table.table.blocks_on(SUPPLY) == [f"white-{n:02d}" for n in range(1, 31)]
        assert not any("white-" in t for _s, t in app.app.drawn)  # ids never drawn
    finally:
        app.close()


def test_a_demo_war_is_followed_on_the_virtual_table_to_the_end(tmp_path: Path) -> None:
    """A demo game: its War's reinforcements moved on the virtual table zone by zone, the
    table session following each to the end, nothing left held or in discrepancy."""
    from ui.shell.app import FrameRecorder

    app = _app(tmp_path, seed=3)
    app.app.recorder = FrameRecorder(tmp_path / "rec", pictures=False)
    try:
        demo = TenkaDemo(app, seed=3)
        demo.start(players=3, advanced=True)
        demo.play()
        steps = app.control.session.war_steps()
        assert steps is not None and sum(s.sent for s in steps) > 0
        with pytest.raises(DemoError, match="left holding: The War, "):
            demo.check_table()  # the War waits for its white pawns
        text = shown(app)
        assert "white pawns placed" in text and "castle tokens are not tagged" in text
        demo.finish()
        demo.check_table()
        snap = app.control.snapshot()
        assert snap.table == () and snap.war is not None
        assert snap.war.startswith("The War is over on the table")
        assert app.app.painter.screen == "score"
        placed = [line for line in snap.feed if "reinforcements are in place" in line.text]
        assert len(placed) == sum(1 for s in steps if s.sent)
        assert all(line.rule == "5.II.3" for line in placed)
        whites = sum(1 for p, z in app.control.link.bridge.placements().items()
                     if p.startswith("white") and z != SUPPLY)
        assert whites == sum(s.sent for s in steps)
    finally:
        app.close()
    lines = [json.loads(line) for line in (tmp_path / "rec" / "text.jsonl").read_text()
             .splitlines()]
    war = [line["text"] for line in lines if line["screen"] == "war"]
    assert any("reinforcements are in place (5.II.3)" in t for t in war)
    assert any(t.startswith("The readers see ") and "white pawn" in t for t in war)
    assert any(t.startswith("The War is over on the table") for t in war)


def test_a_white_pawn_dragged_to_the_wrong_zone_is_flagged_with_its_fix_then_corrected(
        tmp_path: Path) -> None:
    app = _app(tmp_path, seed=5, virtual_table=True)
    try:
        demo = TenkaDemo(app, seed=5)
        demo.start(players=3, advanced=False)
        demo.play()
        demo.settled()
        rules = app.control.session
        demo.wait(lambda: rules.war_at is not None, "the War on the table")
        steps = rules.war_steps()
        assert steps is not None and rules.war_at is not None
        step = steps[rules.war_at]
        table = app.virtual
        assert table is not None
        wrong = next(z for z in app.control.rules.board.zone_ids
                     if z not in step.sends and z != step.zone)
        text = shown(app)
        assert "The War, " in text and "(5.II.3)" in text
        chip, there = table.drawn_at(SUPPLY, WHITE), table.drawn_at(wrong)
        assert chip is not None and there is not None
        app.app.touch(chip, there)  # a finger drags a white pawn to a zone that gets none
        app.app.pump()
        assert table.whites_at(wrong) == 1
        demo.settled()
        demo.wait(lambda: app.control.snapshot().table != (), "the discrepancy")
        text = shown(app)
        flagged = next(t for t in text.split(" | ") if t.startswith("A white pawn moved"))
        assert "Put it back on the reinforcement supply (5.II.3)" in flagged
        assert app.app.tap(flagged)  # one tap from its section
        page = shown(app)
        assert app.play.name == "detail" and "5.II.3 " in page  # its summary
        assert app.app.tap("Back")
        back, supply = table.drawn_at(wrong, WHITE), table.drawn_at(SUPPLY)
        assert back is not None and supply is not None
        app.app.touch(back, supply)  # put back: the discrepancy goes
        app.app.pump()
        demo.settled()
        demo.wait(lambda: app.control.snapshot().table == (), "the discrepancy to clear")
        assert "A white pawn moved" not in shown(app)
        destination = next(iter(step.sends))
        chip, there = table.drawn_at(SUPPLY, WHITE), table.drawn_at(destination)
        assert chip is not None and there is not None
        app.app.touch(chip, there)  # the right zone: counted
        app.app.pump()
        demo.settled()
        wanted = step.sent
        said = f"The readers see 1 of {wanted} white pawn{'s' if wanted != 1 else ''} placed"
        if wanted > 1:
            demo.wait(lambda: said in shown(app), "the progress on the War screen")
        demo.finish()
        demo.check_table()
        assert app.control.snapshot().table == ()
    finally:
        app.close()


def test_the_demo_fails_in_one_line_when_the_table_session_is_left_holding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.cli import main

    monkeypatch.setattr(TenkaDemo, "reinforce", lambda self: None)  # hands that forget
    code = main(["run", "--game", "tenka-meidou", "--headless", "--demo", "--seed", "3"])
    err = [line for line in capsys.readouterr().err.splitlines()
           if line.startswith("companion run --demo: error:")]
    assert code == 1
    assert len(err) == 1 and "the table session is left holding: The War, " in err[0], err
