"""Reading the files a user hands the companion, bounded: one clear line, never a traceback.

Every command and loader that reads a file goes through here (a calculator's JSON, a game
export, a corrected board, a wiring map). At most ``Limits.size`` bytes are read from a path,
``-`` (standard input) or a device, so ``/dev/zero`` or an endless pipe is cut at the limit; a
FIFO nobody writes to reads as empty at once; a directory is refused. The bytes must be UTF-8.
The JSON or YAML parsed from them is refused when it nests deeper than ``Limits.depth``, holds
an integer of more than ``Limits.digits`` digits or a number that is not finite (NaN, Infinity),
repeats a key (JSON), or expands through its aliases to more than ``Limits.nodes`` values (YAML,
a "billion laughs" file). YAML dates stay the text they are written as.

Every refusal is an :class:`InputError` whose message is one line naming the file when the
caller gave its name (``name``).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import yaml

MOST_SHOWN = 300
"""The longest message: a hostile 60 kB key or value is never echoed whole."""


def one_line(text: str, most: int = MOST_SHOWN) -> str:
    """``text`` on one line (newlines and tabs become spaces) of at most ``most`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= most else flat[: most - 1] + "…"


def short(value: object, most: int = 40) -> str:
    """A key or value as quoted inside a message."""
    return one_line(str(value), most)


class InputError(ValueError):
    """A file or input that cannot be read or parsed: ``message`` is one line."""

    def __init__(self, message: str):
        self.message = one_line(message)
        super().__init__(self.message)


@dataclass(frozen=True)
class Limits:
    """How much of an input is read and what its data may hold."""

    size: int = 1_000_000
    """Bytes read at most: the companion's data files and inputs are a few kB."""
    depth: int = 32
    """Nesting levels (a game export goes six deep, the calculators' formats four)."""
    digits: int = sys.int_info.default_max_str_digits
    """The longest integer, in digits: Python's own default limit, kept whatever the
    interpreter was told (``PYTHONINTMAXSTRDIGITS=0`` would make a long one quadratic)."""
    nodes: int = 200_000
    """YAML: values after expanding every alias (a few aliases are fine, a bomb is not)."""


DATA_FILE = Limits()


def _fault(name: str | None, what: str) -> InputError:
    """``what`` is wrong with the input ``name`` (unnamed: the text a caller parses)."""
    return InputError(f"{name} is {what}" if name else what)


def _too_large(name: str | None, size: int) -> InputError:
    return _fault(name, f"larger than {size} bytes") if name else InputError(
        f"the input is larger than {size} bytes")


# --------------------------------------------------------------------------- reading


def read_bytes(source: str | os.PathLike[str], limits: Limits = DATA_FILE,
               stdin: IO[bytes] | None = None) -> bytes:
    """The bytes of ``source`` (``-``: standard input, or ``stdin``), at most ``limits.size``;
    InputError naming it if it cannot be read or is larger."""
    name = str(source)
    if name == "-":
        return _capped(_reader(stdin), limits.size, "standard input")
    try:
        # O_NONBLOCK: opening a FIFO that nobody writes to must not wait for a writer
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InputError(f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"cannot read {name}: it is a directory, not a file")
        os.set_blocking(fd, True)
        return _capped(lambda n: os.read(fd, n), limits.size, name)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _reader(stdin: IO[bytes] | None) -> Callable[[int], bytes]:
    if stdin is not None:
        return stdin.read
    if sys.stdin is None:  # started without one (a service)
        return lambda n: b""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is not None:
        return binary.read  # type: ignore[no-any-return]
    return lambda n: sys.stdin.read(n).encode("utf-8")  # a text stream put in its place


def _capped(read: Callable[[int], bytes], size: int, name: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while total <= size:
        chunk = read(min(1 << 20, size + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > size:
        raise InputError(f"cannot read {name}: larger than {size} bytes")
    return b"".join(chunks)


def decode(raw: bytes, name: str) -> str:
    """UTF-8 bytes as text (a leading byte-order mark dropped); InputError if they are not."""
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {name}: not UTF-8 text (byte {exc.start + 1})") from None


def read_text(source: str | os.PathLike[str], limits: Limits = DATA_FILE,
              stdin: IO[bytes] | None = None) -> str:
    """The UTF-8 text of ``source`` (``-``: standard input), at most ``limits.size`` bytes."""
    name = "standard input" if str(source) == "-" else str(source)
    return decode(read_bytes(source, limits, stdin), name)


def read_json(source: str | os.PathLike[str], limits: Limits = DATA_FILE,
              stdin: IO[bytes] | None = None) -> Any:
    name = "standard input" if str(source) == "-" else str(source)
    return parse_json(read_text(source, limits, stdin), name, limits)


def read_yaml(source: str | os.PathLike[str], limits: Limits = DATA_FILE) -> Any:
    return parse_yaml(read_text(source, limits), str(source), limits)


# --------------------------------------------------------------------------- JSON


def parse_json(text: str, name: str | None = None, limits: Limits = DATA_FILE) -> Any:
    """JSON ``text`` (read from ``name``) as data; InputError for anything too large, too deep,
    not JSON, or holding what :class:`Limits` refuses."""
    if len(text) > limits.size:
        raise _too_large(name, limits.size)

    def number(literal: str) -> int:
        digits = len(literal.lstrip("-"))
        if digits > limits.digits:
            raise _fault(name, f"not valid input: an integer of {digits} digits (at most "
                         f"{limits.digits})")
        return int(literal)

    def decimal(literal: str) -> float:
        value = float(literal)
        if value in (float("inf"), float("-inf")):
            raise _fault(name, f"not valid input: {short(literal)} is too large a number")
        return value

    def constant(literal: str) -> Any:
        raise _fault(name, f"not valid JSON: {literal} is not a number JSON allows")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(pairs)
        if len(data) < len(pairs):
            twice = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
            raise _fault(name, f"not valid input: the key {short(twice)!r} is given twice")
        return data

    try:
        data = json.loads(text, parse_int=None if _ints_capped(limits) else number,
                          parse_float=decimal, parse_constant=constant, object_pairs_hook=unique)
    except InputError:
        raise
    except json.JSONDecodeError as exc:
        raise _fault(name, f"not valid JSON: {exc.msg} (line {exc.lineno} column "
                     f"{exc.colno})") from None
    except RecursionError:
        raise _fault(name, f"not valid input: nested deeper than {limits.depth} "
                     "levels") from None
    except ValueError as exc:  # an integer Python will not convert (PYTHONINTMAXSTRDIGITS)
        raise _fault(name, f"not valid input: {str(exc).split(';')[0]}") from None
    if text.count("[") + text.count("{") > limits.depth:  # else it cannot nest that deep
        check_depth(data, limits.depth, name)
    return data


def _ints_capped(limits: Limits) -> bool:
    """Whether the interpreter itself refuses integers longer than ``limits.digits`` (its
    default), so no per-integer check is needed (``PYTHONINTMAXSTRDIGITS=0`` turns that off)."""
    return 0 < sys.get_int_max_str_digits() <= limits.digits


def deeper_than(data: Any, most: int) -> bool:
    """Whether ``data`` nests more than ``most`` lists and objects (walked level by level,
    without recursion)."""
    level = [data] if isinstance(data, dict | list | tuple) else []
    depth = 0
    while level:
        depth += 1
        if depth > most:
            return True
        level = [v for node in level for v in (node.values() if isinstance(node, dict) else node)
                 if isinstance(v, dict | list | tuple)]
    return False


def check_depth(data: Any, most: int, name: str | None = None) -> None:
    """InputError if ``data`` nests deeper than ``most`` lists and objects."""
    if deeper_than(data, most):
        raise _fault(name, f"not valid input: nested deeper than {most} levels")


# --------------------------------------------------------------------------- YAML

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's C parser when PyYAML was built with it (several times faster at start-up)."""


class _Loader(_BASE):  # type: ignore[misc]
    """The safe loader with integers capped, NaN and infinity refused and dates left as text."""

    digits = DATA_FILE.digits


def _int(loader: Any, node: Any) -> int:
    text = str(node.value).replace("_", "")
    if len(text.lstrip("+-")) > loader.digits:
        raise InputError(f"an integer of {len(text)} digits (at most {loader.digits})"
                         f"{_at(node)}")
    value: int = yaml.SafeLoader.construct_yaml_int(loader, node)
    return value


def _float(loader: Any, node: Any) -> float:
    value: float = yaml.SafeLoader.construct_yaml_float(loader, node)
    if value != value or value in (float("inf"), float("-inf")):
        raise InputError(f"{short(node.value)} is not a number a data file may hold"
                         f"{_at(node)}")
    return value


def _text(loader: Any, node: Any) -> str:
    return str(node.value)


_Loader.add_constructor("tag:yaml.org,2002:int", _int)
_Loader.add_constructor("tag:yaml.org,2002:float", _float)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _text)


def parse_yaml(text: str, name: str | None = None, limits: Limits = DATA_FILE) -> Any:
    """YAML ``text`` (read from ``name``) as data; InputError for anything too large, too
    deep, expanding too far through aliases, not YAML, or holding what :class:`Limits`
    refuses."""
    if len(text) > limits.size:
        raise _too_large(name, limits.size)
    try:
        _check_events(text, limits)
        loader = _Loader(text)
        loader.digits = limits.digits
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except InputError as exc:
        raise _fault(name, f"not valid input: {exc.message}") from None
    except yaml.MarkedYAMLError as exc:
        raise _fault(name, f"not valid YAML: {_yaml_problem(exc)}") from None
    except yaml.reader.ReaderError as exc:
        raise _fault(name, f"not valid YAML: the character {exc.character!r} is not allowed "
                     f"(character {exc.position + 1})") from None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        raise _fault(name, f"not valid YAML: {exc}") from None


def _yaml_problem(exc: yaml.MarkedYAMLError) -> str:
    problem = ", ".join(p for p in (exc.context, exc.problem) if p) or "cannot be read"
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return problem
    return f"{problem} (line {mark.line + 1} column {mark.column + 1})"


def _at(item: Any) -> str:
    mark = getattr(item, "start_mark", None)
    return f" (line {mark.line + 1})" if mark is not None else ""


def _check_events(text: str, limits: Limits) -> None:
    """Walk the parser's events (libyaml keeps its own stack: no recursion) before anything is
    built: nesting, and the number of values once every alias is expanded."""
    sizes: dict[str, int] = {}
    open_: list[list[Any]] = [[None, 0]]  # [anchor, values so far] of each open collection
    for event in yaml.parse(text, Loader=_BASE):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) > limits.depth:
                raise InputError(f"nested deeper than {limits.depth} levels{_at(event)}")
            open_.append([event.anchor, 1])
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, count = open_.pop()
        elif isinstance(event, yaml.ScalarEvent):
            anchor, count = event.anchor, 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in sizes:
                raise InputError(f"the alias *{short(event.anchor)} is used inside its own "
                                 f"anchor or before it{_at(event)}")
            anchor, count = None, sizes[event.anchor]
        else:
            continue
        if anchor is not None:
            sizes[anchor] = count
        open_[-1][1] += count
        if open_[-1][1] > limits.nodes:
            raise InputError(f"more than {limits.nodes} values once its aliases are expanded")
