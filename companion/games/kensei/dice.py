"""Success rolls (TIRADAS DE ÉXITOS, B2.1) and the itemised modifiers every ruling lists.

Dice are natural results 1-6, entered as rolled. A roll modifier +N lowers the target by N;
the target is reported raw (7 means only a 6 succeeds).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from companion.games.kensei.rules import Modifier


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class PoolItem(_Out):
    """Dice added to (or taken from) a pool, and the heading that adds them."""

    id: str
    dice: int
    rule: str


class ModItem(_Out):
    """A modifier to every die of a roll, and the heading that gives it."""

    id: str
    mod: int
    rule: str


def pool_item(key: str, row: Modifier, dice: int) -> PoolItem:
    return PoolItem(id=key, dice=dice, rule=row.rule)


def mod_item(key: str, row: Modifier, mod: int) -> ModItem:
    return ModItem(id=key, mod=mod, rule=row.rule)


def target(base: int, items: Sequence[ModItem]) -> int:
    """The number a die must reach: ``base`` less the sum of the modifiers."""
    return base - sum(i.mod for i in items)


def succeeds(die: int, goal: int, zero_pool: bool = False) -> bool:
    """"1 natural ... siempre un fallo"; "6 es un crítico, un éxito sean cuales sean los
    modificadores"; a pool reduced to 0 rolls one die that succeeds only on a 6."""
    if zero_pool:
        return die == 6
    return die != 1 and (die == 6 or die >= goal)


def successes(dice: Sequence[int], goal: int, zero_pool: bool = False) -> int:
    return sum(succeeds(d, goal, zero_pool) for d in dice)


def hits_and_dice(hits: int, given: int) -> str:
    """A wound roll's refusal in counted words: "1 hit, 3 dice given"."""
    return (f"{hits} {'hit' if hits == 1 else 'hits'}, "
            f"{given} {'die' if given == 1 else 'dice'} given")


def dice_to_roll(pool: int) -> int:
    """A pool of N <= 0 rolls exactly one die (reading 7)."""
    return max(pool, 1)
