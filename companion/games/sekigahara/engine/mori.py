"""The Mori box (9.3): Mori blocks brought to Osaka one per card discarded."""

from __future__ import annotations

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.commands import BringMori
from companion.games.sekigahara.engine.data import MORI_LEADER, OSAKA
from companion.games.sekigahara.engine.flow import Emitter, reject
from companion.games.sekigahara.engine.movement_phase import require_bought
from companion.games.sekigahara.engine.overrun import resolve_overruns
from companion.games.sekigahara.engine.state import MORI_BOX, State


def mori_in_box(state: State) -> list[str]:
    return sorted(state.at.get(MORI_BOX, ()))


def bring_mori(state: State, cmd: BringMori) -> list[ev.Event]:
    """9.3: one Mori block to Osaka per card discarded in an Ishida Movement Phase, the Mori
    leader last; they cannot move this turn."""
    require_bought(state)
    box = mori_in_box(state)
    if not cmd.blocks or len(set(cmd.blocks)) != len(cmd.blocks):
        raise reject("9.3", "name the Mōri blocks brought, one per card discarded")
    if any(b not in box for b in cmd.blocks):
        raise reject("9.3", "only blocks in the Mōri box can come to Osaka")
    if MORI_LEADER in cmd.blocks and (
        set(box) - set(cmd.blocks) or cmd.blocks[-1] != MORI_LEADER
    ):
        raise reject("9.3", "the Mōri leader is always the last block brought on")
    if state.hand[Side.ISHIDA] < len(cmd.blocks):
        raise reject("9.3", "one card must be discarded for each Mōri block")
    em = Emitter(state)
    em.emit(ev.CardsDiscarded(side=Side.ISHIDA, count=len(cmd.blocks), rule="9.3"))
    em.emit(ev.MoriArrived(blocks=cmd.blocks, attacked=False))
    resolve_overruns(em, [OSAKA], Side.ISHIDA)
    return em.events
