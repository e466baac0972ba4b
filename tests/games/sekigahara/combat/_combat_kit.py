"""Small builders for combat tests: faces, setups, actions, and playing a sequence."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat import (
    Challenge,
    CombatAction,
    CombatKind,
    CombatSetup,
    CombatState,
    Deploy,
    Finish,
    Lose,
    PlayedCard,
    apply_action,
    start_combat,
)
from companion.games.sekigahara.components import Attack, BlockFace, CardKind, Clan, Disk, Side

ISH = Side.ISHIDA
TOK = Side.TOKUGAWA
GUN = Attack.GUN
CAV = Attack.CAVALRY


def face(clan: str, mon: int = 1, attack: Attack | None = None, leader: bool = False) -> BlockFace:
    return BlockFace(clan=Clan(clan), mon=mon, attack=attack, leader=leader)


def battle(attacker: Side, **blocks: BlockFace) -> CombatState:
    return start_combat(CombatSetup(kind=CombatKind.BATTLE, attacker=attacker, blocks=blocks))


def siege(
    attacker: Side, castle: str | None = None, disks: tuple[Disk, ...] = (), **blocks: BlockFace
) -> CombatState:
    inside = frozenset(b for b, f in blocks.items() if f.side is not attacker)
    return start_combat(
        CombatSetup(
            kind=CombatKind.SIEGE, attacker=attacker, blocks=blocks, castle=castle,
            disks=disks, inside=inside,
        )
    )


def dep(side: Side, *blocks: str, clan: str | None = None, kind: str = "plain",
        card_id: str | None = None) -> Deploy:
    """A deployment; ``clan`` None with kind "none" is a cardless leader (8.2.4)."""
    if kind == "none":
        return Deploy(side=side, card=None, blocks=blocks)
    assert clan is not None
    card = PlayedCard(clan=Clan(clan), kind=CardKind(kind), card_id=card_id)
    return Deploy(side=side, card=card, blocks=blocks)


def leader(side: Side, block: str) -> Deploy:
    return Deploy(side=side, card=None, blocks=(block,))


def challenge(side: Side, refuted: bool) -> Challenge:
    return Challenge(side=side, refuted=refuted)


def finish(side: Side) -> Finish:
    return Finish(side=side)


def lose(side: Side, *units: str) -> Lose:
    return Lose(side=side, losses=units)


def play(state: CombatState, *actions: CombatAction) -> CombatState:
    for action in actions:
        state, _ = apply_action(state, action)
    return state


def violation(state: CombatState, *actions: CombatAction) -> RuleViolation:
    """Play ``actions``; the last must be rejected. Returns the RuleViolation it raised."""
    state = play(state, *actions[:-1])
    try:
        apply_action(state, actions[-1])
    except RuleViolation as exc:
        return exc
    raise AssertionError(f"{actions[-1]!r} was accepted")
