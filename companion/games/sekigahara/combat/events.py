"""What happens in a combat, as events (8.1-8.10, 2.1).

Events are the single source of truth: :func:`companion.games.sekigahara.combat.state.evolve`
folds them into a :class:`CombatState`, so replaying a combat's events rebuilds it exactly. Each
event names the rule it applies (``rule``) and reads as one human-readable ruling.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.core.rules import Ruling
from companion.games.sekigahara.combat.model import (
    CombatKind,
    ImpactBreakdown,
    PlayedCard,
    Tally,
)
from companion.games.sekigahara.components import BlockFace, Side


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str

    def text(self) -> str:
        raise NotImplementedError

    def ruling(self) -> Ruling:
        return Ruling(rule=self.rule, text=self.text())


def _score(tally: Tally) -> str:
    return f"ishida {tally.ishida}, tokugawa {tally.tokugawa}"


class CombatStarted(_Event):
    """The combat is declared (8.1): the attacker deploys first (8.2.1, C6) or besieges (8.9.4)."""

    type: Literal["combat_started"] = "combat_started"
    kind: CombatKind
    attacker: Side
    castle: str | None = None

    def text(self) -> str:
        if self.kind is CombatKind.SIEGE:
            where = f" of {self.castle}" if self.castle else ""
            return (
                f"siege{where}: {self.attacker} attacks and holds the initiative throughout; "
                f"{self.attacker.opponent} plays no cards"
            )
        return f"battle: {self.attacker} attacks and holds the initiative at 0-0"


class BlockDeployed(_Event):
    """A block deploys (8.2.3) and scores Impact (8.3.2, 8.3.3, 8.4.1, 8.4.2; 8.2.4 cardless)."""

    type: Literal["block_deployed"] = "block_deployed"
    side: Side
    block: str
    face: BlockFace
    card: PlayedCard | None
    deployment: int
    impact: ImpactBreakdown
    total: int
    note: str | None = None

    def text(self) -> str:
        how = "without a card (leader)" if self.card is None else f"with {self.card.describe()}"
        text = (
            f"{self.side} deploys {self.block} ({self.face.describe()}) {how}: "
            f"{self.impact.describe()}; {self.side} total {self.total}"
        )
        return f"{text} ({self.note})" if self.note else text


class InitiativePassed(_Event):
    """The side behind now holds the initiative (8.5, C6), permanently once the other finished."""

    type: Literal["initiative_passed"] = "initiative_passed"
    to: Side
    impact: Tally
    permanent: bool = False

    def text(self) -> str:
        if self.permanent:
            return f"{self.to} holds the initiative for the rest of the battle"
        return f"initiative passes to {self.to} ({_score(self.impact)})"


class LoyaltyChallenged(_Event):
    """A Loyalty Challenge card is played against the deployment just made (8.6.1, C7)."""

    type: Literal["loyalty_challenged"] = "loyalty_challenged"
    challenger: Side
    deployment: int
    blocks: tuple[str, ...]
    card_id: str | None = None

    def text(self) -> str:
        return f"{self.challenger} plays a Loyalty Challenge against {', '.join(self.blocks)}"


class ChallengeRefuted(_Event):
    """The deploying side showed a card able to deploy the block(s): they stay loyal (8.6.1, C2)."""

    type: Literal["challenge_refuted"] = "challenge_refuted"
    side: Side
    blocks: tuple[str, ...]

    def text(self) -> str:
        stay = "they stay" if len(self.blocks) > 1 else "it stays"
        return (
            f"{self.side} shows a card able to deploy {', '.join(self.blocks)}: {stay} loyal; "
            "the card shown returns to hand"
        )


class BlocksDefected(_Event):
    """Unrefuted challenge: the block(s) change sides with their Impact (8.6.1-8.6.3, C4)."""

    type: Literal["blocks_defected"] = "blocks_defected"
    from_side: Side
    to_side: Side
    deployment: int
    blocks: tuple[str, ...]
    impact_lost: int
    impact_gained: int
    impact: Tally

    def text(self) -> str:
        verb = "defect" if len(self.blocks) > 1 else "defects"
        text = (
            f"{', '.join(self.blocks)} {verb} from {self.from_side} to {self.to_side}: "
            f"{self.from_side} -{self.impact_lost}, {self.to_side} +{self.impact_gained}"
        )
        dropped = self.impact_lost - self.impact_gained
        if dropped:
            text += f" (the {dropped} special attack points are not counted)"
        return f"{text}; Impact {_score(self.impact)}"


class SideFinished(_Event):
    """A side declares it will deploy no more blocks (8.5, 8.9.4 A)."""

    type: Literal["side_finished"] = "side_finished"
    side: Side

    def text(self) -> str:
        return f"{self.side} declares itself finished"


class CombatEnded(_Event):
    """The combat stops: winner and losses due (8.2.1, 8.7.1, C8; sieges 8.9.4 B and D)."""

    type: Literal["combat_ended"] = "combat_ended"
    kind: CombatKind
    impact: Tally
    winner: Side
    losses_due: Tally
    castle_falls: bool | None = None

    def text(self) -> str:
        losses = _score(self.losses_due)
        if self.kind is CombatKind.SIEGE:
            fate = "the castle falls" if self.castle_falls else "the castle holds"
            return f"siege ends: Impact {_score(self.impact)}, losses due {losses}; {fate}"
        return (
            f"battle ends: Impact {_score(self.impact)}, {self.winner} wins; losses due "
            f"{losses} (one per 7 Impact suffered, plus one for the loser)"
        )


class BlocksLost(_Event):
    """A side's chosen losses, revealed (8.7.2, 8.7.3; sieges 8.9.4 C, 9.1, 9.2)."""

    type: Literal["blocks_lost"] = "blocks_lost"
    side: Side
    units: tuple[str, ...]
    revealed: tuple[str, ...]

    def text(self) -> str:
        shown = ", ".join(f"{u} ({r})" for u, r in zip(self.units, self.revealed, strict=True))
        return f"{self.side} loses {shown or 'nothing'}"


class InstantVictory(_Event):
    """A protagonist is eliminated or Hideyori captured (2.1, 9.1, 9.5)."""

    type: Literal["instant_victory"] = "instant_victory"
    winner: Side
    reason: str

    def text(self) -> str:
        return f"{self.reason}: {self.winner} wins instantly"


class CardsReplenished(_Event):
    """Each side draws back the cards it played, plus losses compensation (8.10, C7)."""

    type: Literal["cards_replenished"] = "cards_replenished"
    draws: Tally

    def text(self) -> str:
        return f"cards drawn: {_score(self.draws)}"


CombatEvent = Annotated[
    CombatStarted
    | BlockDeployed
    | InitiativePassed
    | LoyaltyChallenged
    | ChallengeRefuted
    | BlocksDefected
    | SideFinished
    | CombatEnded
    | BlocksLost
    | InstantVictory
    | CardsReplenished,
    Field(discriminator="type"),
]
