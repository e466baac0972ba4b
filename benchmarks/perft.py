"""Perft for both games: how many legal commands the engine offers from fixed positions.

As python-chess counts the moves from a position to depth n (perft) and pins the numbers, this
counts what each engine's move generation offers from named, seeded positions, and applies
every offered command through the rules (a command the generator offers and the rules refuse is
an error, not a count). The numbers are pinned in ``tests/games/<game>/perft.yaml`` and checked
by ``tests/games/test_perft.py``; ``docs/engine.md`` and ``docs/tenka-meidou.md`` show them.

What is counted:

* Sekigahara, a Movement Phase with movement bought: ``moves``, every origin of
  ``movable_stacks``, every group of the blocks there (each subset), every route
  ``legal_destinations`` gives for it (routes a hidden leader opens included; drop-offs along a
  route not counted); ``musters``, option A (each subset of one daimyo's blocks in the
  Recruitment Box) and option B (one block), at every ``muster_locations``; ``end`` (1).
  Depth 2 applies each command and counts the next position's commands the same way.
* Sekigahara, a battle in progress: ``combat.legal_actions`` (cards by clan and kind; while
  losses are due, every selection of the lazy ``LossChoice``) to depth 3.
* Tenka Meidou, a Deployment turn: ``deploys``, every roll of three dice (as a sorted triple;
  the first roll of a re-roll changes nothing), every die kept single, with and without the
  Daimyo pawn where allowed, counted as distinct placements (zone, soldiers, Daimyo);
  ``tactics``, every effect ``players.tactic_effects`` generates for each card of the offer
  (Ocupar Kioto's are sampled, with a fixed seed). Daimyo cards are left out: their effects are
  only sampled. Depth 2 applies each distinct command and counts again.

Run: ``.venv/bin/python benchmarks/perft.py [--depth N] [--check | --write]`` prints one line
per position with the counts and the nodes per second (commands generated and applied per
second); ``--check`` compares them with the pinned tables and exits non-zero on a difference,
``--write`` pins them.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion.core.rules import RuleViolation
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.data import BOARD, FACES
from companion.games.sekigahara.engine.game import SekigaharaRules
from companion.games.sekigahara.engine.players import play_until
from companion.games.sekigahara.engine.queries import (
    declarable,
    legal_destinations,
    may_muster,
    movable_stacks,
    must_declare,
    muster_locations,
    retreat_options,
)
from companion.games.sekigahara.engine.state import RECRUITMENT, Level, Phase, Stage, State
from companion.games.tenka_meidou.components import Colour, Tactic
from companion.games.tenka_meidou.events import Deploy, PlayTactic, StartGame, TenkaCommand
from companion.games.tenka_meidou.players import RandomPlayer, tactic_effects
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase as TenkaPhase
from companion.games.tenka_meidou.state import State as TenkaState

ROOT = Path(__file__).resolve().parents[1]
Counts = dict[str, int]


# ---------------------------------------------------------------- Sekigahara
SEKIGAHARA = SekigaharaRules()


def blocks_at(state: State, zone: str, side: Side) -> list[str]:
    """``side``'s blocks in ``zone``, sorted (read from the state's index, so that perft
    depends on the engine's queries and state only, not on its helper modules)."""
    return sorted(b for b in state.at.get(zone, ()) if FACES[b].side is side)


def castle_owner(state: State, location: str) -> Side | None:
    """The castle's owner (8.9.1): the side there first, else its natural alignment."""
    natural = BOARD.locations[location].castle
    return None if natural is None else state.castle_owner.get(location, natural)


def _subsets(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    ordered = sorted(items)
    for k in range(1, len(ordered) + 1):
        yield from itertools.combinations(ordered, k)


def sekigahara_commands(state: State) -> dict[str, list[cm.Command]]:
    """The commands the queries offer in a Movement Phase with movement bought or in a Combat
    Phase, by kind."""
    side = state.active
    if state.phase is Phase.COMBAT and side is not None:
        return _combat_commands(state, side)
    if state.phase is not Phase.MOVEMENT or side is None or state.level is None:
        return {}
    found: dict[str, list[cm.Command]] = {"end": [cm.EndPhase(side=side)], "moves": [],
                                          "musters": []}
    for origin, blocks in sorted(movable_stacks(state, side).items()):
        for group in _subsets(blocks):
            for _, routes in sorted(legal_destinations(state, side, origin, group).items()):
                for route in routes:
                    found["moves"].append(cm.MoveStack(
                        side=side, origin=origin, paths=dict.fromkeys(group, route.path),
                        force_marches=(group,) if route.needs_force_march else ()))
    box = blocks_at(state, RECRUITMENT, side) if may_muster(state, side) is None else []
    clans = sorted({FACES[b].clan for b in box})
    options = [("A", g) for clan in clans for g in _subsets([b for b in box
                                                             if FACES[b].clan is clan])]
    options += [("B", (b,)) for b in sorted(box)]
    for option, group in options:
        for loc in muster_locations(state, side, group, option):
            found["musters"].append(cm.Muster(side=side, location=loc, blocks=group,
                                              option=option))
    return found


def _combat_commands(state: State, side: Side) -> dict[str, list[cm.Command]]:
    """Declarations (8.1, 8.9.2), the castle choice, the combat actions of ``legal_actions``
    (cards by clan and kind, 8.2-8.7; none that needs a card when the hand is empty, 8.2.2)
    and the retreats (8.8)."""
    p = state.pending
    if p is None:
        required = must_declare(state)
        found: list[cm.Command] = [] if required else [cm.EndPhase(side=side)]
        for loc in declarable(state):
            found.append(cm.DeclareCombat(side=side, location=loc))
            if castle_owner(state, loc) is side and len(blocks_at(state, loc, side)) <= 2:
                found.append(cm.DeclareCombat(side=side, location=loc, inside=True))
        return {"declarations": found}
    if p.stage is Stage.CASTLE_CHOICE:
        assert p.owner is not None
        return {"castle choices": [cm.ChooseInside(side=p.owner, inside=i) for i in (True, False)]}
    if p.stage is Stage.RETREAT:
        assert p.retreating is not None
        destinations, castle = retreat_options(state)
        here = sorted(blocks_at(state, p.location, p.retreating))
        stays: list[tuple[str, ...]] = [()]
        if castle:
            stays += [g for g in _subsets(here) if len(g) <= 2]
        return {"retreats": [cm.Retreat(side=p.retreating, destination=d, into_castle=g)
                             for d in destinations for g in stays]}
    actions = combat.legal_actions(p.combat)
    return {"combat actions": [_command(a) for a in actions if _has_cards(state, a)]}


def _has_cards(state: State, action: combat.CombatAction) -> bool:
    """A card is played from the hand (8.2.2); a refutation shows one from the deploying side's
    hand (8.6.1): the combat rules know no hands, the engine counts them."""
    if isinstance(action, combat.Challenge):
        return state.hand[action.side] > 0 and (
            not action.refuted or state.hand[action.side.opponent] > 0)
    if isinstance(action, combat.Deploy) and action.card:
        return state.hand[action.side] > 0
    return True


def _command(action: combat.CombatAction) -> cm.Command:
    if isinstance(action, combat.Deploy):
        card = None if action.card is None else cm.CardPlay(clan=action.card.clan,
                                                             kind=action.card.kind)
        return cm.Deploy(side=action.side, card=card, blocks=action.blocks)
    if isinstance(action, combat.Challenge):
        return cm.Challenge(side=action.side, refuted=action.refuted)
    if isinstance(action, combat.Finish):
        return cm.Finish(side=action.side)
    return cm.TakeLosses(side=action.side, losses=action.losses)


def sekigahara_leaves(state: State, depth: int) -> int:
    """The command sequences ``depth`` deep; every offered command must be accepted."""
    offered = list(itertools.chain.from_iterable(sekigahara_commands(state).values()))
    if depth == 1:
        return len(offered)
    total = 0
    for cmd in offered:
        try:
            _, after = SEKIGAHARA.judge(state, cmd)
        except RuleViolation as exc:
            raise AssertionError(f"offered but refused: {cmd!r}: {exc}") from exc
        total += sekigahara_leaves(after, depth - 1)
    return total


def sekigahara_perft(state: State, depth: int) -> Counts:
    """The commands by kind, then the command sequences to each depth from 2 on."""
    counts = {kind: len(cmds) for kind, cmds in sekigahara_commands(state).items()}
    for d in range(2, depth + 1):
        counts[f"depth{d}"] = sekigahara_leaves(state, d)
    return counts


def refused(state: State) -> list[str]:
    """Every command offered at ``state`` that the rules refuse (none, if the move generation
    and the rules agree): depth 1 played out without counting further."""
    found = []
    for cmd in itertools.chain.from_iterable(sekigahara_commands(state).values()):
        try:
            SEKIGAHARA.judge(state, cmd)
        except RuleViolation as exc:
            found.append(f"{cmd!r}: {exc}")
    return found


def _bought(s: State) -> bool:
    return s.phase is Phase.MOVEMENT and s.level in (Level.LIMITED, Level.TOTAL)


def _leaders_move(s: State) -> bool:
    """Movement bought in week 2 or later, and a stack with a hidden leader that has routes
    only the leader's Leadership opens (7.3.4, C12)."""
    side = s.active
    if not _bought(s) or s.week < 2 or side is None:
        return False
    return any(
        route.needs_leader
        for origin, blocks in movable_stacks(s, side).items()
        if any(FACES[b].leader for b in blocks)
        for routes in legal_destinations(s, side, origin, tuple(blocks)).values()
        for route in routes)


def _muster(s: State) -> bool:
    return (_bought(s) and s.week >= 2 and s.active is not None
            and may_muster(s, s.active) is None and len(blocks_at(s, RECRUITMENT, s.active)) >= 3)


def _battle(s: State) -> bool:
    p = s.pending
    return (p is not None and p.stage is Stage.FIGHTING
            and p.combat.setup.kind is combat.CombatKind.BATTLE
            and len(p.combat.deployments) >= 2 and combat.loss_choice(p.combat) is None)


def _declare(s: State) -> bool:
    return s.phase is Phase.COMBAT and s.pending is None and len(declarable(s)) >= 3


def _set_up(seed: int) -> State:
    """The board as set up (5.2), the first player's Movement Phase with Total movement."""
    game = play_until(seed, lambda s: s.phase is Phase.MOVEMENT)
    state = game.state
    if state.level is None:
        assert state.active is not None
        _, state = SEKIGAHARA.judge(state, cm.BuyMovement(side=state.active, level=Level.TOTAL))
    return state


# ---------------------------------------------------------------- Tenka Meidou
TENKA = TenkaRules()


def _rolls() -> Iterator[tuple[int, int, int]]:
    yield from itertools.combinations_with_replacement(range(1, 7), 3)


def tenka_commands(state: TenkaState) -> dict[str, list[TenkaCommand]]:
    """Distinct deployments (by what they place) and generated tactic effects, accepted ones
    only for deployments (a die or Daimyo choice the rules refuse is not a command); every
    generated tactic effect must be accepted."""
    colour = state.current
    if state.phase is not TenkaPhase.DEPLOYMENT or colour is None:
        return {}
    deploys: dict[tuple[str, int, bool], TenkaCommand] = {}
    for roll in _rolls():
        for single in sorted(set(roll)):
            for daimyo in (False, True):
                command = Deploy(colour=colour, rolls=(roll,), single=single, daimyo=daimyo)
                try:
                    placed = TENKA.deploy(state, command)
                except RuleViolation:
                    continue
                deploys.setdefault((placed.zone, placed.soldiers, placed.daimyo), command)
    tactics: list[TenkaCommand] = []
    if not state.locked and colour not in state.tactic_used:
        rng = random.Random(0)
        for card in state.tactic_offer:
            tactics += [PlayTactic(colour=colour, card=card, moves=moves)
                        for moves in tactic_effects(state, colour, card, TENKA.board, rng)]
    return {"deploys": list(deploys.values()), "tactics": tactics}


def tenka_leaves(state: TenkaState, depth: int) -> tuple[int, int]:
    """(command sequences ``depth`` deep, sequences that end in the War on the way)."""
    offered = list(itertools.chain.from_iterable(tenka_commands(state).values()))
    if depth == 1:
        return len(offered), sum(_tenka_after(state, cmd).phase is TenkaPhase.OVER
                                 for cmd in offered)
    leaves = wars = 0
    for cmd in offered:
        after = _tenka_after(state, cmd)
        if after.phase is TenkaPhase.OVER:
            wars += 1
            continue
        more, ended = tenka_leaves(after, depth - 1)
        leaves, wars = leaves + more, wars + ended
    return leaves, wars


def _tenka_after(state: TenkaState, cmd: TenkaCommand) -> TenkaState:
    try:
        events = TENKA.handle(state, cmd)
    except RuleViolation as exc:
        raise AssertionError(f"offered but refused: {cmd!r}: {exc}") from exc
    for event in events:
        state = TENKA.apply(state, event)
    return state


def tenka_perft(state: TenkaState, depth: int) -> Counts:
    """The commands by kind, the sequences to each depth from 2 on, and for each depth how many
    sequences up to it end in the War."""
    counts = {kind: len(cmds) for kind, cmds in tenka_commands(state).items()}
    for d in range(1, depth + 1):
        leaves, wars = tenka_leaves(state, d)
        if d > 1:
            counts[f"depth{d}"] = leaves
        counts[f"wars{d}"] = wars
    return counts


def nodes(counts: Counts) -> int:
    """The commands generated: depth 1 by kind and every deeper depth (not the War tallies)."""
    return sum(n for kind, n in counts.items() if not kind.startswith("wars"))


def _tenka_play(seed: int, done: Callable[[TenkaState], bool]) -> TenkaState:
    """Seeded random players from the start until ``done`` (never a finished game)."""
    player = RandomPlayer(random.Random(seed), TENKA.board, TENKA.components)
    state = TENKA.initial_state()
    while state.phase is not TenkaPhase.OVER:
        if done(state):
            return state
        for event in TENKA.handle(state, player.command(state)):
            state = TENKA.apply(state, event)
    raise ValueError(f"seed {seed}: never reached the wanted position")


def _tenka_start(seed: int) -> TenkaState:
    rng = random.Random(seed)
    castles = list(TENKA.components.large_castle_tokens)
    rng.shuffle(castles)
    table = TENKA.components.table(3)
    start = StartGame(players=(Colour.RED, Colour.BLUE, Colour.YELLOW),
                      castles=dict(zip(TENKA.board.zone_ids, castles, strict=True)),
                      tactic_offer=tuple(rng.sample(list(Tactic), table.tactic_offer)))
    state = TENKA.initial_state()
    for event in TENKA.handle(state, start):
        state = TENKA.apply(state, event)
    return state


def _before_war(s: TenkaState) -> bool:
    """The last player still placing, with a few pawns left: a deployment may end in the War."""
    return (s.phase is TenkaPhase.DEPLOYMENT and len(s.swords) == len(s.players) - 1
            and s.current is not None and s.pawns_left(s.current) <= 2)


def _placement(s: TenkaState) -> bool:
    return (s.phase is TenkaPhase.DEPLOYMENT and not s.locked and s.current is not None
            and s.current not in s.tactic_used and sum(map(len, s.soldiers.values())) >= 6)


# ---------------------------------------------------------------- positions
@dataclass(frozen=True)
class Position:
    game: str
    name: str
    about: str
    build: Callable[[], Any]
    perft: Callable[[Any, int], Counts]
    depth: int
    """The depth the pinned table holds (deeper where it is cheap)."""


POSITIONS = (
    Position("sekigahara", "set-up", "seed 1: the board as set up (5.2), week 1, the first "
             "player with Total movement", lambda: _set_up(1), sekigahara_perft, 1),
    Position("sekigahara", "leaders", "seed 3: week 2, a Movement Phase with movement bought "
             "and a hidden leader whose Leadership opens routes (C12)",
             lambda: play_until(3, _leaders_move).state, sekigahara_perft, 1),
    Position("sekigahara", "muster", "seed 5: week 2 or later, a Mustering still allowed, "
             "3 or more blocks in the Recruitment Box", lambda: play_until(5, _muster).state,
             sekigahara_perft, 1),
    Position("sekigahara", "battle", "seed 1: a battle with two deployments made, no losses "
             "due yet", lambda: play_until(1, _battle).state, sekigahara_perft, 4),
    Position("sekigahara", "combat", "seed 21: a Combat Phase with three locations where combat "
             "may be declared: declarations, a castle choice, deployments, challenges, losses",
             lambda: play_until(21, _declare).state, sekigahara_perft, 4),
    Position("tenka_meidou", "start", "seed 1: three players, basic game, the first turn",
             lambda: _tenka_start(1), tenka_perft, 2),
    Position("tenka_meidou", "placement", "seed 10: four players, advanced game, "
             "mid-Deployment with six or more armies on the board, the player to act has a "
             "tactic card to play and the Daimyo pawn in the reserve",
             lambda: _tenka_play(10, _placement), tenka_perft, 2),
    Position("tenka_meidou", "war", "seed 0: the last player still placing, two pawns or "
             "fewer left: deployments that end in the War (5.II)",
             lambda: _tenka_play(0, _before_war), tenka_perft, 2),
)


def table_path(game: str) -> Path:
    return ROOT / "tests" / "games" / game / "perft.yaml"


def pinned(game: str) -> dict[str, Counts]:
    data: dict[str, Counts] = yaml.safe_load(table_path(game).read_text(encoding="utf-8"))
    return data


HEADER = """\
# Perft for {title}: the commands the engine offers from fixed positions, pinned.
# benchmarks/perft.py says what is counted and how each position is reached. A change here is
# a change of the move generation: check it against the rules before pinning it with
#     .venv/bin/python benchmarks/perft.py --write
"""


def write(found: dict[str, list[tuple[Position, Counts]]]) -> None:
    """Pin the counts: one table per game, each position under a comment saying what it is."""
    for game, rows in found.items():
        lines = [HEADER.format(title=game.replace("_", " ").title())]
        for position, counts in rows:
            lines.append(f"# {position.about}")
            lines.append(f"{position.name}: {{"
                         + ", ".join(f"{k}: {v}" for k, v in counts.items()) + "}")
        table_path(game).write_text("\n".join(lines) + "\n", encoding="utf-8")


def doc_row(position: Position, counts: Counts) -> str:
    """The position's row of the perft table in docs/engine.md or docs/tenka-meidou.md."""
    kinds = {k: n for k, n in counts.items() if not k.startswith(("depth", "wars")) and n}
    first = str(sum(kinds.values()))
    if len(kinds) > 1:
        first += f" ({', '.join(f'{n} {k}' for k, n in kinds.items())})"
    seed = position.about.split(":")[0]
    cells = [f"{position.name} ({seed})", first]
    cells += [str(counts.get(f"depth{d}", "-")) for d in range(2, 5)]
    if position.game == "tenka_meidou":
        cells = [*cells[:3], str(counts[f"wars{position.depth}"])]
    return "| " + " | ".join(cells) + " |"


def run(position: Position, depth: int) -> tuple[Counts, float]:
    state = position.build()
    start = time.perf_counter()
    counts = position.perft(state, depth)
    return counts, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=0,
                        help="the depth for every position (default: each one's pinned depth)")
    parser.add_argument("--check", action="store_true", help="compare with the pinned counts")
    parser.add_argument("--write", action="store_true", help="pin the counts (the tables in "
                        "tests/games/<game>/perft.yaml)")
    args = parser.parse_args(argv)
    status = 0
    found: dict[str, list[tuple[Position, Counts]]] = {}
    for position in POSITIONS:
        depth = args.depth or position.depth
        counts, seconds = run(position, depth)
        found.setdefault(position.game, []).append((position, counts))
        shown = " ".join(f"{k}={v}" for k, v in counts.items())
        print(f"{position.game} {position.name} depth={depth} {shown} "
              f"nodes_per_s={nodes(counts) / max(seconds, 1e-9):.0f}")
        if args.check and counts != pinned(position.game).get(position.name):
            print(f"  differs from the pinned {pinned(position.game).get(position.name)}")
            status = 1
    if args.write:
        if args.depth:
            parser.error("--write pins each position's own depth: leave --depth out")
        write(found)
    return status


if __name__ == "__main__":
    sys.exit(main())
