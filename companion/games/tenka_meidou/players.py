"""A random player for self-play: rolls dice, lays out tables and picks card effects at random.

The card effects offered here are generated from the card texts independently of the checks in
``tactics.py`` and ``daimyo_cards.py``, so self-play cross-checks the two: a generated effect the
rules reject is reported as an error.
"""

from __future__ import annotations

import random

from companion.games.tenka_meidou.components import Board, Colour, Components, Daimyo, Tactic
from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    Deploy,
    PlayDaimyo,
    PlayTactic,
    StartGame,
    TenkaCommand,
)
from companion.games.tenka_meidou.state import RESERVE, PawnMove, Phase, State

Moves = tuple[PawnMove, ...]


def _m(colour: Colour, origin: str, destination: str, count: int = 1,
       pawn: str = "soldier") -> PawnMove:
    return PawnMove(colour=colour, pawn=pawn, origin=origin,
                    destination=destination, count=count)


def _own(state: State, colour: Colour) -> dict[str, int]:
    return {z: n for z, per in state.soldiers.items() if (n := per.get(colour, 0)) > 0}


def _rivals(state: State, colour: Colour, zone: str) -> dict[Colour, int]:
    return {c: n for c, n in state.soldiers.get(zone, {}).items() if c != colour and n > 0}


def tactic_effects(state: State, colour: Colour, card: Tactic, board: Board,
                   rng: random.Random) -> list[Moves]:
    """Legal full effects of ``card`` for ``colour`` (some, for cards with very many)."""
    own = _own(state, colour)
    out: list[Moves] = []
    reserve = state.reserve.get(colour, 0)
    for z, n in own.items():
        for d in board.neighbours(z):
            if card is Tactic.EXPLORAR:
                out.append((_m(colour, z, d),))
            if card is Tactic.DIVIDIR_EJERCITO and n >= 2:
                out.append((_m(colour, z, d, n // 2),))
            if card is Tactic.CRUZAR_MONTANA and n >= 2 and board.border(z, d) == "land":
                out.append((_m(colour, z, d, 2),))
            if card is Tactic.CRUZAR_MAR and n >= 2 and board.border(z, d) == "sea":
                out.append((_m(colour, z, d, 2),))
            for r, k in _rivals(state, colour, z).items():
                if card is Tactic.EXILIO:
                    out.append((_m(r, z, d),))
                if card is Tactic.SENUELO and k >= 2:
                    out.append((_m(colour, z, d), _m(r, z, d, 2)))
        if card is Tactic.NINJA:
            out += [(_m(colour, z, d),) for d in own if d != z]
        if card is Tactic.APOYO and reserve:
            out.append((_m(colour, RESERVE, z),))
        if card is Tactic.RETIRADA:
            if n >= 2:
                out.append((_m(colour, z, RESERVE, 2),))
            out += [(_m(colour, z, RESERVE), _m(colour, y, RESERVE)) for y in own if y > z]
    for z in board.zone_ids:
        for r in _rivals(state, colour, z):
            if card is Tactic.REBELION and reserve:
                out.append((_m(r, z, RESERVE), _m(colour, RESERVE, z)))
            if card is Tactic.PRISIONERO:
                out += [(_m(r, z, d),) for d in board.neighbours(z) if d in own]
    if card is Tactic.OCUPAR_KIOTO:
        near = [z for z in board.neighbours(board.kyoto) if z in own]
        for _ in range(4 if near else 0):
            chosen = rng.sample(near, rng.randint(1, len(near)))
            out.append(tuple(_m(colour, z, board.kyoto, rng.randint(1, own[z])) for z in chosen))
    return out


def _spread(rng: random.Random, colour: Colour, origin: str, count: int,
            places: list[str]) -> list[PawnMove]:
    return [_m(colour, origin, rng.choice(places)) for _ in range(count)]


def daimyo_effects(state: State, colour: Colour, card: Daimyo, board: Board,
                   rng: random.Random) -> list[Moves]:
    """A few legal full effects of ``colour``'s Daimyo card."""
    zone = state.daimyo_at.get(colour)
    if zone is None:
        return []
    here = state.on_board(zone, colour)
    reserve = state.reserve.get(colour, 0)
    around = list(board.neighbours(zone))
    out: list[Moves] = []
    for _ in range(3):
        land = list(board.neighbours(zone, "land"))
        if card is Daimyo.UESUGI_KENSHIN and here and land:
            out.append(tuple(_spread(rng, colour, zone, rng.randint(1, min(3, here)), land)))
        if card is Daimyo.ODA_NOBUNAGA:
            d = rng.choice(around)
            escort = [_m(colour, zone, d)] if here and rng.random() < 0.5 else []
            out.append((_m(colour, zone, d, pawn="daimyo"), *escort))
        if card is Daimyo.TAKEDA_SHINGEN and (rivals := _rivals(state, colour, zone)):
            r = rng.choice(sorted(rivals))
            out.append(tuple(_spread(rng, r, zone, rng.randint(1, min(3, rivals[r])), around)))
        if card is Daimyo.MORI_MOTONARI and reserve:
            picked = rng.sample(around, rng.randint(1, min(3, reserve, len(around))))
            out.append(tuple(_m(colour, RESERVE, d) for d in picked))
        if card is Daimyo.CHOSOKABE_MOTOCHIKA and (sea := list(board.neighbours(zone, "sea"))):
            pawns = ["soldier"] * min(here, 3) + ["daimyo"]
            chosen = rng.sample(pawns, rng.randint(1, min(3, len(pawns))))
            out.append(tuple(_m(colour, zone, rng.choice(sea), pawn=p) for p in chosen))
        if card is Daimyo.OTOMO_SORIN and reserve:
            targets = [z for z in around if _rivals(state, colour, z)]
            if targets:
                picked = rng.sample(targets, rng.randint(1, min(2, reserve, len(targets))))
                out.append(tuple(
                    m for z in picked
                    for m in (_m(rng.choice(sorted(_rivals(state, colour, z))), z, RESERVE),
                              _m(colour, RESERVE, z))))
    return out


def random_start(rng: random.Random, board: Board, components: Components) -> StartGame:
    """A table laid out at random (section 3): 2-4 players, the advanced game half the time."""
    players = tuple(rng.sample(list(components.colours), rng.randint(2, 4)))
    table = components.table(len(players))
    advanced = rng.random() < 0.5
    values = list(components.large_castle_tokens)
    rng.shuffle(values)
    return StartGame(
        players=players, advanced=advanced, castles=dict(zip(board.zone_ids, values, strict=True)),
        tactic_offer=tuple(rng.sample(list(Tactic), table.tactic_offer)),
        daimyo_offer=tuple(rng.sample(list(Daimyo), table.daimyo_offer)) if advanced else (),
    )


class RandomPlayer:
    """Chooses a legal-looking command for whoever is to act."""

    def __init__(self, rng: random.Random, board: Board, components: Components,
                 card_chance: float = 0.3):
        self.rng = rng
        self.board = board
        self.components = components
        self.card_chance = card_chance

    def command(self, state: State) -> TenkaCommand:
        rng = self.rng
        if state.phase is Phase.SETUP:
            return random_start(rng, self.board, self.components)
        if state.phase is Phase.DAIMYO:
            chooser = state.daimyo_chooser()
            assert chooser is not None
            return ChooseDaimyo(colour=chooser, card=rng.choice(state.daimyo_offer))
        colour = state.current
        assert colour is not None
        if not state.locked and rng.random() < self.card_chance:
            play = self._card(state, colour)
            if play is not None:
                return play
        rolls = [tuple(rng.randint(1, 6) for _ in range(3))]
        if rng.random() < 0.3:
            rolls.append(tuple(rng.randint(1, 6) for _ in range(3)))
        single = rng.choice(rolls[-1])
        wanted = min(self.components.die_to_soldiers[single], state.pawns_left(colour))
        daimyo = state.daimyo_in_reserve(colour) and (
            state.reserve.get(colour, 0) < wanted or rng.random() < 0.3)
        return Deploy(colour=colour, rolls=tuple(rolls), single=single,
                      daimyo=daimyo)

    def _card(self, state: State, colour: Colour) -> TenkaCommand | None:
        options: list[TenkaCommand] = []
        if colour not in state.tactic_used:
            options += [
                PlayTactic(colour=colour, card=card, moves=moves)
                for card in state.tactic_offer
                for moves in tactic_effects(state, colour, card, self.board, self.rng)]
        card_d = state.daimyo.get(colour)
        if card_d is not None and colour not in state.daimyo_used:
            options += [PlayDaimyo(colour=colour, moves=moves)
                        for moves in daimyo_effects(state, colour, card_d, self.board, self.rng)]
        return self.rng.choice(options) if options else None
