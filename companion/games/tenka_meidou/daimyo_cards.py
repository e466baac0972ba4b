"""The 6 Daimyo cards (section 10): does a list of pawn moves carry out the card in full?

"Up to 2" or "up to 3" means any number from 1 to that, never 0; a card that cannot be
carried out in full cannot be used (section 10). Every card works from the zone where the
player's Daimyo pawn stands, so the Daimyo must be on the board (clarification TM5).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Board, Border, Colour, Daimyo
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State

RULE = "10"
Check = Callable[[State, Colour, tuple[PawnMove, ...], Board], None]


def _fail(card: Daimyo, why: str) -> RuleViolation:
    return RuleViolation(RULE, f"{card.value}: {why}")


def daimyo_zone(card: Daimyo, state: State, colour: Colour) -> str:
    zone = state.daimyo_at.get(colour)
    if zone is None:
        raise _fail(card, f"{colour}'s Daimyo pawn is not on the board (clarification TM5)")
    return zone


def _up_to(card: Daimyo, total: int, limit: int) -> None:
    if not 1 <= total <= limit:
        raise _fail(card, f"up to {limit} means 1 to {limit}, not {total}")


def _out_of(card: Daimyo, board: Board, zone: str, moves: tuple[PawnMove, ...],
            kind: Border | None = None) -> None:
    """Every move goes from the Daimyo's zone to a zone adjacent to it (of ``kind``)."""
    for m in moves:
        if m.origin != zone:
            raise _fail(card, f"moves pawns out of the Daimyo's zone, {zone}")
        if m.destination == RESERVE:
            raise _fail(card, "moves pawns to zones, never back to a reserve")
        border = board.border(zone, m.destination) if m.destination != RESERVE else None
        if border is None or kind not in (None, border):
            what = "adjacent" if kind is None else f"joined by {kind}"
            raise _fail(card, f"{m.destination} is not {what} to {zone}")


def uesugi_kenshin(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move up to 3 of your soldiers from your Daimyo's zone to zones joined to it by land."""
    card = Daimyo.UESUGI_KENSHIN
    zone = daimyo_zone(card, state, colour)
    if any(m.colour != colour or m.pawn != "soldier" for m in moves):
        raise _fail(card, "moves your own soldiers only")
    _up_to(card, sum(m.count for m in moves), 3)
    _out_of(card, board, zone, moves, "land")


def oda_nobunaga(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move your Daimyo to an adjacent zone, and 1 of your soldiers with it if you like."""
    card = Daimyo.ODA_NOBUNAGA
    zone = daimyo_zone(card, state, colour)
    leader = [m for m in moves if m.pawn == "daimyo"]
    escort = [m for m in moves if m.pawn == "soldier"]
    if len(leader) != 1 or leader[0].colour != colour:
        raise _fail(card, "moves your Daimyo pawn")
    if len(escort) > 1 or any(m.colour != colour or m.count != 1 for m in escort):
        raise _fail(card, "at most 1 of your soldiers goes with the Daimyo")
    if any(m.destination != leader[0].destination for m in escort):
        raise _fail(card, "the soldier ends in the same zone as the Daimyo")
    _out_of(card, board, zone, moves)


def takeda_shingen(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move up to 3 soldiers of one rival from your Daimyo's zone to adjacent zones."""
    card = Daimyo.TAKEDA_SHINGEN
    zone = daimyo_zone(card, state, colour)
    rivals = {m.colour for m in moves}
    if colour in rivals or any(m.pawn != "soldier" for m in moves):
        raise _fail(card, "moves a rival's soldiers only")
    if len(rivals) > 1:
        raise _fail(card, "moves the soldiers of one rival only")
    _up_to(card, sum(m.count for m in moves), 3)
    _out_of(card, board, zone, moves)


def mori_motonari(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Up to 3 times, place 1 soldier from your reserve in a zone adjacent to your Daimyo; one
    per zone."""
    card = Daimyo.MORI_MOTONARI
    zone = daimyo_zone(card, state, colour)
    if any(m.colour != colour or m.pawn != "soldier" or m.origin != RESERVE for m in moves):
        raise _fail(card, "places your own soldiers from your reserve")
    if any(m.count != 1 for m in moves):
        raise _fail(card, "places no more than 1 soldier per zone")
    _up_to(card, len(moves), 3)
    for m in moves:
        if board.border(zone, m.destination) is None:
            raise _fail(card, f"{m.destination} is not adjacent to {zone}")


def chosokabe_motochika(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """Move up to 3 of your pawns (soldiers and/or the Daimyo) from your Daimyo's zone to zones
    joined to it by sea."""
    card = Daimyo.CHOSOKABE_MOTOCHIKA
    zone = daimyo_zone(card, state, colour)
    if any(m.colour != colour for m in moves):
        raise _fail(card, "moves your own pawns only")
    _up_to(card, sum(m.count for m in moves), 3)
    _out_of(card, board, zone, moves, "sea")


def otomo_sorin(
    state: State, colour: Colour, moves: tuple[PawnMove, ...], board: Board
) -> None:
    """In up to 2 zones adjacent to your Daimyo, replace 1 rival soldier with 1 soldier from
    your reserve; the rival's goes back to its owner's reserve."""
    card = Daimyo.OTOMO_SORIN
    zone = daimyo_zone(card, state, colour)
    mine = [m for m in moves if m.colour == colour]
    theirs = [m for m in moves if m.colour != colour]
    if any(m.pawn != "soldier" for m in moves):
        raise _fail(card, "replaces soldiers only")
    targets = [m.origin for m in theirs]
    if len(set(targets)) != len(targets) or any(m.count != 1 for m in moves):
        raise _fail(card, "replaces no more than 1 soldier in each zone")
    _up_to(card, len(theirs), 2)
    if sorted(targets) != sorted(m.destination for m in mine):
        raise _fail(card, "each rival soldier removed is replaced by one of yours in its zone")
    for m in theirs:
        if m.destination != RESERVE or m.origin == RESERVE:
            raise _fail(card, "the rival soldier goes back from the board to its reserve")
        if board.border(zone, m.origin) is None:
            raise _fail(card, f"{m.origin} is not adjacent to {zone}")
    if any(m.origin != RESERVE for m in mine):
        raise _fail(card, "your soldiers come from your reserve")


CHECKS: dict[Daimyo, Check] = {
    Daimyo.UESUGI_KENSHIN: uesugi_kenshin,
    Daimyo.ODA_NOBUNAGA: oda_nobunaga,
    Daimyo.TAKEDA_SHINGEN: takeda_shingen,
    Daimyo.MORI_MOTONARI: mori_motonari,
    Daimyo.CHOSOKABE_MOTOCHIKA: chosokabe_motochika,
    Daimyo.OTOMO_SORIN: otomo_sorin,
}
