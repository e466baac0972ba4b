"""The pre-game sequence on the touchscreen (B1.3): the two lists and the scenario, the strategy
roll, side and role, the scenery count, each player's secret secondary mission (a private
step), and deployment in alternation, units first, with troops held back in the reserve tray."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from companion.games.kensei.battle.commands import (
    Begin,
    ChooseSide,
    Deploy,
    HoldBack,
    ScenarioRoll,
    SceneryRoll,
    SecondaryMission,
    Side,
    StrategyRoll,
)
from ui.kensei import battle_words as bw
from ui.kensei.battle_page import Button, Line, Page
from ui.kensei.control import army_of
from ui.kensei.lists import ListChoice, choices
from ui.shell import theme as th

if TYPE_CHECKING:
    from ui.kensei.battle import BattleFlow, Pad

SIDE_WORD = {"a": "First player", "b": "Second player"}


class Pregame:
    def __init__(self, flow: BattleFlow) -> None:
        self.flow = flow
        self.options: list[ListChoice] | None = None
        self.chosen: dict[Side, ListChoice] = {}
        self.scenario: int | None = 1
        """The scenario agreed; None: rolled once the battle begins (B15)."""

    # ------------------------------------------------------------------ lists

    def _options(self) -> list[ListChoice]:
        if self.options is None:
            self.options = choices(self.flow.lists_dir)
        return self.options

    def lists_page(self) -> Page:
        f = self.flow
        lines: list[Line] = []
        for side in ("a", "b"):
            c = self.chosen.get(side)
            if c is None:
                lines.append(Line(f"{SIDE_WORD[side]}: no list yet", colour=th.DIM))
                continue
            lines.append(Line(f"{SIDE_WORD[side]}: {c.describe()}", bold=True))
            for r in c.refusals()[:2]:
                lines.append(Line(f"Refused: {r.message} ({r.rule})", r.rule, th.WARN))
        sizes = {c.army.size for c in self.chosen.values() if c.army is not None}
        if len(sizes) > 1:
            lines.append(Line("Both lists must be for the same battle size.", "B1.2", th.WARN))
        elif sizes:
            lines.append(Line(f"Battle size: {sizes.pop()} points.", "B1.2", th.DIM))
        scenario = (f"Scenario {self.scenario}: {bw.SCENARIOS[self.scenario]}"
                    if self.scenario else "Scenario: rolled at the start")
        lines += f.feed_lines(1) if f.control.feed else []
        buttons = [Button(f"{SIDE_WORD[s]}'s list", partial(f.open, partial(self.pick, s)))
                   for s in ("a", "b")]
        buttons.append(Button(scenario, partial(f.open, self.scenario_page)))
        buttons.append(Button("Begin the battle", self.begin if self.ready() else None,
                              th.ACCEPT))
        back = f.kensei.show_start if f.kensei is not None else None
        return Page("kensei-lists", "A new battle: the two lists", lines, buttons,
                    [Button("Back", back)], columns=2)

    def ready(self) -> bool:
        picked = [self.chosen.get(s) for s in ("a", "b")]
        return all(c is not None and c.army is not None and not c.refusals() for c in picked)

    def pick(self, side: Side) -> Page:
        f = self.flow
        buttons = [Button(c.describe(), partial(self._choose, side, c)
                          if c.army is not None else None) for c in self._options()]
        return Page("kensei-lists", f"{SIDE_WORD[side]}: choose a list", [Line(
            "Your own lists are read from the data folder (kensei/lists).", colour=th.DIM)],
            buttons, [Button("Back", f.back)], columns=1)

    def _choose(self, side: Side, choice: ListChoice) -> None:
        self.chosen[side] = choice
        self.flow.back()

    def scenario_page(self) -> Page:
        f = self.flow
        buttons = [Button(f"{n}: {name}", partial(self._scenario, n), selected=self.scenario == n)
                   for n, name in bw.SCENARIOS.items()]
        buttons.append(Button("Roll for it (1D6)", partial(self._scenario, None),
                              selected=self.scenario is None))
        return Page("kensei-lists", "The scenario: agree on one, or roll", [Line(
            "Scenario 1 is scored by the app; the others ask the table at the end.", "B15",
            th.DIM)], buttons, [Button("Back", f.back)], columns=2)

    def _scenario(self, n: int | None) -> None:
        self.scenario = n
        self.flow.back()

    def begin(self) -> None:
        armies = {}
        for side in ("a", "b"):
            c = self.chosen[side]
            assert c.army is not None
            armies[side] = army_of(c.army, c.profiles)
        self.flow.submit(Begin(armies=armies, scenario=self.scenario))

    # ------------------------------------------------------------------ the sequence

    def page(self, phase: str) -> Page:
        f = self.flow
        snap = f.snap
        view = snap.view
        lines = [Line(f"{f.name('a')} against {f.name('b')}", bold=True)]
        if view["scenario"]:
            lines.append(Line(f"Scenario {view['scenario']}: {bw.SCENARIOS[view['scenario']]}",
                              "B15", th.DIM))
        lines += f.feed_lines(2)
        bar = [Button("Concede", partial(f.open, f.score.concede_page))]
        if phase == "scenario":
            return Page("kensei-pregame", "Roll for the scenario", lines, [Button(
                "Roll the scenario die", partial(f.pad, self._pad(
                    "Scenario die", "B15", lambda d: f.submit(ScenarioRoll(die=d[0])))),
                th.ACCEPT)], bar, columns=1)
        if phase == "strategy":
            return Page("kensei-pregame", "The strategy roll", [*lines, Line(
                "Each player rolls 1D6 and adds the commander level; a tie is rolled again.",
                "B1.3 TIRADA DE ESTRATEGIA", th.DIM)], [Button(
                    "Enter the strategy dice", partial(f.both_roll, "Strategy roll",
                                                       "B1.3 TIRADA DE ESTRATEGIA",
                                                       self._strategy), th.ACCEPT)],
                bar, columns=1)
        if phase == "side":
            winner = view["strategy_winner"]
            return Page("kensei-pregame", f"{f.name(winner)} chooses the table side and role",
                        lines, [Button(f"{f.name(winner)} attacks", partial(
                            self._side, winner, "attacker")),
                                Button(f"{f.name(winner)} defends", partial(
                                    self._side, winner, "defender"))], bar, columns=2)
        if phase == "scenery":
            return Page("kensei-pregame", "Scenery", [*lines, Line(
                "Roll 1D6 and add 1: that many generic pieces, and more for a Taisho or a Daimyo.",
                "B1.3 ESCENOGRAFÍA", th.DIM)], [Button("Roll the scenery die", partial(
                    f.pad, self._pad("Scenery die", "B1.3 ESCENOGRAFÍA",
                                     lambda d: f.submit(SceneryRoll(die=d[0])))), th.ACCEPT)],
                bar, columns=1)
        if phase == "secondary":
            return self.secondary_page(lines, bar)
        return self.deploy_page(lines, bar)

    def _pad(self, title: str, rule: str, done: Callable[[list[int]], object]) -> Pad:
        from ui.kensei.battle import Pad

        def entered(dice: list[int]) -> None:
            done(dice)

        return Pad(title, rule, 1, entered)

    def _strategy(self, dice: dict[Side, int]) -> None:
        self.flow.submit(StrategyRoll(dice=dice))

    def _side(self, side: Side, role: str) -> None:
        self.flow.submit(ChooseSide(side=side, role=role))

    # ------------------------------------------------------------------ secret missions

    def secondary_page(self, lines: list[Line], bar: list[Button]) -> Page:
        f = self.flow
        rolled = f.snap.view["secondary"]
        buttons = []
        for side in ("a", "b"):
            if rolled.get(side):
                buttons.append(Button(f"{f.name(side)}: rolled in secret", None))
            else:
                buttons.append(Button(f"{f.name(side)}: roll the secret mission",
                                      partial(self.start_mission, side)))
        return Page("kensei-pregame", "Secondary missions, in secret", [*lines, Line(
            "Each player rolls 1D6 in secret: the scenario of that number gives their "
            "secondary mission.", "B15", th.DIM)], buttons, bar, columns=1)

    def start_mission(self, side: Side) -> None:
        from ui.kensei.battle import Pad

        f = self.flow
        pad = Pad(f"{f.name(side)}: your secret mission die", "B15", 1,
                  partial(self._mission, side), private=True)
        f.private(side, partial(f._pad_page, pad),
                  "The secondary mission is secret until the end of the battle (B15).")

    def _mission(self, side: Side, dice: list[int]) -> None:
        f = self.flow
        if f.submit(SecondaryMission(side=side, die=dice[0])):
            f.open(partial(self.mission_shown, side))

    def mission_shown(self, side: Side) -> Page:
        f = self.flow
        die = f.control.private(side)["secondary_die"]
        name, what = bw.MISSIONS[die]
        return f.hidden_page(f"{f.name(side)}: your secondary mission", [
            Line(f"Your die: {die}", bold=True), Line(name, big=True, colour=th.GOLD),
            Line(what), Line("Remember it; it is revealed at the score.", colour=th.DIM)])

    # ------------------------------------------------------------------ deployment

    def deploy_page(self, lines: list[Line], bar: list[Button]) -> Page:
        f = self.flow
        side = f.control.deployer()
        if side is None:
            return Page("kensei-pregame", "Deployment is over", lines, [], bar)
        buttons = [Button(f"Deploy {name}", partial(f.submit, Deploy(side=side, troop=tid)))
                   for tid, name in f.control.deployable(side)]
        if f.control.holds_back(side):
            buttons.append(Button("Keep a troop in the reserve tray", partial(
                f.private, side, partial(self.hold_page, side),
                "Which troop stays in the reserve tray may be secret (B12).")))
        left = f.snap.view["off_table"]
        return Page("kensei-pregame", f"Deployment: {f.name(side)} places a troop", [
            *lines, Line(f"Still to deploy: {f.name('a')} {left.get('a', 0)}, "
                         f"{f.name('b')} {left.get('b', 0)}. Units first, then single "
                         "troops, in alternation.", "B1.3 DESPLIEGUE", th.DIM)],
            buttons, f.common_bar(*bar), columns=2 if len(buttons) > 3 else 1)

    def hold_page(self, side: Side) -> Page:
        f = self.flow
        buttons = [Button(f"Keep {name} back", partial(self._hold, side, tid))
                   for tid, name in f.control.deployable(side)]
        return Page("kensei-private", f"{f.name(side)}: a troop for the reserve tray", [Line(
            "It enters the table from turn 2.", "B12", th.DIM)], buttons,
            [Button("Back", f.back)], columns=1)

    def _hold(self, side: Side, tid: str) -> None:
        self.flow.back()
        self.flow.submit(HoldBack(side=side, troop=tid))
