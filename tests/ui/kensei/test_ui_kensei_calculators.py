"""Kensei's calculators on the touchscreen (issue 20, item 3), driven by taps on what the screens
draw: the rulebook's charge of nine warriors entered control by control gives the CLI's ruling;
a refusal is said in plain words with its heading; a command duel; the app's own dice."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import get_args

import pytest
from kensei_taps import cli, example, make, screen, shown, tap
from pydantic import BaseModel

from companion.games.kensei.calculator import adjudicate
from companion.games.kensei.inputs import DuelInput, MeleeInput, ShootInput
from ui.kensei.app import KenseiApp
from ui.kensei.forms import CalcForm, DuelForm, MeleeForm, ShootForm


@pytest.fixture
def kensei(tmp_path: Path) -> Iterator[KenseiApp]:
    app = make(tmp_path)
    try:
        yield app
    finally:
        app.close()


def goto(app: KenseiApp, page: str) -> None:
    tap(app, "Page ")
    tap(app, page)


def dice(app: KenseiApp, button: str, values: list[int]) -> None:
    tap(app, button)
    assert screen(app) == "kensei-pad"
    for value in values:
        tap(app, str(value))
    tap(app, "Done")


def test_the_charge_of_nine_warriors_entered_by_taps_is_the_cli_ruling(
        kensei: KenseiApp) -> None:
    ruled: list[tuple[dict[str, object], dict[str, object]]] = []
    kensei.open_calculator(MeleeForm(), ruled=lambda data, ruling: ruled.append((data, ruling)))
    # the chargers: nine warriors with swords, two ranks of five, a hero leading in front
    tap(kensei, "Models more", 4)
    goto(kensei, "Side A: the order")
    tap(kensei, "Charged from outside the zone of control: no")
    tap(kensei, "Models in melee more", 4)
    dice(kensei, "Ranks", [5, 5])
    goto(kensei, "Side A: the unit leader")
    tap(kensei, "Hero")
    assert "direct contact" in shown(kensei)  # the leader's keys appear with a leader
    tap(kensei, "Leader in front: no")
    # the ashigaru with yari, reacting, their general near
    goto(kensei, "Side B: the troop")
    tap(kensei, "Models more", 3)
    tap(kensei, "Weapon: ")
    tap(kensei, "Type 1: long haft (yari)")
    tap(kensei, "Trait: ")
    tap(kensei, "Ashigaru")
    goto(kensei, "Side B: the order")
    tap(kensei, "Fight (reaction)")
    tap(kensei, "Models in melee more", 4)
    dice(kensei, "Ranks", [4, 4])
    goto(kensei, "Side B: honour")
    tap(kensei, "General near (re-roll): no")
    dice(kensei, "Ranks after casualties", [4])
    # the dice as rolled; the pad says how many each roll takes
    goto(kensei, "Side A: the dice as rolled")
    tap(kensei, "Side B")  # the turn initiative
    assert "Combat dice: none yet (0 of 12)" in shown(kensei)
    dice(kensei, "Combat dice", [6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 6])
    assert "Wound dice: none yet (0 of 6)" in shown(kensei)
    dice(kensei, "Wound dice", [6, 5, 4, 3, 2, 1])
    goto(kensei, "Side B: the dice as rolled")
    dice(kensei, "Combat dice", [6, 4, 3, 2, 1, 1])
    dice(kensei, "Wound dice", [5, 2])
    dice(kensei, "Honour dice", [5, 4])
    tap(kensei, "Rule it")
    assert len(ruled) == 1
    data, ruling = ruled[0]
    status, printed = cli("melee", data)
    assert status == 0 and ruling == printed == example("melee", "output")


def test_the_ruling_itemises_each_modifier_a_tap_from_its_heading(kensei: KenseiApp) -> None:
    form = MeleeForm(example("melee", "input"))
    kensei.open_calculator(form)
    tap(kensei, "Rule it")
    assert screen(kensei) == "kensei-ruling"
    text = shown(kensei)
    assert "Side B loses 4 to 1: Side A wins and takes the combat initiative." in text
    assert "Side B: 4 models fall" in text and "Side A: 1 model falls" in text
    assert ("Side B: honour 5, then 4 (needs 3 or less): retreats 3D6 cm; Used, Retreat"
            in text)
    assert "Side A: combat roll of 12 dice" in text and "Side B: combat roll of 6 dice" in text
    assert "−1 die: fighting with the Combatir reaction (Tirada de combate)" in text
    tap(kensei, "Why: +1 die: a charge begun outside")
    assert screen(kensei) == "kensei-detail"
    detail = shown(kensei)
    assert "The pool: 2 + 4 + 4 + 1 + 1 = 12 dice" in detail
    assert "Tirada de combate (B5.1)" in detail and "Our reading 1" in detail
    tap(kensei, "Back")
    tap(kensei, "Next page")
    assert "Side A wounds on 4+: 3, 1 critical, 2 Stunned, 1 ignored" in shown(kensei)


def test_a_refusal_is_said_in_plain_words_with_the_heading_broken(kensei: KenseiApp) -> None:
    kensei.open_calculator(MeleeForm())
    goto(kensei, "Side A: markers and terrain")
    tap(kensei, "Used: no")  # side A charges by default: a Used troop only reacts
    tap(kensei, "Rule it")
    assert screen(kensei) == "kensei-refusal"
    text = shown(kensei)
    assert "Side A, order: a Used troop only reacts with Combatir" in text
    assert "Rule broken: USO DE LAS ÓRDENES" in text
    assert "a.order" not in text and "Traceback" not in text
    status, printed = cli("melee", kensei.app.screen.form.value())  # type: ignore[union-attr]
    assert status == 2 and printed["error"]["rule"] == "USO DE LAS ÓRDENES"
    tap(kensei, "Change it: Order")  # straight to the control the refusal names
    assert screen(kensei) == "kensei-melee"
    assert "Melee · Side A: the order" in shown(kensei)
    tap(kensei, "Fight (reaction)")
    tap(kensei, "Rule it")  # the order is legal now: the dice are what is missing
    text = shown(kensei)
    assert "Side A, dice, combat: a pool of 0 rolls 1 die, 0 given" in text
    assert "Rule broken: Tirada de combate" in text


def test_a_missing_honour_die_leads_to_its_pad(kensei: KenseiApp) -> None:
    data = example("melee", "input")
    del data["b"]["dice"]["honour"]
    kensei.open_calculator(MeleeForm(data))
    tap(kensei, "Rule it")
    text = shown(kensei)
    assert "Side B, dice, honour: the troop takes an honour roll; give its die" in text
    assert "Rule broken: TIRADA DE HONOR" in text
    tap(kensei, "Change it: Honour dice")
    assert screen(kensei) == "kensei-pad" and "Side B: Honour dice" in shown(kensei)
    tap(kensei, "5")
    tap(kensei, "4")
    tap(kensei, "Done")
    tap(kensei, "Rule it")
    assert "Side B loses 4 to 1" in shown(kensei)


def test_a_format_fault_names_the_control_not_the_key(kensei: KenseiApp) -> None:
    kensei.open_calculator(MeleeForm({"a": {"models_in_melee": 9}}))
    tap(kensei, "Rule it")
    text = shown(kensei)
    assert "Side A, models in melee: more models in melee than in the unit" in text
    assert "models_in_melee" not in text


def test_a_command_duel_by_taps(kensei: KenseiApp) -> None:
    tap(kensei, "Calculators")
    tap(kensei, "Command duel")
    assert screen(kensei) == "kensei-duel"
    assert "enter them once both are turned up" in shown(kensei)  # a bid is secret till then
    tap(kensei, "400 points")
    dice(kensei, "Side A bids", [2, 1])
    dice(kensei, "Side B bids", [3, 0])
    tap(kensei, "Rule it")
    assert "A tie at 3: Side A keeps the initiative." in shown(kensei)
    tap(kensei, "Back to the form")
    dice(kensei, "Side B bids", [3])
    tap(kensei, "Rule it")
    assert "Side B takes the initiative, 3 to 6." in shown(kensei)


def test_roll_for_me_rolls_the_pool_with_the_apps_own_seeded_dice(kensei: KenseiApp) -> None:
    rolled = []
    for _ in range(2):
        form = MeleeForm(example("melee", "input") | {"a": {**example("melee", "input")["a"],
                                                            "dice": {}}}, seed=7)
        kensei.open_calculator(form)
        goto(kensei, "Side A: the dice as rolled")
        tap(kensei, "Combat dice")
        tap(kensei, "Roll for me")
        assert "This roll takes 12 dice; 12 entered." in shown(kensei)
        tap(kensei, "Roll for me")  # the pool is full: one more die, as asked
        tap(kensei, "Take back the last")
        rolled.append(form.data["a"]["dice"]["combat"])
    assert rolled[0] == rolled[1] and len(rolled[0]) == 12
    assert all(1 <= d <= 6 for d in rolled[0])


def test_a_shot_prefilled_is_ruled_as_the_cli_rules_it(kensei: KenseiApp) -> None:
    form = ShootForm(example("shoot", "input"))
    assert adjudicate("shoot", form.value()) == example("shoot", "output")
    kensei.open_calculator(form)
    tap(kensei, "Rule it")
    assert "4 hits, 3 wounds: 1 model falls." in shown(kensei)


def test_new_battle_says_the_battle_screens_are_missing_until_they_plug_in(
        kensei: KenseiApp, monkeypatch: pytest.MonkeyPatch) -> None:
    text = shown(kensei)  # the battle screens are installed (ui.kensei.battle)
    assert "not installed" not in text
    assert "No battle has been saved yet." in text
    opened: list[KenseiApp] = []
    battle = types.ModuleType("ui.kensei.battle")
    battle.open_battle = opened.append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ui.kensei.battle", battle)
    kensei.show_start()
    assert "not installed" not in shown(kensei)
    tap(kensei, "New battle")
    assert opened == [kensei]


def test_the_app_rolls_the_wound_dice_one_per_hit(kensei: KenseiApp) -> None:
    """Combat dice rolled by the app, then the wound roll: exactly one die per hit, as the
    calculator counts them; the ruling then comes without a dice-count refusal."""
    form = MeleeForm({"a": {"models_in_melee": 4},
                      "b": {"order": "fight_reaction", "models_in_melee": 4}}, seed=11)
    kensei.open_calculator(form)
    goto(kensei, "Side A: the dice as rolled")
    for roll in ("Combat dice", "Wound dice"):
        tap(kensei, roll)
        tap(kensei, "Roll for me")
        tap(kensei, "Done")
    goto(kensei, "Side B: the dice as rolled")
    for roll in ("Combat dice", "Wound dice"):
        tap(kensei, roll)
        tap(kensei, "Roll for me")
        tap(kensei, "Done")
    a = form.data["a"]["dice"]
    assert len(a["combat"]) == 6  # AT 2 and 4 models in melee
    assert len(form.data["b"]["dice"]["combat"]) == 5  # the same, less 1 for the reaction
    hits = sum(d != 1 and d >= 4 for d in a["combat"])
    assert len(a["wound"]) == hits
    tap(kensei, "Rule it")
    assert screen(kensei) in ("kensei-ruling", "kensei-refusal")
    if screen(kensei) == "kensei-refusal":  # only an honour die may still be asked for
        assert "honour" in shown(kensei).lower()


def test_the_armies_names_replace_side_a_and_b(kensei: KenseiApp) -> None:
    names = {"a": "Ana's Kuge", "b": "Bo's Sohei"}
    kensei.open_calculator(MeleeForm({"a": {"used": True}}, names=names))
    assert "Melee · Ana's Kuge: the troop" in shown(kensei)
    tap(kensei, "Rule it")
    assert "Ana's Kuge, order: a Used troop only reacts with Combatir" in shown(kensei)
    assert "Side A" not in shown(kensei)


@pytest.mark.slow  # a whole 5-turn battle (35 s); test_ui_kensei_demo.py runs the demo itself
def test_companion_run_game_kensei_headless_demo_draws_its_screens(tmp_path: Path) -> None:
    """``companion run --game kensei --headless --demo --record DIR``: the battle demo through
    the command line (its screens, the calculators' among them), every string legible (the
    frames themselves are tests/ui/kensei/test_ui_kensei_demo.py's)."""
    from companion.cli import main
    from ui.shell import legibility as lg

    record = tmp_path / "rec"
    assert main(["run", "--game", "kensei", "--headless", "--demo", "--seed", "3",
                 "--record", str(record), "--no-pictures",
                 "--db", str(tmp_path / "demo.sqlite")]) == 0
    screens = {line.split('"screen": "')[1].split('"')[0]
               for line in (record / "text.jsonl").read_text("utf-8").splitlines()}
    assert {"start", "kensei-lists", "kensei-melee", "kensei-ruling",
            "kensei-score"} <= screens  # the battle demo (ui.kensei.demo)
    assert not lg.check_run(record)


def test_the_game_choice_opens_kensei_and_change_game_comes_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion run`` with three games: Kensei tapped on the choice opens its home screen,
    whose "Change game" goes back to the choice."""
    from companion.cli import main
    from ui.shell.app import App

    script: list[str | None] = ["Kensei", "Change game", None]
    seen: list[str] = []
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def run(app: App) -> None:
        app.pump()
        app.draw()
        seen.append(app.painter.screen)
        label = script.pop(0)
        if label is None:
            app.running = False
            return
        assert app.tap(label), f"no {label!r} on {seen[-1]}"

    monkeypatch.setattr(App, "run", run)
    assert main(["run", "--headless", "--hubs", "sim",
                 "--db", str(tmp_path / "games.sqlite")]) == 0
    assert seen == ["choose-game", "start", "choose-game"]


def _keys(model: type[BaseModel], prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every key of a strict input model, nested models walked; a leader is one control (his
    class, or none) and then his own keys."""
    found: set[tuple[str, ...]] = set()
    for name, info in model.model_fields.items():
        key = (*prefix, info.alias or name)
        args = get_args(info.annotation) or (info.annotation,)
        inner = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)),
                     None)
        if inner is None:
            found.add(key)
        elif key[-1] == "leader":
            found |= {key} | {k for k in _keys(inner, key) if k[-1] != "class"}
        else:
            found |= _keys(inner, key)
    return found


@pytest.mark.parametrize(("form", "model"), [(MeleeForm, MeleeInput), (ShootForm, ShootInput),
                                             (DuelForm, DuelInput)])
def test_every_key_of_the_calculators_input_has_a_control(
        form: Callable[[], CalcForm], model: type[BaseModel]) -> None:
    """Nothing the CLI reads is out of the players' reach on the screen (issue 20, item 3)."""
    paths = {f.path for page in form().pages for f in page.fields}
    missing = _keys(model) - paths
    assert not missing, sorted(missing)
