"""The one module that decides what each view of a game may show (3.1, 3.3, 8.2.1, 8.7.2).

Block ids identify faces, so the public view holds no block id at all: counts per location and
side, control, card counts, the faces of blocks revealed in the battle in progress, the casualty
pile and the face-up Mori box. A side's view adds its own blocks; the referee's view holds all.
Events are projected the same way by :func:`public_event`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from companion.core.views import PublicView, RefereeView, SideView
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import BlockFace, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import castle_controller, contested, occupancy
from companion.games.sekigahara.engine.data import (
    BOARD,
    CARDS,
    CASTLES,
    FACES,
    SIDE_BLOCKS,
    side_of,
)
from companion.games.sekigahara.engine.state import BAG, DEAD, MORI_BOX, RECRUITMENT, State


class Face(BaseModel):
    """A block face as shown when revealed (no id)."""

    model_config = ConfigDict(frozen=True)

    side: Side
    clan: str
    mon: int
    attack: str | None
    leader: bool

    @classmethod
    def of(cls, face: BlockFace) -> Face:
        return cls(side=face.side, clan=face.clan.value, mon=face.mon,
                   attack=face.attack.value if face.attack else None, leader=face.leader)


_SHOWN: dict[str, Face] = {b: Face.of(f) for b, f in FACES.items()}


class Stack(BaseModel):
    model_config = ConfigDict(frozen=True)  # one shared value per count (see _stack)

    ishida: int
    tokugawa: int
    inside: dict[Side, int]


class DeploymentShown(BaseModel):
    """One deployment as both players saw it (8.2.3): faces, card, and each block's Impact."""

    side: Side
    faces: list[Face]
    card: str | None
    """The card played, as described on the table ("a mori special card"); None for a leader."""
    impacts: list[str]
    """Each block's arithmetic, e.g. "3 mon + 1 same clan + 2 special attack = 6 Impact"."""
    total: int
    challenged: bool
    defected: bool


class BattleResult(BaseModel):
    """How a combat ended (8.7.1, 8.9.4): Impact, the winner and the losses due."""

    winner: Side
    impact: dict[Side, int]
    losses_due: dict[Side, int]
    castle_falls: bool | None
    cards_drawn: dict[Side, int] = {}
    """Cards each side draws once the losses are taken (8.10, C7)."""


class Battle(BaseModel):
    location: str
    attacker: Side
    stage: str
    siege: bool
    impact: dict[Side, int] = {}
    revealed: list[Face] = []
    initiative: Side | None = None
    """Who holds the initiative now (8.5); None once both have finished or before the fight."""
    challenge_by: Side | None = None
    """The side that may play a Loyalty Challenge now (8.6.1)."""
    finished: list[Side] = []
    deployments: list[DeploymentShown] = []
    losing: Side | None = None
    """The side choosing its losses now (8.7.2)."""
    result: BattleResult | None = None


class PublicState(BaseModel):
    """Everything both players may see on the shared screen."""

    week: int
    turn: str
    phase: str
    first: Side | None
    active: Side | None
    locations: dict[str, Stack]
    disks: dict[str, str | None]
    castles: dict[str, Side | None]
    resources: dict[str, Side | None]
    contested: list[str]
    hand: dict[Side, int]
    draw_pile: dict[Side, int]
    discard_pile: dict[Side, int]
    on_table: dict[Side, int]
    recruitment_box: dict[Side, int]
    bag: dict[Side, int]
    mori_box: list[Face]
    casualties: list[Face]
    battle: Battle | None
    bids_placed: list[Side]
    winner: Side | None
    victory: str | None
    score: dict[Side, int]


class SidePrivate(BaseModel):
    public: PublicState
    side: Side
    blocks: dict[str, str]  # own block id -> zone
    inside: list[str]


class RefereeState(BaseModel):
    public: PublicState
    positions: dict[str, str]
    inside: list[str]
    bids: dict[Side, str]
    combat: dict[str, Any] | None


_STACKS: dict[tuple[int, int, int, int], Stack] = {}


def _stack(ishida: int, tokugawa: int, ishida_in: int, tokugawa_in: int) -> Stack:
    """The stack of these counts; built once (a few hundred exist) and shared, being frozen."""
    key = (ishida, tokugawa, ishida_in, tokugawa_in)
    found = _STACKS.get(key)
    if found is None:
        inside = {s: n for s, n in ((Side.ISHIDA, ishida_in), (Side.TOKUGAWA, tokugawa_in)) if n}
        found = _STACKS[key] = Stack.model_construct(
            ishida=ishida, tokugawa=tokugawa, inside=inside)
    return found


def _count(state: State, zone: str, side: Side) -> int:
    return len(state.at.get(zone, frozenset()) & SIDE_BLOCKS[side])


def _public(state: State) -> PublicState:
    ishida_blocks, inside = SIDE_BLOCKS[Side.ISHIDA], state.inside
    locations: dict[str, Stack] = {}
    for loc in BOARD.locations:  # board order: an order taken from block ids would say where
        here = state.at.get(loc)  # the protagonists stand
        if here:
            ishida = len(here & ishida_blocks)
            held = here & inside if inside else frozenset()
            ishida_in = len(held & ishida_blocks) if held else 0
            locations[loc] = _stack(ishida, len(here) - ishida, ishida_in, len(held) - ishida_in)
    occ = occupancy(state)
    castles = {c: castle_controller(state, c, occ) for c in CASTLES}
    fought = contested(state, occ)
    battle = None
    p = state.pending
    if p is not None:
        revealed: list[Face] = []
        impact: dict[Side, int] = {}
        if p.combat is not None:
            for d in p.combat.deployments:
                revealed += [_SHOWN[b] for b in d.blocks]
            impact = p.combat.impact.as_dict()
        battle = Battle(location=p.location, attacker=p.attacker, stage=p.stage.value,
                        siege=p.siege, impact=impact, revealed=revealed)
        if p.combat is not None:
            battle = _fight(battle, p.combat)
    return PublicState(
        week=state.week, turn=state.turn, phase=state.phase.value, first=state.first,
        active=state.active, locations=locations,
        disks={d.value: where for d, where in state.disks.items()},
        castles=castles, resources={loc: state.resource_control[loc] for loc in BOARD.locations
                   if loc in state.resource_control}, contested=fought,
        hand=dict(state.hand), draw_pile=dict(state.draw), discard_pile=dict(state.discard),
        on_table=dict(state.table),
        recruitment_box={s: _count(state, RECRUITMENT, s) for s in Side},
        bag={s: _count(state, BAG, s) for s in Side},
        mori_box=[_SHOWN[b] for b in sorted(state.at.get(MORI_BOX, ()))],
        casualties=[_SHOWN[b] for b in state.casualties],
        battle=battle, bids_placed=sorted(state.bids), winner=state.winner,
        victory=state.victory, score=dict(state.score),
    )


def _fight(battle: Battle, fight: combat.CombatState) -> Battle:
    """The public course of a combat: deployments with their arithmetic, initiative, result."""
    shown = [
        DeploymentShown(
            side=d.side, faces=[_SHOWN[b] for b in d.blocks],
            card=d.card.describe() if d.card is not None else None,
            impacts=[i.describe() for i in d.impacts], total=sum(i.total for i in d.impacts),
            challenged=d.challenged, defected=d.defected,
        )
        for d in fight.deployments
    ]
    ended = fight.ended
    result = None if ended is None else BattleResult(
        winner=ended.winner, impact=ended.impact.as_dict(),
        losses_due=ended.losses_due.as_dict(), castle_falls=ended.castle_falls,
        cards_drawn=fight.replenished.as_dict() if fight.replenished is not None else {},
    )
    return battle.model_copy(update={
        "initiative": combat.initiative(fight), "challenge_by": combat.challenge_window(fight),
        "finished": list(fight.finished), "deployments": shown,
        "losing": combat.awaiting_losses(fight), "result": result,
    })


def public_view(state: State) -> PublicView[PublicState]:
    return PublicView(_public(state))


def side_view(state: State, side: Side) -> SideView[SidePrivate]:
    own = {b: z for b, z in state.pos.items() if side_of(b) is side}
    return SideView(side.value, SidePrivate(
        public=_public(state), side=side, blocks=own,
        inside=sorted(b for b in state.inside if side_of(b) is side),
    ))


def referee_view(state: State) -> RefereeView[RefereeState]:
    combat = None
    if state.pending is not None and state.pending.combat is not None:
        combat = state.pending.combat.model_dump(mode="json")
    return RefereeView(RefereeState(
        public=_public(state), positions=dict(state.pos), inside=sorted(state.inside),
        bids=dict(state.bids), combat=combat,
    ))


def _faces(blocks: tuple[str, ...] | list[str]) -> str:
    return ", ".join(FACES[b].describe() for b in blocks) or "none"


def _n(count: int, side: Side) -> str:
    return f"{count} {'gold' if side is Side.ISHIDA else 'black'} block{'s' * (count != 1)}"


def _placed(e: ev.BlocksPlaced) -> str:
    return f"{_n(len(e.blocks), e.side)} placed in {e.zone.lstrip('@')}"


def _drawn(e: ev.CardsDrawn) -> str:
    return f"{e.side.value} draws {e.count} card(s) ({e.rule})"


def _discarded(e: ev.CardsDiscarded) -> str:
    shown = f": {', '.join(e.cards)}" if e.cards else ""
    return f"{e.side.value} discards {e.count} card(s) ({e.rule}){shown}"


def _bid(e: ev.BidPlaced) -> str:
    return f"{e.side.value} bids face down"


def _bids(e: ev.BidsRevealed) -> str:
    bids = ", ".join(f"{s.value} {CARDS[c].bid}" for s, c in e.cards.items())
    return f"bids revealed ({bids}): {e.winner.value} wins (6.3)"


def _mustered(e: ev.Mustered) -> str:
    shown = f" shown: {_faces(e.blocks)}" if e.option == "A" else ""
    return f"{e.side.value} musters {_n(len(e.blocks), e.side)} at {e.location}" + shown


def _mori(e: ev.MoriArrived) -> str:
    return f"Mori blocks arrive in Osaka: {_faces(e.blocks)} (9.3)"


def _moved(e: ev.StackMoved) -> str:
    dest = Counter(p[-1] for p in e.paths.values())
    parts = ", ".join(f"{n} to {loc}" for loc, n in sorted(dest.items()))
    lead = " with leadership" if e.leadership else ""
    return f"{_n(len(e.paths), e.side)} moved from {e.origin}{lead}: {parts}"


def _overrun(e: ev.Overrun) -> str:
    return f"Overrun at {e.location}: {e.side.value} loses {_faces(e.blocks)} (7.4)"


def _acted(e: ev.CombatActed) -> str:
    action = e.action
    if action.get("type") in ("deploy", "lose"):
        units = [u for u in action.get("blocks", action.get("losses", ())) if u in FACES]
        others = [u for u in action.get("losses", ()) if u not in FACES]
        return f"{e.side.value} {action['type']}s {_faces(units)} {' '.join(others)}"
    return f"{e.side.value} {action.get('type')}"


def _ended(e: ev.CombatEnded) -> str:
    lost = "; ".join(f"{s.value} loses {_faces(b)}" for s, b in e.losses.items())
    won = e.winner.value if e.winner else "-"
    return f"combat at {e.location} ends, {won} wins: {lost}"


def _retreated(e: ev.Retreated) -> str:
    inside = f", {len(e.into_castle)} into the castle" if e.into_castle else ""
    return f"{_n(len(e.blocks), e.side)} retreat from {e.origin} to {e.destination}{inside}"


def _opened(e: ev.CombatOpened) -> str:
    kind = "siege" if e.siege else "battle"
    return f"{kind} at {e.location} ({len(e.inside)} block(s) inside the castle)"


def _every_field(e: ev.Event) -> str:
    """An event every field of which is public (3.1: it names no concealed block)."""
    fields = {k: v for k, v in e.model_dump(mode="json").items() if k != "type"}
    return f"{e.type} {fields}"


PUBLIC_FORMS: dict[type[ev.Event], Callable[[Any], str]] = {
    ev.BlocksPlaced: _placed, ev.CardsDrawn: _drawn, ev.CardsDiscarded: _discarded,
    ev.BidPlaced: _bid, ev.BidsRevealed: _bids, ev.Mustered: _mustered, ev.MoriArrived: _mori,
    ev.StackMoved: _moved, ev.Overrun: _overrun, ev.CombatActed: _acted,
    ev.CombatEnded: _ended, ev.Retreated: _retreated, ev.CombatOpened: _opened,
    ev.GameStarted: _every_field, ev.PhaseBegan: _every_field,
    ev.FirstPlayerChosen: _every_field, ev.MovementBought: _every_field,
    ev.ResourceControlled: _every_field, ev.CombatDeclared: _every_field,
    ev.StayedInside: _every_field, ev.LocationResolved: _every_field, ev.GameWon: _every_field,
}
"""Each event kind's line for the shared screen, declared one by one: a kind not listed here is
shown as :data:`HIDDEN` (fails closed, 3.1), never by its fields."""

HIDDEN = "something not shown on the shared screen happened"
"""The shared screen's line for an event kind that declares no public form."""


def public_event(event: ev.Event) -> str:
    """One line for the shared screen's log: no hidden identity, ever; an event kind without a
    declared public form (:data:`PUBLIC_FORMS`) shows nothing of itself."""
    form = PUBLIC_FORMS.get(type(event))
    return HIDDEN if form is None else form(event)


def side_event(event: ev.Event, side: Side) -> str:
    """The log line for ``side``'s private screen: its own blocks by face where it placed,
    mustered or moved them; everything else as on the shared screen."""
    e: Any = event
    line = public_event(event)
    if isinstance(event, ev.BlocksPlaced | ev.Mustered | ev.StackMoved) and e.side is side:
        blocks = list(e.paths) if isinstance(event, ev.StackMoved) else list(e.blocks)
        line += f" [{_faces(blocks)}]"
    return line


__all__ = [
    "DEAD", "HIDDEN", "PUBLIC_FORMS", "public_event", "public_view", "referee_view", "side_event",
    "side_view",
]
