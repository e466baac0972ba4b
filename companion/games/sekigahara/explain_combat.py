"""The referee's plain words for the combat rules' own events (8.2-8.10, 2.1): each
deployment's Impact, the initiative, Loyalty Challenges, the end of a battle or siege with its
losses (a level battle goes to the defender, 8.2.1) and the cards drawn back. Blocks and cards
by face (docs/referee.md, explain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.sekigahara.combat import events as cev
from companion.games.sekigahara.combat.losses import IMPACT_PER_LOSS, units_of
from companion.games.sekigahara.combat.model import CombatKind, PlayedCard, Tally
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine.data import CARDS
from companion.games.sekigahara.engine.feed import card_words, face_words, faces_words
from companion.games.sekigahara.zones import clan_name, count_words, side_name

Ruling = dict[str, Any]
"""``{"rule": ..., "text": ...}`` (:data:`companion.core.explain.Ruling`)."""


def ruling(rule: str, text: str) -> Ruling:
    return {"rule": rule, "text": text}


_r = ruling


def tally_words(tally: Tally | Mapping[Side, int]) -> str:
    """ "Ishida 3, Tokugawa 0"."""
    values = tally.as_dict() if isinstance(tally, Tally) else tally
    return ", ".join(f"{side_name(s)} {values.get(s, 0)}" for s in Side)


def card_play(card: Mapping[str, Any] | PlayedCard | None) -> str:
    """How a block was deployed: "with Ukita double (bid 5)", "without a card (...)"."""
    if card is None:
        return "without a card (a leader, 8.2.4)"
    if isinstance(card, PlayedCard):
        clan, kind, card_id = card.clan, card.kind.value, card.card_id
    else:
        clan, kind, card_id = card.get("clan"), str(card.get("kind")), card.get("card_id")
    if card_id in CARDS:
        return f"with {card_words(str(card_id))}"
    return f"with a {clan_name(clan)} {kind} card" if clan else f"with a {kind} card"


def combat_rulings(combat: CombatState, new: tuple[cev.CombatEvent, ...]) -> list[Ruling]:
    """The combat rules' own events in plain words (``combat``: the combat after them)."""
    return [_combat_event(combat, event) for event in new]


def _combat_event(combat: CombatState, e: cev.CombatEvent) -> Ruling:
    match e:
        case cev.CombatStarted(kind=kind, attacker=attacker):
            if kind is CombatKind.SIEGE:
                return _r(e.rule, f"Siege: {side_name(attacker)} attacks and holds the "
                          f"initiative throughout; {side_name(attacker.opponent)} plays no cards")
            return _r(e.rule, f"Battle: {side_name(attacker)} attacks and holds the initiative "
                      "at 0 to 0")
        case cev.BlockDeployed(side=side, block=block, card=card, impact=impact, total=total):
            note = f" ({e.note})" if e.note else ""
            return _r(e.rule, f"{side_name(side)} deploys {face_words(block)} "
                      f"{card_play(card)}: {impact.describe()}; {side_name(side)}'s Impact is "
                      f"now {total}{note}")
        case cev.InitiativePassed(to=to, impact=impact, permanent=permanent):
            if permanent:
                return _r(e.rule, f"{side_name(to.opponent)} has finished: {side_name(to)} "
                          "holds the initiative for the rest of the battle")
            return _r(e.rule, f"The initiative passes to {side_name(to)}, behind on Impact "
                      f"({tally_words(impact)})")
        case cev.LoyaltyChallenged(challenger=side, blocks=blocks):
            return _r(e.rule, f"{side_name(side)} plays a Loyalty Challenge against "
                      f"{faces_words(blocks)}")
        case cev.ChallengeRefuted(side=side, blocks=blocks):
            stay = "they stay" if len(blocks) > 1 else "it stays"
            return _r(e.rule, f"{side_name(side)} shows a card able to deploy "
                      f"{faces_words(blocks)}: {stay} loyal, and the card shown returns to the "
                      "hand")
        case cev.BlocksDefected(from_side=old, to_side=new, blocks=blocks, impact=impact):
            dropped = e.impact_lost - e.impact_gained
            lost = (f" (the {dropped} special attack points are not counted)" if dropped else "")
            verb = "change" if len(blocks) > 1 else "changes"
            return _r(e.rule, f"Not refuted: {faces_words(blocks)} {verb} sides from "
                      f"{side_name(old)} to {side_name(new)}: {side_name(old)} -"
                      f"{e.impact_lost}, {side_name(new)} +{e.impact_gained}{lost}; Impact "
                      f"{tally_words(impact)}")
        case cev.SideFinished(side=side):
            return _r(e.rule, f"{side_name(side)} declares itself finished: it deploys no "
                      "more blocks")
        case cev.CombatEnded():
            return _ended(combat, e)
        case cev.BlocksLost(side=side, units=units):
            return _r(e.rule, f"{side_name(side)} loses {faces_words(units)}")
        case cev.InstantVictory(winner=winner, reason=reason):
            return _r(e.rule, f"{reason}: {side_name(winner)} wins at once")
        case cev.CardsReplenished(draws=draws):
            return _replenished(combat, e.rule, draws)
    return _r(e.rule, type(e).__name__)


def _ended(combat: CombatState, e: cev.CombatEnded) -> Ruling:
    setup = combat.setup
    attacker, defender = setup.attacker, setup.defender
    impact = f"Impact {tally_words(e.impact)}"
    losses = []
    for side in (attacker, defender):
        suffered = e.impact.of(side.opponent)
        base = suffered // IMPACT_PER_LOSS
        if e.kind is CombatKind.SIEGE and side is attacker:
            losses.append(f"{side_name(side)} 0 (the besieger never loses blocks, 8.9.4)")
            continue
        extra = int(e.kind is CombatKind.BATTLE and side is not e.winner)
        sum_ = f"{suffered} / {IMPACT_PER_LOSS} = {base}" + (" + 1 for losing" if extra else "")
        due = e.losses_due.of(side)
        cap = (f", capped at the {count_words(len(units_of(combat, side)), 'unit')} there "
               "(C8)" if due < base + extra else "")
        losses.append(f"{side_name(side)} {due} ({sum_}{cap})")
    loss_text = "; losses: " + "; ".join(losses) + " (one per 7 Impact suffered)"
    if e.kind is CombatKind.SIEGE:
        fate = ("every defender inside is lost: the castle falls" if e.castle_falls
                else "the castle holds")
        return _r(e.rule, f"The siege ends: {impact}{loss_text}; {fate}")
    if e.impact.of(attacker) == e.impact.of(defender):
        return _r("8.2.1", f"The battle ends level, {impact}: a tie goes to the defender, so "
                  f"{side_name(defender)} wins{loss_text}")
    return _r(e.rule, f"The battle ends: {impact}, {side_name(e.winner)} has more and wins"
              f"{loss_text}")


def _replenished(combat: CombatState, rule: str, draws: Tally) -> Ruling:
    parts = []
    ended = combat.ended
    for side in Side:
        played = combat.cards_played.of(side)
        got = draws.of(side)
        bonus = got - played
        if ended is None or not bonus:
            parts.append(f"{side_name(side)} {played} played = {got}")
        elif ended.kind is CombatKind.BATTLE:
            lost = ended.losses_due.of(side)
            parts.append(f"{side_name(side)} {played} played + {bonus} for "
                         f"{count_words(lost, 'block')} lost ({lost} / 2) = {got}")
        else:
            parts.append(f"{side_name(side)} {played} played + {bonus}, one per block lost "
                         f"in the castle = {got}")
    return _r(rule, "Cards drawn after the combat: " + "; ".join(parts)
              + " (each card played comes back, C7)")
