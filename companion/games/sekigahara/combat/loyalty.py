"""Loyalty Challenges (8.6.1-8.6.3, C2, C4, C7) and declaring a side finished (8.5)."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat.events import (
    BlockDeployed,
    BlocksDefected,
    ChallengeRefuted,
    CombatEvent,
    InitiativePassed,
    LoyaltyChallenged,
    SideFinished,
)
from companion.games.sekigahara.combat.initiative import check_may_act
from companion.games.sekigahara.combat.model import Challenge, CombatKind, Finish
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import CardKind, Side


def challenge_window(state: CombatState) -> Side | None:
    """The side that may play a Loyalty Challenge right now, if any (8.6.1, C7)."""
    if state.challengeable is None:
        return None
    return state.deployments[state.challengeable].side.opponent


def challenge(state: CombatState, action: Challenge) -> list[CombatEvent]:
    """Play a Loyalty Challenge against the deployment just made (8.6.1, C7).

    Refuted, the blocks stay (the card shown returns to hand, C7; any card able to deploy them
    refutes a double deployment, C2). Not refuted, every block of the deployment defects (8.6.3):
    its Impact leaves its owner and goes to the challenger without any Special Attack points
    (8.6.2, C4). Impact scored by other deployments is never recalculated (C4).
    """
    if state.kind is CombatKind.SIEGE:
        raise RuleViolation("8.9.5", "no Loyalty Challenge may be played in a siege")
    index = state.challengeable
    if index is None:
        raise _closed_window(state)
    deployment = state.deployments[index]
    if action.side is deployment.side:
        raise RuleViolation(
            "8.6.1", f"{action.side} cannot challenge its own deployment: only the opponent can"
        )
    if action.card_id is not None and action.card_id in state.cards_used:
        raise RuleViolation("8.2.2", f"card {action.card_id} was already played in this combat")
    events: list[CombatEvent] = [
        LoyaltyChallenged(
            rule="C7" if action.side in state.finished else "8.6.1",
            challenger=action.side,
            deployment=index,
            blocks=deployment.blocks,
            card_id=action.card_id,
        )
    ]
    double = deployment.card is not None and deployment.card.kind is CardKind.DOUBLE
    if action.refuted:
        events.append(
            ChallengeRefuted(rule="C2" if double else "8.6.1", side=deployment.side,
                             blocks=deployment.blocks)
        )
        return events
    lost = sum(i.total for i in deployment.impacts)
    gained = sum(i.total - i.special_attack for i in deployment.impacts)
    if double and len(deployment.blocks) == 2:
        rule = "8.6.3"
    elif lost != gained:
        rule = "8.6.2"
    else:
        rule = "8.6.1"
    events.append(
        BlocksDefected(
            rule=rule,
            from_side=deployment.side,
            to_side=action.side,
            deployment=index,
            blocks=deployment.blocks,
            impact_lost=lost,
            impact_gained=gained,
            impact=state.impact.add(deployment.side, -lost).add(action.side, gained),
        )
    )
    return events


def _closed_window(state: CombatState) -> RuleViolation:
    if state.ended is not None:
        return RuleViolation("C7", "the battle is over: no Loyalty Challenge may be played")
    last = next((e for e in reversed(state.log) if not isinstance(e, InitiativePassed)), None)
    if isinstance(last, BlockDeployed) and last.card is None:
        return RuleViolation(
            "8.2.4", f"{last.block} deployed without a card: it is immune to Loyalty Challenge"
        )
    return RuleViolation(
        "C7",
        "a Loyalty Challenge answers the deployment just made, before anything else happens; "
        "there is no deployment to challenge now",
    )


def finish(state: CombatState, action: Finish) -> list[CombatEvent]:
    """Declare a side finished (8.5): only the initiative holder may, and never resume later."""
    check_may_act(state, action.side, "declare itself finished")
    rule = "8.9.4" if state.kind is CombatKind.SIEGE else "8.5"
    return [SideFinished(rule=rule, side=action.side)]
