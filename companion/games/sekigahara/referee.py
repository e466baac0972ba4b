"""The referee calculator: adjudicate a whole battle or siege described in JSON.

``companion referee battle FILE`` (``-`` reads stdin) reads one combat in the format of
``docs/referee-calculator.md``, replays it through the combat rules and prints the adjudication
as one JSON object. Anything illegal or malformed prints ``{"error": {...}}`` and exits with
status 2, naming the rule where one applies and the index of the offending action.
``companion run`` (for now) adjudicates the bundled example, ``examples/battle.json``.
:func:`add_calculators` adds these to ``companion referee`` (Sekigahara's descriptor names it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Collection
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    model_validator,
)

from companion.core.calculator import CalculatorError
from companion.core.inputs import InputError, Limits, parse_json, read_text, short
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
from companion.games.sekigahara.components import (
    Attack,
    BlockSet,
    CardKind,
    Clan,
    Disk,
    Side,
    default_blocks,
    load_blocks,
)
from companion.games.sekigahara.referee_board import BoardError, judge_move, judge_retreat
from companion.games.sekigahara.referee_faces import (
    FaceKey,
    GivenBlock,
    manifest_counts,
    resolve_faces,
)

EXIT_OK = 0
EXIT_ERROR = 2
LIMITS = Limits(size=1_000_000)
"""The largest input read (a whole combat of 96 blocks and every action is under 50 kB) and
what it may hold (:mod:`companion.core.inputs`)."""


class RefereeError(CalculatorError):
    """Input the calculator rejects: ``rule`` is None for format errors; ``action_index`` the
    action of the combat at fault, if one is."""

    def __init__(self, message: str, rule: str | None = None, action_index: int | None = None):
        super().__init__(message, rule)
        self.action_index = action_index

    def as_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "rule": self.rule, "action_index": self.action_index, "message": self.message
        }
        see = clarification_links(self.rule or "", self.message)
        if see:
            error["see"] = see
        return {"error": error}


CLARIFICATIONS = "docs/clarifications.md"
"""Where every clarification (C1, C2, ...) a ruling cites is written out."""
_CITED = re.compile(r"\bC\d+\b")


def clarification_links(*texts: str) -> list[str]:
    """``docs/clarifications.md#c6`` for each clarification cited in ``texts``, in order."""
    found = dict.fromkeys(c for text in texts for c in _CITED.findall(text))
    return [f"{CLARIFICATIONS}#{c.lower()}" for c in found]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BlockInput(_Strict):
    side: Side
    clan: Clan
    mon: Annotated[StrictInt, Field(ge=1, le=4)]
    attack: Attack | None = None
    leader: StrictBool | None = None
    """None: taken from the block manifest where the face leaves one possibility."""


class CardInput(_Strict):
    clan: Clan
    kind: CardKind
    id: str | None = None


class ChallengeInput(_Strict):
    refuted: StrictBool


class ActionInput(_Strict):
    """One step: exactly one of ``deploy`` (with ``card`` or none), ``challenge``, ``finish``,
    ``lose``."""

    side: Side
    card: CardInput | None = None
    deploy: list[str] | None = None
    challenge: ChallengeInput | None = None
    finish: StrictBool | None = None
    lose: list[str] | None = None

    @model_validator(mode="after")
    def _one_step(self) -> ActionInput:
        steps = ("deploy", "challenge", "finish", "lose")
        given = [k for k in steps if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an action has exactly one of deploy, challenge, finish, lose")
        if self.card is not None and self.deploy is None:
            raise ValueError("card goes with deploy only")
        if self.finish is False:
            raise ValueError("finish is true when given")
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

    def setup(self, manifest: Counter[FaceKey], cardless: Collection[str]) -> CombatSetup:
        """The combat's setup, each block's face checked against the manifest (3.2)."""
        given: dict[str, GivenBlock] = {}
        for block_id, block in self.blocks.items():
            if block.clan.side is not block.side:
                raise RefereeError(
                    f"block {block_id}: the {block.clan.value} clan is {block.clan.side}, "
                    f"not {block.side}"
                )
            given[block_id] = GivenBlock(block.clan, block.mon, block.attack, block.leader)
        if self.type is CombatKind.BATTLE and self.castle is not None:
            raise RefereeError("castle is given for sieges only")
        try:
            faces = resolve_faces(given, manifest, cardless)
        except RuleViolation as exc:
            raise RefereeError(exc.message, rule=exc.rule) from None
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


def adjudicate(data: Any, blocks: BlockSet | None = None) -> dict[str, Any]:
    """Adjudicate one combat given as parsed JSON; raise :class:`RefereeError` if it is rejected.
    ``blocks``: the copy's block manifest (default: the built-in one)."""
    manifest = manifest_counts(blocks or default_blocks())
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
    cardless = {b for a in actions if isinstance(a, Deploy) and a.card is None for b in a.blocks}
    setup = combat.setup(manifest, cardless)
    try:
        state = start_combat(setup)
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
        "rulings": [_ruling(r.rule, r.text) for r in result.rulings],
    }


def _ruling(rule: str, text: str) -> dict[str, Any]:
    out: dict[str, Any] = {"rule": rule, "text": text}
    see = clarification_links(rule, text)
    if see:
        out["see"] = see
    return out


def adjudicate_text(text: str, blocks: BlockSet | None = None) -> tuple[int, dict[str, Any]]:
    """Parse and adjudicate JSON text: the exit status and the object to print."""
    try:
        data = parse_input(text)
        return EXIT_OK, adjudicate(data, blocks)
    except RefereeError as exc:
        return EXIT_ERROR, exc.as_json()


def parse_input(text: str) -> Any:
    """JSON text to data; RefereeError for anything too large, too deep or not JSON."""
    try:
        return parse_json(text, limits=LIMITS)
    except InputError as exc:
        raise RefereeError(exc.message) from None


def read_source(source: str) -> str:
    """The text of FILE (``-``: standard input), reading no more than the size limit."""
    try:
        return read_text(source, LIMITS)
    except InputError as exc:
        raise RefereeError(exc.message) from None


def read_blocks(source: str | None) -> BlockSet | None:
    """The user's block manifest (``--blocks FILE``), None for the built-in one."""
    if source is None:
        return None
    try:
        return load_blocks(Path(source))
    except InputError as exc:
        raise RefereeError(f"blocks file: {exc.message}") from None


def example_text() -> str:
    """The bundled example battle (package data)."""
    return resources.files(__package__).joinpath("examples", "battle.json").read_text("utf-8")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(short(p) for p in err["loc"])
    message = err["msg"]
    if err["type"] == "extra_forbidden":
        message = "unknown key"
    return f"{where}: {message}" if where else message


def _print(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _battle_command(args: argparse.Namespace) -> int:
    try:
        blocks = read_blocks(args.blocks)
        text = read_source(args.file)
    except RefereeError as exc:
        _print(exc.as_json())
        return EXIT_ERROR
    status, payload = adjudicate_text(text, blocks)
    _print(payload)
    return status


EXIT_ILLEGAL = 1


def judge_text(text: str, what: str) -> tuple[int, dict[str, Any]]:
    """``referee move`` / ``referee retreat``: 0 legal, 1 illegal (the rule says why), 2 for
    input that cannot be judged (the JSON error object)."""
    judge = judge_move if what == "move" else judge_retreat
    try:
        verdict = judge(parse_input(text))
    except RefereeError as exc:
        return EXIT_ERROR, exc.as_json()
    except BoardError as exc:
        return EXIT_ERROR, RefereeError(exc.message, rule=exc.rule).as_json()
    see = clarification_links(str(verdict.get("rule")), str(verdict.get("message", "")))
    if see:
        verdict["see"] = see
    return (EXIT_OK if verdict["legal"] else EXIT_ILLEGAL), verdict


def _board_command(args: argparse.Namespace) -> int:
    try:
        text = read_source(args.file)
    except RefereeError as exc:
        _print(exc.as_json())
        return EXIT_ERROR
    status, payload = judge_text(text, args.referee_command)
    _print(payload)
    return status


def add_calculators(inner: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``battle FILE``, ``move FILE`` and ``retreat FILE`` to ``companion referee`` (its
    subparsers ``inner``; the game-neutral verify, replay and explain are
    :mod:`companion.core.referee_cli`'s)."""
    battle = inner.add_parser(
        "battle",
        help="adjudicate one Sekigahara battle or siege (docs/referee-calculator.md)",
        description="Adjudicate one battle or siege given as JSON; prints one JSON object. "
        "Exit status 2 on an illegal or malformed combat.",
    )
    battle.add_argument("file", metavar="FILE", help="the combat as JSON, or - for stdin")
    battle.add_argument("--blocks", metavar="FILE",
                        help="your copy's block manifest (YAML, as data/blocks.yaml)")
    battle.set_defaults(handler=_battle_command)
    for what, doing in (("move", "one stack move (7.3, 7.4)"), ("retreat", "one retreat (8.8)")):
        board = inner.add_parser(
            what, help=f"judge {doing} on a Sekigahara position (docs/referee-calculator.md)",
            description=f"Judge {doing} on a position given as JSON; prints one JSON object. "
            "Exit status 0 legal, 1 illegal, 2 on malformed input.",
        )
        board.add_argument("file", metavar="FILE", help="the position as JSON, or - for stdin")
        board.set_defaults(handler=_board_command)
