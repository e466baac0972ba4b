"""How many random legal combats the combat engine adjudicates per second.

    .venv/bin/python benchmarks/combat_throughput.py [--combats N] [--runs R] [--seed S]

Each combat (three in four are battles, one in four a siege, some at Osaka or Ueda) is played
from start to resolution by picking uniformly among ``legal_actions`` with a seeded RNG, so the
figure includes move generation as well as adjudication. Prints the median over the runs; the
last line is ``battles_per_second=N``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.sekigahara.combat import (
    CombatKind,
    CombatSetup,
    apply_action,
    combat_result,
    is_resolved,
    legal_actions,
    start_combat,
)
from companion.games.sekigahara.components import Attack, BlockFace, Clan, Disk, Side


def random_face(rng: random.Random, side: Side) -> BlockFace:
    clan = rng.choice([c for c in Clan if c.side is side and not c.is_wildcard])
    mon = rng.randint(1, 3)
    attack = rng.choice([None, Attack.GUN, Attack.CAVALRY]) if mon == 1 else None
    return BlockFace(clan=clan, mon=mon, attack=attack, leader=rng.random() < 0.2)


def random_setup(rng: random.Random) -> CombatSetup:
    kind = CombatKind.SIEGE if rng.random() < 0.25 else CombatKind.BATTLE
    attacker = rng.choice(list(Side))
    defender = attacker.opponent
    blocks: dict[str, BlockFace] = {}
    for side in Side:
        most = 2 if kind is CombatKind.SIEGE and side is defender else 8
        for n in range(rng.randint(1, most)):
            blocks[f"{side.value[0]}{n}"] = random_face(rng, side)
    inside = frozenset(b for b, f in blocks.items() if f.side is defender)
    castle, disks = None, ()
    if kind is CombatKind.SIEGE and defender is Side.ISHIDA and rng.random() < 0.5:
        castle, disk = rng.choice([("osaka", Disk.HIDEYORI), ("ueda", Disk.SANADA)])
        disks = (disk,)
    if kind is CombatKind.BATTLE:
        inside = frozenset()
    return CombatSetup(
        kind=kind, attacker=attacker, blocks=blocks, castle=castle, disks=disks, inside=inside
    )


def play(rng: random.Random, setup: CombatSetup) -> int:
    state = start_combat(setup)
    steps = 0
    while not is_resolved(state):
        state, _ = apply_action(state, rng.choice(legal_actions(state)))
        steps += 1
    combat_result(state)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combats", type=int, default=300, help="combats per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1600)
    args = parser.parse_args()
    rates = []
    for run in range(args.runs):
        rng = random.Random(args.seed + run)
        setups = [random_setup(rng) for _ in range(args.combats)]
        start = time.perf_counter()
        steps = sum(play(rng, setup) for setup in setups)
        elapsed = time.perf_counter() - start
        rates.append(args.combats / elapsed)
        print(
            f"run {run + 1}: {args.combats} combats, {steps} actions in {elapsed:.2f}s "
            f"= {args.combats / elapsed:.0f} combats/s, {steps / elapsed:.0f} actions/s"
        )
    print(f"battles_per_second={statistics.median(rates):.0f}")


if __name__ == "__main__":
    main()
