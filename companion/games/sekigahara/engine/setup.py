"""Setup (5.1, 5.2) and the blocks of the Reinforcement Step (6.2), drawn at the table."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.commands import DrawBlocks, StartGame
from companion.games.sekigahara.engine.data import BOARD, FACES, side_of
from companion.games.sekigahara.engine.flow import Emitter, draw_cards, reject
from companion.games.sekigahara.engine.reinforcement import begin_week
from companion.games.sekigahara.engine.state import ASIDE, BAG, MORI_BOX, Phase, State


def _fixed_zones() -> list[tuple[Side, str, object, int]]:
    zones: list[tuple[Side, str, object, int]] = []
    for loc in BOARD.locations.values():
        for side, symbols in loc.setup.fixed.items():
            zones += [(side, loc.id, sym, n) for sym, n in symbols.items()]
    for box in BOARD.boxes.values():
        zone = MORI_BOX if box.kind.value == "mori" else box.id
        for side, symbols in box.setup.fixed.items():
            zones += [(side, zone, sym, n) for sym, n in symbols.items()]
    return zones


def start_game(state: State, cmd: StartGame) -> list[ev.Event]:
    """5.1: week 1, both decks shuffled, 5 cards each, blocks with setup symbols placed (5.2.1)."""
    em = Emitter(state)
    em.emit(ev.GameStarted())
    for side in Side:
        draw_cards(em, side, 5, "5.1")
    for side, zone, symbol, n in _fixed_zones():
        chosen = [
            b for b, f in FACES.items()
            if f.side is side and f.setup is symbol and em.state.pos[b] == ASIDE
        ][:n]
        em.emit(ev.BlocksPlaced(side=side, zone=zone, blocks=tuple(chosen), random=False))
    return em.events


def next_draw(state: State, side: Side | None = None) -> tuple[Side, str, int] | None:
    """Which bag draw is due next (5.2.2: the location is named before drawing), if any."""
    for due in state.draws_due:
        if side is None or due[0] is side:
            return due
        if state.phase is Phase.SETUP:
            return None
    return None


def draw_blocks(state: State, cmd: DrawBlocks) -> list[ev.Event]:
    """5.2.2, 5.2.3, 6.2: record the blocks drawn from a bag for the zone the engine named."""
    rule = "5.2.2" if state.phase is Phase.SETUP else "6.2"
    due = next_draw(state) if state.phase is Phase.SETUP else next_draw(state, cmd.side)
    if due is None or due[0] is not cmd.side:
        raise reject(rule, f"no draw is due from the {cmd.side.value} bag now")
    side, zone, n = due
    if cmd.zone != zone:
        raise reject(rule, f"this draw is for {zone}, not {cmd.zone}")
    if state.phase is Phase.SETUP and zone.startswith("@"):
        rule = "5.2.3"
    if len(cmd.blocks) != n or len(set(cmd.blocks)) != n:
        raise reject(rule, f"{n} blocks are drawn for {zone}, not {len(cmd.blocks)}")
    bad = [b for b in cmd.blocks if b not in FACES or side_of(b) is not side or state.pos[b] != BAG]
    if bad:
        raise reject(
            rule, f"{len(bad)} of the blocks drawn are not in the {side.value} bag",
            private=f"not in the bag: {', '.join(bad)}",
        )
    em = Emitter(state)
    em.emit(ev.BlocksPlaced(side=side, zone=zone, blocks=cmd.blocks, random=True))
    if not em.state.draws_due:
        if state.phase is Phase.SETUP:
            begin_week(em, 1)
        else:
            em.emit(ev.PhaseBegan(phase=Phase.BID, week=state.week, turn="A"))
    return em.events
