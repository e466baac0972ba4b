"""Losses (8.7.1, 8.7.2, C8), siege damage (8.9.4 B-D, 9.1, 9.2) and replenishment (8.10)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat.events import BlocksLost, CombatEvent
from companion.games.sekigahara.combat.model import CombatKind, Lose, Tally
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import Disk, Side

IMPACT_PER_LOSS = 7


def leader_by_impact(state: CombatState) -> Side:
    """The side winning a battle on Impact: ties favour the defender (8.2.1)."""
    setup = state.setup
    ahead = state.impact.of(setup.attacker) > state.impact.of(setup.defender)
    return setup.attacker if ahead else setup.defender


def units_of(state: CombatState, side: Side) -> list[str]:
    """What ``side`` can lose: all its blocks in a battle (C8, defectors included); in a siege the
    defender's blocks and disks inside the castle (8.9.3, C8) and nothing for the attacker."""
    setup = state.setup
    if setup.kind is CombatKind.BATTLE:
        return setup.blocks_of(side)
    if side is setup.attacker:
        return []
    return [b for b in setup.blocks_of(side) if b in setup.inside] + [d.value for d in setup.disks]


def compute_losses(state: CombatState) -> Tally:
    """Losses due on the current Impact (8.7.1, 8.9.4 B), capped at the force present (C8).

    Battle: one block per 7 full Impact suffered, plus one for the loser (ties: the attacker).
    Siege: the defender loses one block or disk per 7 Impact; the attacker never loses.
    """
    setup = state.setup
    due = Tally()
    for side in (setup.attacker, setup.defender):
        n = state.impact.of(side.opponent) // IMPACT_PER_LOSS
        if setup.kind is CombatKind.SIEGE and side is setup.attacker:
            n = 0
        elif setup.kind is CombatKind.BATTLE and leader_by_impact(state) is not side:
            n += 1
        due = due.add(side, min(n, len(units_of(state, side))))
    return due


def loss_tiers(state: CombatState, side: Side) -> list[list[str]]:
    """The order losses are taken in: a tier is emptied before any unit of the next is lost.

    Battle (8.7.2): blocks that defected to the opponent, then other deployed blocks, then the
    undeployed. Siege: any block or the Sanada disk (9.2), Hideyori always last (9.1).
    """
    units = units_of(state, side)
    if state.kind is CombatKind.SIEGE:
        last = [u for u in units if u == Disk.HIDEYORI.value]
        return [[u for u in units if u not in last], last]
    defected = state.defected_from(side)
    deployed = [u for u in units if state.is_deployed(u) and u not in defected]
    rest = [u for u in units if not state.is_deployed(u)]
    return [defected, deployed, rest]


def forced_losses(state: CombatState, side: Side, due: int) -> list[str]:
    """The units every legal choice of ``due`` losses must include (whole tiers it empties)."""
    forced: list[str] = []
    for tier in loss_tiers(state, side):
        if due < len(tier):
            break
        forced += tier
        due -= len(tier)
    return forced


class LossChoice(Sequence[Lose]):
    """Every legal selection of a side's losses (8.7.2, 8.9.4 C), offered lazily as "the
    ``forced`` units plus any ``pick`` of ``pool``": a sequence of :class:`Lose` actions in
    lexicographic order whose length is a binomial coefficient, never built as a list (24 blocks
    losing 12 would be 2,704,156 selections). Indexing unranks one selection directly, so
    ``random.choice`` works on it as on a list.
    """

    def __init__(self, side: Side, forced: tuple[str, ...], pool: tuple[str, ...], pick: int):
        if not 0 <= pick <= len(pool):
            raise ValueError(f"cannot pick {pick} of {len(pool)} units")
        self.side, self.forced, self.pool, self.pick = side, forced, pool, pick

    def __len__(self) -> int:
        return comb(len(self.pool), self.pick)

    @overload
    def __getitem__(self, index: int) -> Lose: ...

    @overload
    def __getitem__(self, index: slice) -> list[Lose]: ...

    def __getitem__(self, index: int | slice) -> Lose | list[Lose]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("loss choice index out of range")
        picked: list[str] = []
        start, left, n = 0, self.pick, len(self.pool)
        while left:  # combinatorial number system, lexicographic order
            for j in range(start, n):
                below = comb(n - j - 1, left - 1)
                if index < below:
                    picked.append(self.pool[j])
                    start, left = j + 1, left - 1
                    break
                index -= below
        return Lose(side=self.side, losses=(*self.forced, *picked))

    def __iter__(self) -> Iterator[Lose]:
        for pick in combinations(self.pool, self.pick):
            yield Lose(side=self.side, losses=(*self.forced, *pick))

    def allows(self, units: Iterable[str]) -> bool:
        """Whether ``units`` (in any order) is one of the legal selections."""
        chosen = list(units)
        rest = set(chosen) - set(self.forced)
        return (
            len(set(chosen)) == len(chosen) == len(self.forced) + self.pick
            and set(self.forced) <= set(chosen) and rest <= set(self.pool)
        )

    def extends(self, units: Iterable[str]) -> bool:
        """Whether some legal selection holds ``units`` and more besides."""
        chosen = set(units)
        return (
            chosen <= set(self.forced) | set(self.pool)
            and len(chosen & set(self.pool)) <= self.pick
            and len(chosen) < len(self.forced) + self.pick
        )

    def __repr__(self) -> str:
        return (f"LossChoice({self.side}, forced={self.forced}, choose {self.pick} of "
                f"{self.pool})")


def loss_choices(state: CombatState, side: Side, due: int) -> LossChoice:
    """Every legal selection of ``due`` losses (8.7.2), lazily: whole tiers the count empties,
    then any ``due - len(forced)`` units of the next tier."""
    forced = forced_losses(state, side, due)
    left = due - len(forced)
    if left == 0:
        return LossChoice(side, tuple(forced), (), 0)
    tier = next(t for t in loss_tiers(state, side) if any(u not in forced for u in t) and t)
    return LossChoice(side, tuple(forced), tuple(tier), left)


def loss_choice(state: CombatState) -> LossChoice | None:
    """The loss selection awaited now (8.7.2: the attacker first), or None."""
    side = awaiting_losses(state)
    if side is None or state.ended is None:
        return None
    return loss_choices(state, side, state.ended.losses_due.of(side))


def losses_due(state: CombatState) -> Tally:
    if state.ended is not None:
        return state.ended.losses_due
    return compute_losses(state)


def awaiting_losses(state: CombatState) -> Side | None:
    """The side that must now select its losses: the attacker first, then the defender (8.7.2)."""
    if state.ended is None:
        return None
    setup = state.setup
    for side in (setup.attacker, setup.defender):
        if state.ended.losses_due.of(side) and state.lost_by(side) is None:
            return side
    return None


def lose(state: CombatState, action: Lose) -> list[CombatEvent]:
    """Take the losses a side selected (8.7.2; 8.9.4 C, 9.1, 9.2); their identity is revealed."""
    siege = state.kind is CombatKind.SIEGE
    side = action.side
    if state.ended is None:
        raise RuleViolation(
            "8.9.4" if siege else "8.7.1",
            f"losses are taken once the {state.kind.value} has ended",
        )
    due = state.ended.losses_due.of(side)
    waiting = awaiting_losses(state)
    if waiting is None or (waiting is not side and due == 0) or state.lost_by(side) is not None:
        raise RuleViolation("8.7.2", f"{side} has no losses to select")
    if waiting is not side:
        raise RuleViolation("8.7.2", f"the attacker ({waiting}) selects its losses first")
    chosen = action.losses
    if len(chosen) != due or len(set(chosen)) != len(chosen):
        raise RuleViolation("8.7.2", f"{side} must select exactly {due} different losses")
    units = units_of(state, side)
    for unit in chosen:
        if unit not in units:
            if unit in (d.value for d in Disk) and not siege:
                raise RuleViolation("8.9.3", f"only a siege can affect the {unit} disk")
            raise RuleViolation("8.7.2", f"{unit} is not one of {side}'s units in this combat")
    _check_order(state, side, chosen)
    revealed = tuple(_reveal(state, unit) for unit in chosen)
    if Disk.HIDEYORI.value in chosen:
        rule = "9.1"
    elif Disk.SANADA.value in chosen:
        rule = "9.2"
    else:
        rule = "8.9.4" if siege else "8.7.2"
    return [BlocksLost(rule=rule, side=side, units=chosen, revealed=revealed)]


def _check_order(state: CombatState, side: Side, chosen: tuple[str, ...]) -> None:
    left = len(chosen)
    picked = set(chosen)
    names = ("blocks that defected", "other deployed blocks", "undeployed blocks")
    for n, tier in enumerate(loss_tiers(state, side)):
        take = min(left, len(tier))
        if len(picked.intersection(tier)) != take:
            if state.kind is CombatKind.SIEGE:
                raise RuleViolation(
                    "9.1", "Toyotomi Hideyori is always the last unit lost in a siege of Osaka"
                )
            raise RuleViolation(
                "8.7.2",
                f"{side} must lose {names[n]} first: {', '.join(tier)}",
            )
        left -= take


def _reveal(state: CombatState, unit: str) -> str:
    face = state.setup.blocks.get(unit)
    if face is not None:
        return face.describe()
    return "Toyotomi Hideyori disk" if unit == Disk.HIDEYORI.value else "Sanada Masayuki disk"


def lost_units(state: CombatState, side: Side) -> list[str]:
    """The units ``side`` lost, or if it has not selected them yet, those it must lose."""
    taken = state.lost_by(side)
    if taken is not None:
        return list(taken)
    if state.ended is None:
        return []
    return forced_losses(state, side, state.ended.losses_due.of(side))


def replenishment(state: CombatState) -> Tally:
    """Cards each side draws after the combat (8.10, C7).

    Every card a side played comes back (a double card once; a Loyalty Challenge card counts, a
    card shown to refute one does not; cardless leaders cost none). After a battle each side also
    draws one per two blocks lost; after a siege the defender draws one per block lost, none for
    a disk. If the defender has not chosen yet, a loss is assumed to fall on a block unless only
    a disk can take it.
    """
    draws = state.cards_played
    if state.ended is None:
        return draws
    due = state.ended.losses_due
    if state.kind is CombatKind.BATTLE:
        for side in Side:
            draws = draws.add(side, due.of(side) // 2)
        return draws
    defender = state.setup.defender
    disks = {d.value for d in Disk}
    taken = state.lost_by(defender)
    if taken is not None:
        blocks = sum(1 for u in taken if u not in disks)
    else:
        units = units_of(state, defender)
        blocks = min(due.of(defender), sum(1 for u in units if u not in disks))
    return draws.add(defender, blocks)
