"""Invariants checked after every command in self-play and tests."""

from __future__ import annotations

from companion.games.tenka_meidou.components import Board, Components, Daimyo
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.views import public_view


def violations(state: State, board: Board, components: Components) -> list[str]:
    """What is wrong with ``state`` (empty when all is well)."""
    found: list[str] = []
    if state.phase is Phase.SETUP:
        return found
    per_colour = components.soldiers_per_colour(state.advanced)
    for colour in state.players:
        reserve = state.reserve.get(colour, 0)
        placed = [per.get(colour, 0) for per in state.soldiers.values()]
        if reserve < 0 or min(placed) < 0:
            found.append(f"{colour}: a negative pawn count")
        if reserve + sum(placed) != per_colour:
            found.append(f"{colour}: {reserve} + {sum(placed)} soldiers, not {per_colour}")
        finished = state.pawns_left(colour) == 0
        if finished != (colour in state.swords):
            found.append(f"{colour}: {state.pawns_left(colour)} pawns left, sword "
                         f"{state.swords.get(colour)} (5.I)")
    if set(state.soldiers) - set(board.zone_ids):
        found.append("soldiers in an unknown zone")
    if set(state.daimyo_at.values()) - set(board.zone_ids) or (
            state.daimyo_at and not state.advanced):
        found.append("a Daimyo pawn in an unknown zone or outside the advanced game")
    swords = list(state.swords.values())
    if len(set(swords)) != len(swords) or not set(swords) <= set(
            components.table(len(state.players)).swords):
        found.append(f"swords {swords} are not distinct swords of this player count (3.4)")
    table = public_view(state).payload
    text = table.model_dump_json()
    for colour, card in state.daimyo.items():
        if colour not in state.daimyo_used and (table.daimyo[colour] or card.value in text):
            found.append(f"the public view shows {colour}'s face-down Daimyo (9)")
    turned_up = {state.daimyo[c] for c in state.daimyo_used}
    if any(card.value in text for card in Daimyo if card not in turned_up):
        found.append("the public view names a Daimyo card not turned up (9)")
    if state.phase is Phase.OVER:
        found += _war_violations(state, components)
    return found


def _war_violations(state: State, components: Components) -> list[str]:
    war = state.war
    if war is None:
        return ["the game is over without a War phase"]
    found: list[str] = []
    values = [z.value for z in war.zones]
    if values != sorted(values) or len(values) != len(state.castles):
        found.append("zones not resolved once each in ascending value (5.II)")
    taken = sum(z.value for z in war.zones if z.winner) + sum(
        z.small_value or 0 for z in war.zones)
    if taken != sum(war.scores.values()):
        found.append(f"scores total {sum(war.scores.values())}, tokens taken {taken} (6)")
    best = max(war.scores.values())
    if war.scores[war.winner] != best:
        found.append("the winner does not have the highest total (6)")
    if not components.table(len(state.players)).small_castles and any(
            z.small_value for z in war.zones):
        found.append("a small castle in a 2-player game (3.4)")
    return found
