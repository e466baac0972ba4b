"""Which commands each step of the turn accepts (6.1, 6.4, 8.1), declared once.

The game's dispatch (:meth:`~companion.games.sekigahara.engine.game.SekigaharaRules.handle`)
asks :func:`refusal` before any handler runs: a command the current step does not accept is
refused here with the rule it breaks, in words that depend only on the step and the command
(never on the board, so a refusal tells nothing of a concealed block, 3.1). The handlers judge
the rest: what is drawn, bought, moved, deployed.

``docs/engine.md`` shows :data:`STEPS` as a table (:func:`markdown_table`); a test holds the two
equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.game import HiddenViolation
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.flow import acting_side, reject
from companion.games.sekigahara.engine.state import Phase, Stage, State


@dataclass(frozen=True)
class Step:
    """A step of the turn and the commands it accepts."""

    name: str
    rule: str
    accepts: tuple[type[cm.Command], ...]
    active_only: bool = False
    """Only the active side's commands (its Movement or Combat Phase, 6.4)."""


NOT_STARTED = Step("Before the game", "5.1", (cm.StartGame,))
SETUP = Step("Set-up: the bag draws", "5.2.2", (cm.DrawBlocks,))
REINFORCEMENT = Step("Reinforcement Step", "6.2", (cm.DrawBlocks,))
BID = Step("Turn Order Step: the bids", "6.3", (cm.Bid,))
CHOOSE_FIRST = Step("Turn Order Step: the first player", "6.3", (cm.ChooseFirst,))
MOVEMENT = Step(
    "Movement Phase", "7",
    (cm.BuyMovement, cm.Muster, cm.BringMori, cm.MoveStack, cm.EndPhase), active_only=True,
)
COMBAT = Step("Combat Phase", "8.1", (cm.DeclareCombat, cm.EndPhase), active_only=True)
CASTLE_CHOICE = Step("Combat Phase: the castle choice", "8.9.2", (cm.ChooseInside,))
FIGHTING = Step(
    "Combat Phase: the fight", "8.2", (cm.Deploy, cm.Challenge, cm.Finish, cm.TakeLosses)
)
RETREAT = Step("Combat Phase: the retreat", "8.8", (cm.Retreat,))
GAME_OVER = Step("Game over", "2.2", ())

STEPS: dict[Phase | Stage, Step] = {
    Phase.NOT_STARTED: NOT_STARTED, Phase.SETUP: SETUP, Phase.REINFORCEMENT: REINFORCEMENT,
    Phase.BID: BID, Phase.CHOOSE_FIRST: CHOOSE_FIRST, Phase.MOVEMENT: MOVEMENT,
    Phase.COMBAT: COMBAT, Stage.CASTLE_CHOICE: CASTLE_CHOICE, Stage.FIGHTING: FIGHTING,
    Stage.RETREAT: RETREAT, Phase.GAME_OVER: GAME_OVER,
}
"""Each phase, and each stage of the combat being resolved (8.1: one at a time), by step."""

REFUSED: dict[type[cm.Command], tuple[str, str]] = {
    cm.StartGame: ("5.1", "the game has already started"),
    cm.DrawBlocks: ("5.2.2", "no blocks are drawn from the bags now"),
    cm.Bid: ("6.3", "it is not the Turn Order Step"),
    cm.ChooseFirst: ("6.3", "there is no turn order to choose now"),
    cm.BuyMovement: ("6.4", "it is not the {side} Movement Phase"),
    cm.Muster: ("6.4", "it is not the {side} Movement Phase"),
    cm.BringMori: ("9.3", "it is not the {side} Movement Phase"),
    cm.MoveStack: ("6.4", "it is not the {side} Movement Phase"),
    cm.EndPhase: ("6.4", "it is not the {side} {phase} Phase"),
    cm.DeclareCombat: ("8.1", "it is not the {side} Combat Phase"),
    cm.ChooseInside: ("8.9.2", "no castle choice is pending"),
    cm.Deploy: ("8.1", "no combat is being fought"),
    cm.Challenge: ("8.1", "no combat is being fought"),
    cm.Finish: ("8.1", "no combat is being fought"),
    cm.TakeLosses: ("8.1", "no combat is being fought"),
    cm.Retreat: ("8.8.1", "no retreat is due"),
}
"""What a command given in a step that does not accept it is told, with the rule."""

ONLY: dict[type[cm.Command], tuple[Side, str, str]] = {
    cm.BringMori: (Side.ISHIDA, "9.3", "only Ishida brings Mōri blocks"),
}
"""Commands one side alone ever gives, whatever the step."""

IN_PROGRESS = ("8.1", "the combat in progress must be resolved first")
"""The active side's Combat Phase commands while a combat is being resolved."""


def step_of(state: State) -> Step:
    """The step the game is in: the combat being resolved's stage, else the phase."""
    if state.pending is not None:
        return STEPS[state.pending.stage]
    return STEPS[state.phase]


def refusal(state: State, command: cm.Command) -> HiddenViolation | None:
    """Why ``command`` is not accepted in the current step; None when it is."""
    step = step_of(state)
    side = acting_side(command)
    active = side is not None and side is state.active
    kind = type(command)
    if kind in ONLY and side is not ONLY[kind][0]:
        return reject(*ONLY[kind][1:])
    if kind in step.accepts and (active or not step.active_only):
        return None
    if state.phase is Phase.COMBAT and kind in COMBAT.accepts and active:
        return reject(*IN_PROGRESS)
    rule, message = REFUSED[kind]
    phase = "Combat" if state.phase is Phase.COMBAT else "Movement"
    return reject(rule, message.format(side=side.value if side else "", phase=phase))


def markdown_table() -> str:
    """:data:`STEPS` as the Markdown table ``docs/engine.md`` shows."""
    lines = ["| Step | Rule | Accepts | Whose |", "| --- | --- | --- | --- |"]
    for step in dict.fromkeys(STEPS.values()):
        accepts = ", ".join(f"`{kind.__name__}`" for kind in step.accepts) or "nothing"
        whose = "the active side" if step.active_only else "either side"
        only = [f"`{kind.__name__}`: {who.value.capitalize()} only ({rule})"
                for kind, (who, rule, _) in ONLY.items() if kind in step.accepts]
        whose = "; ".join([whose, *only])
        lines.append(f"| {step.name} | {step.rule} | {accepts} | {whose} |")
    return "\n".join(lines)
