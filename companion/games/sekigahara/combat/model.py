"""The vocabulary of a combat (8.1-8.10): its setup, the actions players take, and small values.

Everything here is a frozen pydantic model, so a combat can be logged, sent over the wire and
replayed. Blocks are identified by opaque ids; a block's owner is the side of its face's clan.
The two disks (3.4) are named by their :class:`Disk` value (``"hideyori"``, ``"sanada"``) where
a unit id is expected.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.games.sekigahara.components import BlockFace, CardKind, Clan, Disk, Side


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CombatKind(StrEnum):
    """A battle (8.2) or, when the defender stays inside its castle, a siege (8.9)."""

    BATTLE = "battle"
    SIEGE = "siege"


class PlayedCard(_Frozen):
    """A card played face up in combat (8.2.3). ``card_id`` lets 8.2.2's "no card twice" be checked.

    ``clan`` is None only for a Loyalty Challenge card, which never deploys a block (8.2.2).
    """

    clan: Clan | None
    kind: CardKind
    card_id: str | None = None

    def describe(self) -> str:
        if self.clan is None:
            return f"a {self.kind.value} card"
        return f"a {self.clan.value} {self.kind.value} card"


class CombatSetup(_Frozen):
    """Who fights where: every block present; for a siege, the castle, its disks and who is inside.

    ``inside`` holds the defender's blocks inside the castle (8.9.1, 8.9.2); in a siege that is the
    whole defending force, in a battle it is empty. ``castle`` is the location id of the castle; in
    a siege it brings in the board's disk there (Hideyori at Osaka, 9.1; Sanada at Ueda, 9.2),
    listed in ``disks`` while it still stands.
    """

    kind: CombatKind
    attacker: Side
    blocks: dict[str, BlockFace]
    castle: str | None = None
    disks: tuple[Disk, ...] = ()
    inside: frozenset[str] = frozenset()

    @property
    def defender(self) -> Side:
        return self.attacker.opponent

    def blocks_of(self, side: Side) -> list[str]:
        """The ids of ``side``'s blocks, in setup order."""
        return [bid for bid, face in self.blocks.items() if face.side is side]


class Deploy(_Frozen):
    """Deploy a block (two with a double card, 8.4.2); ``card`` None: a cardless leader (8.2.4)."""

    type: Literal["deploy"] = "deploy"
    side: Side
    card: PlayedCard | None
    blocks: tuple[str, ...]


class Challenge(_Frozen):
    """A Loyalty Challenge against the deployment just made (8.6.1, C7).

    ``refuted`` says whether the deploying side showed a card able to deploy the block(s).
    ``card_id`` optionally names the Loyalty Challenge card played.
    """

    type: Literal["challenge"] = "challenge"
    side: Side
    refuted: bool
    card_id: str | None = None


class Finish(_Frozen):
    """Declare that this side will deploy no more blocks (8.5, 8.9.4 A)."""

    type: Literal["finish"] = "finish"
    side: Side


class Lose(_Frozen):
    """The blocks (or disks, by name) a side selects to lose after the combat (8.7.2, 8.9.4 C)."""

    type: Literal["lose"] = "lose"
    side: Side
    losses: tuple[str, ...]


CombatAction = Annotated[Deploy | Challenge | Finish | Lose, Field(discriminator="type")]


class Tally(_Frozen):
    """One number per side (Impact, losses, cards)."""

    ishida: int = 0
    tokugawa: int = 0

    def of(self, side: Side) -> int:
        return self.ishida if side is Side.ISHIDA else self.tokugawa

    def add(self, side: Side, amount: int) -> Tally:
        return self.model_copy(update={side.value: self.of(side) + amount})

    def as_dict(self) -> dict[Side, int]:
        return {Side.ISHIDA: self.ishida, Side.TOKUGAWA: self.tokugawa}


class ImpactBreakdown(_Frozen):
    """Impact a block scored on deployment: mon (8.3.2) + same clan (8.3.3) + attack (8.4.1)."""

    base: int
    clan_bonus: int = 0
    special_attack: int = 0
    total: int

    @model_validator(mode="before")
    @classmethod
    def _sum(cls, data: Any) -> Any:
        if isinstance(data, dict) and "total" not in data:
            parts = ("base", "clan_bonus", "special_attack")
            data = {**data, "total": sum(int(data.get(k, 0)) for k in parts)}
        return data

    @classmethod
    def of(cls, base: int, clan_bonus: int = 0, special_attack: int = 0) -> ImpactBreakdown:
        total = base + clan_bonus + special_attack
        return cls(base=base, clan_bonus=clan_bonus, special_attack=special_attack, total=total)

    @model_validator(mode="after")
    def _adds_up(self) -> ImpactBreakdown:
        if self.total != self.base + self.clan_bonus + self.special_attack:
            raise ValueError("total must be base + clan_bonus + special_attack")
        return self

    def describe(self) -> str:
        parts = [f"{self.base} mon"]
        if self.clan_bonus:
            parts.append(f"{self.clan_bonus} same clan")
        if self.special_attack:
            parts.append(f"{self.special_attack} special attack")
        return " + ".join(parts) + f" = {self.total} Impact"
