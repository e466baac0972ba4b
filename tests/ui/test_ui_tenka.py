"""Tenka Meidou on the touchscreen, driven by simulated touches and pawns moved on the virtual
table, read by the simulated hubs through the bridge and the table session (issue 11);
assertions only on the strings the screens draw."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_helpers import screen, shown

from companion.games.tenka_meidou.components import Colour, Daimyo, default_components
from companion.games.tenka_meidou.events import DaimyoPlayed, Deploy
from companion.games.tenka_meidou.rulebook import default_rules
from companion.games.tenka_meidou.state import RESERVE, PawnMove, Phase
from ui.shell import legibility as lg
from ui.shell.app import FrameRecorder
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo
from ui.tenka_meidou.words import card_name


def options(tmp_path: Path, seed: int = 0, size: tuple[int, int] = (800, 480)) -> TenkaOptions:
    """The app on the simulator, headless, its files in ``tmp_path``; the demo's short settle."""
    return TenkaOptions(size=size, seed=seed, virtual_table=False, hubs=["sim"],
                        rate_hz=DEMO_RATE_HZ, settle_s=DEMO_SETTLE_S,
                        workdir=tmp_path / "run", db=tmp_path / "games.sqlite")


def make(tmp_path: Path, seed: int = 0, size: tuple[int, int] = (800, 480)) -> TenkaApp:
    return TenkaApp(options(tmp_path, seed, size))


@pytest.fixture
def tenka(tmp_path: Path) -> Iterator[TenkaApp]:
    app = make(tmp_path)
    try:
        yield app
    finally:
        app.close()


def test_a_full_demo_game_runs_to_the_final_score(tmp_path: Path) -> None:
    app = make(tmp_path, seed=5)
    app.app.recorder = FrameRecorder(tmp_path)
    try:
        demo = TenkaDemo(app, seed=5)
        demo.start(players=4, advanced=True)
        demo.play()
        demo.finish()
        war = demo.state.war
        assert war is not None
        assert screen(app) == "score"
        text = " ".join(shown(app))
        assert "Final score:" in text and "wins" in text
        for colour, points in war.scores.items():
            assert f"{colour.value.title()} {points}" in text
        assert "Score as the zones are fought" in text  # the plot
        said = app.control.snapshot().war  # the table session follows the War (5.II.3)
        assert said is not None and ("(5.II.3)" in said or "The War is over" in said)
    finally:
        app.close()
    lines = [json.loads(line) for line in (tmp_path / "text.jsonl").read_text().splitlines()]
    screens = {line["screen"] for line in lines}
    assert {"start", "setup", "daimyo-turn", "daimyo-choice", "board", "dice", "place", "war",
            "detail", "score"} <= screens
    assert (tmp_path / "frames" / "00001.png").exists()
    war_texts = [line["text"] for line in lines if line["screen"] == "detail"]
    assert any("= power" in t and "(5.II.1)" in t for t in war_texts)  # a zone's arithmetic


def test_dice_entry_and_a_wrong_count_deployment_is_flagged(tenka: TenkaApp) -> None:
    """The readers see one pawn too few in the zone the dice name: "Done" says so from what
    they saw, and nothing is played; the last pawn set down, the session plays the deployment."""
    demo = TenkaDemo(tenka, seed=0)
    demo.start(players=3, advanced=False)
    state = demo.state
    colour = state.current
    assert colour is not None
    demo.tap("Roll the dice")
    assert screen(tenka) == "dice"
    for face in "345":
        demo.tap(face)
    zone = next(z for z, v in state.castles.items() if v == 7)
    options = [s for s in shown(tenka) if s.startswith("Keep ")]
    assert len(options) == 3
    assert any(s.startswith("Keep 5 apart: castle 7") and "3 pawns" in s for s in options)
    demo.tap("Keep 5 apart")
    assert screen(tenka) == "place"
    text = " ".join(shown(tenka))
    assert "(5.I.1)" in text and "Place 3" in text
    # the zone the dice name flashes on the table
    sim = tenka.control.readers.simulated
    assert sim is not None
    hub, antenna = sim.antenna(zone)
    demo.wait(lambda: hub.leds.get(antenna) == "FAST", "the zone to flash")
    command = Deploy(colour=colour, rolls=((3, 4, 5),), single=5)
    demo.place(command, soldiers=2)  # one pawn short
    demo.settled()
    demo.wait(lambda: any("2 of 3 pawns placed" in s for s in shown(tenka)),
              "the readers to see two pawns of three")
    demo.tap("Done")
    text = " ".join(shown(tenka))
    assert "The table differs" in text
    assert "the dice say " + colour.value.title() + " 3 soldiers from the reserve to " in text
    assert "the table shows " + colour.value.title() + " 2 soldiers from the reserve" in text
    assert screen(tenka) == "place"
    assert len(demo.control.events) == 1  # nothing accepted
    demo.virtual.carry_out((PawnMove(colour=colour, origin=RESERVE, destination=zone),))
    demo.wait(lambda: screen(tenka) == "board", "the session to play the deployment")
    assert len(demo.control.events) == 2
    assert any("rolled 3-4-5" in s and "(5.I.1)" in s for s in shown(tenka))
    assert demo.state.on_board(zone, colour) == 3


def test_pawns_in_the_wrong_zone_are_flagged(tenka: TenkaApp) -> None:
    demo = TenkaDemo(tenka, seed=1)
    demo.start(players=2, advanced=False)
    colour = demo.state.current
    assert colour is not None
    demo.roll(((1, 1, 6),))
    demo.tap("Keep 6 apart")
    wrong = next(z for z, v in demo.state.castles.items() if v == 12)
    demo.virtual.carry_out((PawnMove(colour=colour, origin=RESERVE, destination=wrong,
                                      count=3),))
    demo.settled()
    # the session flags it from the readers at once (a discrepancy citing 5.I.1) ...
    demo.wait(lambda: any(s.startswith("The readers see:") and "5.I.1" in s
                          for s in shown(tenka)), "the readers to flag the wrong zone")
    demo.tap("Done")  # ... and "Done" says what the dice wanted
    assert any("The table differs" in s for s in shown(tenka))
    assert len(demo.control.events) == 1


def test_a_card_is_rejected_with_its_section(tenka: TenkaApp) -> None:
    demo = TenkaDemo(tenka, seed=2)
    demo.start(players=2, advanced=False)
    colour = demo.state.current
    assert colour is not None
    card = demo.state.tactic_offer[0]
    demo.tap("Play a tactic card")
    demo.tap(card_name(card))
    assert screen(tenka) == "card"
    # nobody has soldiers on the board yet: a pawn from the reserve onto a zone is no card's
    # full effect (section 7)
    zone = demo.control.rules.board.zone_ids[0]
    demo.virtual.carry_out((PawnMove(colour=colour, origin=RESERVE, destination=zone),))
    demo.settled()
    demo.tap("Done")
    text = shown(tenka)
    refusal = next(s for s in text if s.startswith("Not allowed:"))
    assert refusal.endswith("(7)") and card_name(card) in refusal
    assert any(s.startswith("Put back:") for s in text)
    assert len(demo.control.events) == 1
    demo.tap("Section 7")
    assert screen(tenka) == "detail"
    assert any(s.startswith("7 Tactic cards:") for s in shown(tenka))
    demo.tap("Back")
    demo.tap("Cancel")
    assert any(s.startswith("First put back what moved:") for s in shown(tenka))


def _daimyo_names() -> dict[Daimyo, set[str]]:
    return {Daimyo(c.id): {c.en, c.es} for c in default_components().daimyo_cards}


@pytest.mark.parametrize("seed", [1, 2, 3])  # 3, 4 and 2 players; each plays a Daimyo card
def test_the_face_down_daimyo_is_never_drawn_before_it_is_used(seed: int, tmp_path: Path
                                                               ) -> None:
    app = make(tmp_path, seed=seed)
    names = _daimyo_names()
    leaks: list[str] = []
    revealed: list[str] = []
    demo = TenkaDemo(app, seed=seed)

    def scan(_when: float) -> None:
        state = demo.control.game.state
        hidden = {n for c, card in state.daimyo.items() if c not in state.daimyo_used
                  for n in names[card]}
        shown_now = {n for c in state.daimyo_used for n in names[state.daimyo[c]]}
        for _screen, text in app.app.drawn:
            leaks.extend(f"{_screen}: {text}" for n in hidden if n in text)
            revealed.extend(text for n in shown_now if n in text)

    app.app.on_frame = scan
    try:
        demo.player.card_chance = 0.6
        demo.start(players=2 + seed % 3, advanced=True)
        demo.play()
        demo.finish()
    finally:
        app.close()
    assert not leaks
    assert any(isinstance(e, DaimyoPlayed) for e in demo.control.events)
    assert revealed  # once used, the card is named


@pytest.mark.parametrize(("size", "seed", "players"), [
    ((800, 480), 4, 4), ((800, 480), 7, 2), ((1024, 600), 5, 3), ((1280, 720), 4, 4),
    ((720, 1280), 9, 3)])
def test_every_screen_is_legible_with_finger_sized_targets(
        size: tuple[int, int], seed: int, players: int, tmp_path: Path) -> None:
    """A whole advanced game at each panel size, recorded and checked as a player reads it
    (:mod:`ui.shell.legibility`): no string under 14 px, none over another, off the screen or
    cut with no way to read it, no id, placeholder, "(s)" or section cited twice, every tap
    target at least 9 mm; and no "table differs" when the hands do what the screen says."""
    app = make(tmp_path, seed=seed, size=size)
    record = tmp_path / "record"
    app.app.recorder = FrameRecorder(record, pictures=False)
    try:
        demo = TenkaDemo(app, seed=seed)
        demo.player.card_chance = 0.5
        demo.start(players=players, advanced=True)
        demo.play(until_phase=Phase.OVER)
        demo.finish()
    finally:
        app.close()
    strings, _frames = lg.read(record)
    assert {"daimyo-choice", "board", "dice", "place", "war", "score"} <= {
        line["screen"] for line in strings}
    problems = [lg.describe(p, n) for p, n in lg.distinct(lg.check_run(record))]
    problems += [f"{line['screen']}: {line['text']}" for line in strings
                 if "differs" in line["text"] or line["text"].startswith("The readers see:")]
    assert not problems, problems[:8]


def test_pawns_dragged_on_the_virtual_table_are_what_the_readers_see(tmp_path: Path) -> None:
    from firmware_bridge.simtable import SimulatedTable
    from firmware_bridge.zones import active_table, use_table
    from ui.shell.app import App
    from ui.tenka_meidou.virtual_table import VirtualTable

    served = active_table()
    use_table("tenka-meidou")
    sim = SimulatedTable.create(tmp_path / "hubs", hubs=2, rate_hz=50).start()
    app = App((800, 480), panel_size=(900, 600))
    try:
        table = VirtualTable(sim)
        table.lay_out((Colour.RED, Colour.BLUE), 16, True)
        app.panel = table
        app.draw()
        assert sim.blocks_on("reserve_red") == sorted(
            [f"red-{i:02d}" for i in range(1, 17)] + ["red-daimyo"])
        chip = table.drawn_at("reserve_red", Colour.RED)
        kyoto = table.drawn_at("kyoto")
        assert chip is not None and kyoto is not None
        app.touch(chip, kyoto)
        app.pump()
        assert sim.blocks_on("kyoto") == ["red-16"]
        daimyo = table.drawn_at("reserve_red", Colour.RED, daimyo=True)
        assert daimyo is not None
        app.touch(daimyo, kyoto)
        app.pump()
        assert sim.blocks_on("kyoto") == ["red-16", "red-daimyo"]
        blue = table.drawn_at("reserve_blue", Colour.BLUE)
        assert blue is not None
        app.touch(blue, table.drawn_at("reserve_red") or (0, 0))  # not another's reserve
        app.pump()
        assert len(sim.blocks_on("reserve_blue")) == 17  # went back: 16 soldiers, Daimyo
        assert len(sim.blocks_on("reserve_red")) == 15
        app.draw()
        assert not any("red-" in text or "blue-" in text for _s, text in app.drawn)  # no ids
    finally:
        app.close()
        sim.stop()
        use_table(served)


def test_the_rules_screen_and_every_cited_section_have_a_summary(tenka: TenkaApp) -> None:
    demo = TenkaDemo(tenka, seed=6)
    demo.tap("The rules in short")
    assert screen(tenka) == "rules"
    pages = []
    while True:
        pages.append(shown(tenka))
        if not tenka.app.tap("Next page"):
            break
        if tenka.app.find("Next page") is None or len(pages) > 10:
            break
    text = " ".join(" ".join(p) for p in pages)
    assert "5.I.1 Rolling the dice:" in text and "TM2 Soldiers run short:" in text
    demo.tap("Back")
    demo.start(players=3, advanced=True)
    demo.play()
    rules = {line.rule for line in demo.control.feed if line.rule}
    assert {"3.2", "9", "5.I.1", "5.I", "5.II.1", "6"} <= rules
    for rule in rules:
        entry = default_rules().get(rule)
        assert entry is not None and entry.number == rule


def test_companion_run_game_tenka_meidou_headless_demo(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from companion.cli import main

    code = main(["run", "--game", "tenka-meidou", "--headless", "--demo", "--seed", "7",
                 "--record", str(tmp_path)])
    assert code == 0
    assert "wins" in capsys.readouterr().out
    assert (tmp_path / "frames" / "00001.png").exists()
    last = (tmp_path / "text.jsonl").read_text().splitlines()[-1]
    assert json.loads(last)["screen"] == "score"


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720), (720, 1280)])
def test_the_start_and_rules_pages_are_legible(size: tuple[int, int], tmp_path: Path) -> None:
    """The start screen, every page of the rules in short and the set-up, checked as the game
    walk above checks them."""
    app = make(tmp_path, size=size)
    record = tmp_path / "record"
    app.app.recorder = FrameRecorder(record, pictures=False)
    try:
        app.app.draw()
        assert app.app.tap("The rules in short")
        for _page in range(12):
            app.app.draw()
            if not app.app.tap("Next page"):
                break
        assert app.app.tap("Back")
        assert app.app.tap("New game")
        app.app.draw()
    finally:
        app.close()
    strings, _frames = lg.read(record)
    assert len({line["frame"] for line in strings if line["screen"] == "rules"}) >= 3
    problems = [lg.describe(p, n) for p, n in lg.distinct(lg.check_run(record))]
    assert not problems, problems[:8]
