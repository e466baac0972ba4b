"""``companion kensei melee|shoot|duel``: one strict JSON object in, one ruling out.

Exit status 0 with the ruling, or 2 with ``{"error": {"rule", "message"}}``; never a traceback.
Hostile input is bounded: at most ``MAX_INPUT_BYTES`` are read, nesting deeper than
``MAX_DEPTH`` is refused, and every count has a ceiling no table reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any, Literal

from pydantic import BaseModel, ValidationError

from companion.core.inputs import InputError, Limits, parse_json, read_text, short
from companion.games.kensei.checks import check_melee, check_shoot
from companion.games.kensei.duel import check_duel, duel
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import DuelInput, MeleeInput, ShootInput
from companion.games.kensei.melee import melee
from companion.games.kensei.shoot import in_range, shoot

EXIT_OK = 0
EXIT_ERROR = 2
LIMITS = Limits(size=64_000, depth=8)
"""At most 64,000 bytes (a melee with every key set and every die rolled is under 4 kB),
nested at most 8 deep (the formats go four levels deep: a side's dice lists)."""
MAX_INPUT_BYTES, MAX_DEPTH = LIMITS.size, LIMITS.depth

Kind = Literal["melee", "shoot", "duel"]


def parse(text: str) -> Any:
    """JSON text to data; KenseiError for anything too large, too deep, or not JSON."""
    try:
        return parse_json(text, limits=LIMITS)
    except InputError as exc:
        raise KenseiError(exc.message) from None


def read(source: str, stdin: IO[bytes] | None = None) -> str:
    """The text of FILE (``-``: ``stdin``, by default standard input), reading at most one
    byte past the limit."""
    try:
        return read_text(source, LIMITS, stdin)
    except InputError as exc:
        raise KenseiError(exc.message) from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(short(p) for p in err["loc"])
    message = {"extra_forbidden": "unknown key", "missing": "missing key"}.get(
        err["type"], str(err["msg"]).removeprefix("Value error, "))
    return f"{where}: {message}" if where else message


def _model(model: type[BaseModel], data: Any) -> Any:
    if not isinstance(data, dict):
        raise KenseiError("the input is one JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise KenseiError(_first_error(exc)) from None


def _melee(data: Any) -> BaseModel:
    inp: MeleeInput = _model(MeleeInput, data)
    check_melee(inp)
    return melee(inp)


def _shoot(data: Any) -> BaseModel:
    inp: ShootInput = _model(ShootInput, data)
    check_shoot(inp, out_of_range=not in_range(inp))
    return shoot(inp)


def _duel(data: Any) -> BaseModel:
    inp: DuelInput = _model(DuelInput, data)
    check_duel(inp)
    return duel(inp)


CALCULATORS: dict[Kind, Callable[[Any], BaseModel]] = {
    "melee": _melee, "shoot": _shoot, "duel": _duel}


def adjudicate(kind: Kind, data: Any) -> dict[str, Any]:
    """The ruling for parsed input ``data``, as the object printed."""
    return CALCULATORS[kind](data).model_dump(mode="json")


def adjudicate_text(kind: Kind, text: str) -> tuple[int, dict[str, Any]]:
    """Parse and adjudicate JSON text: the exit status and the object to print."""
    try:
        return EXIT_OK, adjudicate(kind, parse(text))
    except KenseiError as exc:
        return EXIT_ERROR, exc.as_json()
