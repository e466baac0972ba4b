"""The Kensei battle demo (issue 20, item 8): a seeded 200-pe battle played through the screens
from the lists to the score, stored and verified; nothing secret on a shared frame (B17); and
the swapped world: two battles whose hands and secondary missions change places draw the same
public frames."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.core.store import Store
from companion.games.kensei import records
from ui.kensei.app import KenseiApp
from ui.kensei.battle_words import MISSIONS
from ui.kensei.demo import KenseiDemo, run_demo
from ui.shell import legibility as lg
from ui.shell.app import FrameRecorder
from ui.tableapp import TableOptions

SEED = 3
PRIVATE = "kensei-private"
CARD_ID = re.compile(r"\b[ab]-\d\d\b")
MISSION_NAMES = tuple(name for name, _ in MISSIONS.values())
SECRET_WORDS = ("Your hand", ": worth ", "Your die")


def options(tmp: Path) -> TableOptions:
    return TableOptions(seed=SEED, virtual_table=False, db=tmp / "games.sqlite",
                        pin_file=tmp / "pin.json", workdir=tmp / "run")


def frames(record: Path) -> dict[int, tuple[str, list[str]]]:
    """Each recorded frame: its screen and every string and button label on it."""
    out: dict[int, tuple[str, list[str]]] = {}
    for line in (record / "text.jsonl").read_text("utf-8").splitlines():
        d = json.loads(line)
        out.setdefault(d["frame"], (d["screen"], []))[1].append(d["text"])
    for line in (record / "frames.jsonl").read_text("utf-8").splitlines():
        d = json.loads(line)
        out.setdefault(d["frame"], ("", []))[1].extend(t["label"] for t in d["targets"])
    return out


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    tmp = tmp_path_factory.mktemp("demo")
    code = run_demo(options(tmp), SEED, tmp / "rec", pictures=False, reader_table=False)
    assert code == 0
    yield tmp


def test_the_demo_plays_at_the_simulated_reader_table(tmp_path: Path) -> None:
    """Every troop of both armies lifted off its reserve tray on the virtual table, read by
    the simulated hubs, deployed by the table session (B1.3 step 5, B18); in turn 1 each
    troop activated by laying its card on the command pad (B3.3), each duel's bids laid on
    the card pads (B9.1), and the models each ruling removed put on the casualty trays until
    the session's count agrees (B7)."""
    at_table = options(tmp_path)
    at_table.hubs, at_table.rate_hz, at_table.settle_s = ["sim"], 50, 0.1
    app = KenseiApp(at_table)
    demo = KenseiDemo(app, SEED)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "maintenance")
        assert demo.flow.virtual is not None
        deployed = [e for e in demo.flow.control.events if e.type == "troop_deployed"]
        units = [t for t in demo.flow.control.state.troops.values() if t.inside is None]
        assert demo.at_table == len(deployed) == len(units) == 8  # leaders go inside
        assert all(demo.flow.virtual.where(f"{t.side}-troop-{t.entry:02d}") == "field"
                   for t in demo.flow.control.state.troops.values() if t.deployed)
        demo.play(until=lambda: demo.flow.control.state.turn >= 2)
        events = demo.flow.control.events
        assert demo.at_pad == sum(e.type == "troop_activated" for e in events) >= 4
        removed = sum(t.models_start - t.models for t in demo.flow.control.state.troops.values())
        assert removed > 0 and not demo.flow.control.table_lines()
        duels = sum(e.type == "duel_revealed" for e in events)
        assert demo.at_card_pad == 2 * duels > 0  # each bid read off a card pad (B9.1)
    finally:
        app.close()


def test_the_demo_plays_to_the_score_and_its_record_verifies(battle: Path) -> None:
    shown = frames(battle / "rec")
    screens = [screen for screen, _ in shown.values()]
    for screen in ("kensei-lists", "kensei-pregame", "kensei-cover", PRIVATE, "kensei-turn",
                   "kensei-melee", "kensei-ruling", "kensei-score"):
        assert screen in screens, screen
    last = shown[max(shown)][1]
    assert any(t.endswith(" wins") or t == "A draw" for t in last)
    assert any("victory point" in t for t in last)
    assert any(t.startswith("Seal of the game: ") for t in last)
    store = Store.open(battle / "games.sqlite")
    try:
        (game,) = store.list_games()
        log = store.load(game.id)
        rebuilt = records.check(log)
        assert rebuilt.state.phase == "over"
        assert game.result == records.result(rebuilt.state)
    finally:
        store.close()


def test_no_hand_nor_mission_on_a_shared_frame(battle: Path) -> None:
    """Card ids, card values in hand, and mission names appear only on private steps (the
    score reveals the missions, B15); and the private steps did show them."""
    seen_private = ""
    for number, (screen, texts) in frames(battle / "rec").items():
        words = " ".join(texts)
        if screen == PRIVATE:
            seen_private += words
            continue
        assert not CARD_ID.search(words), (number, screen, words)
        assert not any(w in words for w in SECRET_WORDS), (number, screen, words)
        if screen != "kensei-score":
            assert not any(m in words for m in MISSION_NAMES), (number, screen, words)
    assert any(m in seen_private for m in MISSION_NAMES)
    assert "Your hand" in seen_private and ": worth " in seen_private


def _world(tmp: Path, swap: bool) -> tuple[list[tuple[str, str]], KenseiDemo]:
    app = KenseiApp(options(tmp))
    app.app.recorder = FrameRecorder(tmp / "rec")
    demo = KenseiDemo(app, SEED, swap=swap, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.turn >= 3)
    finally:
        app.close()
    public = []
    for number, (screen, _texts) in sorted(frames(tmp / "rec").items()):
        if screen == PRIVATE:
            continue
        png = (tmp / "rec" / "frames" / f"{number:05d}.png").read_bytes()
        public.append((screen, hashlib.blake2b(png, digest_size=16).hexdigest()))
    return public, demo


def test_swapped_hands_and_missions_draw_the_same_public_frames(tmp_path: Path) -> None:
    """Two turns played twice: the second time each player's secondary mission and command
    cards are the other's. Every public frame is the same, pixel for pixel (the duels, whose
    bids the rules reveal, are left out of both)."""
    plain, one = _world(tmp_path / "plain", swap=False)
    swapped, two = _world(tmp_path / "swapped", swap=True)
    first, second = one.flow.control.state, two.flow.control.state
    assert first.secondary == {"a": second.secondary["b"], "b": second.secondary["a"]}
    hands = [sorted(c[2:] for c in s.decks.side(side).hand) for s in (first, second)
             for side in ("a", "b")]
    assert hands[0] == hands[3] and hands[1] == hands[2]
    assert first.secondary["a"] != first.secondary["b"] or hands[0] != hands[1]
    assert len(plain) > 100
    assert plain == swapped


def test_every_battle_frame_is_legible(battle: Path) -> None:
    """The demo's frames at 800x480 pass the shell's lint as a player at arm's length reads
    them: no text under 14 px, no overlap, nothing cut, plain words, 9 mm targets."""
    problems = lg.check_run(battle / "rec")
    assert not problems, "\n".join(lg.describe(p, n) for p, n in lg.distinct(problems))
