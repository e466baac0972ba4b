"""The pre-game sequence (B1.3): lists, scenario, strategy roll, side and role, scenery,
secret secondary missions and deployment in alternation."""

from __future__ import annotations

from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.kensei.battle.commands import (
    Army,
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
from companion.games.kensei.battle.events import (
    BattleBegun,
    ScenarioRolled,
    SceneryRolled,
    SecondaryRolled,
    SideChosen,
    StrategyRolled,
    TroopDeployed,
    TroopHeldBack,
)
from companion.games.kensei.battle.lists import ListCheck
from companion.games.kensei.battle.state import SIDES, State, Troop, other

LISTS = "B1.3 LISTAS DE EJÉRCITO Y ESCENARIO DE BATALLA"
SIZE = "B1.2 TAMAÑO DE LA BATALLA"
LEADER = "B2.7 LÍDER DE UNIDAD"
STRATEGY = "B1.3 TIRADA DE ESTRATEGIA"
DEPLOY = "B1.3 DESPLIEGUE"
PREPARATION = "B1.3 PREPARACIÓN DE LA BATALLA"
MISSIONS = "B15 Misiones"
STRATEGY_BONUS = {"hatamoto": 1, "taisho": 1, "daimyo": 2}
"""TIRADA DE ESTRATEGIA as printed: Hatamoto +1, Taisho +1, Daimyo +2 (B1.3; B19.2 notes
Hatamoto is probably meant to be +0)."""
SCENERY_EXTRA = {"hatamoto": 0, "taisho": 1, "daimyo": 2}
"""ESCENOGRAFÍA: extra generic pieces by commander level (B1.3 step 3)."""
HOLDERS = {"kuroi-te": True, "hattori": False}
"""The clans that keep a troop off the table (B12), and whether which one stays SECRET:
Kuroi-te *Desde las profundidades* (hidden), Hattori *Prácticas clandestinas* (known)."""


def _need(state: State, phase: str, what: str) -> None:
    if state.phase != phase:
        raise RuleViolation(PREPARATION, f"{what} is not due now")


def begin(state: State, cmd: Begin, check: ListCheck) -> BattleBegun:
    """B1.3 step 1 (LISTAS DE EJÉRCITO Y ESCENARIO DE BATALLA): two legal lists of one size."""
    _need(state, "setup", "a new battle")
    if set(cmd.armies) != set(SIDES):
        raise RuleViolation(LISTS, "a battle needs two armies")
    a, b = cmd.armies["a"].list, cmd.armies["b"].list
    if a.size != b.size:
        raise RuleViolation(SIZE, f"both lists must be for the same battle size "
                                    f"({a.size} and {b.size} pe)")
    for side in SIDES:
        army = cmd.armies[side]
        _structure(army)
        found = check(army.list, army.profiles)
        if found:
            raise RuleViolation("B14", f"{army.list.name}: {found[0]}")
    return BattleBegun(armies=cmd.armies, scenario=cmd.scenario)


def _structure(army: Army) -> None:
    """What the engine itself relies on: every profile given, leaders join real units."""
    entries = army.list.entries
    for n, entry in enumerate(entries, 1):
        if entry.profile not in army.profiles:
            raise RuleViolation("B14", f"{army.list.name}: entry {n} names a profile the army "
                                       "does not carry")
        if entry.joins is not None:
            if (entry.joins == n or entry.joins > len(entries) or entries[entry.joins - 1].joins
                    or not army.profiles[entry.profile].leader or entry.models != 1):
                raise RuleViolation(LEADER, f"{army.list.name}: entry {n} cannot lead entry "
                                            f"{entry.joins}")
            if sum(e.joins == entry.joins for e in entries) > 1:
                raise RuleViolation(LEADER, f"{army.list.name}: entry {entry.joins} has two "
                                            "leaders")


def troops_of(armies: dict[Side, Army]) -> dict[str, Troop]:
    """The troops of both lists, ids "a1".. in list order."""
    troops: dict[str, Troop] = {}
    for side in SIDES:
        army = armies[side]
        entries = army.list.entries
        for n, entry in enumerate(entries, 1):
            profile = army.profiles[entry.profile]
            led = [m for m, e in enumerate(entries, 1) if e.joins == n]
            troops[f"{side}{n}"] = Troop(
                id=f"{side}{n}", side=side, entry=n, profile=entry.profile,
                models_start=entry.models, models=entry.models,
                points=entry.models * profile.cost, general=entry.general, banner=entry.banner,
                inside=None if entry.joins is None else f"{side}{entry.joins}",
                leader=f"{side}{led[0]}" if led else None)
    return troops


def scenario_roll(state: State, cmd: ScenarioRoll) -> ScenarioRolled:
    """B15: 1D6 on the scenario table when none was agreed."""
    _need(state, "scenario", "a scenario roll")
    return ScenarioRolled(die=cmd.die, scenario=cmd.die)


def strategy_roll(state: State, cmd: StrategyRoll) -> StrategyRolled:
    """TIRADA DE ESTRATEGIA (B1.3 step 2): 1D6 + commander level, ties rolled again."""
    _need(state, "strategy", "a strategy roll")
    if set(cmd.dice) != set(SIDES):
        raise RuleViolation(STRATEGY, "both players roll for strategy at once")
    totals = {s: cmd.dice[s] + STRATEGY_BONUS[state.army(s).list.commander_level]
              for s in SIDES}
    winner: Side | None = None
    if totals["a"] != totals["b"]:
        winner = "a" if totals["a"] > totals["b"] else "b"
    return StrategyRolled(dice=dict(cmd.dice), totals=totals, winner=winner)


def choose_side(state: State, cmd: ChooseSide) -> SideChosen:
    """B1.3 step 2: the strategy winner chooses the table side and the scenario role."""
    _need(state, "side", "choosing a side")
    if cmd.side != state.strategy_winner:
        raise RuleViolation(STRATEGY, "the strategy roll's winner chooses side and role")
    return SideChosen(side=cmd.side, role=cmd.role)


def scenery_roll(state: State, cmd: SceneryRoll) -> SceneryRolled:
    """ESCENOGRAFÍA (B1.3 step 3): 1D6+1 generic pieces, and each level's extras."""
    _need(state, "scenery", "the scenery roll")
    extra = {s: SCENERY_EXTRA[state.army(s).list.commander_level] for s in SIDES}
    return SceneryRolled(die=cmd.die, generic=cmd.die + 1, extra=extra)


def secondary_mission(state: State, cmd: SecondaryMission) -> SecondaryRolled:
    """B1.3 step 4 and B15: the secret 1D6 naming a scenario's secondary mission."""
    _need(state, "secondary", "a secondary-mission roll")
    if cmd.side in state.secondary:
        raise RuleViolation(MISSIONS, "each player rolls the secondary mission once")
    return SecondaryRolled(side=cmd.side, die=cmd.die)


def waiting(state: State, side: Side) -> list[Troop]:
    """The troops ``side`` has yet to deploy, in the stage due now: multi-model units first,
    then solo troops (B1.3 step 5); leaders joining a unit deploy inside it."""
    left = [t for t in state.troops.values()
            if not t.deployed and not t.held_back and t.inside is None]
    units = [t for t in left if t.models_start > 1]
    stage = units if units else left
    return [t for t in stage if t.side == side]


def deployer(state: State) -> Side | None:
    """Whose deployment it is: alternation from the strategy winner; a side with nothing due
    passes (B1.3 step 5)."""
    nxt = state.deploy_next
    if nxt is None:
        return None
    for side in (nxt, other(nxt)):
        if waiting(state, side):
            return side
    return None


def deploy(state: State, cmd: Deploy | HoldBack) -> TroopDeployed | TroopHeldBack:
    """DESPLIEGUE (B1.3 step 5): one troop at a time, in alternation, units first."""
    _need(state, "deployment", "deployment")
    troop = state.troops.get(cmd.troop)
    hidden = isinstance(cmd, HoldBack) and HOLDERS.get(state.army(cmd.side).list.clan, False)
    if troop is None or troop.side != cmd.side:
        raise RuleViolation(DEPLOY, "deploy a troop of your own army")
    if deployer(state) != cmd.side:
        raise RuleViolation(DEPLOY, "troops deploy one at a time, in alternation")
    if troop not in waiting(state, cmd.side):
        why = ("it deploys inside its unit" if troop.inside else
               "it is already placed" if troop.deployed or troop.held_back else
               "multi-model units deploy first")
        if hidden:
            raise HiddenViolation(DEPLOY, "that troop cannot be placed now", why)
        raise RuleViolation(DEPLOY, f"{_name(state, troop)} cannot deploy now: {why}")
    if isinstance(cmd, HoldBack):
        clan = state.army(cmd.side).list.clan
        if clan not in HOLDERS:
            raise RuleViolation("B12", "only the Kuroi-te and the Hattori keep a troop off "
                                       "the table")
        if any(t.held_back for t in state.side_troops(cmd.side)):
            raise RuleViolation("B12", "one troop is kept off the table")
        return TroopHeldBack(side=cmd.side, troop=troop.id, hidden=hidden)
    inside = tuple(t.id for t in state.troops.values() if t.inside == troop.id)
    return TroopDeployed(side=cmd.side, troop=troop.id, troops=(troop.id, *inside))


def _name(state: State, troop: Troop) -> str:
    return state.army(troop.side).profiles[troop.profile].name


def apply(state: State, event: object) -> State | None:
    if isinstance(event, BattleBegun):
        return state.model_copy(update={
            "armies": event.armies, "scenario": event.scenario,
            "phase": "scenario" if event.scenario is None else "strategy",
            "troops": troops_of(event.armies),
            "general_dead": {"a": False, "b": False}})
    if isinstance(event, ScenarioRolled):
        return state.model_copy(update={"scenario": event.scenario, "phase": "strategy"})
    if isinstance(event, StrategyRolled):
        if event.winner is None:
            return state
        return state.model_copy(update={"strategy_winner": event.winner, "phase": "side"})
    if isinstance(event, SideChosen):
        roles = {event.side: event.role,
                 other(event.side): "defender" if event.role == "attacker" else "attacker"}
        return state.model_copy(update={"roles": roles, "phase": "scenery"})
    if isinstance(event, SceneryRolled):
        return state.model_copy(update={
            "scenery": event.generic + sum(event.extra.values()), "phase": "secondary"})
    if isinstance(event, SecondaryRolled):
        secondary = {**state.secondary, event.side: event.die}
        done = set(secondary) == set(SIDES)
        return state.model_copy(update={
            "secondary": secondary, "phase": "deployment" if done else "secondary",
            "deploy_next": state.strategy_winner if done else None})
    if isinstance(event, TroopDeployed | TroopHeldBack):
        troops = dict(state.troops)
        names = event.troops if isinstance(event, TroopDeployed) else (event.troop, *(
            t.id for t in state.troops.values() if t.inside == event.troop))
        for tid in names:
            troops[tid] = troops[tid].model_copy(update=(
                {"deployed": True} if isinstance(event, TroopDeployed) else {"held_back": True}))
        return state.model_copy(update={"troops": troops, "deploy_next": other(event.side)})
    return None


def deployment_over(state: State) -> bool:
    return state.phase == "deployment" and deployer(state) is None
