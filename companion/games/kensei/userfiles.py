"""The players' own YAML files (profiles, army lists), read bounded and refused in one line
that names the file, the line and the field: "my-army.yaml, line 14, profile 'yari-ashigaru',
field 'weapon': must be 0 to 7".

The text is parsed by the project's bounded reader (:mod:`companion.core.inputs`: size, nesting,
alias expansion, integers, UTF-8), then composed once more into YAML nodes, whose start marks
give the line of every value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

import yaml
from annotated_types import Ge, Le
from pydantic import BaseModel
from pydantic_core import ErrorDetails

from companion.core import inputs
from companion.core.inputs import InputError, short

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class UserFileError(InputError):
    """A profile or army-list file that cannot be used: ``message`` is one line naming the
    file, and the line and field when there is one to name."""


def read(text: str, file: str) -> tuple[Any, yaml.Node | None]:
    """The data of YAML ``text`` read from ``file`` and its node tree (None: empty)."""
    try:
        data = inputs.parse_yaml(text, file)
    except InputError as exc:
        raise UserFileError(exc.message) from None
    # parse_yaml has walked every event (depth, aliases) and parsed it: composing is safe
    node = yaml.compose(text, Loader=_BASE)
    return data, node


def line(node: yaml.Node | None) -> int:
    """The 1-based line a node starts on (1 for an empty file)."""
    return node.start_mark.line + 1 if node is not None else 1


def child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    """The value node under ``key`` of a mapping node, or item ``key`` of a sequence node."""
    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                value: yaml.Node = v
                return value
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        item: yaml.Node = node.value[key]
        return item
    return None


def line_at(node: yaml.Node | None, path: Sequence[str | int]) -> int:
    """The line of the deepest node on ``path`` below ``node`` (a missing key: its parent)."""
    for key in path:
        below = child(node, key)
        if below is None:
            break
        node = below
    return line(node)


def twice(node: yaml.Node | None) -> tuple[str, int, int] | None:
    """A key a mapping node gives twice, with the lines of both (YAML keeps the last one
    silently)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    seen: dict[str, int] = {}
    for k, _ in node.value:
        key = str(getattr(k, "value", ""))
        if key in seen:
            return key, seen[key], line(k)
        seen[key] = line(k)
    return None


def check_keys(data: dict[Any, Any], where: str, noun: str) -> None:
    """UserFileError if a key of ``data`` is not text (``1:``, ``null:``)."""
    odd = [k for k in data if not isinstance(k, str)]
    if odd:
        key = "null" if odd[0] is None else short(odd[0])
        raise UserFileError(f"{where}: {key!r} is not a field of {noun}")


def _bounds(model: type[BaseModel], field: str) -> tuple[int | None, int | None]:
    info = next((f for name, f in model.model_fields.items()
                 if field in (name, f.alias)), None)
    if info is None:
        return None, None
    metadata = list(info.metadata)
    for arg in get_args(info.annotation):
        metadata += [m for f in getattr(arg, "__metadata__", ()) for m in f.metadata]
    low = next((m.ge for m in metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in metadata if isinstance(m, Le)), None)
    return low, high  # type: ignore[return-value]


def plain(err: ErrorDetails, model: type[BaseModel], noun: str) -> str:
    """One pydantic error in plain words ("must be 0 to 7")."""
    kind, ctx = err["type"], err.get("ctx", {})
    field = next((str(p) for p in reversed(err["loc"]) if isinstance(p, str)), "")
    if kind in ("greater_than_equal", "less_than_equal"):
        low, high = _bounds(model, field)
        if low is not None and high is not None:
            return f"must be {low} to {high}"
        return f"must be at least {low}" if low is not None else f"must be at most {high}"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace(" or ", ", ")
        options = [o.strip().strip("'") for o in expected.split(",") if o.strip()]
        return "must be " + (", ".join(options[:-1]) + " or " + options[-1]
                             if len(options) > 1 else "".join(options))
    words = {
        "missing": "is missing",
        "extra_forbidden": f"is not a field of {noun}",
        "int_type": "must be a whole number",
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "string_type": "must be text",
        "string_pattern_mismatch": "must be lower-case letters and digits joined by hyphens "
                                   "(yari-ashigaru)",
        "string_too_short": "must not be empty",
        "string_too_long": f"must be at most {ctx.get('max_length')} characters",
        "tuple_type": "must be a list",
        "list_type": "must be a list",
        "too_short": f"must hold at least {ctx.get('min_length')}",
        "too_long": f"must hold at most {ctx.get('max_length')}",
        "multiple_of": f"must be a multiple of {ctx.get('multiple_of')}",
        "model_type": "must be a mapping of fields",
        "dict_type": "must be a mapping of fields",
    }
    return words.get(kind, str(err["msg"]).removeprefix("Value error, "))


def field_of(err: ErrorDetails) -> str:
    """The field an error is about, as the file spells it ("skills", "class")."""
    name = next((str(p) for p in err["loc"] if isinstance(p, str)), "")
    return short(name)
