"""The end of the battle on the touchscreen (B15): the table's inputs for scenarios 2 to 6 and the
secondary missions that need them (scenario 1 is scored from the battle alone), the score line
by line, the winner, the secondary missions revealed, and the record's seal."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from companion.games.kensei.battle.commands import Concede, Side
from companion.games.kensei.battle.commands import Score as ScoreBattle
from ui.kensei import battle_words as bw
from ui.kensei.battle_page import Button, Line, Page
from ui.shell import theme as th

if TYPE_CHECKING:
    from ui.kensei.battle import BattleFlow


@dataclass(frozen=True)
class Ask:
    """One thing the table is asked at the end: a count from ``low`` to ``high``, or yes/no."""

    path: tuple[str, ...]
    label: str
    low: int = 0
    high: int = 0
    flag: bool = False
    choices: tuple[Any, ...] = ()


def _per_side(scenario: int, names: dict[str, str]) -> list[Ask]:
    asks: list[Ask] = []
    for s in ("a", "b"):
        n = names[s]
        if scenario == 2:
            asks += [Ask(("primary", s, "strips"), f"{n}: strips controlled", 0, 4),
                     Ask(("primary", s, "clear"), f"{n}: of them with no enemy unit of 3+",
                         0, 4),
                     Ask(("primary", s, "deep"), f"{n}: 3 models in an enemy strip",
                         flag=True)]
        elif scenario == 3:
            asks += [Ask(("primary", s, "enemy_flags"), f"{n}: enemy flags taken", 0, 6),
                     Ask(("primary", s, "own_kept"), f"{n}: own flags kept", 0, 6)]
        elif scenario == 5:
            asks += [Ask(("primary", s, "small"), f"{n}: small elements held", 0, 4),
                     Ask(("primary", s, "centre"), f"{n}: holds the centre", flag=True),
                     Ask(("primary", s, "near_all"), f"{n}: a unit near every element",
                         flag=True)]
    if scenario == 4:
        asks += [Ask(("primary", "destroyed"), "Wagons destroyed", 0, 3),
                 Ask(("primary", "exited"), "Wagons that left the far side", 0, 3),
                 Ask(("primary", "intact"), "Intact wagons on the table", 0, 3)]
    if scenario == 6:
        asks += [Ask(("primary", "houses"), "Objective houses", 5, 12),
                 Ask(("primary", "burning"), "Houses burning", 0, 12),
                 Ask(("primary", "village"), "The village is held by", choices=(
                     None, "a", "b"))]
    return asks


def _secondary(die: int | None, side: str, names: dict[str, str]) -> list[Ask]:
    """The table's count for a secondary mission, revealed now the battle is over (B15)."""
    n = f"{names[side]}, {bw.MISSIONS[die][0]}" if die in bw.MISSIONS else names[side]
    if die == 2:
        return [Ask(("secondary", side, "leaders_in_enemy_zone"),
                    f"{n}: own leaders in the enemy zone", 0, 10)]
    if die == 3:
        return [Ask(("secondary", side, "in_enemy_zone"),
                    f"{n}: leaders and units of 3+ in the enemy zone", 0, 10),
                Ask(("secondary", side, "zone_clear"), f"{n}: own zone clear of enemies",
                    flag=True)]
    if die == 4:
        return [Ask(("secondary", side, "enemy_in_half"), f"{n}: an enemy model in own half",
                    flag=True)]
    return []


def _get(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = data
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _put(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = data
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value


class Score:
    def __init__(self, flow: BattleFlow) -> None:
        self.flow = flow
        self.inputs: dict[str, Any] = {}

    def asks(self) -> list[Ask]:
        f = self.flow
        view = f.snap.view
        names = f.control.names
        asks = _per_side(int(view["scenario"] or 1), names)
        for side in ("a", "b"):
            asks += _secondary(view["secondary"].get(side), side, names)
        return asks

    def page(self, phase: str) -> Page:
        if phase == "scoring":
            return self.inputs_page()
        return self.final_page()

    def _value(self, ask: Ask) -> Any:
        now = _get(self.inputs, ask.path)
        if now is None:
            return False if ask.flag else (ask.choices[0] if ask.choices else ask.low)
        return now

    def _label(self, ask: Ask) -> str:
        value = self._value(ask)
        if ask.flag:
            shown = "yes" if value else "no"
        elif ask.choices:
            shown = self.flow.name(value) if value else "nobody"
        else:
            shown = str(value)
        return f"{ask.label}: {shown}"

    def _next(self, ask: Ask) -> None:
        value = self._value(ask)
        if ask.flag:
            value = not value
        elif ask.choices:
            value = ask.choices[(ask.choices.index(value) + 1) % len(ask.choices)]
        else:
            value = ask.low if value >= ask.high else value + 1
        _put(self.inputs, ask.path, value)

    def inputs_page(self) -> Page:
        f = self.flow
        view = f.snap.view
        asks = self.asks()
        for ask in asks:  # every answer given, defaults included
            _put(self.inputs, ask.path, self._value(ask))
        buttons = [Button(self._label(a), partial(self._next, a)) for a in asks]
        lines = [Line(f"The battle is over: {self._why(view)}", "B15", bold=True),
                 Line("Tap each line until it says what the table shows (model by model, "
                      "fully inside).", "B15", th.DIM),
                 *(f.feed_lines(1) if f.control.feed[-1:] and
                   f.control.feed[-1].kind == "refused" else [])]
        return Page("kensei-score", f"Scenario {view['scenario']}: "
                    f"{bw.SCENARIOS[int(view['scenario'] or 1)]}, the table's count", lines,
                    buttons, [Button("Score the battle", partial(
                        f.submit, ScoreBattle(inputs=self.inputs)), th.ACCEPT)],
                    columns=1 if len(buttons) <= 4 else 2, line_size="small")

    def _why(self, view: dict[str, Any]) -> str:
        f = self.flow
        if view["routed"]:
            return f"{f.name(view['routed'])} is routed (75 % of its points lost)"
        if view["conceded"]:
            return f"{f.name(view['conceded'])} concedes"
        return "five turns have been played"

    def final_page(self) -> Page:
        f = self.flow
        view = f.snap.view
        scored = next((e for e in reversed(f.control.events) if e.type == "battle_scored"),
                      None)
        lines = [Line(f"The battle is over: {self._why(view)}.", "B15")]
        for side in ("a", "b"):
            die = view["secondary"].get(side)
            vp = view["vp"].get(side, 0)
            lines.append(Line(f"{f.name(side)}: {bw.plural(vp, 'victory point')}", "B15",
                              bold=True))
            if scored is not None:
                for line in scored.lines[side]:  # type: ignore[attr-defined]
                    what = bw.SCORE_LINES.get(line.id, "the secondary mission")
                    detail = f" ({line.detail})" if line.id == "more_points" else ""
                    lines.append(Line(f"+{line.vp} for {what}{detail}", line.rule, th.DIM))
            if die:
                name, what = bw.MISSIONS[die]
                lines.append(Line(f"Secondary mission: {name} ({what})", "B15", th.DIM))
        winner = view["winner"]
        title = f"{f.name(winner)} wins" if winner else "A draw"
        seal = self.seal()
        if seal:
            lines.append(Line(seal, colour=th.GOLD))
        back = f.kensei.show_start if f.kensei is not None else None
        return Page("kensei-score", title, lines, [], line_size="small", bar=
                    [Button("Troops", partial(f.open, f.turn.roster_page)),
                     Button("Home", back, th.ACCEPT)])

    def seal(self) -> str | None:
        app = self.flow.kensei
        sealer = getattr(app, "battle_seal", None)
        return sealer() if callable(sealer) else None

    def concede_page(self) -> Page:
        f = self.flow
        return Page("kensei-battle", "Concede the battle?", [Line(
            "The side that concedes loses the battle.", "B15", th.DIM)],
            [Button(f"{f.name(s)} concedes", partial(self._concede, s), th.WARN)
             for s in ("a", "b")], [Button("Back", f.back, th.ACCEPT)], columns=1)

    def _concede(self, side: Side) -> None:
        self.flow.back()
        self.flow.submit(Concede(side=side))
