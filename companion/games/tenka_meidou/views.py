"""The views of a game of Tenka Meidou: the only module that decides what each may hold.

Everything on the table is public except the Daimyo cards. Section 9: "cada participante elige
1 de las cartas de Daimio de la oferta y se la coloca delante bocabajo" (each player chooses 1
of the Daimyo cards of the offer and places it face down in front of them) and "Cuando uses tu
carta de Daimio, ponla bocarriba" (when you use your Daimyo card, turn it face up). So the
public view shows who has chosen a Daimyo card, never which one until it is played, and never
what is left of the Daimyo offer: the cards left, from one choice to the next, would say who
took which. The offer as dealt lies face up ("Los nombres y efectos de los Daimios deben estar
bocarriba") and is public in the set-up event. A player's view adds their own card, and the
cards left to choose from while it is their choice; the referee's view holds every card.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from companion.core.views import PublicView, RefereeView, SideView
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic
from companion.games.tenka_meidou.events import DaimyoChosen, TenkaEvent
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.war import WarResult


class Table(BaseModel):
    """What a view holds. ``daimyo`` maps a colour to its card, or None while it is hidden;
    ``daimyo_offer`` is the Daimyo cards still to choose from, empty where they are hidden."""

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


def _table(state: State, shown: set[Colour], offer: bool) -> Table:
    return Table(
        phase=state.phase, players=state.players, current=state.current,
        castles=state.castles, soldiers=state.soldiers, daimyo_at=state.daimyo_at,
        reserve=state.reserve, swords=state.swords, tactic_offer=state.tactic_offer,
        tactic_used=state.tactic_used, daimyo_offer=state.daimyo_offer if offer else (),
        daimyo={c: (card if c in shown or c in state.daimyo_used else None)
                for c, card in state.daimyo.items()},
        war=state.war,
    )


def public_view(state: State) -> PublicView[Table]:
    return PublicView(_table(state, set(), offer=False))


def player_view(state: State, colour: Colour) -> SideView[Table]:
    """Their own Daimyo card; the Daimyo offer only while it is their choice (9)."""
    return SideView(colour.value, _table(state, {colour},
                                         offer=state.daimyo_chooser() == colour))


def referee_view(state: State) -> RefereeView[Table]:
    return RefereeView(_table(state, set(state.players), offer=True))


def public_event(event: TenkaEvent) -> dict[str, object]:
    """An event as the shared log may show it: a Daimyo choice without the card."""
    data = event.model_dump(mode="json")
    if isinstance(event, DaimyoChosen):
        data.pop("card")
    return data
