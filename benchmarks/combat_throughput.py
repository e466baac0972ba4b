"""How many random legal combats the combat engine, and the referee calculator, judge per second.

    .venv/bin/python benchmarks/combat_throughput.py [--combats N] [--runs R] [--seed S]

Each combat (three in four are battles, one in four a siege, some at Osaka or Ueda) is played
from start to resolution by picking uniformly among ``legal_actions`` with a seeded RNG, so the
figure includes move generation as well as adjudication: ``battles_per_second=N``.

The referee calculator (``companion referee battle``) is then timed on battles of real blocks
(faces drawn from the block manifest, 1 to 8 a side) played out the same way and written as its
JSON input: each one parsed, checked against the manifest, replayed and rendered, as a referee
at the table would have it judged: ``referee_battles_per_second=N``. Both figures are the
median over the runs and use this process's CPU time (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from companion.games.sekigahara.combat import (
    Challenge,
    CombatAction,
    CombatKind,
    CombatSetup,
    Deploy,
    Lose,
    apply_action,
    combat_result,
    is_resolved,
    legal_actions,
    start_combat,
)
from companion.games.sekigahara.components import (
    Attack,
    BlockFace,
    Clan,
    Disk,
    Side,
    default_blocks,
)
from companion.games.sekigahara.referee import EXIT_OK, adjudicate_text


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
    castle: str | None = None
    disks: tuple[Disk, ...] = ()
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


def referee_battle(rng: random.Random) -> str:
    """A battle of real blocks played out at random, as the referee calculator's JSON input."""
    attacker = rng.choice(list(Side))
    faces: dict[str, BlockFace] = {}
    for side in Side:
        own = [b for b in default_blocks().blocks if b.side is side]
        for n, block in enumerate(rng.sample(own, rng.randint(1, 8))):
            faces[f"{side.value[0]}{n}"] = block.face
    setup = CombatSetup(kind=CombatKind.BATTLE, attacker=attacker, blocks=faces)
    state, actions = start_combat(setup), []
    while not is_resolved(state):
        action = rng.choice(legal_actions(state))
        state, _ = apply_action(state, action)
        actions.append(_action_input(action))
    blocks = {
        b: {"side": f.side.value, "clan": f.clan.value, "mon": f.mon,
            "attack": f.attack.value if f.attack else None, "leader": f.leader}
        for b, f in faces.items()
    }
    return json.dumps({"type": "battle", "attacker": attacker.value, "blocks": blocks,
                       "actions": actions})


def _action_input(action: CombatAction) -> dict[str, Any]:
    step: dict[str, Any] = {"side": action.side.value}
    if isinstance(action, Deploy):
        step["deploy"] = list(action.blocks)
        if action.card is not None and action.card.clan is not None:
            step["card"] = {"clan": action.card.clan.value, "kind": action.card.kind.value}
    elif isinstance(action, Challenge):
        step["challenge"] = {"refuted": action.refuted}
    elif isinstance(action, Lose):
        step["lose"] = list(action.losses)
    else:
        step["finish"] = True
    return step


def combat_rate(rng: random.Random, combats: int) -> tuple[float, int, float]:
    """Combats per CPU second, the actions played and the CPU seconds taken."""
    setups = [random_setup(rng) for _ in range(combats)]
    start = time.process_time()
    steps = sum(play(rng, setup) for setup in setups)
    elapsed = time.process_time() - start
    return combats / elapsed, steps, elapsed


def referee_rate(rng: random.Random, battles: int) -> float:
    """Referee calculator battles judged per CPU second (each must be judged, not refused)."""
    inputs = [referee_battle(rng) for _ in range(battles)]
    start = time.process_time()
    for text in inputs:
        status, out = adjudicate_text(text)
        if status != EXIT_OK:
            raise SystemExit(f"the referee refused a legal battle: {out}")
    return battles / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--combats", type=int, default=300, help="combats per run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1600)
    args = parser.parse_args()
    rates, judged = [], []
    for run in range(args.runs):
        rate, steps, elapsed = combat_rate(random.Random(args.seed + run), args.combats)
        rates.append(rate)
        judged.append(referee_rate(random.Random(args.seed + run), args.combats))
        print(
            f"run {run + 1}: {args.combats} combats, {steps} actions in {elapsed:.2f}s "
            f"= {rate:.0f} combats/s, {steps / elapsed:.0f} actions/s; "
            f"referee calculator {judged[-1]:.0f} battles/s"
        )
    print(f"battles_per_second={statistics.median(rates):.0f}")
    print(f"referee_battles_per_second={statistics.median(judged):.0f}")


if __name__ == "__main__":
    main()
