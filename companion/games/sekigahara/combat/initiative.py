"""Initiative (8.5, C6) and who may act in a siege (8.9.4)."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat.model import CombatKind
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import Side


def initiative(state: CombatState) -> Side | None:
    """The side that may deploy or finish now, or None once the combat has ended.

    8.5, C6: the side behind holds the initiative; at equal Impact the attacker is behind (ties
    favour the defender). Once one side has finished, the other holds it for the rest of the
    battle. 8.9.4: in a siege the attacker holds it throughout.
    """
    if state.ended is not None:
        return None
    setup = state.setup
    if setup.kind is CombatKind.SIEGE:
        return None if setup.attacker in state.finished else setup.attacker
    if state.finished:
        other = state.finished[0].opponent
        return None if other in state.finished else other
    behind = state.impact.of(setup.attacker) <= state.impact.of(setup.defender)
    return setup.attacker if behind else setup.defender


def check_may_act(state: CombatState, side: Side, doing: str) -> None:
    """Raise unless ``side`` may deploy or declare itself finished now (8.5, 8.9.4)."""
    siege = state.kind is CombatKind.SIEGE
    if state.ended is not None:
        raise RuleViolation(
            "8.9.4" if siege else "8.5", f"the {state.kind.value} is over: {side} cannot {doing}"
        )
    if siege and side is state.setup.defender:
        raise RuleViolation(
            "8.9.4",
            f"{side} defends a siege: it plays no cards and deploys no blocks, "
            "the attacker holds the initiative throughout",
        )
    if side in state.finished:
        raise RuleViolation(
            "8.5", f"{side} has declared itself finished and cannot resume deployments"
        )
    holder = initiative(state)
    if holder is not side:
        impact = state.impact
        raise RuleViolation(
            "8.5",
            f"{side} cannot {doing}: {holder} holds the initiative "
            f"(Impact ishida {impact.ishida}, tokugawa {impact.tokugawa}; "
            "the side behind acts, ties count the attacker as behind, C6)",
        )
