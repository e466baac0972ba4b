"""The Kensei battle screens: a user's list refused in plain words with its section (B14), an
order refused in words with its heading (B4), a hand seen only past the cover, and the roster
with every troop's state and the markers placed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from kensei_taps import make, screen, shown, tap

from companion.games.kensei.battle.commands import Side
from ui.kensei.app import KenseiApp
from ui.kensei.battle_words import MISSIONS
from ui.kensei.demo import KenseiDemo

NO_GENERAL = """\
name: Ana's Kuge
clan: kuge
commander_level: hatamoto
size: 200
entries:
  - {profile: kuge-hero-naginata, models: 1, joins: 2}
  - {profile: yari-ashigaru, models: 10, banner: true}
  - {profile: onna-bushi, models: 5}
"""


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KenseiApp:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    lists = tmp_path / "data" / "sekigahara-companion" / "kensei" / "lists"
    lists.mkdir(parents=True)
    (lists / "ana.yaml").write_text(NO_GENERAL, "utf-8")
    (lists / "broken.yaml").write_text("name: [\n", "utf-8")
    return make(tmp_path, seed=5)


def test_a_refused_list_is_said_with_its_section_and_cannot_begin(app: KenseiApp) -> None:
    try:
        tap(app, "New battle")
        tap(app, "First player's list")
        words = shown(app)
        assert "Kuge vanguard (example list, not from the book)" in words
        assert "broken.yaml is not valid YAML" in words  # a file that cannot be read, said
        broken = app.app.find("broken: ")
        assert broken is not None and broken.action is None
        tap(app, "Ana's Kuge (your list)")
        tap(app, "Second player's list")
        tap(app, "Buke vanguard")
        words = shown(app)
        assert "Refused: " in words and "(B14 General" in words
        begin = app.app.find("Begin the battle")
        assert begin is not None and begin.action is None
    finally:
        app.close()


def _active(demo: KenseiDemo) -> Side | None:
    """A side whose troop may be given orders: both order rolls are in (B3.3)."""
    act = demo.flow.control.state.activation
    if act is None or len(act.orders) < 2:
        return None
    return next((s for s in ("a", "b") if act.left.get(s)), None)


def test_an_order_refused_in_words_with_its_heading(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: _active(demo) is not None)
        side = _active(demo)
        assert side is not None
        name = demo.names()[side]
        tap(app, f"Give an order: {name}'s ")
        tap(app, "Charge")
        tap(app, "Against ")
        tap(app, "Out of coherence: no")
        before = len(demo.flow.control.events)
        tap(app, "Give the order: Charge")
        words = shown(app)
        assert len(demo.flow.control.events) == before
        assert screen(app) == "kensei-turn"
        assert "Refused: " in words and "out of coherence" in words
        assert "FUERA DE COHERENCIA" in words
        assert "a1" not in words.split() and "order_given" not in words
    finally:
        app.close()


def test_a_hand_is_shown_only_past_the_cover(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "maintenance")
        name = demo.names()["a"]
        tap(app, f"Deal {name}'s command cards")
        assert screen(app) == "kensei-cover"
        assert "Your hand" not in shown(app)
        assert "a" not in demo.flow.control.state.drawn  # nothing dealt before the player looks
        tap(app, f"{name}: show me")
        assert screen(app) == "kensei-private"
        assert "Your hand: " in shown(app)
        tap(app, "Hide")
        assert screen(app) == "kensei-turn"
        assert "Your hand" not in shown(app)
        assert f"{name}: cards dealt" in shown(app)
    finally:
        app.close()


def test_the_roster_shows_every_troop_and_takes_markers(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "initiative")
        tap(app, "Troops")
        words = shown(app)
        assert screen(app) == "kensei-roster"
        assert ("Yari Ashigaru: 10 models · banner · led by Kuge hero with naginata "
                "(general)") in words
        tap(app, "Yari Ashigaru: ")
        tap(app, "Parapeted: off")
        assert demo.flow.control.state.troops["a2"].parapeted
        assert "Parapeted: on" in shown(app)
        tap(app, "Back")
        assert "Parapeted" in shown(app)
        tap(app, "Buke vanguard's troops")
        assert "Samurai" in shown(app)
    finally:
        app.close()


def test_a_troop_not_activated_reacts(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: (act := demo.flow.control.state.activation) is not None
                 and len(act.orders) == 2)
        state = demo.flow.control.state
        assert state.activation is not None
        active = set(state.activation.troops.values())
        reactor = next(t for t in state.troops.values() if t.alive and t.deployed
                       and t.inside is None and t.id not in active and t.side == "b")
        name = demo.flow.snap.troop(reactor.id)["name"]
        tap(app, "A reaction order")
        tap(app, f"{demo.names()['b']}'s {name}")
        assert "Fight (reaction)" in shown(app) and "Move" not in shown(app).split()
        tap(app, "Flee (reaction)")
        tap(app, "Give the order: Flee (reaction)")
        assert "Refused: Only the target of a charge flees. (B4" in shown(app)
        tap(app, "It is the target of a charge: no")
        tap(app, "Give the order: Flee (reaction)")
        last = demo.flow.control.events[-1]
        assert last.type == "order_given" and last.troop == reactor.id  # type: ignore[attr-defined]
        assert f"{name}: Flee (reaction)" in shown(app)
    finally:
        app.close()


def test_an_offering_is_chosen_in_private_and_said_without_its_card(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: (act := demo.flow.control.state.activation) is not None
                 and len(act.orders) == 2)
        holder = demo.flow.control.state.initiative
        assert holder is not None
        caller = "b" if holder == "a" else "a"
        name = demo.names()[caller]
        held = len(demo.flow.control.state.command_decks.side(caller).hand)
        tap(app, "An offering to the gods")
        tap(app, f"{name}: on the order roll")
        assert screen(app) == "kensei-cover"
        tap(app, f"{name}: show me")
        assert screen(app) == "kensei-private"
        tap(app, "Card 1 (worth ")
        assert screen(app) == "kensei-turn"
        assert len(demo.flow.control.state.command_decks.side(caller).hand) == held - 1
        words = shown(app)
        assert "a re-roll, the card discarded face down" in words
        assert "worth" not in words
    finally:
        app.close()


def test_another_scenario_asks_the_table_at_the_end(app: KenseiApp) -> None:
    """Scenario 2 agreed on the lists page; a concession ends the battle; the score page asks
    the strips controlled, and the answers given are what is scored (B15)."""
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        tap(app, "New battle")
        tap(app, "First player's list")
        tap(app, "Kuge vanguard")
        tap(app, "Second player's list")
        tap(app, "Buke vanguard")
        tap(app, "Scenario 1: ")
        tap(app, "2: Lucha de fronteras")
        tap(app, "Begin the battle")
        demo.play(until=lambda: demo.flow.control.state.phase == "maintenance")
        tap(app, "Concede")
        tap(app, "Buke vanguard concedes")
        assert screen(app) == "kensei-score"
        words = shown(app)
        assert "Lucha de fronteras" in words and "Buke vanguard concedes" in words
        tap(app, "Kuge vanguard: strips controlled: ", times=3)
        assert "Kuge vanguard: strips controlled: 3" in shown(app)
        tap(app, "Score the battle")
        state = demo.flow.control.state
        assert state.phase == "over" and state.winner == "a"
        scored = demo.flow.control.events[-1]
        assert scored.inputs["primary"]["a"]["strips"] == 3  # type: ignore[attr-defined]
        assert "Kuge vanguard wins" in shown(app)
    finally:
        app.close()


def test_a_saved_battle_resumes_where_it_stopped(tmp_path: Path, app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "initiative")
        events = len(demo.flow.control.events)
        drawn = dict(demo.flow.control.private("a")["hand"])
    finally:
        app.close()
    again = make(tmp_path, seed=9)
    try:
        tap(again, "Saved battles")
        target = next(t for t in again.app.targets if "started" in t.label)
        again.app.touch(target.rect.center)
        again.app.pump()
        assert screen(again) == "kensei-turn"
        assert "of 5: initiative" in shown(again)
        flow = again.battle  # type: ignore[attr-defined]
        assert len(flow.control.events) == events
        assert flow.control.names == {"a": "Kuge vanguard", "b": "Buke vanguard"}
        assert flow.control.private("a")["hand"] == drawn
    finally:
        again.close()


def test_a_command_duel_is_bid_in_private_and_revealed_in_sums(app: KenseiApp) -> None:
    """B9.1: the caller's bid and the holder's answer are laid on private steps (the holder
    may answer later, from the page that waits for it); the reveal shows the sums only."""
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "activation")
        holder = demo.flow.control.state.initiative
        assert holder is not None
        caller: Side = "b" if holder == "a" else "a"
        n = demo.names()
        tap(app, f"Command duel: {n[caller]} calls")
        tap(app, f"{n[caller]}: show me")
        tap(app, "Card 1: worth ")
        tap(app, "Lay the bid face down")
        assert screen(app) == "kensei-cover"
        tap(app, "Back")  # the holder is not at the table yet
        words = shown(app)
        assert f"{n[caller]} bids 1 command card, face down" in words
        assert "worth" not in words
        tap(app, f"Command duel: {n[holder]} answers")
        tap(app, f"{n[holder]}: show me")
        tap(app, "Card 2: worth ")
        tap(app, "Lay the bid face down")
        words = shown(app)
        assert screen(app) == "kensei-turn"
        assert f"Command duel: {n['a']} " in words and "initiative" in words
        assert "worth" not in words and "Card 2" not in words
    finally:
        app.close()


def test_a_retreat_honour_roll_with_the_generals_reroll(app: KenseiApp) -> None:
    """B3.1 step 3: a Retreat marker set by hand in turn 1; in the next maintenance the troop's
    honour roll shows its target with its terms, a failed die is re-rolled with the general
    near (TIRADA DE HONOR), and the second die decides."""
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "initiative")
        tap(app, "Troops")
        tap(app, "Onna-Bushi: ")
        tap(app, "Retreat: off")
        tap(app, "Back")
        tap(app, "Back")
        demo.play(until=lambda: demo.flow.control.state.turn == 2)
        demo.maintenance()
        demo.maintenance()
        tap(app, "Honour roll: Onna-Bushi (Retreat)")
        tap(app, "Locked in a melee: no")
        words = shown(app)
        assert "It passes on 2 or less: HO 3, in melee -1." in words
        tap(app, "The general within 15 cm and in sight: no")
        tap(app, "Enter the honour die")
        tap(app, "6")
        assert "the general's re-roll" in shown(app)
        tap(app, "2")
        troop = next(t for t in demo.flow.control.state.troops.values()
                     if t.side == "a" and t.profile == "onna-bushi")
        assert troop.alive and not troop.retreat
        assert any(f.text == "Onna-Bushi: honour roll 6, 2 against 2, passes."
                   for f in demo.flow.control.feed)
    finally:
        app.close()


def test_the_referee_sees_the_secrets_behind_the_pin_and_verifies(app: KenseiApp) -> None:
    demo = KenseiDemo(app, seed=5, duels=False)
    try:
        demo.run(until=lambda: demo.flow.control.state.phase == "initiative")
        app.show_referee()
        assert screen(app) == "referee-pin"
        assert "hand" not in shown(app) and "mission" not in shown(app)
        for _ in range(2):  # the PIN set, then confirmed
            for digit in "2468":
                tap(app, digit)
            tap(app, "OK")
        assert screen(app) == "referee"
        state = demo.flow.control.state
        words = shown(app)
        for side in ("a", "b"):
            die = state.secondary[side]
            assert f"secondary mission {MISSIONS[die][0]}" in words
        assert "Kuge vanguard: hand " in words
        tap(app, "Verify this battle")
        assert "re-adjudicated by the rules, 0 corrections, hash chain intact" in shown(app)
    finally:
        app.close()
