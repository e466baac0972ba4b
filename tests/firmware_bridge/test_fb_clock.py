"""The clock a machine's hand moves on (:mod:`firmware_bridge.clock`): the demo and the
whole-app tests do not sleep through the settle rule's rest, yet the rules judge exactly what
they would have judged after it; with people at the table (a clock that cannot be moved, or
pieces the readers have not seen yet) nothing is skipped."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from fb_game import lay_out, seeded_movement
from fb_helpers import WAIT_S

from companion.games.sekigahara.engine import events as ev
from firmware_bridge import protocol as p
from firmware_bridge.clock import TableClock
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.tablelink import Readers, TableLink

LONG_S = 600.0
"""A settle and a missing time no test waits out: a ruling that comes is the clock's doing."""


def test_a_table_clock_moves_on_and_never_back() -> None:
    now = [100.0]
    clock = TableClock(lambda: now[0])
    assert clock() == 100.0 and clock.skipped == 0.0
    clock.skip(2.5)
    now[0] = 101.0
    assert clock() == 103.5 and clock.base() == 101.0 and clock.skipped == 2.5
    with pytest.raises(ValueError, match="never back"):
        clock.skip(-1.0)


@pytest.fixture
def following(table: SimulatedTable) -> Iterator[Callable[..., TableLink]]:
    links: list[TableLink] = []

    def follow(**kw: object) -> TableLink:
        game = seeded_movement()
        readers = Readers(table, table.ports, table.wiring, table.registry)
        link = TableLink(readers, game, settle_s=LONG_S, debounce_missing_s=LONG_S,
                         **kw).start()  # type: ignore[arg-type]
        links.append(link)
        link.bridge.wait_for(lambda b: len(b.hubs()) == len(table.hubs), WAIT_S)
        lay_out(table, link.bridge, game)
        link.session.wait_for(lambda s: s.discrepancies == () and not s.questions, WAIT_S)
        return link

    yield follow
    for link in links:
        link.session.stop()
        link.bridge.stop()


def test_a_move_is_ruled_as_soon_as_the_readers_see_it_not_after_the_rest(
        table: SimulatedTable, following: Callable[..., TableLink]) -> None:
    link = following()
    assert isinstance(link.clock, TableClock)
    assert not link.rest_over()  # nothing resting: nothing to move on
    started = time.monotonic()
    table.move("gifu", "kiso")
    link.bridge.wait_for(lambda _b: link.rest_over(), WAIT_S)
    link.session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
    moved = [e for e in link.game.events if isinstance(e, ev.StackMoved)]
    assert moved[-1].origin == "gifu" and set(moved[-1].paths) == {"I11", "I15"}
    assert link.clock.skipped == LONG_S  # the rest, once, and not the missing time
    assert time.monotonic() - started < WAIT_S * 2  # far less than the 600 s rest
    assert not link.rest_over()


def test_with_a_clock_that_cannot_be_moved_the_rest_is_kept(
        table: SimulatedTable, following: Callable[..., TableLink]) -> None:
    link = following(clock=time.monotonic)
    table.move("gifu", "kiso")
    link.bridge.wait_for(lambda b: set(b.settling()) == {"I11", "I15"}, WAIT_S)
    assert not link.rest_over()
    assert link.game.state.pos["I11"] == "gifu"  # resting until players let go for 600 s


def test_a_piece_gone_from_where_the_rules_want_it_is_not_given_up_early(
        table: SimulatedTable, following: Callable[..., TableLink]) -> None:
    link = following()
    table.lift("I11")  # into a hand, or a bag: the readers cannot tell
    link.bridge.wait_for(lambda b: "I11" in b.holding(), WAIT_S)
    assert not link.rest_over()  # the rules want it on Gifu, a place the readers watch
    assert "I11" in link.bridge.holding() and link.clock.skipped == 0.0


def test_time_moved_on_before_a_lift_does_not_count_against_it(
        table: SimulatedTable, following: Callable[..., TableLink]) -> None:
    """Frames are timed on the hubs' clock, the pieces on the moved one: a block lifted after
    many jumps has been in hand for as long as it really has (a demo lost a block this way
    once the jumps added up to the missing time)."""
    link = following()
    assert isinstance(link.clock, TableClock)
    link.clock.skip(2 * LONG_S)  # the hand's jumps of many earlier rests
    table.lift("I11")
    link.bridge.wait_for(lambda b: "I11" in b.holding(), WAIT_S)
    link.bridge.tick()
    assert "I11" in link.bridge.holding() and "I11" not in link.bridge.tracker.missing


def test_the_rest_is_not_over_while_frames_read_before_the_move_are_on_their_way(
        table: SimulatedTable, following: Callable[..., TableLink]) -> None:
    """A hub's frames can reach a busy bridge late: one read before the hand's move, written
    and still unread, says the stack is still on Gifu. The clock is not moved on (so no rest
    is ruled over) until the bridge has handled every frame the hubs wrote before the call;
    moved on at once, the landing on Kiso would be ruled a move and that late frame a move back
    (a demo under load saw pawns it had placed come back to their reserve). Handled, the late
    frame makes the stack straddle Gifu and Kiso until Gifu's next read misses it; standing
    squarely on Kiso again, where it was tracked, it is told (``Straddled``) and played."""
    link = following()
    stack = table.blocks_on("gifu")
    table.move("gifu", "kiso")

    def lying() -> dict[str, str]:
        return {piece: zone for zone, pieces in table.occupied() for piece in pieces}

    link.bridge.wait_for(lambda b: set(b.settling()) == set(stack)
                         and b.placements() == lying(), WAIT_S)
    hub, antenna = table.antenna("gifu")
    with link.bridge._lock:  # the bridge is busy: what the hub writes now waits to be read
        for part in p.snapshot_frames(antenna, [table.uid(b) for b in stack]):
            hub.send(part)  # Gifu as read before the move
        assert not link.rest_over()
    assert link.clock.skipped == 0.0
    link.bridge.wait_for(lambda _b: link.rest_over(), WAIT_S)
    link.session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
    moved = [e for e in link.game.events if isinstance(e, ev.StackMoved)]
    assert moved[-1].origin == "gifu" and set(moved[-1].paths) == set(stack)
