"""``companion kensei melee|shoot|duel``: one strict JSON object in, one ruling out.

Exit status 0 with the ruling, or 2 with ``{"error": {"rule", "message"}}``; never a traceback.
Hostile input is bounded: at most ``MAX_INPUT_BYTES`` are read, nesting deeper than
``MAX_DEPTH`` is refused, and every count has a ceiling no table reaches.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ValidationError

from companion.games.kensei.checks import check_melee, check_shoot
from companion.games.kensei.duel import check_duel, duel
from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import DuelInput, MeleeInput, ShootInput
from companion.games.kensei.melee import melee
from companion.games.kensei.shoot import in_range, shoot

EXIT_OK = 0
EXIT_ERROR = 2
MAX_INPUT_BYTES = 64_000
"""The largest input read: a melee with every key set and every die rolled is under 4 kB."""
MAX_DEPTH = 8
"""The deepest nesting accepted: the formats go four levels deep (a side's dice lists)."""

Kind = Literal["melee", "shoot", "duel"]


def _reject_constant(name: str) -> Any:
    raise KenseiError(f"not valid JSON: {name} is not a number JSON allows")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    twice = sorted(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
    if twice:
        raise KenseiError(f"not valid input: the key {_short(twice[0])!r} is given twice")
    return dict(pairs)


def _depth(data: Any) -> int:
    """The nesting depth of ``data``, walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            stack += [(v, level + 1) for v in (node.values() if isinstance(node, dict) else node)]
    return deepest


def parse(text: str) -> Any:
    """JSON text to data; KenseiError for anything too large, too deep, or not JSON."""
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        raise KenseiError(f"the input is larger than {MAX_INPUT_BYTES} bytes")
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise KenseiError(
            f"not valid JSON: {exc.msg} (line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise KenseiError(f"not valid input: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise KenseiError(f"not valid input: {exc}".split(";")[0]) from None
    if _depth(data) > MAX_DEPTH:
        raise KenseiError(f"not valid input: nested deeper than {MAX_DEPTH} levels")
    return data


def read(source: str, stdin: IO[bytes]) -> str:
    """The text of FILE (``-``: ``stdin``), reading at most one byte past the limit."""
    try:
        if source == "-":
            raw = stdin.read(MAX_INPUT_BYTES + 1)
        else:
            with Path(source).open("rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise KenseiError(f"cannot read {source}: {exc.strerror or exc}") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise KenseiError(f"cannot read {source}: larger than {MAX_INPUT_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KenseiError(f"cannot read {source}: not UTF-8 text") from None


def _short(name: object, most: int = 40) -> str:
    """A key as quoted in a message: a hostile 60 kB key is not echoed whole."""
    text = str(name)
    return text if len(text) <= most else text[:most] + "…"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(_short(p) for p in err["loc"])
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
