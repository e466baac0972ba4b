"""Applying events to a state: deterministic, no validation (the handlers validated)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

from companion.games.sekigahara import combat
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import blocks_at, disks_at, normalise
from companion.games.sekigahara.engine.data import BOARD, DECK_SIZE, FACES, side_of
from companion.games.sekigahara.engine.state import (
    ASIDE,
    BAG,
    DEAD,
    MORI_BOX,
    RECRUITMENT,
    Level,
    PendingCombat,
    Phase,
    Stage,
    State,
)

ACTION = TypeAdapter[Any](combat.CombatAction)
MANY = 10_000  # "every stack" under Total Movement (7.1)


def entry_key(side: Side, location: str) -> str:
    return f"{side.value}:{location}"


def setup_draws() -> list[tuple[Side, str, int]]:
    """5.2.2 then 5.2.3: the random fills location by location, then 4 blocks per box."""
    due: list[tuple[Side, str, int]] = []
    for side in Side:
        for loc in BOARD.locations.values():
            n = loc.setup.random.get(side, 0)
            if n:
                due.append((side, loc.id, n))
    for side in Side:
        n = BOARD.recruitment_box(side).setup.random.get(side, 0)
        due.append((side, RECRUITMENT, n))
    return due


def _started(s: State, e: ev.GameStarted) -> None:
    s.phase = Phase.SETUP
    s.week, s.turn = 1, "A"
    for side in Side:
        s.draw[side] = DECK_SIZE[side]
    for b, face in FACES.items():
        s.place(b, BAG if face.setup is None else ASIDE)
    for loc in BOARD.locations.values():
        if loc.disk is not None:
            s.disks[loc.disk] = loc.id
        if loc.resource:
            s.resource_control[loc.id] = loc.capital
        if loc.castle is not None:
            s.castle_owner[loc.id] = loc.castle
    s.draws_due = setup_draws()


def _placed(s: State, e: ev.BlocksPlaced) -> None:
    for b in e.blocks:
        s.place(b, e.zone)
    if e.random:
        for i, due in enumerate(s.draws_due):
            if due[:2] == (e.side, e.zone):
                del s.draws_due[i]
                break
    normalise(s, [e.zone])


def _drawn(s: State, e: ev.CardsDrawn) -> None:
    for _ in range(e.count):
        if s.draw[e.side] == 0:  # 3.3: reshuffle the discard pile
            s.draw[e.side], s.discard[e.side] = s.discard[e.side], 0
            s.discarded[e.side] = frozenset()
        if s.draw[e.side] == 0:
            return
        s.draw[e.side] -= 1
        s.hand[e.side] += 1


def _discarded(s: State, e: ev.CardsDiscarded) -> None:
    if e.from_table:
        s.table[e.side] -= e.count
        s.table_cards[e.side] = tuple(c for c in s.table_cards[e.side] if c not in e.cards)
    else:
        s.hand[e.side] -= e.count
    s.discard[e.side] += e.count
    s.discarded[e.side] |= set(e.cards)  # 3.3: face up in the pile until it is reshuffled


def _phase(s: State, e: ev.PhaseBegan) -> None:
    s.phase, s.week, s.turn, s.active = e.phase, e.week, e.turn, e.active
    s.draws_due = list(e.draws_due)
    if e.phase is Phase.MOVEMENT:
        s.level, s.moves_left, s.mustered = None, 0, False
        s.moved, s.sources, s.used_segments, s.entered_from = set(), set(), set(), {}
        if e.active is s.first:  # a new turn (6.4): arrivals of the last turn may move again
            s.immobile = set()
    elif e.phase is Phase.COMBAT:
        s.resolved = set()
    elif e.phase is Phase.BID:
        s.bids, s.bid_winner = {}, None


def _bid(s: State, e: ev.BidPlaced) -> None:
    s.hand[e.side] -= 1
    s.table[e.side] += 1
    s.table_cards[e.side] += (e.card,)
    s.bids[e.side] = e.card


def _revealed(s: State, e: ev.BidsRevealed) -> None:
    s.bid_winner = e.winner


def _first(s: State, e: ev.FirstPlayerChosen) -> None:
    s.first = e.first


def _bought(s: State, e: ev.MovementBought) -> None:
    s.level = e.level
    s.moves_left = {Level.NONE: 0, Level.MINIMAL: 1, Level.LIMITED: 3, Level.TOTAL: MANY}[e.level]


def _mustered(s: State, e: ev.Mustered) -> None:
    for b in e.blocks:
        s.place(b, e.location)
    s.immobile |= set(e.blocks)
    s.mustered = True
    if s.level is not Level.TOTAL:
        s.moves_left -= 1
    normalise(s, [e.location])


def _mori(s: State, e: ev.MoriArrived) -> None:
    osaka = BOARD.mori_box.leads_to or "osaka"
    for b in e.blocks:
        s.place(b, osaka)
    s.immobile |= set(e.blocks)
    normalise(s, [osaka])


def _moved(s: State, e: ev.StackMoved) -> None:
    touched = {e.origin}
    for b, path in e.paths.items():
        s.place(b, path[-1])
        touched.add(path[-1])
        before = path[-2] if len(path) > 1 else e.origin
        s.entered_from.setdefault(entry_key(e.side, path[-1]), set()).add(before)
    s.moved |= set(e.paths)
    s.sources.add(e.origin)
    if s.level is not Level.TOTAL:
        s.moves_left -= 1
    s.used_segments |= set(e.segments)
    normalise(s, touched)


def _overrun(s: State, e: ev.Overrun) -> None:
    for b in e.blocks:
        s.place(b, DEAD)
        s.casualties.append(b)
    normalise(s, [e.location])


def _resource(s: State, e: ev.ResourceControlled) -> None:
    s.resource_control[e.location] = e.side


def _declared(s: State, e: ev.CombatDeclared) -> None:
    s.pending = PendingCombat(
        e.location, e.attacker, e.owner, Stage.CASTLE_CHOICE, from_retreat=e.from_retreat
    )


def _stayed(s: State, e: ev.StayedInside) -> None:
    if e.inside:
        s.inside |= set(blocks_at(s, e.location, e.side))
    else:
        s.inside -= set(blocks_at(s, e.location, e.side))
    if not e.combat:
        s.pending = None
        s.resolved.add(e.location)


def _opened(s: State, e: ev.CombatOpened) -> None:
    assert s.pending is not None
    p = s.pending
    attacker = p.attacker
    s.inside = (s.inside - set(blocks_at(s, e.location))) | set(e.inside)
    setup = combat.CombatSetup(
        kind=combat.CombatKind.SIEGE if e.siege else combat.CombatKind.BATTLE,
        attacker=attacker,
        blocks={b: FACES[b] for b in blocks_at(s, e.location)},
        castle=e.location if BOARD.locations[e.location].castle is not None else None,
        disks=tuple(disks_at(s, e.location)) if e.siege else (),
        inside=frozenset(e.inside),
    )
    p.combat = combat.start_combat(setup, BOARD)
    p.siege = e.siege
    p.stage = Stage.FIGHTING


def _acted(s: State, e: ev.CombatActed) -> None:
    assert s.pending is not None
    action = ACTION.validate_python(e.action)
    played: combat.PlayedCard | combat.Challenge | None = (
        action.card if isinstance(action, combat.Deploy) else
        action if isinstance(action, combat.Challenge) else None)
    if played is not None:
        s.hand[action.side] -= 1  # 8.2.3, 8.6.1: the card goes face up on the table
        s.table[action.side] += 1
        if played.card_id is not None:
            s.table_cards[action.side] += (played.card_id,)
    s.pending.combat, _ = combat.apply_action(s.pending.combat, action)


def _ended(s: State, e: ev.CombatEnded) -> None:
    for side in Side:
        for b in e.losses.get(side, ()):
            s.place(b, DEAD)
            s.casualties.append(b)
    for d in e.disks_lost:
        s.disks[d] = None
    assert s.pending is not None
    s.pending.combat = None
    if e.retreating is not None:
        s.pending.stage = Stage.RETREAT
        s.pending.retreating = e.retreating
        s.pending.draws = dict(e.draws)
    else:
        s.pending = None
        s.resolved.add(e.location)
    normalise(s, [e.location])


def _retreated(s: State, e: ev.Retreated) -> None:
    for b in e.blocks:
        if b in e.into_castle:
            s.inside.add(b)
        elif e.destination is not None:
            s.place(b, e.destination)
            if e.join_castle:
                s.inside.add(b)
            else:
                s.inside.discard(b)
    if e.destination is not None:
        s.entered_from.setdefault(entry_key(e.side, e.destination), set()).add(e.origin)
    s.pending = None
    s.resolved.add(e.origin)
    normalise(s, [e.origin, *([e.destination] if e.destination else [])])


def _resolved(s: State, e: ev.LocationResolved) -> None:
    s.resolved.add(e.location)
    if s.pending is not None and s.pending.location == e.location:
        s.pending = None


def _won(s: State, e: ev.GameWon) -> None:
    s.winner, s.victory, s.score = e.winner, e.reason, dict(e.score)
    s.phase = Phase.GAME_OVER
    s.pending = None


_APPLY: dict[type[Any], Callable[[State, Any], None]] = {
    ev.GameStarted: _started, ev.BlocksPlaced: _placed, ev.CardsDrawn: _drawn,
    ev.CardsDiscarded: _discarded, ev.PhaseBegan: _phase, ev.BidPlaced: _bid,
    ev.BidsRevealed: _revealed, ev.FirstPlayerChosen: _first, ev.MovementBought: _bought,
    ev.Mustered: _mustered, ev.MoriArrived: _mori, ev.StackMoved: _moved,
    ev.Overrun: _overrun, ev.ResourceControlled: _resource, ev.CombatDeclared: _declared,
    ev.CombatOpened: _opened, ev.StayedInside: _stayed, ev.CombatActed: _acted,
    ev.CombatEnded: _ended, ev.Retreated: _retreated, ev.LocationResolved: _resolved,
    ev.GameWon: _won,
}


def apply_event(state: State, event: ev.Event) -> State:
    """The state after ``event`` (a new state; ``state`` is left untouched)."""
    new = state.copy()
    _APPLY[type(event)](new, event)
    return new


__all__ = ["MORI_BOX", "apply_event", "entry_key", "setup_draws", "side_of"]
