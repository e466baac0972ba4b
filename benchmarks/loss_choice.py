"""How long offering a loss choice takes in the largest battles (8.7.2).

    .venv/bin/python benchmarks/loss_choice.py [--runs R]

24 blocks a side; ten Ukita 3-mon blocks deliver 75 Impact, so Tokugawa loses 11 of its 24
undeployed blocks: 2,496,144 legal selections. Times ``legal_actions`` (the lazy
``LossChoice``) plus picking one at random and checking it with ``allows``, as the reader
bridge and the random players do. Prints the median and the worst run in microseconds; the last
line is ``loss_choice_us=N``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.sekigahara.combat import (
    CombatKind,
    CombatSetup,
    CombatState,
    Deploy,
    Finish,
    LossChoice,
    PlayedCard,
    apply_action,
    legal_actions,
    start_combat,
)
from companion.games.sekigahara.components import BlockFace, CardKind, Clan, Side


def big_battle() -> CombatState:
    blocks = {f"i{n}": BlockFace(clan=Clan.UKITA, mon=3) for n in range(24)}
    blocks |= {f"t{n}": BlockFace(clan=Clan.DATE, mon=1) for n in range(24)}
    state = start_combat(CombatSetup(kind=CombatKind.BATTLE, attacker=Side.ISHIDA, blocks=blocks))
    card = PlayedCard(clan=Clan.UKITA, kind=CardKind.PLAIN)
    actions = [Deploy(side=Side.ISHIDA, card=card, blocks=("i0",)), Finish(side=Side.TOKUGAWA)]
    actions += [Deploy(side=Side.ISHIDA, card=card, blocks=(f"i{n}",)) for n in range(1, 10)]
    actions.append(Finish(side=Side.ISHIDA))
    for action in actions:
        state, _ = apply_action(state, action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    state = big_battle()
    rng = random.Random(1)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        choice = legal_actions(state)
        assert isinstance(choice, LossChoice)
        picked = rng.choice(choice)
        assert choice.allows(picked.losses)
        times.append((time.perf_counter() - start) * 1e6)
    print(f"selections={len(choice)} runs={args.runs}")
    print(f"median_us={statistics.median(times):.0f} worst_us={max(times):.0f}")
    print(f"loss_choice_us={statistics.median(times):.0f}")


if __name__ == "__main__":
    main()
