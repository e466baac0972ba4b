"""After the rolls of a melee: wounds to casualties, the loser, the honour roll (B5.2, B7).

Tirada de heridas; PROTEGED AL LÍDER; RETIRADA DE BAJAS; UNIDAD DERROTADA E INICIATIVA DEL
COMBATE; TIRADA DE HONOR; the villager trait (TRATOS).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.dice import successes
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.honour import HonourRuling, roll_honour, standing
from companion.games.kensei.inputs import (
    MeleeInput,
    MeleeLeader,
    MeleeSide,
    TargetLeader,
    stunned_per_wound,
)
from companion.games.kensei.rules import rules

WOUND_RULE = "Tirada de heridas"


class Taken(BaseModel):
    """What a troop suffered from the enemy's wound roll (resolution steps 1-7)."""

    model_config = ConfigDict(frozen=True)

    wounds: int
    to_leader: int
    protected: int
    stunned_converted: int
    stunned_after: int
    unit_wounds: int
    casualties: int
    wound_markers_after: int
    overflow: int
    leader_wounds_after: int | None
    leader_killed: bool
    loss_count: int
    wiped_out: bool


@dataclass(frozen=True)
class WoundRoll:
    """A wound roll: successes wound, a natural 1 is ignored, any other failure stuns."""

    target: int
    wounds: int
    criticals: int
    ignored: int
    stunned: int

    @classmethod
    def of(cls, dice: Sequence[int], target: int) -> WoundRoll:
        wounds = successes(dice, target)
        ignored = list(dice).count(1)
        return cls(target=target, wounds=wounds, criticals=list(dice).count(6), ignored=ignored,
                   stunned=len(dice) - wounds - ignored)

    def check_to_leader(self, where: str, crits: int,
                        leader: MeleeLeader | TargetLeader | None) -> None:
        """Only natural 6s may go to a unit leader, and only one in direct contact (or, for a
        shot, among the models affected)."""
        if crits > self.criticals:
            raise KenseiError(f"{where}: {crits} given, {self.criticals} natural "
                              "6 rolled to wound", WOUND_RULE)
        reachable = leader is not None and (
            leader.contact == "direct" if isinstance(leader, MeleeLeader) else leader.affected)
        if crits and not reachable:
            raise KenseiError(f"{where}: the enemy has no unit leader the "
                              "wounds can reach", WOUND_RULE)


def _protect(side: str, t: MeleeSide, to_leader: int) -> int:
    """PROTEGED AL LÍDER: each 4+ moves a wound from a leader about to die to the unit."""
    dice = t.dice.protect
    if not dice:
        return 0
    leader = t.leader
    if leader is None or leader.wounds + to_leader < leader.hr_value:
        raise KenseiError(f"{side}.dice.protect: only a unit leader about to die is protected",
                          "PROTEGED AL LÍDER")
    if len(dice) > leader.adjacent:
        raise KenseiError(f"{side}.dice.protect: one die per model within 1 cm of the leader "
                          f"({leader.adjacent})", "PROTEGED AL LÍDER")
    return min(sum(d >= rules().protect_success for d in dice), to_leader)


def resolve(side: str, t: MeleeSide, hit: WoundRoll, to_leader: int) -> Taken:
    """What troop ``t`` suffers from the enemy's wound roll ``hit``."""
    per = stunned_per_wound(t.trait)
    stunned = t.stunned + hit.stunned  # carried markers count (reading 3)
    protected = _protect(side, t, to_leader)
    to_leader -= protected
    unit_wounds = hit.wounds - to_leader + stunned // per
    hr = t.hr_value
    total = t.wound_markers + unit_wounds
    if total >= t.models * hr:
        casualties, markers, overflow = t.models, 0, total - t.models * hr
    else:
        casualties, markers, overflow = total // hr, total % hr, 0
    leader_wounds = killed = None
    if t.leader is not None:
        leader_wounds = t.leader.wounds + to_leader + overflow
        killed = leader_wounds >= t.leader.hr_value
    return Taken(wounds=hit.wounds, to_leader=to_leader, protected=protected,
                 stunned_converted=stunned // per, stunned_after=stunned % per,
                 unit_wounds=unit_wounds, casualties=casualties, wound_markers_after=markers,
                 overflow=overflow, leader_wounds_after=leader_wounds,
                 leader_killed=bool(killed), loss_count=casualties + 2 * bool(killed),
                 wiped_out=casualties == t.models and (t.leader is None or bool(killed)))


@dataclass
class Verdict:
    loser: str | None
    winner: str | None
    initiative: str
    villager_extra: dict[str, int] = field(default_factory=dict)
    honour: dict[str, HonourRuling] = field(default_factory=dict)


def _loser(inp: MeleeInput, taken: dict[str, Taken]) -> str | None:
    """UNIDAD DERROTADA: wiping out wins; between single models the more wounded loses; else
    the more casualties, a leader counting two (reading 17 for converted Stunned)."""
    a, b = taken["a"], taken["b"]
    if a.wiped_out != b.wiped_out:
        return "a" if a.wiped_out else "b"
    if inp.a.solo and inp.b.solo:
        ka, kb = a.unit_wounds, b.unit_wounds
    else:
        ka, kb = a.loss_count, b.loss_count
    return None if ka == kb else "a" if ka > kb else "b"


def judge(inp: MeleeInput, taken: dict[str, Taken]) -> Verdict:
    """The loser, the combat initiative, villager losses and the loser's honour roll."""
    loser = _loser(inp, taken)
    winner = None if loser is None else "b" if loser == "a" else "a"
    charged = [s for s in ("a", "b") if getattr(inp, s).order == "charge"]
    initiative = winner or (charged[0] if len(charged) == 1 else inp.turn_initiative)
    verdict = Verdict(loser, winner, initiative)
    if loser is not None and winner is not None and getattr(inp, loser).trait == "villager":
        margin = taken[loser].loss_count - taken[winner].loss_count  # reading 10
        verdict.villager_extra[loser] = max(margin, 0)
    for s in ("a", "b"):
        side: MeleeSide = getattr(inp, s)
        left = max(side.models - taken[s].casualties - verdict.villager_extra.get(s, 0), 0)
        now = standing(side, left, taken[s].leader_killed, taken[s].wound_markers_after,
                       keys_at=f"{s}.", dice_at=f"{s}.dice.honour")
        if s == loser and now is not None:
            verdict.honour[s] = roll_honour(now, side.dice.honour)
        elif side.dice.honour:
            raise KenseiError(f"{s}.dice.honour: no honour roll is due", "TIRADA DE HONOR")
    return verdict
