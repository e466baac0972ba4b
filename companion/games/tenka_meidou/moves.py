"""Pawn moves: the one shape every card effect takes, and how a state changes under them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from companion.core.rules import RuleViolation
from companion.games.tenka_meidou.components import Board, Colour
from companion.games.tenka_meidou.state import RESERVE, PawnMove, State


def normalise(moves: Iterable[PawnMove]) -> tuple[PawnMove, ...]:
    """Merge moves of the same pawns between the same places; a canonical order."""
    totals: dict[tuple[Colour, str, str, str], int] = defaultdict(int)
    for m in moves:
        totals[(m.colour, m.pawn, m.origin, m.destination)] += m.count
    return tuple(
        PawnMove(colour=c, pawn=p, origin=o, destination=d, count=n)
        for (c, p, o, d), n in sorted(totals.items())
    )


def check_places(moves: tuple[PawnMove, ...], board: Board, rule: str) -> None:
    """Every place is a zone or the reserve, and a move goes somewhere."""
    zones = set(board.zone_ids)
    for m in moves:
        for place in (m.origin, m.destination):
            if place != RESERVE and place not in zones:
                raise RuleViolation(rule, f"unknown zone {place!r}")
        if m.origin == m.destination:
            raise RuleViolation(rule, f"a move from {m.origin} to itself moves nothing")
        if m.pawn == "daimyo" and (m.count != 1 or RESERVE in (m.origin, m.destination)):
            raise RuleViolation(rule, "a Daimyo pawn moves alone, from zone to zone")


def available(state: State, move: PawnMove) -> int:
    """How many of the pawns ``move`` takes are at its origin."""
    if move.pawn == "daimyo":
        return int(state.daimyo_at.get(move.colour) == move.origin)
    if move.origin == RESERVE:
        return state.reserve.get(move.colour, 0)
    return state.on_board(move.origin, move.colour)


def check_available(state: State, moves: tuple[PawnMove, ...], rule: str) -> None:
    """Full effect or none (section 7, general rules): every pawn moved must be there."""
    taken: dict[tuple[Colour, str, str], int] = defaultdict(int)
    for m in moves:
        taken[(m.colour, m.pawn, m.origin)] += m.count
    for m in moves:
        have = available(state, m)
        if taken[(m.colour, m.pawn, m.origin)] > have:
            where = "the reserve" if m.origin == RESERVE else m.origin
            what = ("Daimyo pawn" if m.pawn == "daimyo" else "soldier") + ("s" if have != 1 else "")
            raise RuleViolation(rule, (
                f"{m.colour} has {have} {what} in {where}, not "
                f"{taken[(m.colour, m.pawn, m.origin)]}: the card's effect must be carried out "
                "in full or not at all"))


def moved(state: State, moves: Iterable[PawnMove]) -> State:
    """The state after the pawns have moved (no validation)."""
    soldiers = {z: dict(per) for z, per in state.soldiers.items()}
    reserve = dict(state.reserve)
    daimyo_at = dict(state.daimyo_at)
    for m in moves:
        if m.pawn == "daimyo":
            daimyo_at[m.colour] = m.destination
            continue
        if m.origin == RESERVE:
            reserve[m.colour] -= m.count
        else:
            soldiers[m.origin][m.colour] -= m.count
            if soldiers[m.origin][m.colour] == 0:
                del soldiers[m.origin][m.colour]
        if m.destination == RESERVE:
            reserve[m.colour] += m.count
        else:
            zone = soldiers.setdefault(m.destination, {})
            zone[m.colour] = zone.get(m.colour, 0) + m.count
    return state.model_copy(update={"soldiers": soldiers, "reserve": reserve,
                                    "daimyo_at": daimyo_at})
