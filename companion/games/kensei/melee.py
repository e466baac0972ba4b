"""A melee between two troops (COMBATE CUERPO A CUERPO, B5; resolution, B7).

Both sides roll at once: combat roll, wound roll, then the resolution. The pool, the hit and
wound modifiers come from the tables of ``data/rules.yaml``; this module says when each applies.
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
    succeeds,
    target,
)
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.honour import HonourRuling
from companion.games.kensei.inputs import MeleeInput, MeleeSide, attack, two_complete_ranks
from companion.games.kensei.melee_resolution import Taken, WoundRoll, judge, resolve
from companion.games.kensei.rules import MeleeHitId, MeleePoolId, MeleeWoundId, rules


class SideRuling(BaseModel):
    model_config = ConfigDict(frozen=True)

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
    stunned_caused: int
    ignored: int
    taken: Taken
    villager_extra: int
    honour: HonourRuling | None


class MeleeRuling(BaseModel):
    model_config = ConfigDict(frozen=True)

    a: SideRuling
    b: SideRuling
    loser: str | None
    winner: str | None
    combat_initiative: str


def pool_items(me: MeleeSide, foe: MeleeSide) -> list[PoolItem]:
    """The dice of the combat roll (Tirada de combate; TROPAS AISLADAS; HATA-JURUSHI;
    ARMAS DE COMBATE CUERPO A CUERPO)."""
    t = rules().melee_pool
    on: list[tuple[MeleePoolId, int]] = [("base_at", attack(me.klass, me.at))]
    if me.last_model:
        on.append(("last_model", t.amount("last_model")))
    if not me.solo:
        on.append(("models", t.amount("models") * me.models_in_melee))
    if me.leader is not None and me.leader.contact != "none":
        direct = me.leader.contact == "direct"
        on.append(("leader", attack(me.leader.klass, me.leader.at) if direct
                   else t.amount("leader")))
    if not me.skirmishers and two_complete_ranks(me.ranks) and not me.rear_ranks_in_melee:
        on.append(("ranks", t.amount("ranks")))
    if me.potenciar:
        on.append(("potenciar", t.amount("potenciar")))
    charging = me.order == "charge"
    in_formation = me.solo or not me.out_of_formation
    if charging and me.charge_outside_zoc and not me.skirmishers and in_formation:
        mounted = t["charge"].mounted
        on.append(("charge", mounted if me.mounted and mounted is not None
                   else t.amount("charge")))  # reading 1: +2D6 mounted
    if charging and me.banner_in_front and not me.solo:  # a last model drops the banner
        on.append(("banner", t.amount("banner")))
    flags: list[tuple[MeleePoolId, bool]] = [
        ("used", me.used), ("fight_reaction", me.order == "fight_reaction"),
        ("out_of_coherence", me.out_of_coherence),
        ("retreat_or_parapet", me.retreat_marker or me.parapeted)]  # one -2 for either
    on += [(k, t.amount(k)) for k, flag in flags if flag]
    on += [(k, t.amount(k)) for k in _weapon_bonuses(me, foe)]
    return [pool_item(k, t[k], n) for k, n in on]


def _weapon_bonuses(me: MeleeSide, foe: MeleeSide) -> list[MeleePoolId]:
    """ARMAS DE COMBATE CUERPO A CUERPO: types 1 to 4 (5 changes targets, 6 and 7 are
    refused)."""
    out: list[MeleePoolId] = []
    charging = me.order == "charge"
    if me.weapon == 1 and foe.mounted:
        out.append("w1_vs_cavalry")
    if me.weapon == 1 and charging and foe.weapon not in (1, 2):
        out.append("w1_charge")
    if me.weapon == 2 and me.several_enemies_in_contact:
        out.append("w2_several")
    if me.weapon == 2 and foe.order == "charge" and foe.weapon not in (1, 2):
        out.append("w2_charged")
    if me.weapon in (3, 4) and not charging and foe.weapon == 1:
        out.append("w34_vs_w1")
    return out


def hit_items(me: MeleeSide, foe: MeleeSide) -> list[ModItem]:
    """Modificadores a la Tirada de Combate, and the blunt weapon's -1."""
    t = rules().melee_hit
    keys: list[MeleeHitId] = []
    if foe.in_cover or foe.parapeted:  # one -1 (reading 15)
        keys.append("enemy_cover")
    if me.shooting_unit and foe.order == "charge":  # the charged unit's own roll (reading 6)
        keys.append("shooting_unit_charged")
    if me.attacks == "flank":
        keys.append("flank")
    elif me.attacks == "rear":
        keys.append("rear")
    if me.weapon == 5:
        keys.append("w5_blunt")
    return [mod_item(k, t[k], t.amount(k)) for k in keys]


def wound_items(me: MeleeSide, foe: MeleeSide) -> list[ModItem]:
    """Modificadores a la Tirada de Heridas, the weapon types and the undead trait."""
    t = rules().melee_wound
    flags: list[tuple[MeleeWoundId, bool]] = [
        ("armour", foe.armour), ("mounted", foe.mounted), ("w0_basic", me.weapon == 0),
        ("w3_katana", me.weapon == 3), ("w5_blunt", me.weapon == 5),
        ("w5_vs_undead", me.weapon == 5 and foe.trait == "undead")]
    return [mod_item(k, t[k], t.amount(k)) for k, flag in flags if flag]


def _combat_roll(side: str, me: MeleeSide, items: list[PoolItem],
                 hit_target: int) -> tuple[int, bool, int]:
    pool = sum(i.dice for i in items)
    if len(me.dice.combat) != dice_to_roll(pool):
        raise KenseiError(f"{side}.dice.combat: a pool of {pool} rolls {dice_to_roll(pool)} "
                          f"dice, {len(me.dice.combat)} given", "Tirada de combate")
    zero = pool <= 0
    return pool, zero, sum(succeeds(d, hit_target, zero) for d in me.dice.combat)


def melee(inp: MeleeInput) -> MeleeRuling:
    """The combat of ``inp``: each side's rolls, what it took, the loser and the honour roll.
    The input must have passed ``check_melee`` (the legality of the orders)."""
    sides = {"a": (inp.a, inp.b), "b": (inp.b, inp.a)}
    pools = {s: pool_items(me, foe) for s, (me, foe) in sides.items()}
    hit_mods = {s: hit_items(me, foe) for s, (me, foe) in sides.items()}
    wound_mods = {s: wound_items(me, foe) for s, (me, foe) in sides.items()}
    hit_targets = {s: target(rules().success_target, hit_mods[s]) for s in sides}
    rolled = {s: _combat_roll(s, me, pools[s], hit_targets[s]) for s, (me, _) in sides.items()}
    rolls: dict[str, WoundRoll] = {}
    for s, (me, _) in sides.items():
        hits = rolled[s][2]
        if len(me.dice.wound) != hits:
            raise KenseiError(f"{s}.dice.wound: roll one die per hit: "
                              f"{hits_and_dice(hits, len(me.dice.wound))}", "Tirada de heridas")
        rolls[s] = WoundRoll.of(me.dice.wound, target(rules().success_target, wound_mods[s]))
    for s, (me, foe) in sides.items():
        rolls[s].check_to_leader(f"{s}.crits_to_leader", me.crits_to_leader, foe.leader)
    taken = {s: resolve(s, me, rolls["b" if s == "a" else "a"], foe.crits_to_leader)
             for s, (me, foe) in sides.items()}
    verdict = judge(inp, taken)
    out = {}
    for s, (me, _) in sides.items():
        pool, zero, hits = rolled[s]
        r = rolls[s]
        out[s] = SideRuling(
            pool=pool, pool_items=pools[s], zero_pool=zero, hit_target=hit_targets[s],
            hit_items=hit_mods[s], hits=hits, fumbles=me.dice.combat.count(1),
            criticals=me.dice.combat.count(6), wound_target=r.target,
            wound_items=wound_mods[s], wounds=r.wounds, wound_criticals=r.criticals,
            stunned_caused=r.stunned, ignored=r.ignored, taken=taken[s],
            villager_extra=verdict.villager_extra.get(s, 0), honour=verdict.honour.get(s))
    return MeleeRuling(a=out["a"], b=out["b"], loser=verdict.loser, winner=verdict.winner,
                       combat_initiative=verdict.initiative)
