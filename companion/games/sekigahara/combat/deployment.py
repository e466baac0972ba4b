"""Deployment (8.2.2-8.2.4) and the Impact it scores (8.3, 8.4)."""

from __future__ import annotations

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat.events import BlockDeployed, CombatEvent
from companion.games.sekigahara.combat.initiative import check_may_act
from companion.games.sekigahara.combat.model import (
    CombatKind,
    Deploy,
    ImpactBreakdown,
    PlayedCard,
)
from companion.games.sekigahara.combat.state import CombatState, evolve
from companion.games.sekigahara.components import BlockFace, CardKind, Clan, Side


def deploy(state: CombatState, action: Deploy) -> list[CombatEvent]:
    """Check a deployment (8.2.2-8.2.4, 8.4.2, 8.5) and score its block(s) one after the other."""
    check_may_act(state, action.side, "deploy")
    _check_blocks(state, action)
    if action.card is None:
        _check_cardless(state, action)
    else:
        _check_card(state, action, action.card)
    events: list[CombatEvent] = []
    index = len(state.deployments)
    for block in action.blocks:
        face = state.setup.blocks[block]
        impact, note = score(state, action.side, face, action.card)
        event = BlockDeployed(
            rule=_rule(state, action.card, impact, note),
            side=action.side,
            block=block,
            face=face,
            card=action.card,
            deployment=index,
            impact=impact,
            total=state.impact.of(action.side) + impact.total,
            note=note,
        )
        events.append(event)
        state = evolve(state, event)  # the second block of a double counts the first (8.4.2)
    return events


def score(
    state: CombatState, side: Side, face: BlockFace, card: PlayedCard | None
) -> tuple[ImpactBreakdown, str | None]:
    """The Impact of deploying ``face`` for ``side`` now (8.3.2, 8.3.3, 8.4.1, C3, C5).

    Bonuses count the deployed blocks fighting for ``side`` at this moment: blocks that defected
    to it count, its own blocks that defected away do not (C5). A Special Attack needs a special
    card and the block's gun or cavalry symbol, and scores 2 plus 2 per block showing that symbol
    already deployed on the same side, whether or not those attacked (C3). Never in a siege (8.9.5).
    """
    blocks = state.setup.blocks
    on_side = [blocks[b] for b, s in state.allegiance.items() if s is side]
    clan_bonus = sum(1 for f in on_side if f.clan is face.clan)
    special = 0
    note = None
    if card is not None and card.kind is CardKind.SPECIAL and face.attack is not None:
        if state.kind is CombatKind.SIEGE:
            note = f"no {face.attack.value} special attack in a siege"
        else:
            special = 2 + 2 * sum(1 for f in on_side if f.attack is face.attack)
    return ImpactBreakdown.of(face.mon, clan_bonus, special), note


def _rule(
    state: CombatState, card: PlayedCard | None, impact: ImpactBreakdown, note: str | None
) -> str:
    if card is None:
        return "8.2.4"
    if note is not None:
        return "8.9.5"
    if impact.special_attack:
        return "8.4.1"
    if card.kind is CardKind.DOUBLE:
        return "8.4.2"
    return "8.3.3" if impact.clan_bonus else "8.3.2"


def _check_blocks(state: CombatState, action: Deploy) -> None:
    if not action.blocks:
        raise RuleViolation("8.2.3", "a deployment names the block it deploys")
    seen: set[str] = set()
    for block in action.blocks:
        face = state.setup.blocks.get(block)
        if face is None:
            raise RuleViolation("8.2.3", f"there is no block {block!r} in this combat")
        if face.side is not action.side:
            raise RuleViolation(
                "8.2.3", f"{block} is a {face.side} block: {action.side} deploys only its own"
            )
        if block in seen or state.is_deployed(block):
            raise RuleViolation("8.2.2", f"{block} is already deployed: no block deploys twice")
        seen.add(block)


def _check_cardless(state: CombatState, action: Deploy) -> None:
    """8.2.4: leaders deploy without a card, one at a time, until the side first uses a card."""
    if len(action.blocks) != 1:
        raise RuleViolation("8.2.4", "a deployment without a card deploys a single leader")
    block = action.blocks[0]
    if not state.setup.blocks[block].leader:
        raise RuleViolation("8.2.4", f"{block} is not a leader: it needs a card to deploy")
    if action.side in state.carded:
        raise RuleViolation(
            "8.2.4",
            f"{action.side} has already deployed with a card: leaders now need a card too",
        )


def _check_card(state: CombatState, action: Deploy, card: PlayedCard) -> None:
    """8.2.2 (cards match blocks), 8.4.2 (double cards), 9.4 and 9.5 (the Ii and Ishida blocks)."""
    if card.kind is CardKind.LOYALTY:
        raise RuleViolation("8.2.2", "a Loyalty Challenge card never deploys a block (8.6.1)")
    if card.clan is None:
        raise RuleViolation("8.2.2", f"a {card.kind.value} card shows a mon: name its clan")
    if card.clan.side is not action.side:
        raise RuleViolation(
            "8.2.2",
            f"a {card.clan.value} card belongs to the {card.clan.side} deck: "
            f"{action.side} cannot play it",
        )
    if card.clan is Clan.II:
        raise RuleViolation("9.4", "there are no Ii cards: the Ii block takes any Tokugawa card")
    if card.clan is Clan.ISHIDA:
        raise RuleViolation(
            "9.5", "no card carries the Ishida mon: the Ishida block takes any Ishida card"
        )
    if card.card_id is not None and card.card_id in state.cards_used:
        raise RuleViolation("8.2.2", f"card {card.card_id} was already played in this combat")
    faces = [state.setup.blocks[b] for b in action.blocks]
    if card.kind is CardKind.DOUBLE:
        if len(faces) > 2:
            raise RuleViolation("8.4.2", "a double card deploys one or two blocks")
        if len(faces) == 2 and any(f.is_wildcard for f in faces):
            raise RuleViolation(
                "8.4.2",
                "a double card used on the Ishida or Ii block deploys that block only",
            )
    elif len(faces) != 1:
        raise RuleViolation("8.2.2", "each card deploys one block (two only with a double card)")
    for block, face in zip(action.blocks, faces, strict=True):
        if not face.is_wildcard and face.clan is not card.clan:
            raise RuleViolation(
                "8.2.2",
                f"{block} shows the {face.clan.value} mon: a {card.clan.value} card cannot "
                "deploy it",
            )
