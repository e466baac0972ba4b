"""The referee calculator: adjudicate a whole battle or siege described in JSON.

``companion referee battle FILE`` (``-`` reads stdin) reads one combat in the format of
``docs/referee-calculator.md``, replays it through the combat rules and prints the adjudication
as one JSON object. Anything illegal or malformed prints ``{"error": {...}}`` and exits with
status 2, naming the rule where one applies and the index of the offending action.
``companion run`` (for now) adjudicates the bundled example, ``examples/battle.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat import (
    Challenge,
    CombatAction,
    CombatKind,
    CombatResult,
    CombatSetup,
    Deploy,
    Finish,
    Lose,
    PlayedCard,
    apply_action,
    combat_result,
    start_combat,
)
from companion.games.sekigahara.components import Attack, BlockFace, CardKind, Clan, Disk, Side

EXIT_OK = 0
EXIT_ERROR = 2


class RefereeError(Exception):
    """Input the calculator rejects: ``rule`` is None for format errors."""

    def __init__(self, message: str, rule: str | None = None, action_index: int | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.action_index = action_index

    def as_json(self) -> dict[str, Any]:
        return {
            "error": {"rule": self.rule, "action_index": self.action_index, "message": self.message}
        }


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BlockInput(_Strict):
    side: Side
    clan: Clan
    mon: int = Field(ge=1, le=4)
    attack: Attack | None = None
    leader: bool = False


class CardInput(_Strict):
    clan: Clan
    kind: CardKind
    id: str | None = None


class ChallengeInput(_Strict):
    refuted: bool


class ActionInput(_Strict):
    """One step: exactly one of ``deploy`` (with ``card`` or none), ``challenge``, ``finish``,
    ``lose``."""

    side: Side
    card: CardInput | None = None
    deploy: list[str] | None = None
    challenge: ChallengeInput | None = None
    finish: Literal[True] | None = None
    lose: list[str] | None = None

    @model_validator(mode="after")
    def _one_step(self) -> ActionInput:
        steps = ("deploy", "challenge", "finish", "lose")
        given = [k for k in steps if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an action has exactly one of deploy, challenge, finish, lose")
        if self.card is not None and self.deploy is None:
            raise ValueError("card goes with deploy only")
        return self

    def to_action(self) -> CombatAction:
        if self.deploy is not None:
            card = None
            if self.card is not None:
                card = PlayedCard(clan=self.card.clan, kind=self.card.kind, card_id=self.card.id)
            return Deploy(side=self.side, card=card, blocks=tuple(self.deploy))
        if self.challenge is not None:
            return Challenge(side=self.side, refuted=self.challenge.refuted)
        if self.lose is not None:
            return Lose(side=self.side, losses=tuple(self.lose))
        return Finish(side=self.side)


class CombatInput(_Strict):
    type: CombatKind
    attacker: Side
    castle: str | None = None
    blocks: dict[str, BlockInput]
    disks: list[Disk] = []
    actions: list[Any] = []

    def setup(self) -> CombatSetup:
        faces: dict[str, BlockFace] = {}
        for block_id, block in self.blocks.items():
            if block.clan.side is not block.side:
                raise RefereeError(
                    f"block {block_id}: the {block.clan.value} clan is {block.clan.side}, "
                    f"not {block.side}"
                )
            faces[block_id] = BlockFace(
                clan=block.clan, mon=block.mon, attack=block.attack, leader=block.leader
            )
        if self.type is CombatKind.BATTLE and self.castle is not None:
            raise RefereeError("castle is given for sieges only")
        inside: frozenset[str] = frozenset()
        if self.type is CombatKind.SIEGE:
            defender = self.attacker.opponent
            inside = frozenset(b for b, f in faces.items() if f.side is defender)
        return CombatSetup(
            kind=self.type,
            attacker=self.attacker,
            blocks=faces,
            castle=self.castle,
            disks=tuple(self.disks),
            inside=inside,
        )


def adjudicate(data: Any) -> dict[str, Any]:
    """Adjudicate one combat given as parsed JSON; raise :class:`RefereeError` if it is rejected."""
    try:
        combat = CombatInput.model_validate(data)
    except ValidationError as exc:
        raise RefereeError(_first_error(exc)) from None
    actions: list[CombatAction] = []
    for index, raw in enumerate(combat.actions):
        try:
            actions.append(ActionInput.model_validate(raw).to_action())
        except ValidationError as exc:
            raise RefereeError(_first_error(exc), action_index=index) from None
    try:
        state = start_combat(combat.setup())
    except RuleViolation as exc:
        raise RefereeError(exc.message, rule=exc.rule) from None
    for index, action in enumerate(actions):
        try:
            state, _ = apply_action(state, action)
        except RuleViolation as exc:
            raise RefereeError(exc.message, rule=exc.rule, action_index=index) from None
    try:
        result = combat_result(state)
    except RuleViolation as exc:
        raise RefereeError(exc.message, rule=exc.rule) from None
    return render(result)


def render(result: CombatResult) -> dict[str, Any]:
    """The calculator's output object (docs/referee-calculator.md)."""

    def per_side(values: dict[Side, int]) -> dict[str, int]:
        return {side.value: values[side] for side in (Side.ISHIDA, Side.TOKUGAWA)}

    return {
        "impact": per_side(result.impact),
        "winner": result.winner.value,
        "losses": per_side(result.losses),
        "cards_drawn": per_side(result.cards_drawn),
        "defected": list(result.defected),
        "instant_victory": result.instant_victory.value if result.instant_victory else None,
        "castle_falls": result.castle_falls,
        "rulings": [r.model_dump() for r in result.rulings],
    }


def adjudicate_text(text: str) -> tuple[int, dict[str, Any]]:
    """Parse and adjudicate JSON text: the exit status and the object to print."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        error = RefereeError(f"not valid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})")
        return EXIT_ERROR, error.as_json()
    try:
        return EXIT_OK, adjudicate(data)
    except RefereeError as exc:
        return EXIT_ERROR, exc.as_json()


def example_text() -> str:
    """The bundled example battle (package data)."""
    return resources.files(__package__).joinpath("examples", "battle.json").read_text("utf-8")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    message = err["msg"]
    if err["type"] == "extra_forbidden":
        message = "unknown key"
    return f"{where}: {message}" if where else message


def _print(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _battle_command(args: argparse.Namespace) -> int:
    source: str = args.file
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        _print(RefereeError(f"cannot read {source}: {reason}").as_json())
        return EXIT_ERROR
    status, payload = adjudicate_text(text)
    _print(payload)
    return status


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``companion referee battle FILE``."""
    parser = subparsers.add_parser(
        "referee", help="adjudicate a combat described in JSON (the referee calculator)"
    )
    inner = parser.add_subparsers(dest="referee_command", metavar="WHAT", required=True)
    battle = inner.add_parser(
        "battle",
        help="adjudicate one battle or siege (docs/referee-calculator.md)",
        description="Adjudicate one battle or siege given as JSON; prints one JSON object. "
        "Exit status 2 on an illegal or malformed combat.",
    )
    battle.add_argument("file", metavar="FILE", help="the combat as JSON, or - for stdin")
    battle.set_defaults(handler=_battle_command)
    from companion.games.sekigahara.records_cli import register_referee_records

    register_referee_records(inner)  # verify, replay, explain (docs/referee.md)
