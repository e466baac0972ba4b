"""The War phase (section 5.II) and the final score (section 6), as one pure function.

Zones are resolved in ascending large castle value. In each: power = soldiers + reinforcement
pawns placed for the player + 2 for the player's Daimyo (section 9); the highest power wins and
the next is second, ties going to the higher sword (5.II.1); the winner takes the large token and,
in 3-4 player games, a second player takes a small token of floor(v/2) (5.II.2); the winner then
sends reinforcements to every adjacent zone that still holds its token and holds the winner's own
soldiers (5.II.3).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from companion.core.rules import Ruling
from companion.games.tenka_meidou.components import Board, Colour, Components

DAIMYO_POWER = 2  # section 9: in the War phase a Daimyo counts as 2 soldier pawns


class ZoneResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    zone: str
    value: int
    winner: Colour | None
    second: Colour | None
    small_value: int | None
    reinforcements: dict[str, int]
    power: dict[Colour, int]


class WarResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    zones: tuple[ZoneResult, ...]
    scores: dict[Colour, int]
    winner: Colour
    rulings: tuple[Ruling, ...]


def ranked(power: Mapping[Colour, int], swords: Mapping[Colour, int]) -> list[Colour]:
    """Players with power, strongest first; a tie goes to the higher sword (5.II.1, 6)."""
    present = [c for c, p in power.items() if p > 0]
    return sorted(present, key=lambda c: (power[c], swords[c]), reverse=True)


def fight_war(
    *,
    players: tuple[Colour, ...],
    swords: Mapping[Colour, int],
    castles: Mapping[str, int],
    soldiers: Mapping[str, Mapping[Colour, int]],
    daimyo_at: Mapping[Colour, str],
    board: Board,
    components: Components,
) -> WarResult:
    """Resolve every zone and total the score. Inputs are assumed valid (see the calculator)."""
    table = components.table(len(players))
    per_zone = table.reinforcements_per_zone
    supply = components.reinforcement_pawns
    reinforcements: dict[str, dict[Colour, int]] = {z: {} for z in castles}
    resolved: set[str] = set()
    rulings: list[Ruling] = []
    results: list[ZoneResult] = []
    scores = {c: 0 for c in players}

    def strength(zone: str, colour: Colour) -> int:
        daimyo = DAIMYO_POWER if daimyo_at.get(colour) == zone else 0
        return soldiers.get(zone, {}).get(colour, 0) + daimyo

    for zone in sorted(castles, key=castles.__getitem__):
        value = castles[zone]
        power = {
            c: p for c in players
            if (p := strength(zone, c) + reinforcements[zone].get(c, 0)) > 0
        }
        resolved.add(zone)
        order = ranked(power, swords)
        if not order:
            rulings.append(Ruling(rule="5.II", text=f"{zone} ({value}): no soldier pawns; "
                                  "the token is set aside and nobody scores it"))
            results.append(ZoneResult(zone=zone, value=value, winner=None, second=None,
                                      small_value=None, reinforcements={}, power={}))
            continue
        winner = order[0]
        second = order[1] if len(order) > 1 else None
        shown = ", ".join(f"{c} {power[c]}" for c in order)
        rulings.append(Ruling(rule="5.II.1", text=f"{zone} ({value}): power {shown}"))
        for a, b in itertools.pairwise(order):
            if power[a] == power[b]:
                rulings.append(Ruling(rule="5.II.1", text=(
                    f"{zone}: {a} and {b} tie at {power[a]}; {a}'s sword "
                    f"{swords[a]} beats {swords[b]}")))
        scores[winner] += value
        small: int | None = None
        if second is not None and table.small_castles:
            small = value // 2
            scores[second] += small
            rulings.append(Ruling(rule="5.II.2", text=(
                f"{zone}: {winner} takes the large castle {value}, {second} the small "
                f"castle {small}")))
        else:
            why = ("nobody else has pawns there" if second is None
                   else "no small castles in a 2-player game")
            rulings.append(Ruling(rule="5.II.2" if second is None else "3.4", text=(
                f"{zone}: {winner} takes the large castle {value}; no small castle: {why}")))
        sent: dict[str, int] = {}
        for other in board.neighbours(zone):
            if other in resolved or other not in castles or strength(other, winner) == 0:
                continue
            sent[other] = per_zone
            reinforcements[other][winner] = reinforcements[other].get(winner, 0) + per_zone
            from_supply = min(supply, per_zone)
            supply -= from_supply
            if from_supply < per_zone:
                rulings.append(Ruling(rule="5.II.3", text=(
                    f"the reinforcement supply is out: {per_zone - from_supply} pawn(s) taken "
                    "from zones already resolved")))
        if sent:
            listed = ", ".join(f"{n} to {z}" for z, n in sent.items())
            rulings.append(Ruling(rule="5.II.3", text=f"{winner} reinforces from {zone}: {listed}"))
        results.append(ZoneResult(zone=zone, value=value, winner=winner, second=second,
                                  small_value=small, reinforcements=sent, power=power))

    overall = sorted(players, key=lambda c: (scores[c], swords[c]), reverse=True)
    top = overall[0]
    tied = [c for c in overall[1:] if scores[c] == scores[top]]
    text = ", ".join(f"{c} {scores[c]}" for c in overall)
    if tied:
        text += f"; the tie goes to {top}, who holds the higher sword"
    rulings.append(Ruling(rule="6", text=f"final score: {text}; {top} wins"))
    return WarResult(zones=tuple(results), scores=scores, winner=top, rulings=tuple(rulings))
