"""The 12 tactic cards (section 7): does a list of pawn moves carry out the card in full?

Each check takes the state before the card, the player, the card's moves (normalised) and the
board, and raises :class:`RuleViolation` citing section 7 if the moves are not exactly one legal
full effect of the card. Cards speak of *soldier* pawns only: a Daimyo pawn never moves by a
tactic card and never makes a zone one "where you have soldier pawns" (section 9, clarification
TM10: a zone holding only your Daimyo is no destination for *Apoyo* or *Ninja*, no origin for
*Exilio*, no destination for *Prisionero*).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Board, Border, Colour, Tactic
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State

RULE = "7"
Check = Callable[[State, Colour, tuple[PawnMove, ...], Board], None]


def _fail(card: Tactic, why: str) -> RuleViolation:
    return RuleViolation(RULE, f"{card.value}: {why}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _shape(card: Tactic, moves: tuple[PawnMove, ...], n: int) -> None:
    if len(moves) != n:
        raise _fail(card, f"the effect is {_count(n, 'group')} of pawns moved, not {len(moves)}")
    if any(m.pawn != "soldier" for m in moves):
        raise _fail(card, "tactic cards move soldier pawns only, never a Daimyo (section 9)")


def _own(card: Tactic, m: PawnMove, colour: Colour, count: int | None = None) -> None:
    if m.colour != colour:
        raise _fail(card, f"moves {colour}'s own soldiers, not {m.colour}'s")
    if count is not None and m.count != count:
        raise _fail(card, f"moves exactly {_count(count, 'soldier')}, not {m.count}")


def _rival(card: Tactic, m: PawnMove, colour: Colour, count: int = 1) -> None:
    if m.colour == colour:
        raise _fail(card, "moves a rival's soldier, not one's own")
    if m.count != count:
        raise _fail(card, f"moves exactly {_count(count, 'rival soldier')}, not {m.count}")


def _zone_to_zone(card: Tactic, m: PawnMove) -> None:
    if RESERVE in (m.origin, m.destination):
        raise _fail(card, "moves pawns from a zone to a zone")


def _adjacent(card: Tactic, board: Board, m: PawnMove, kind: Border | None = None) -> None:
    _zone_to_zone(card, m)
    border = board.border(m.origin, m.destination)
    if border is None or kind not in (None, border):
        what = "adjacent" if kind is None else f"joined by {kind}"
        raise _fail(card, f"{m.destination} is not {what} to {m.origin}")


def _holds(card: Tactic, state: State, colour: Colour, zone: str) -> None:
    """``zone`` is one "where you have soldier pawns": soldiers, the Daimyo not counted (TM10)."""
    if state.on_board(zone, colour) == 0:
        alone = (": a Daimyo pawn is not a soldier pawn (clarification TM10)"
                 if state.daimyo_at.get(colour) == zone else "")
        raise _fail(card, f"{colour} has no soldier pawns in {zone}{alone}")


def explorar(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Move 1 of your soldiers to an adjacent zone."""
    _shape(Tactic.EXPLORAR, moves, 1)
    _own(Tactic.EXPLORAR, moves[0], colour, 1)
    _adjacent(Tactic.EXPLORAR, board, moves[0])


def _two_across(card: Tactic, kind: Border) -> Check:
    def check(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
        _shape(card, moves, 1)
        _own(card, moves[0], colour, 2)
        _adjacent(card, board, moves[0], kind)

    check.__doc__ = f"Move 2 of your soldiers from one zone to one zone joined by {kind}."
    return check


cruzar_montana = _two_across(Tactic.CRUZAR_MONTANA, "land")
cruzar_mar = _two_across(Tactic.CRUZAR_MAR, "sea")


def dividir_ejercito(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move half (rounded down) of your soldiers in one zone, at least 2 there, to an adjacent
    zone."""
    card = Tactic.DIVIDIR_EJERCITO
    _shape(card, moves, 1)
    m = moves[0]
    _zone_to_zone(card, m)
    there = state.on_board(m.origin, colour)
    if there < 2:
        raise _fail(card, f"needs 2 or more soldiers in one zone; {colour} has {there} in "
                    f"{m.origin}")
    _own(card, m, colour, there // 2)
    _adjacent(card, board, m)


def ninja(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Move 1 of your soldiers to any zone where you have soldiers, adjacent or not."""
    _shape(Tactic.NINJA, moves, 1)
    _own(Tactic.NINJA, moves[0], colour, 1)
    _zone_to_zone(Tactic.NINJA, moves[0])
    _holds(Tactic.NINJA, state, colour, moves[0].destination)


def ocupar_kioto(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move any number (at least one, TM3) of your soldiers in zones adjacent to Kyoto into
    Kyoto."""
    card = Tactic.OCUPAR_KIOTO
    if not moves:
        raise _fail(card, "moves at least one soldier into Kyoto (clarification TM3)")
    _shape(card, moves, len(moves))
    for m in moves:
        _own(card, m, colour)
        if m.destination != board.kyoto:
            raise _fail(card, f"moves soldiers into {board.kyoto} only")
        _adjacent(card, board, m)


def apoyo(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Place 1 soldier from your reserve in any zone where you have soldiers."""
    _shape(Tactic.APOYO, moves, 1)
    m = moves[0]
    _own(Tactic.APOYO, m, colour, 1)
    if m.origin != RESERVE or m.destination == RESERVE:
        raise _fail(Tactic.APOYO, "places a soldier from the reserve on the board")
    _holds(Tactic.APOYO, state, colour, m.destination)


def rebelion(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Return 1 rival soldier to its reserve and put 1 soldier from your reserve in its place."""
    card = Tactic.REBELION
    _shape(card, moves, 2)
    mine = [m for m in moves if m.colour == colour]
    theirs = [m for m in moves if m.colour != colour]
    if len(mine) != 1 or len(theirs) != 1:
        raise _fail(card, "one rival soldier goes back and one of yours takes its place")
    _own(card, mine[0], colour, 1)
    _rival(card, theirs[0], colour)
    zone = theirs[0].origin
    if zone == RESERVE or theirs[0].destination != RESERVE:
        raise _fail(card, "the rival soldier goes from the board back to its reserve")
    if mine[0].origin != RESERVE or mine[0].destination != zone:
        raise _fail(card, f"your soldier comes from your reserve to {zone}")


def exilio(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Move 1 rival soldier from a zone where you have soldiers to an adjacent zone."""
    _shape(Tactic.EXILIO, moves, 1)
    _rival(Tactic.EXILIO, moves[0], colour)
    _adjacent(Tactic.EXILIO, board, moves[0])
    _holds(Tactic.EXILIO, state, colour, moves[0].origin)


def prisionero(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move 1 rival soldier from any zone to an adjacent zone where you have soldiers."""
    _shape(Tactic.PRISIONERO, moves, 1)
    _rival(Tactic.PRISIONERO, moves[0], colour)
    _adjacent(Tactic.PRISIONERO, board, moves[0])
    _holds(Tactic.PRISIONERO, state, colour, moves[0].destination)


def senuelo(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Move 1 of your soldiers and 2 soldiers of one rival (TM4), all from one zone, together
    to one adjacent zone."""
    card = Tactic.SENUELO
    _shape(card, moves, len(moves))
    mine = [m for m in moves if m.colour == colour]
    theirs = [m for m in moves if m.colour != colour]
    if len(mine) != 1 or len(theirs) != 1:
        raise _fail(card, "moves 1 of your soldiers and 2 of one rival's (clarification TM4)")
    _own(card, mine[0], colour, 1)
    _rival(card, theirs[0], colour, 2)
    if (mine[0].origin, mine[0].destination) != (theirs[0].origin, theirs[0].destination):
        raise _fail(card, "all three soldiers move together from one zone to the same zone")
    _adjacent(card, board, mine[0])


def retirada(state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board) -> None:
    """Return 2 of your soldiers, from one zone or two, to your reserve."""
    card = Tactic.RETIRADA
    if len(moves) not in (1, 2):
        raise _fail(card, "returns 2 soldiers, from one zone or two")
    _shape(card, moves, len(moves))
    for m in moves:
        _own(card, m, colour)
        if m.origin == RESERVE or m.destination != RESERVE:
            raise _fail(card, "returns soldiers from the board to your reserve")
    if sum(m.count for m in moves) != 2:
        raise _fail(card, "returns exactly 2 soldiers")


CHECKS: dict[Tactic, Check] = {
    Tactic.EXPLORAR: explorar,
    Tactic.CRUZAR_MONTANA: cruzar_montana,
    Tactic.CRUZAR_MAR: cruzar_mar,
    Tactic.DIVIDIR_EJERCITO: dividir_ejercito,
    Tactic.NINJA: ninja,
    Tactic.OCUPAR_KIOTO: ocupar_kioto,
    Tactic.APOYO: apoyo,
    Tactic.REBELION: rebelion,
    Tactic.EXILIO: exilio,
    Tactic.PRISIONERO: prisionero,
    Tactic.SENUELO: senuelo,
    Tactic.RETIRADA: retirada,
}
