"""A shot (COMBATE A DISTANCIA, B6): shooting roll, wound roll, casualties and honour (B7).

Only the shooter rolls. A failed wound die does nothing ("tampoco se suman marcadores de
unidad aturdida"); wounds beyond the visible models are lost (reading 19).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.dice import (
    ModItem,
    PoolItem,
    dice_to_roll,
    hits_and_dice,
    mod_item,
    pool_item,
    successes,
    target,
)
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.honour import HonourRuling, roll_honour, standing
from companion.games.kensei.inputs import ShootInput, Target, attack
from companion.games.kensei.melee_resolution import WOUND_RULE, WoundRoll
from companion.games.kensei.rules import Reach, ShootHitId, ShootPoolId, ShootWoundId, rules


class ShotTaken(BaseModel):
    model_config = ConfigDict(frozen=True)

    to_leader: int
    unit_wounds: int
    casualties: int
    lost_wounds: int
    wound_markers_after: int
    leader_wounds_after: int | None
    leader_killed: bool


class OutOfRange(BaseModel):
    """"El disparo se realiza pero no se hace ninguna tirada y no produce ningún efecto"."""

    model_config = ConfigDict(frozen=True)

    band: Reach
    out_of_range: bool = True


class ShotRuling(BaseModel):
    model_config = ConfigDict(frozen=True)

    band: Reach
    out_of_range: bool
    pool: int
    pool_items: list[PoolItem]
    zero_pool: bool
    hit_target: int
    hit_items: list[ModItem]
    hits: int
    fumbles: int
    criticals: int
    wound_target: int
    wound_items: list[ModItem]
    wounds: int
    wound_criticals: int
    taken: ShotTaken
    honour_trigger: str | None
    honour: HonourRuling | None
    unloaded_after: bool


def band(distance_cm: float) -> Reach:
    """DISTANCIA DE DISPARO: short to 20 cm, medium to 40, long beyond."""
    edges = rules().ranges
    return "short" if distance_cm <= edges["short"] else (
        "medium" if distance_cm <= edges["medium"] else "long")


def in_range(inp: ShootInput) -> bool:
    reach = rules().ranged_weapons[inp.shooter.weapon].reach
    return inp.shooter.distance_cm <= rules().ranges[reach]


def pool_items(inp: ShootInput) -> list[PoolItem]:
    """Tirada de Disparo."""
    sh, t = inp.shooter, rules().shoot_pool
    reach, at = rules().ranged_weapons[sh.weapon].reach, band(sh.distance_cm)
    on: list[tuple[ShootPoolId, int]] = [("base_at", attack(sh.klass, sh.at, ranged=True))]
    if not sh.single:
        on.append(("models", t.amount("models") * sh.models_with_los))
    if sh.leader is not None and sh.leader.los:
        on.append(("leader", attack(sh.leader.klass, sh.leader.at, ranged=True)))
    flags: list[tuple[ShootPoolId, bool]] = [
        ("short_weapon", reach == "short"), ("potenciar", sh.potenciar),
        ("out_of_formation", sh.out_of_formation),
        ("medium_at_medium", reach == "medium" and at == "medium"),
        ("long_at_short_or_long", reach == "long" and at != "medium"),  # literal (reading 2)
        ("parapeted", sh.parapeted)]
    on += [(k, t.amount(k)) for k, flag in flags if flag]
    return [pool_item(k, t[k], n) for k, n in on]


def hit_items(inp: ShootInput) -> list[ModItem]:
    """Modificadores a la Tirada de Disparo."""
    tg, t = inp.target, rules().shoot_hit
    gunpowder = rules().ranged_weapons[inp.shooter.weapon].gunpowder
    flags: list[tuple[ShootHitId, bool]] = [
        ("target_cover", tg.in_cover or tg.parapeted), ("single_target", tg.solo),
        ("target_ran", tg.ran),
        ("gunpowder_long", gunpowder and band(inp.shooter.distance_cm) == "long")]
    return [mod_item(k, t[k], t.amount(k)) for k, flag in flags if flag]


def wound_items(inp: ShootInput) -> list[ModItem]:
    """Modificadores a la Tirada de Heridas: gunpowder ignores Samurai armour."""
    tg, t = inp.target, rules().shoot_wound
    gunpowder = rules().ranged_weapons[inp.shooter.weapon].gunpowder
    flags: list[tuple[ShootWoundId, bool]] = [
        ("armour", tg.armour and not gunpowder), ("mounted", tg.mounted),
        ("gunpowder", gunpowder)]
    return [mod_item(k, t[k], t.amount(k)) for k, flag in flags if flag]


def casualties(tg: Target, roll: WoundRoll, to_leader: int) -> ShotTaken:
    """RETIRADA DE BAJAS: only visible models fall; extra wounds are lost (reading 19)."""
    unit_wounds = roll.wounds - to_leader
    hr = tg.hr_value
    total = tg.wound_markers + unit_wounds
    fallen = min(total // hr, tg.visible)
    lost = max(0, total - tg.visible * hr)
    leader_wounds = None if tg.leader is None else tg.leader.wounds + to_leader
    killed = tg.leader is not None and leader_wounds is not None and (
        leader_wounds >= tg.leader.hr_value)
    return ShotTaken(to_leader=to_leader, unit_wounds=unit_wounds, casualties=fallen,
                     lost_wounds=lost, wound_markers_after=total - lost - fallen * hr,
                     leader_wounds_after=leader_wounds, leader_killed=killed)


def _trigger(tg: Target, taken: ShotTaken) -> str | None:
    """TIRADA DE HONOR: half the models fell to the shot (the leader not counted, reading 18),
    or a single troop took a wound and lives."""
    if not tg.solo and 2 * taken.casualties >= tg.models:
        return "half_models"
    if tg.solo and taken.unit_wounds >= 1 and taken.casualties == 0:
        return "single_wounded"
    return None


def shoot(inp: ShootInput) -> ShotRuling | OutOfRange:
    """The shot of ``inp``, which must have passed ``check_shoot``."""
    where = band(inp.shooter.distance_cm)
    if not in_range(inp):
        return OutOfRange(band=where)
    items, hit_mods, wound_mods = pool_items(inp), hit_items(inp), wound_items(inp)
    pool = sum(i.dice for i in items)
    dice = inp.dice
    if len(dice.shoot) != dice_to_roll(pool):
        raise KenseiError(f"dice.shoot: a pool of {pool} rolls {dice_to_roll(pool)} dice, "
                          f"{len(dice.shoot)} given", "Tirada de Disparo")
    hit_target = target(rules().success_target, hit_mods)
    hits = successes(dice.shoot, hit_target, zero_pool=pool <= 0)
    if len(dice.wound) != hits:
        raise KenseiError(f"dice.wound: roll one die per hit: "
                          f"{hits_and_dice(hits, len(dice.wound))}", WOUND_RULE)
    roll = WoundRoll.of(dice.wound, target(rules().success_target, wound_mods))
    roll.check_to_leader("crits_to_leader", inp.crits_to_leader, inp.target.leader)
    taken = casualties(inp.target, roll, inp.crits_to_leader)
    trigger = _trigger(inp.target, taken)
    tg = inp.target
    now = standing(tg, tg.models - taken.casualties, taken.leader_killed,
                   taken.wound_markers_after, "target.", "dice.honour") if trigger else None
    if now is None and dice.honour:
        raise KenseiError("dice.honour: no honour roll is due", "TIRADA DE HONOR")
    return ShotRuling(
        band=where, out_of_range=False, pool=pool, pool_items=items, zero_pool=pool <= 0,
        hit_target=hit_target, hit_items=hit_mods, hits=hits, fumbles=dice.shoot.count(1),
        criticals=dice.shoot.count(6), wound_target=roll.target, wound_items=wound_mods,
        wounds=roll.wounds, wound_criticals=roll.criticals, taken=taken, honour_trigger=trigger,
        honour=None if now is None else roll_honour(now, dice.honour),
        unloaded_after=rules().ranged_weapons[inp.shooter.weapon].gunpowder)
