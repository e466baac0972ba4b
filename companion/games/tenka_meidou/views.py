"""The views of a game of Tenka Meidou: the only module that decides what each may hold.

Everything on the table is public except the Daimyo cards, which lie face down until used
(section 9). The public view shows who has chosen a Daimyo, never which one until it is
played; a player's view adds their own card; the referee's view holds every card.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from companion.core.views import PublicView, RefereeView, SideView
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import DaimyoChosen, TenkaEvent
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.war import WarResult


class Table(BaseModel):
    """What a view holds. ``daimyo`` maps a colour to its card, or None while it is hidden."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    players: tuple[Colour, ...]
    current: Colour | None
    castles: dict[str, int]
    soldiers: dict[str, dict[Colour, int]]
    daimyo_at: dict[Colour, str]
    reserve: dict[Colour, int]
    swords: dict[Colour, int]
    tactic_offer: tuple[Tactic, ...]
    tactic_used: dict[Colour, Tactic]
    daimyo_offer: tuple[Daimyo, ...]
    daimyo: dict[Colour, Daimyo | None]
    war: WarResult | None


def _table(state: State, shown: set[Colour]) -> Table:
    return Table(
        phase=state.phase, players=state.players, current=state.current,
        castles=state.castles, soldiers=state.soldiers, daimyo_at=state.daimyo_at,
        reserve=state.reserve, swords=state.swords, tactic_offer=state.tactic_offer,
        tactic_used=state.tactic_used, daimyo_offer=state.daimyo_offer,
        daimyo={c: (card if c in shown or c in state.daimyo_used else None)
                for c, card in state.daimyo.items()},
        war=state.war,
    )


def public_view(state: State) -> PublicView[Table]:
    return PublicView(_table(state, set()))


def player_view(state: State, colour: Colour) -> SideView[Table]:
    return SideView(colour.value, _table(state, {colour}))


def referee_view(state: State) -> RefereeView[Table]:
    return RefereeView(_table(state, set(state.players)))


def public_event(event: TenkaEvent) -> dict[str, object]:
    """An event as the shared log may show it: a Daimyo choice without the card."""
    data = event.model_dump(mode="json")
    if isinstance(event, DaimyoChosen):
        data.pop("card")
    return data
