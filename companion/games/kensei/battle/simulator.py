"""Seeded self-play: random legal battles between the two example armies, to the end (turn 5,
a rout or a concession), with the invariants checked after every command."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from pydantic import TypeAdapter

from companion.core.events import Command, Event
from companion.core.game import Game, Rejection, replay
from companion.core.rules import RuleViolation
from companion.games.kensei.battle import deck, pregame, upkeep
from companion.games.kensei.battle.commands import (
    Activate,
    Begin,
    ChooseSide,
    CommandDuel,
    CommanderActivation,
    Concede,
    Deploy,
    DrawCards,
    EndActivation,
    EndTurn,
    EnterReserve,
    HoldBack,
    InitiativeRoll,
    Melee,
    Offering,
    Order,
    OrderKind,
    OrderRoll,
    Regeneration,
    RetreatHonour,
    ScenarioRoll,
    SceneryRoll,
    Score,
    SecondaryMission,
    Shoot,
    Side,
    Situation,
    StrategyRoll,
)
from companion.games.kensei.battle.events import KenseiEvent
from companion.games.kensei.battle.examples import buke, kuge, kuroi_te
from companion.games.kensei.battle.invariants import violations
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import SIDES, State, Troop, other
from companion.games.kensei.battle.troops import eligible, profile
from companion.games.kensei.battle.turn import extra_due

MAX_COMMANDS = 3_000
EVENT_LOG: TypeAdapter[list[KenseiEvent]] = TypeAdapter(list[KenseiEvent])
KenseiGame = Game[State, Any, Any]


class Outcome(Enum):
    A = "a"
    B = "b"
    DRAW = "draw"


@dataclass
class BattleReport:
    seed: int
    winner: Outcome | None = None
    end: str | None = None
    turns: int = 0
    commands: int = 0
    combats: int = 0
    rejections: list[str] = field(default_factory=list)
    invariant_violations: list[str] = field(default_factory=list)
    error: str | None = None
    events: list[Event] = field(default_factory=list, repr=False)

    @property
    def completed(self) -> bool:
        return self.winner is not None and self.error is None


def d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


class RandomCommanders:
    """Both players at once: a legal command for whatever the battle waits for."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.queue: list[Command] = []

    def command(self, state: State) -> Command:
        if self.queue:
            return self.queue.pop(0)
        rng, phase = self.rng, state.phase
        if phase == "setup":
            return Begin(armies={"a": kuge(), "b": rng.choice([buke(), kuroi_te()])},
                         scenario=rng.choice([None, 1]))
        if phase == "scenario":
            return ScenarioRoll(die=d6(rng))
        if phase == "strategy":
            return StrategyRoll(dice={"a": d6(rng), "b": d6(rng)})
        if phase == "side":
            assert state.strategy_winner is not None
            return ChooseSide(side=state.strategy_winner,
                              role=rng.choice(["attacker", "defender"]))
        if phase == "scenery":
            return SceneryRoll(die=d6(rng))
        if phase == "secondary":
            side = next(s for s in SIDES if s not in state.secondary)
            return SecondaryMission(side=side, die=d6(rng))
        if phase == "deployment":
            due = pregame.deployer(state)
            assert due is not None
            troop = rng.choice(pregame.waiting(state, due)).id
            if (state.army(due).list.clan in pregame.HOLDERS and rng.random() < 0.4
                    and not any(t.held_back for t in state.side_troops(due))
                    and pregame.hold_back_refusal(state, state.troops[troop]) is None):
                return HoldBack(side=due, troop=troop)
            return Deploy(side=due, troop=troop)
        if phase == "maintenance":
            return self._maintenance(state)
        if phase == "initiative":
            return InitiativeRoll(dice={"a": d6(rng), "b": d6(rng)})
        if phase == "activation":
            return self._activation(state)
        return Score(inputs=_score_inputs(state, rng))

    def _maintenance(self, state: State) -> Command:
        for side in SIDES:
            if side not in state.drawn:
                army = state.army(side).list
                need = deck.hand_size(army.size) + deck.extra_draws(army.commander_level)
                cards = list(deck.deal(state.command_decks, side, need, self.rng))
                under = cards[deck.hand_size(army.size):]
                return DrawCards(side=side, cards=cards, under=under)
        troop = next((t for t in state.troops.values() if t.alive and t.retreat), None)
        if troop is not None:
            return RetreatHonour(troop=troop.id, dice=[d6(self.rng)],
                                 in_melee=self.rng.random() < 0.2)
        for tid in upkeep.entry_due(state):   # B12: a Hattori unit enters at turn 2
            return EnterReserve(side=state.troops[tid].side, troop=tid, edge="own")
        unit = state.troops[upkeep.regeneration_due(state)[0]]   # B9.3
        leader = state.regeneration[unit.id] is not None and unit.leader is None
        return Regeneration(troop=unit.id, die=d6(self.rng),
                            leader=leader and unit.models >= unit.models_start)

    def _activation(self, state: State) -> Command:
        rng, act = self.rng, state.activation
        if act is None:
            return self._between_pairs(state)
        if act.solo is None:
            for side in SIDES:
                if side not in act.troops:
                    return Activate(side=side, troop=self._pick(state, side))
        for side in SIDES:
            if side in act.troops and side not in act.orders:
                return OrderRoll(side=side, die=d6(rng))
        holder = state.initiative
        if holder is not None and rng.random() < 0.05:
            side = other(holder)   # the player without the initiative declares first
            decks = state.command_decks
            roll = f"turn {state.turn} order roll {len(state.activated)}"
            made = any(o.side == side and o.roll == roll for o in decks.offerings)
            if decks.side(side).hand and decks.duel is None and not made:
                return Offering(side=side, card=rng.choice(decks.side(side).hand),
                                kind=rng.choice(["reroll", "add"]), on=roll)
        for side in rng.sample(SIDES, 2):
            if act.left.get(side, 0) > 0 and side in act.troops:
                found = self._orders(state, side)
                if found:
                    return found
        return EndActivation()

    def _pick(self, state: State, side: Side) -> str:
        return self.rng.choice([t for t in state.side_troops(side) if eligible(state, t)]).id

    def _between_pairs(self, state: State) -> Command:
        rng = self.rng
        has = {s: any(eligible(state, t) for t in state.side_troops(s)) for s in SIDES}
        holder = state.initiative
        assert holder is not None
        if rng.random() < 0.002:
            return Concede(side=rng.choice(SIDES))
        if has["a"] and has["b"]:
            caller = other(holder)
            decks = state.command_decks
            hands = {s: list(decks.side(s).hand) for s in SIDES}
            if decks.duel is not None:
                return CommandDuel(side=holder, cards=hands[holder][:1])
            if (not decks.duel_fought and hands[caller]
                    and hands[holder] and rng.random() < 0.15):
                return CommandDuel(side=caller, cards=rng.sample(hands[caller], 1))
            first = rng.choice(SIDES)
            return Activate(side=first, troop=self._pick(state, first))
        due = extra_due(state)
        if due is not None and rng.random() < 0.8:
            return Activate(side=due, troop=self._pick(state, due))
        for side in SIDES:
            if (has[side] and state.extra != side and state.command_decks.side(side).hand
                    and rng.random() < 0.3):
                return CommanderActivation(side=side)
            if state.extra == side and has[side]:
                return Activate(side=side, troop=self._pick(state, side))
        return EndTurn()

    def _orders(self, state: State, side: Side) -> Command | None:
        """A random order for the side's active troop; a charge or a shot brings its combat
        (and the charged troop's reaction) in the queue."""
        rng, act = self.rng, state.activation
        assert act is not None
        troop = state.troops[act.troops[side]]
        prof = profile(state, troop)
        if not troop.alive or troop.used:
            return None
        enemies = [t for t in state.side_troops(other(side)) if t.alive and t.deployed
                   and t.inside is None]
        done_combat = act.combat_order.get(side, False)
        left = act.left.get(side, 0)
        menu: list[OrderKind] = ["move", "move", "interact"]
        if enemies and not done_combat and prof.weapon is not None:
            menu += ["charge", "charge", "charge"]
        if prof.ranged and enemies and not done_combat and not troop.unloaded:
            menu += ["shoot", "shoot", "shoot"]
        if troop.unloaded:
            menu.append("reload")
        if not troop.parapeted and not prof.mounted:
            menu.append("take_cover")
        if left >= 2 and troop.stunned == 0 and prof.trait not in ("undead",):
            menu.append("run")
        kind = rng.choice(menu)
        if kind in ("charge", "shoot"):
            target = rng.choice(enemies)
            self._combat(state, side, troop, target, kind)
            return Order(side=side, troop=troop.id, order=kind, target=target.id)
        return Order(side=side, troop=troop.id, order=kind)

    def _combat(self, state: State, side: Side, troop: Troop, target: Troop,
                kind: str) -> None:
        rng = self.rng
        if kind == "shoot":
            self.queue.append(Shoot(input={
                "shooter": {"troop": troop.id, "distance_cm": rng.choice([10, 30, 50, 70]),
                            "models_with_los": rng.randint(0, troop.models)},
                "target": {"troop": target.id, "visible": rng.randint(1, target.models),
                           "in_cover": rng.random() < 0.3}}))
            return
        act = state.activation
        assert act is not None
        if not target.used and rng.random() < 0.5:
            self.queue.append(Order(side=target.side, troop=target.id, order="fight_reaction",
                                    target=troop.id, situation=Situation(charged=True)))
        sides = {side: (troop, "charge"), target.side: (target, "fight_reaction")}
        self.queue.append(Melee(input={s: {"troop": t.id, "order": o,
                                           "models_in_melee": rng.randint(0, t.models),
                                           "charge_outside_zoc": rng.random() < 0.7}
                                       for s, (t, o) in sides.items()}))


def _score_inputs(state: State, rng: random.Random) -> dict[str, Any]:
    secondary = {s: {"leaders_in_enemy_zone": rng.randint(0, 1), "in_enemy_zone": 0,
                     "zone_clear": False, "enemy_in_half": True} for s in SIDES}
    primary = {"houses": 5, "burning": rng.randint(0, 5)} if state.scenario == 6 else {}
    return {"primary": primary, "secondary": secondary}


def settle(rules: KenseiRules, state: State, cmd: Command, roll: Callable[[], int],
           tries: int = 12) -> Command | Rejection:
    """A melee or a shot with the dice (and the choices) the calculator asks for, each die
    from ``roll``: what the app does when the players ask it to roll (B18)."""
    for _ in range(tries):
        try:
            rules.handle(state, cmd)
            return cmd
        except RuleViolation as exc:
            fixed = _fix(cmd, exc.message, roll)
            if fixed is None:
                return Rejection(exc.rule, exc.message)
            cmd = fixed
    return Rejection("B7", "the dice never settled")


def _fix(cmd: Command, message: str, roll: Callable[[], int]) -> Command | None:
    if not isinstance(cmd, Melee | Shoot):
        return None
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in cmd.input.items()}
    path = message.split(":")[0].split(".")
    where = data if path[0] == "dice" else data.get(path[0])
    if not isinstance(where, dict):
        return None
    count = re.search(r"rolls (\d+)|(\d+) hits?\b", message)
    if "dice" in path:
        dice = dict(where.get("dice", {}))
        kind = path[path.index("dice") + 1] if len(path) > path.index("dice") + 1 else ""
        if count:
            dice[kind] = [roll() for _ in range(int(count.group(1) or count.group(2)))]
        elif "give its die" in message:
            dice[kind] = [roll()]
        elif "no honour roll" in message or "nothing to re-roll" in message:
            dice[kind] = []
        else:
            return None
        where["dice"] = dice
    elif path[-1] == "samurai_choice":
        where["samurai_choice"] = "stay" if roll() % 2 else "fall_back"
    elif path[-1] == "ranks_after":
        bases = re.search(r"of the (\d+) bases?", message)
        if bases is None:
            return None
        n = int(bases.group(1))
        where["ranks_after"] = [n] if n < 6 else [n - n // 2, n // 2]
    else:
        return None
    if path[0] != "dice":
        data[path[0]] = where
    return type(cmd)(input=data)


def play_battle(seed: int, *, check: bool = True,
                rules: KenseiRules | None = None) -> BattleReport:
    """One whole battle; never raises (errors are reported)."""
    rules = rules or KenseiRules()
    rng = random.Random(seed)
    players = RandomCommanders(rng)
    game: KenseiGame = Game(rules)
    report = BattleReport(seed=seed)
    try:
        while game.state.phase != "over" and report.commands < MAX_COMMANDS:
            command = players.command(game.state)
            if isinstance(command, Melee | Shoot):
                ready = settle(rules, game.state, command, lambda: d6(rng))
                if isinstance(ready, Rejection):
                    continue  # a combat the random players cannot settle is not fought
                command = ready
                report.combats += 1
            result = game.submit(command)
            report.commands += 1
            if isinstance(result, Rejection):
                if isinstance(command, Order):
                    players.queue.clear()
                    continue  # a random order the situation refuses: try another
                report.rejections.append(f"{command.type}: {result}")
                raise RuntimeError(f"a generated command was rejected: {result}: {command}")
            if check:
                report.invariant_violations += [
                    f"after {command.type}: {v}" for v in violations(game.state)]
        if game.state.phase != "over":
            raise RuntimeError("the battle did not finish")
        if check:
            logged = EVENT_LOG.validate_json(EVENT_LOG.dump_json(list(game.events)))
            if replay(rules, logged) != game.state:
                report.invariant_violations.append("replaying the JSON log gives another state")
        report.events = list(game.events)
        report.winner = Outcome(game.state.winner or "draw")
        report.end = game.state.end_reason
        report.turns = game.state.turn
    except Exception as exc:  # self-play reports every failure instead of stopping
        report.error = f"{type(exc).__name__}: {exc}"
    return report


def events_of(seed: int, rules: KenseiRules | None = None) -> list[Event]:
    """The events of one seeded battle (tests, demos)."""
    return play_battle(seed, check=False, rules=rules).events
