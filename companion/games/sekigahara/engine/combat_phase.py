"""The Combat Phase around the combat rules: declarations (8.1), castles and sieges (8.9.1-8.9.3,
8.9.6), Mori at Osaka (9.3), combat actions, the aftermath on the board, retreats (8.8) and
card replenishment (8.10)."""

from __future__ import annotations

from typing import Any

from companion.core.rules import RuleViolation
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import CardKind, Disk, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.cards import can_deploy, check_in_hand
from companion.games.sekigahara.engine.castles import (
    blocks_at,
    castle_owner,
    contested,
    units_count,
)
from companion.games.sekigahara.engine.data import BOARD, CARDS, OSAKA
from companion.games.sekigahara.engine.feed import card_words
from companion.games.sekigahara.engine.flow import Emitter, draw_cards, reject
from companion.games.sekigahara.engine.mori import mori_in_box
from companion.games.sekigahara.engine.overrun import resolve_overruns
from companion.games.sekigahara.engine.state import Phase, Stage, State
from companion.games.sekigahara.engine.turns import end_phase
from companion.games.sekigahara.engine.victory import check_instant_victory
from companion.games.sekigahara.zones import side_name


def must_declare(state: State) -> list[str]:
    """8.1, 8.9.4 E: locations where the phasing player must still declare combat. The active
    owner of a castle with at most two blocks there may stay inside instead (8.9.2)."""
    side = state.active
    if state.phase is not Phase.COMBAT or side is None:
        return []
    found = []
    for loc in contested(state):
        if loc in state.resolved:
            continue
        mine = len(blocks_at(state, loc, side))
        if castle_owner(state, loc) is side and mine <= 2:
            continue
        found.append(loc)
    return found


def declarable(state: State) -> list[str]:
    """Locations where the phasing player may declare combat now (8.1)."""
    side = state.active
    if state.phase is not Phase.COMBAT or side is None or state.pending is not None:
        return []
    return [
        loc for loc in contested(state)
        if loc not in state.resolved and blocks_at(state, loc, side)
    ]


def open_combat(em: Emitter, location: str, attacker: Side, *, from_retreat: bool,
          inside: bool = False) -> None:
    """Open a combat at ``location``: Mori arrivals, castle choice, then the fight."""
    owner = castle_owner(em.state, location)
    em.emit(ev.CombatDeclared(location=location, attacker=attacker, owner=owner,
                              from_retreat=from_retreat))
    if location == OSAKA and attacker is Side.TOKUGAWA and mori_in_box(em.state):
        em.emit(ev.MoriArrived(blocks=tuple(mori_in_box(em.state)), attacked=True))  # 9.3
        resolve_overruns(em, [location], Side.ISHIDA)
        if em.over:
            return
        if not (units_count(em.state, location, Side.ISHIDA)
                and blocks_at(em.state, location, Side.TOKUGAWA)):
            em.emit(ev.LocationResolved(location=location))
            return
    defender = attacker.opponent
    theirs = blocks_at(em.state, location, defender)
    if owner is attacker and not from_retreat:
        if inside:
            em.emit(ev.StayedInside(location=location, side=attacker, inside=True, combat=False))
            return
        em.emit(ev.CombatOpened(location=location, siege=False, inside=()))
    elif owner is defender and not theirs:
        em.emit(ev.CombatOpened(location=location, siege=True, inside=()))  # disk only
    elif owner is defender and len(theirs) <= 2:
        return  # 8.9.2: the defending owner chooses inside or outside (ChooseInside)
    else:
        em.emit(ev.CombatOpened(location=location, siege=False, inside=()))


def declare(state: State, cmd: cm.DeclareCombat) -> list[ev.Event]:
    """8.1: the phasing player declares combat at one location at a time."""
    if cmd.location not in BOARD.locations or cmd.location not in contested(state):
        raise reject("8.1", f"opposing units are not together at {cmd.location}")
    if cmd.location in state.resolved:
        raise reject("8.1", f"combat at {cmd.location} is already resolved this phase")
    mine = blocks_at(state, cmd.location, cmd.side)
    if not mine:
        raise reject("8.9.2", f"{cmd.side.value} has no block to fight at {cmd.location}")
    if cmd.inside and (castle_owner(state, cmd.location) is not cmd.side or len(mine) > 2):
        raise reject("8.9.1", "only the castle's owner with two blocks or fewer stays inside")
    em = Emitter(state)
    open_combat(em, cmd.location, cmd.side, from_retreat=False, inside=cmd.inside)
    return em.events


def choose_inside(state: State, cmd: cm.ChooseInside) -> list[ev.Event]:
    """8.9.2: the defending owner (two blocks or fewer) stays inside (a siege) or fights outside
    (a battle)."""
    p = state.pending
    assert p is not None and p.stage is Stage.CASTLE_CHOICE  # the dispatch's step (8.9.2)
    if cmd.side is not p.owner:
        raise reject("8.9.2", "only the castle's owner chooses inside or outside")
    em = Emitter(state)
    em.emit(ev.StayedInside(location=p.location, side=cmd.side, inside=cmd.inside, combat=True))
    inside = tuple(blocks_at(state, p.location, cmd.side)) if cmd.inside else ()
    em.emit(ev.CombatOpened(location=p.location, siege=cmd.inside, inside=inside))
    return em.events


def to_action(cmd: Any) -> combat.CombatAction:
    if isinstance(cmd, cm.Deploy):
        card = None if cmd.card is None else combat.PlayedCard(
            clan=cmd.card.clan, kind=cmd.card.kind, card_id=cmd.card.card_id)
        return combat.Deploy(side=cmd.side, card=card, blocks=cmd.blocks)
    if isinstance(cmd, cm.Challenge):
        return combat.Challenge(side=cmd.side, refuted=cmd.refuted, card_id=cmd.card)
    if isinstance(cmd, cm.Finish):
        return combat.Finish(side=cmd.side)
    assert isinstance(cmd, cm.TakeLosses)
    return combat.Lose(side=cmd.side, losses=cmd.losses)


def act(state: State, cmd: Any) -> list[ev.Event]:
    """One combat action (8.2-8.7, 8.9.4), judged by the combat rules. A card the table names
    must still be in the hand: not face up on the table, not in the discard pile (3.3)."""
    p = state.pending
    assert p is not None and p.stage is Stage.FIGHTING  # the dispatch's step (8.1)
    action = to_action(cmd)
    needs_card = (isinstance(action, combat.Deploy) and action.card is not None) or isinstance(
        action, combat.Challenge)
    if needs_card and state.hand[action.side] < 1:
        raise reject("8.2.2", f"{action.side.value} has no card in hand to play")
    if isinstance(action, combat.Deploy) and action.card is not None and action.card.card_id:
        known = CARDS.get(action.card.card_id)
        if known is None or known.side is not action.side or (
            known.clan, known.kind) != (action.card.clan, action.card.kind):
            raise reject("8.2.2", f"card {action.card.card_id} is not a "
                         f"{action.card.describe()} of the {action.side.value} deck")
        check_in_hand(state, action.side, action.card.card_id, "8.2.2")
    if isinstance(cmd, cm.Challenge):
        _check_challenge(state, p.combat, cmd)
    try:
        after, _ = combat.apply_action(p.combat, action)
    except RuleViolation as exc:
        raise reject(exc.rule, f"illegal combat action by {action.side.value}",
                     private=exc.message) from None
    em = Emitter(state)
    em.emit(ev.CombatActed(side=action.side, action=action.model_dump(mode="json")))
    if combat.is_resolved(after):
        _conclude(em)
    return em.events


def _check_challenge(state: State, fight: combat.CombatState, cmd: cm.Challenge) -> None:
    """8.6.1: the challenger plays a Loyalty Challenge card; the deploying side refutes only by
    showing from its hand another card able to deploy the block (C2: any one card for a double
    deployment), so not with an empty hand. Hand sizes are public, so the refusal tells nothing."""
    if cmd.card is not None:
        card = check_in_hand(state, cmd.side, cmd.card, "8.6.1")
        if card.kind is not CardKind.LOYALTY:
            raise reject("8.6.1", "a Loyalty Challenge is played with a Loyalty Challenge card")
    if combat.challenge_window(fight) is not cmd.side:
        return  # the combat rules say why no challenge may be played now
    deployer = cmd.side.opponent
    if not cmd.refuted:
        if cmd.shown is not None:
            raise reject("8.6.1", "a card shown refutes the challenge: the answer is refuted")
        return
    if state.hand[deployer] < 1:
        raise reject("8.6.1", f"{side_name(deployer)} has no card in hand to show, so cannot "
                     "refute the Loyalty Challenge")
    if cmd.shown is not None:
        shown = check_in_hand(state, deployer, cmd.shown, "8.6.1")
        assert fight.challengeable is not None  # the window is open
        deployment = fight.deployments[fight.challengeable]
        faces = [fight.setup.blocks[b] for b in deployment.blocks]
        if not any(can_deploy(shown, face) for face in faces):
            raise reject("8.6.1", "the card shown must be able to deploy the block challenged",
                         private=f"{card_words(cmd.shown)} cannot deploy it")


def _conclude(em: Emitter) -> None:
    p = em.state.pending
    assert p is not None
    result = combat.combat_result(p.combat)
    disks = {d.value for d in Disk}
    losses = {s: tuple(u for u in result.lost[s] if u not in disks) for s in Side}
    disks_lost = tuple(Disk(u) for s in Side for u in result.lost[s] if u in disks)
    retreating: Side | None = None
    if not p.siege:
        loser = result.winner.opponent
        remaining = set(blocks_at(em.state, p.location, loser)) - set(losses[loser])
        if remaining:
            retreating = loser
    em.emit(ev.CombatEnded(
        location=p.location, winner=result.winner, losses=losses, disks_lost=disks_lost,
        castle_falls=bool(result.castle_falls), siege=p.siege, retreating=retreating,
        draws=dict(result.cards_drawn),
    ))
    check_instant_victory(em, "2.1")
    if em.over or retreating is not None:
        return
    replenish(em, dict(result.cards_drawn))


def replenish(em: Emitter, draws: dict[Side, int]) -> None:
    """8.10: both sides discard the cards played and draw back (plus the bonus for losses). The
    cards the table named go to the discard pile by name, out of play until the reshuffle (3.3)."""
    for side in Side:
        if em.state.table[side]:
            em.emit(ev.CardsDiscarded(side=side, count=em.state.table[side], rule="8.10",
                                      cards=em.state.table_cards[side], from_table=True))
    for side in Side:
        draw_cards(em, side, draws.get(side, 0), "8.10")


def end_combat(state: State, cmd: cm.EndPhase) -> list[ev.Event]:
    """8.1: the phase ends once every location with opposing units has had its combat."""
    left = must_declare(state)
    if left:
        sieges = {state.pos[b] for b in state.inside}
        raise reject("8.9.4" if sieges & set(left) else "8.1",
                     "combat must still be declared at " + ", ".join(left))
    em = Emitter(state)
    end_phase(em)
    return em.events
