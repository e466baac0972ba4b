"""Sekigahara combat (8.1-8.10, 9.1-9.5, 2.1) as a pure, step-wise state machine.

Start a combat with :func:`start_combat`, feed it one action at a time with :func:`apply_action`
(which raises :class:`~companion.core.rules.RuleViolation` citing the rule for anything illegal)
and read the outcome with :func:`combat_result`. States are immutable values; every change is an
event, and :func:`replay` rebuilds a state from its events.
"""

from companion.games.sekigahara.combat.deployment import score
from companion.games.sekigahara.combat.engine import (
    CombatResult,
    apply_action,
    combat_result,
    is_finished,
    is_resolved,
    legal_actions,
    run_combat,
    start_combat,
)
from companion.games.sekigahara.combat.events import (
    BlockDeployed,
    BlocksDefected,
    BlocksLost,
    CardsReplenished,
    ChallengeRefuted,
    CombatEnded,
    CombatEvent,
    CombatStarted,
    InitiativePassed,
    InstantVictory,
    LoyaltyChallenged,
    SideFinished,
)
from companion.games.sekigahara.combat.initiative import initiative
from companion.games.sekigahara.combat.losses import (
    LossChoice,
    awaiting_losses,
    forced_losses,
    loss_choice,
    loss_tiers,
    replenishment,
)
from companion.games.sekigahara.combat.losses import losses_due as _losses_due
from companion.games.sekigahara.combat.loyalty import challenge_window
from companion.games.sekigahara.combat.model import (
    Challenge,
    CombatAction,
    CombatKind,
    CombatSetup,
    Deploy,
    Finish,
    ImpactBreakdown,
    Lose,
    PlayedCard,
    Tally,
)
from companion.games.sekigahara.combat.state import CombatState, Deployment, evolve, replay
from companion.games.sekigahara.components import Side


def losses_due(state: CombatState) -> dict[Side, int]:
    """Blocks (and disks) each side loses (8.7.1, 8.9.4 B, C8); provisional until the end."""
    return _losses_due(state).as_dict()


__all__ = [
    "BlockDeployed",
    "BlocksDefected",
    "BlocksLost",
    "CardsReplenished",
    "Challenge",
    "ChallengeRefuted",
    "CombatAction",
    "CombatEnded",
    "CombatEvent",
    "CombatKind",
    "CombatResult",
    "CombatSetup",
    "CombatStarted",
    "CombatState",
    "Deploy",
    "Deployment",
    "Finish",
    "ImpactBreakdown",
    "InitiativePassed",
    "InstantVictory",
    "Lose",
    "LossChoice",
    "LoyaltyChallenged",
    "PlayedCard",
    "SideFinished",
    "Tally",
    "apply_action",
    "awaiting_losses",
    "challenge_window",
    "combat_result",
    "evolve",
    "forced_losses",
    "initiative",
    "is_finished",
    "is_resolved",
    "legal_actions",
    "loss_choice",
    "loss_tiers",
    "losses_due",
    "replay",
    "replenishment",
    "run_combat",
    "score",
    "start_combat",
]
