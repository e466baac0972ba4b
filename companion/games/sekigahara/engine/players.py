"""A seeded table and random players, for self-play and tests.

The :class:`Table` is the physical randomness the engine never invents: the shuffled decks, the
hands, the bags. :class:`RandomPlayer` chooses uniformly among legal commands found through the
engine's queries. Only the simulator and tests use these.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.core.game import Accepted
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import blocks_at, castle_owner
from companion.games.sekigahara.engine.data import CARDS, DECK_SIZE, FACES
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.mori import mori_in_box
from companion.games.sekigahara.engine.queries import (
    declarable,
    legal_destinations,
    may_muster,
    movable_stacks,
    must_declare,
    muster_locations,
    next_draw,
    retreat_options,
)
from companion.games.sekigahara.engine.state import BAG, RECRUITMENT, Level, Phase, Stage, State


@dataclass
class Table:
    """The cards as they physically are, kept in step with the engine's events."""

    rng: random.Random
    draw: dict[Side, list[str]] = field(default_factory=dict)
    hand: dict[Side, list[str]] = field(default_factory=dict)
    discard: dict[Side, list[str]] = field(default_factory=dict)
    table: dict[Side, list[str]] = field(default_factory=dict)
    chosen: dict[Side, list[str]] = field(default_factory=dict)

    @classmethod
    def shuffled(cls, rng: random.Random) -> Table:
        t = cls(rng)
        for side in Side:
            deck = sorted(c for c, card in CARDS.items() if card.side is side)
            rng.shuffle(deck)
            t.draw[side], t.hand[side], t.discard[side], t.table[side] = deck, [], [], []
            t.chosen[side] = []
        return t

    def cards(self, side: Side) -> int:
        return sum(len(pile[side]) for pile in (self.draw, self.hand, self.discard, self.table))

    def observe(self, event: ev.Event) -> None:
        """Follow one engine event at the table."""
        if isinstance(event, ev.CardsDrawn):
            for _ in range(event.count):
                if not self.draw[event.side]:
                    self.draw[event.side] = self.discard[event.side]
                    self.discard[event.side] = []
                    self.rng.shuffle(self.draw[event.side])
                if not self.draw[event.side]:
                    break
                self.hand[event.side].append(self.draw[event.side].pop())
        elif isinstance(event, ev.CardsDiscarded):
            src = self.table if event.from_table else self.hand
            for _ in range(event.count):
                pile = src[event.side]
                pref = [c for c in self.chosen[event.side] if c in pile]
                card = pref[0] if pref else self.rng.choice(pile)
                if card in self.chosen[event.side]:
                    self.chosen[event.side].remove(card)
                pile.remove(card)
                self.discard[event.side].append(card)
        elif isinstance(event, ev.BidPlaced):
            self.hand[event.side].remove(event.card)
            self.table[event.side].append(event.card)
        elif isinstance(event, ev.CombatActed):
            action: dict[str, Any] = event.action
            played: dict[str, Any] | None = (
                action.get("card") if action["type"] == "deploy" else None
            )
            if action["type"] == "challenge" or played is not None:
                cid: str | None = (played or {}).get("card_id") or action.get("card_id")
                if cid is None or cid not in self.hand[event.side]:
                    cid = next(
                        c for c in self.hand[event.side] if CARDS[c].kind is CardKind.LOYALTY
                    )
                self.hand[event.side].remove(cid)
                self.table[event.side].append(cid)


def _can_deploy(card_id: str, clan: Clan | None, kind: CardKind) -> bool:
    card = CARDS[card_id]
    return card.clan is clan and card.kind is kind


class RandomPlayer:
    """Chooses uniformly among legal commands (as the engine's queries describe them)."""

    def __init__(self, rng: random.Random, table: Table) -> None:
        self.rng = rng
        self.table = table

    def command(self, state: State) -> cm.Command:
        r = self.rng
        if state.phase is Phase.NOT_STARTED:
            return cm.StartGame()
        if state.phase in (Phase.SETUP, Phase.REINFORCEMENT):
            due = next_draw(state)
            assert due is not None
            side, zone, n = due
            bag = blocks_at(state, BAG, side)
            return cm.DrawBlocks(side=side, zone=zone, blocks=tuple(r.sample(bag, n)))
        if state.phase is Phase.BID:
            side = next(s for s in Side if s not in state.bids)
            return cm.Bid(side=side, card=r.choice(self.table.hand[side]))
        if state.phase is Phase.CHOOSE_FIRST:
            assert state.bid_winner is not None
            return cm.ChooseFirst(side=state.bid_winner, first=r.choice(list(Side)))
        assert state.active is not None
        if state.phase is Phase.MOVEMENT:
            return self._movement(state, state.active)
        return self._combat(state, state.active)

    def _movement(self, state: State, side: Side) -> cm.Command:
        r = self.rng
        if state.level is None:
            levels = [lv for lv, c in ((Level.NONE, 0), (Level.MINIMAL, 0), (Level.LIMITED, 1),
                                       (Level.TOTAL, 2)) if state.hand[side] >= c]
            level = r.choice(levels)
            replace = r.randint(0, state.hand[side]) if level is Level.NONE else 0
            return cm.BuyMovement(side=side, level=level, replace=replace)
        options: list[str] = ["end"]
        if may_muster(state, side) is None and blocks_at(state, RECRUITMENT, side):
            options.append("muster")
        if side is Side.ISHIDA and mori_in_box(state) and state.hand[side] > 2 and r.random() < .2:
            options.append("mori")
        stacks = movable_stacks(state, side)
        if stacks:
            options += ["move"] * 4
        choice = r.choice(options)
        if choice == "muster":
            box = blocks_at(state, RECRUITMENT, side)
            option = r.choice(["A", "B"])
            if option == "A":
                clan = FACES[r.choice(box)].clan
                same = [b for b in box if FACES[b].clan is clan]
                blocks = tuple(r.sample(same, r.randint(1, len(same))))
            else:
                blocks = tuple(r.sample(box, 1))
            where = muster_locations(state, side, blocks, option)
            if where:
                return cm.Muster(side=side, location=r.choice(where), blocks=blocks, option=option)
        if choice == "mori":
            box = mori_in_box(state)
            n = r.randint(1, min(len(box), state.hand[side] - 1))
            others = [b for b in box if not FACES[b].leader]
            leader = [b for b in box if FACES[b].leader]
            chosen = others[:n] if n <= len(others) else others + leader
            return cm.BringMori(blocks=tuple(chosen))
        if choice in ("move", "muster", "mori") and stacks:
            origin = r.choice(sorted(stacks))
            here = stacks[origin]
            group = tuple(sorted(r.sample(here, r.randint(1, len(here)))))
            dests = legal_destinations(state, side, origin, group)
            if dests:
                dest = r.choice(sorted(dests))
                route = r.choice(dests[dest])
                paths = {b: route.path for b in group}
                # drop some blocks off along the way (7.3.1), after every Overrun of the route
                # (blocks dropped before it would not count towards it, 7.4.1)
                first = max((route.path.index(o) + 1 for o in route.overruns), default=1)
                if len(group) > 1 and first < len(route.path) and r.random() < 0.3:
                    stop = r.randint(first, len(route.path) - 1)
                    for b in r.sample(group, r.randint(1, len(group) - 1)):
                        paths[b] = route.path[:stop]
                marched = tuple(b for b in group if paths[b] == route.path)
                marches = (marched,) if route.needs_force_march else ()
                return cm.MoveStack(side=side, origin=origin, paths=paths, force_marches=marches)
        return cm.EndPhase(side=side)

    def _combat(self, state: State, side: Side) -> cm.Command:
        r = self.rng
        p = state.pending
        if p is None:
            options = declarable(state)
            if not options:
                return cm.EndPhase(side=side)
            required = must_declare(state)
            if not required and r.random() < 0.5:
                return cm.EndPhase(side=side)
            loc = r.choice(required or options)
            inside = (castle_owner(state, loc) is side and len(blocks_at(state, loc, side)) <= 2
                      and r.random() < 0.5)
            return cm.DeclareCombat(side=side, location=loc, inside=inside)
        if p.stage is Stage.CASTLE_CHOICE:
            assert p.owner is not None
            return cm.ChooseInside(side=p.owner, inside=r.random() < 0.5)
        if p.stage is Stage.RETREAT:
            assert p.retreating is not None
            destinations, castle = retreat_options(state)
            remaining = blocks_at(state, p.location, p.retreating)
            into: tuple[str, ...] = ()
            if castle and r.random() < 0.5:
                into = tuple(r.sample(remaining, min(len(remaining), r.randint(1, 2))))
            return cm.Retreat(side=p.retreating, destination=r.choice(destinations),
                              into_castle=into)
        return self._fight(p.combat)

    def _fight(self, cstate: combat.CombatState) -> cm.Command:
        r = self.rng
        losses = combat.loss_choice(cstate)
        if losses is not None:  # uniform over the lazy selection, never listed (8.7.2)
            chosen = r.choice(losses)
            return cm.TakeLosses(side=chosen.side, losses=chosen.losses)
        actions = combat.legal_actions(cstate)
        playable: list[cm.Command] = []
        for a in actions:
            if isinstance(a, combat.Deploy):
                if a.card is None:
                    playable.append(cm.Deploy(side=a.side, card=None, blocks=a.blocks))
                    continue
                card_ids = [c for c in self.table.hand[a.side]
                            if _can_deploy(c, a.card.clan, a.card.kind)]
                if card_ids:
                    cid = r.choice(card_ids)
                    playable.append(cm.Deploy(side=a.side, blocks=a.blocks, card=cm.CardPlay(
                        clan=a.card.clan, kind=a.card.kind, card_id=cid)))
            elif isinstance(a, combat.Challenge):
                if a.refuted or not any(CARDS[c].kind is CardKind.LOYALTY
                                        for c in self.table.hand[a.side]):
                    continue
                last = cstate.deployments[-1]
                deployer = last.side
                needed = {FACES[b].clan for b in last.blocks}
                refutes = any(
                    CARDS[c].kind is not CardKind.LOYALTY and (
                        CARDS[c].clan in needed or any(FACES[b].is_wildcard for b in last.blocks))
                    for c in self.table.hand[deployer]
                )
                if r.random() < 0.5:
                    playable.append(cm.Challenge(side=a.side, refuted=refutes))
            elif isinstance(a, combat.Finish):
                playable.append(cm.Finish(side=a.side))
            elif isinstance(a, combat.Lose):
                playable.append(cm.TakeLosses(side=a.side, losses=a.losses))
        if not playable:
            raise RuntimeError("no playable combat action")
        finishes = [c for c in playable if isinstance(c, cm.Finish)]
        if finishes and r.random() < 0.3:
            return finishes[0]
        return r.choice(playable)


def deck_total() -> int:
    return sum(DECK_SIZE.values())


def play_until(seed: int, done: Callable[[State], bool],
               max_commands: int = 20_000) -> SekigaharaGame:
    """Seeded random players drive a new game until ``done(state)``. ValueError if the seed
    never gets there within ``max_commands`` commands. For tests and benchmarks that need a
    real position."""
    rng = random.Random(seed)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    game = new_game()
    for _ in range(max_commands):
        if done(game.state):
            return game
        result = game.submit(player.command(game.state))
        if isinstance(result, Accepted):
            for event in result.events:
                table.observe(event)
    raise ValueError(f"seed {seed}: never reached the wanted position")
