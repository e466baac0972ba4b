"""The combat state machine: start a combat, apply one action at a time, read the result.

``apply_action`` asks the rule function for the action (deployment, challenge, finish, losses)
for its events, folds them into the state, then adds the events the rules draw from the new
state: initiative passing (8.5), the end of the combat (8.7.1, 8.9.4), instant victory (2.1) and
card replenishment (8.10). States are immutable: the input state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from companion.core.rules import RuleViolation, Ruling
from companion.games.sekigahara.combat.deployment import deploy
from companion.games.sekigahara.combat.events import (
    CardsReplenished,
    CombatEnded,
    CombatEvent,
    CombatStarted,
    InitiativePassed,
)
from companion.games.sekigahara.combat.initiative import initiative
from companion.games.sekigahara.combat.losses import (
    awaiting_losses,
    compute_losses,
    leader_by_impact,
    lose,
    loss_choice,
    lost_units,
    replenishment,
    units_of,
)
from companion.games.sekigahara.combat.loyalty import challenge, challenge_window, finish
from companion.games.sekigahara.combat.model import (
    Challenge,
    CombatAction,
    CombatKind,
    CombatSetup,
    Deploy,
    Finish,
    Lose,
    PlayedCard,
)
from companion.games.sekigahara.combat.state import CombatState, evolve
from companion.games.sekigahara.combat.victory import certain_eliminations, instant_victory
from companion.games.sekigahara.components import (
    Board,
    CardKind,
    Clan,
    Disk,
    Side,
    default_board,
)

_RULES: dict[type[Any], Callable[[CombatState, Any], list[CombatEvent]]] = {
    Deploy: deploy,
    Challenge: challenge,
    Finish: finish,
    Lose: lose,
}


def start_combat(setup: CombatSetup, board: Board | None = None) -> CombatState:
    """Check the setup (8.1, 8.9.1-8.9.3, 9.1, 9.2) and open the combat (8.2.1, 8.9.4)."""
    _check_setup(setup, board or default_board())
    siege = setup.kind is CombatKind.SIEGE
    started = CombatStarted(
        rule="8.9.4" if siege else "8.2.1",
        kind=setup.kind,
        attacker=setup.attacker,
        castle=setup.castle,
    )
    return evolve(CombatState(setup=setup), started)


def apply_action(
    state: CombatState, action: CombatAction
) -> tuple[CombatState, list[CombatEvent]]:
    """Apply one action; raise :class:`RuleViolation` (citing the rule) if it is illegal."""
    events = list(_RULES[type(action)](state, action))
    after = state
    for event in events:
        after = evolve(after, event)
    for event in _consequences(state, after):
        after = evolve(after, event)
        events.append(event)
    return after, events


def run_combat(
    setup: CombatSetup, actions: Iterable[CombatAction], board: Board | None = None
) -> CombatState:
    """Start a combat and apply every action in turn."""
    state = start_combat(setup, board)
    for action in actions:
        state, _ = apply_action(state, action)
    return state


def is_finished(state: CombatState) -> bool:
    """Both sides are done deploying (the attacker alone in a siege): the combat has ended."""
    return state.ended is not None


def is_resolved(state: CombatState) -> bool:
    """The combat has ended and every side has selected its losses."""
    return state.ended is not None and awaiting_losses(state) is None


def _consequences(before: CombatState, after: CombatState) -> list[CombatEvent]:
    events: list[CombatEvent] = []
    if after.ended is None:
        done = after.finished if after.kind is CombatKind.BATTLE else ()
        if len(done) == 2 or (after.kind is CombatKind.SIEGE and after.finished):
            ended = _ending(after)
            events.append(ended)
            after = evolve(after, ended)
        else:
            holder = initiative(after)
            if holder is not None and holder is not initiative(before):
                events.append(
                    InitiativePassed(
                        rule="8.5", to=holder, impact=after.impact, permanent=bool(after.finished)
                    )
                )
            return events
    victory = instant_victory(after, certain_eliminations(after))
    if victory is not None and victory.winner is not after.instant_victory:
        chosen = {u for lost in after.losses_taken for u in lost.units}
        if instant_victory(after, chosen) != victory:
            reason = f"{victory.reason} (every legal choice of losses includes it)"
            victory = victory.model_copy(update={"reason": reason})
        events.append(victory)
        after = evolve(after, victory)
    if awaiting_losses(after) is None and after.replenished is None:
        events.append(CardsReplenished(rule="8.10", draws=replenishment(after)))
    return events


def _ending(state: CombatState) -> CombatEnded:
    due = compute_losses(state)
    setup = state.setup
    if setup.kind is CombatKind.SIEGE:
        falls = due.of(setup.defender) == len(units_of(state, setup.defender))
        winner = setup.attacker if falls else setup.defender
        return CombatEnded(
            rule="8.9.4", kind=setup.kind, impact=state.impact, winner=winner,
            losses_due=due, castle_falls=falls,
        )
    return CombatEnded(
        rule="8.7.1", kind=setup.kind, impact=state.impact, winner=leader_by_impact(state),
        losses_due=due,
    )


def _check_setup(setup: CombatSetup, board: Board) -> None:
    disk_names = {d.value for d in Disk}
    for block in setup.blocks:
        if block in disk_names:
            raise RuleViolation("3.4", f"{block!r} names a disk: give the block another id")
    attackers = setup.blocks_of(setup.attacker)
    defenders = setup.blocks_of(setup.defender)
    if not attackers:
        raise RuleViolation("8.1", f"the attacker ({setup.attacker}) has no block in the combat")
    if setup.kind is CombatKind.BATTLE:
        if not defenders:
            raise RuleViolation("8.1", f"the defender ({setup.defender}) has no block in battle")
        if setup.inside:
            raise RuleViolation("8.9.2", "in a battle no block is inside the castle")
        if setup.disks:
            raise RuleViolation("8.9.3", "only a siege can affect a disk: no disks in a battle")
        return
    for block in setup.inside:
        if block not in defenders:
            raise RuleViolation("8.9.2", f"{block} is not a defending block: it cannot be inside")
    if len(setup.inside) > 2:
        raise RuleViolation("8.9.1", "at most two blocks fit inside a castle")
    if set(defenders) != setup.inside:
        raise RuleViolation(
            "8.9.2", "in a siege the whole defending force is inside the castle (8.9.1)"
        )
    if not defenders and not setup.disks:
        raise RuleViolation("8.1", "the castle holds neither block nor disk: there is no siege")
    if setup.castle is not None:
        location = board.locations.get(setup.castle)
        if location is None or location.castle is None:
            raise RuleViolation("4.3", f"{setup.castle!r} is not a castle on the board")
    if len(set(setup.disks)) != len(setup.disks):
        raise RuleViolation("8.9.3", "each disk is listed once")
    for disk in setup.disks:
        home = "osaka" if disk is Disk.HIDEYORI else "ueda"
        rule = "9.1" if disk is Disk.HIDEYORI else "9.2"
        if setup.castle is None or board.locations[setup.castle].disk is not disk:
            raise RuleViolation(rule, f"the {disk.value} disk stands only at {home} castle")
        if setup.defender is not Side.ISHIDA:
            raise RuleViolation("3.4", f"the {disk.value} disk is a gold (Ishida) unit")


def legal_actions(state: CombatState) -> Sequence[CombatAction]:
    """Every action the rules allow now, cards described by clan and kind (hands are unknown).
    While losses are awaited it is the :class:`LossChoice`, a lazy sequence (8.7.2)."""
    choice = loss_choice(state)
    if choice is not None:
        return choice
    actions: list[CombatAction] = []
    challenger = challenge_window(state)
    if challenger is not None:
        actions += [Challenge(side=challenger, refuted=r) for r in (True, False)]
    holder = initiative(state)
    if holder is None:
        return actions
    actions.append(Finish(side=holder))
    blocks = state.setup.blocks
    free = [b for b in state.setup.blocks_of(holder) if not state.is_deployed(b)]
    deck = [c for c in Clan if c.side is holder and not c.is_wildcard]
    for n, block in enumerate(free):
        face = blocks[block]
        if face.leader and holder not in state.carded:
            actions.append(Deploy(side=holder, card=None, blocks=(block,)))
        for clan in deck if face.is_wildcard else [face.clan]:
            for kind in (CardKind.PLAIN, CardKind.SPECIAL, CardKind.DOUBLE):
                card = PlayedCard(clan=clan, kind=kind)
                actions.append(Deploy(side=holder, card=card, blocks=(block,)))
        if face.is_wildcard:
            continue
        for other in free[n + 1 :]:
            if blocks[other].clan is face.clan:
                card = PlayedCard(clan=face.clan, kind=CardKind.DOUBLE)
                actions.append(Deploy(side=holder, card=card, blocks=(block, other)))
    return actions


class CombatResult(BaseModel):
    """The adjudication of an ended combat (8.7, 8.9.4, 8.10, 2.1) and the rulings behind it."""

    model_config = ConfigDict(frozen=True)

    kind: CombatKind
    impact: dict[Side, int]
    winner: Side
    losses: dict[Side, int]
    cards_drawn: dict[Side, int]
    defected: list[str]
    lost: dict[Side, list[str]]
    """Units lost: as selected, or where not selected yet, those every choice must include."""
    instant_victory: Side | None
    castle_falls: bool | None
    rulings: list[Ruling]


def combat_result(state: CombatState) -> CombatResult:
    """Read the result of an ended combat; raise RuleViolation (8.5, 8.9.4) if it has not ended."""
    ended = state.ended
    if ended is None:
        siege = state.kind is CombatKind.SIEGE
        what = "siege not finished: the attacker" if siege else "battle not finished: both sides"
        raise RuleViolation("8.9.4" if siege else "8.5", f"{what} must declare themselves finished")
    return CombatResult(
        kind=state.kind,
        impact=ended.impact.as_dict(),
        winner=ended.winner,
        losses=ended.losses_due.as_dict(),
        cards_drawn=(state.replenished or replenishment(state)).as_dict(),
        defected=[b for d in state.deployments if d.defected for b in d.blocks],
        lost={side: lost_units(state, side) for side in Side},
        instant_victory=state.instant_victory,
        castle_falls=ended.castle_falls,
        rulings=[event.ruling() for event in state.log] + _pending_rulings(state),
    )


def _pending_rulings(state: CombatState) -> list[Ruling]:
    """What the result assumes while losses are still to be selected (8.7.2, 8.10)."""
    ended = state.ended
    if state.replenished is not None or ended is None:
        return []
    rulings = []
    for side in (state.setup.attacker, state.setup.defender):
        due = ended.losses_due.of(side)
        if due and state.lost_by(side) is None:
            forced = lost_units(state, side)
            text = f"{side} has yet to select {due} loss{'es' if due > 1 else ''}"
            if forced:
                text += f"; it must include {', '.join(forced)}"
            rulings.append(Ruling(rule="8.7.2", text=text))
    draws = replenishment(state)
    rulings.append(
        Ruling(rule="8.10", text=f"cards drawn: ishida {draws.ishida}, tokugawa {draws.tokugawa}")
    )
    return rulings
