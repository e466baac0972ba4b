"""A hostile-input run over every command that reads a file and every data loader (issue 18).

The README promises one clear line, never a traceback. A corpus made here (deep nesting,
5,000-digit integers, huge counts, NaN and infinity, dates, wrong types at every level of a good
file, binary garbage, invalid UTF-8, an empty file, a directory, a missing file, ``/dev/zero``,
``/dev/urandom``, a FIFO nobody writes to, a YAML billion laughs, very long lines) goes to each
one in-process: no exception may escape a command's handler or a loader (0 tracebacks), each
refusal is a non-zero status with one line on stderr or one JSON error object (a calculator),
and each run is quick (0 hangs). The few cases that once ran out of memory run in a subprocess
under a memory limit.
"""

from __future__ import annotations

import argparse
import faulthandler
import io
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.cli import build_parser, main
from companion.core.datafiles import DataFileError
from companion.core.inputs import MOST_SHOWN
from companion.games.sekigahara import components as seki
from companion.games.sekigahara.rulebook import load_rules
from companion.games.tenka_meidou import components as tenka
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simrun import parse_script
from firmware_bridge.wiring import WiringMap

SLOW_S = 3.0
"""The longest any one hostile run may take (they take milliseconds; this catches a hang
that ends, like the 11 s a count of a million once took)."""
HANG_S = 60
"""A run still going after this long is a hang: the process ends with every thread's stack
(faulthandler), a failure rather than a suite that never finishes."""
MEMORY = 3 << 30
"""What this process's address space may grow by during a hostile run: reading /dev/zero whole
fails at once with a MemoryError (a failure), not after taking the machine's memory."""


@contextmanager
def bounded() -> Iterator[None]:
    """Around one in-process run: a hang ends the process, an unbounded read runs out of
    memory quickly, and the time is checked."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    most = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    if hard == resource.RLIM_INFINITY or hard > most + MEMORY:
        resource.setrlimit(resource.RLIMIT_AS, (most + MEMORY, hard))
    faulthandler.dump_traceback_later(HANG_S, exit=True)
    started = time.monotonic()
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    took = time.monotonic() - started
    assert took < SLOW_S, f"took {took:.1f} s"


def _laughs() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, 9):
        this, last = chr(97 + n), chr(96 + n)
        lines.append(f"{this}: &{this} [" + ",".join([f"*{last}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


CORPUS: dict[str, bytes] = {
    "empty": b"",
    "deep JSON list": b"[" * 50_000 + b"]" * 50_000,
    "deep JSON object": b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
    "JSON just too deep": b"[" * 40 + b"]" * 40,
    "deep YAML block": "".join(" " * i + "k:\n" for i in range(300)).encode(),
    "deep YAML flow": b"[" * 50_000,
    "5,000-digit integer": b"9" * 5000,
    "5,000-digit integer in an object": b'{"count": ' + b"9" * 5000 + b"}",
    "5,000-digit YAML integer": b"count: " + b"9" * 5000 + b"\n",
    "huge YAML count": b"count: 9223372036854775808\nbid: 1e8\n",
    "NaN": b'{"a": NaN}',
    "infinities": b"[Infinity, -Infinity, 1e999]",
    "YAML NaN and infinity": b"a: .nan\nb: -.inf\n",
    "dates": b"a: 2001-12-14t21:59:43.10-05:00\nb: 2002-12-14\n",
    "binary garbage": random.Random(18).randbytes(4096),
    "invalid UTF-8": b'{"a": "\xff\xfe"}',
    "NUL bytes": b"\0" * 1000,
    "billion laughs": _laughs(),
    "alias inside its anchor": b"a: &a [*a]\n",
    "long JSON line": b'{"' + b"k" * 500_000 + b'": 1}',
    "long YAML line": b"a: " + b"x" * 900_000 + b"\n",
    "over the size limit": b" " * 8_000_001,
    "a JSON list": b"[1, 2, 3]",
    "a JSON string": b'"x"',
    "null": b"null",
    "a YAML list": b"- 1\n- 2\n",
    "duplicate keys": b'{"a": 1, "a": 2}',
    "a Python tag": b"!!python/object/apply:os.system ['true']\n",
    "two documents": b"a: 1\n---\nb: 2\n",
}
SPECIAL = ("missing", "directory", "/dev/zero", "/dev/urandom", "FIFO")
"""Paths rather than contents (the FIFO has no writer: it must read as empty, not wait)."""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hostile")
    paths = {}
    for number, (name, content) in enumerate(CORPUS.items()):
        paths[name] = root / f"{number:02d}.input"
        paths[name].write_bytes(content)
    paths["missing"] = root / "missing.json"
    paths["directory"] = root
    paths["/dev/zero"] = Path("/dev/zero")
    paths["/dev/urandom"] = Path("/dev/urandom")
    paths["FIFO"] = root / "fifo"
    os.mkfifo(paths["FIFO"])
    return paths


# --------------------------------------------------------------------------- running commands


@cache
def _parser(command: str) -> argparse.ArgumentParser:
    return build_parser([command])


def run(argv: list[str]) -> tuple[int, str, str]:
    """``companion ARGV`` in-process: the handler's status, stdout and stderr. An exception
    escaping the handler fails the test (``main`` would turn it into its bug line)."""
    args = _parser(argv[0]).parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    with bounded(), redirect_stdout(out), redirect_stderr(err):
        status = args.handler(args)
    return status, out.getvalue(), err.getvalue()


def refused(argv: list[str], status: int, out: str, err: str) -> str:
    """The one clear line of a refusal: a JSON error object on stdout (a calculator) or one
    line on stderr (every other command)."""
    shown = " ".join(argv)[:200]
    assert status not in (0, None), f"companion {shown} accepted it: {out[:200]}"
    assert "Traceback" not in err + out, err
    if out.strip():
        payload = json.loads(out)
        assert set(payload) == {"error"}, f"companion {shown}: {out[:300]}"
        message: str = payload["error"]["message"]
        assert err == "", f"companion {shown}: {err}"
    else:
        lines = err.splitlines()
        assert len(lines) == 1, f"companion {shown}: {err[:500]}"
        message = lines[0]
    assert "\n" not in message and len(message) <= MOST_SHOWN + 60, message
    return message


def sound(argv: list[str]) -> tuple[int, str]:
    """Run a mutated input that may be valid: no traceback, and a refusal is one clear line."""
    status, out, err = run(argv)
    if status == 0 or (argv[1] == "explain" and status == 1 and not err):
        return status, out  # explain explains a refused entry (status 1)
    return status, refused(argv, status, out, err)


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Good inputs for the commands that read two files, and a short game export."""
    root = tmp_path_factory.mktemp("good")
    files = {
        "battle": root / "battle.json", "war": root / "war.json",
        "melee": root / "melee.json", "export": root / "game.jsonl",
    }
    seki_examples = resources.files("companion.games.sekigahara").joinpath("examples")
    files["battle"].write_text(seki_examples.joinpath("battle.json").read_text("utf-8"))
    tenka_examples = resources.files("companion.games.tenka_meidou").joinpath("examples")
    files["war"].write_text(tenka_examples.joinpath("rulebook-war.json").read_text("utf-8"))
    files["melee"].write_text(json.dumps(_melee()))
    files["export"].write_text(_short_export(root))
    return files


def _melee() -> dict[str, Any]:
    def side() -> dict[str, Any]:
        return {"class": "G", "models": 5, "weapon": 1, "order": "fight",
                "dice": {"combat": [1, 1]}}
    return {"turn_initiative": "a", "a": side(), "b": side()}


def _short_export(root: Path) -> str:
    """The first 12 entries of a self-played Sekigahara game, as a valid (unfinished) export:
    short, so that re-adjudicating it in every run stays quick."""
    assert main(["selfplay", "--games", "1", "--seed", "2", "--export", str(root)]) == 0
    lines = next(root.glob("selfplay-*.jsonl")).read_text("utf-8").splitlines()
    head, entries = json.loads(lines[0]), lines[1:13]
    head.update(entries=len(entries), head=json.loads(entries[-1])["hash"], finished=None,
                result=None)
    return "\n".join([json.dumps(head, sort_keys=True, separators=(",", ":")), *entries]) + "\n"


COMMANDS: dict[str, Callable[[str, dict[str, Path], str], list[str]]] = {
    "referee battle": lambda f, g, db: ["referee", "battle", f],
    "referee battle --blocks": lambda f, g, db: ["referee", "battle", "--blocks", f,
                                                 str(g["battle"])],
    "referee move": lambda f, g, db: ["referee", "move", f],
    "referee retreat": lambda f, g, db: ["referee", "retreat", f],
    "kensei melee": lambda f, g, db: ["kensei", "melee", f],
    "kensei shoot": lambda f, g, db: ["kensei", "shoot", f],
    "kensei duel": lambda f, g, db: ["kensei", "duel", f],
    "tenka war": lambda f, g, db: ["tenka", "war", f],
    "tenka war --board": lambda f, g, db: ["tenka", "war", "--board", f, str(g["war"])],
    "tenka selfplay --board": lambda f, g, db: ["tenka", "selfplay", "--games", "1",
                                                "--board", f],
    "referee verify": lambda f, g, db: ["referee", "verify", f, "--db", db],
    "referee replay": lambda f, g, db: ["referee", "replay", f, "--at", "1", "--db", db],
    "referee explain": lambda f, g, db: ["referee", "explain", f, "1", "--db", db],
    "game import": lambda f, g, db: ["game", "import", f, "--db", db],
    "referee verify --seals": lambda f, g, db: ["referee", "verify", str(g["export"]),
                                                "--seals", f, "--db", db],
    "game import --seals": lambda f, g, db: ["game", "import", str(g["export"]), "--seals", f,
                                             "--db", db],
    "hardware check --wiring": lambda f, g, db: ["hardware", "check", "--wiring", f],
    "hardware check --tags": lambda f, g, db: ["hardware", "check", "--tags", f],
}
"""Every ``companion`` command that reads a file a user names, with where the file goes."""


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_every_hostile_file_in_one_line(
        command: str, corpus: dict[str, Path], good: dict[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no wiring of the host's
    db = str(tmp_path / "games.sqlite")
    hostile = [*CORPUS, *SPECIAL]
    if command.startswith("hardware"):  # an empty or missing map or registry is one not built
        hostile = [n for n in hostile if n not in ("empty", "null", "FIFO", "missing")]  # yet
    messages = {}
    for name in hostile:
        argv = COMMANDS[command](str(corpus[name]), good, db)
        messages[name] = refused(argv, *run(argv))
    assert "larger than" in messages["/dev/zero"]
    assert "directory" in messages["directory"]
    if "missing" in messages:
        assert str(corpus["missing"]) in messages["missing"]


def test_standard_input_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    for argv in (["referee", "battle", "-"], ["kensei", "duel", "-"], ["tenka", "war", "-"]):
        for content in (b"[" * 3_000_000, b"\xff\xfe", b"9" * 5000):
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content)))
            refused(argv, *run(argv))


# --------------------------------------------------------------------------- wrong types

WRONG: list[Any] = [None, True, -1, 10**30, 1.5, "x", [], {}, [[[]]], {"x": {}}]


def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(
        data, list) else ()
    for key, value in items:
        yield from _paths(value, (*at, key))


def _replaced(data: Any, at: tuple[Any, ...], value: Any) -> Any:
    if not at:
        return value
    copy = json.loads(json.dumps(data))
    node = copy
    for key in at[:-1]:
        node = node[key]
    node[at[-1]] = value
    return copy


def mutations(data: Any, most: int, seed: int) -> list[Any]:
    """``data`` with a wrong value at every level: every object and list replaced, and a
    sample of the rest (``most`` in all)."""
    paths = list(_paths(data))
    pick = random.Random(seed)
    chosen = [(p, v) for p in paths for v in WRONG]
    pick.shuffle(chosen)
    containers = [p for p in paths if p and isinstance(_at(data, p), dict | list)]
    first = [(p, pick.choice(WRONG)) for p in containers]
    return [_replaced(data, p, v) for p, v in (first + chosen)[:most]]


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@pytest.mark.parametrize(("command", "which", "most"), [
    ("referee battle", "battle", 150), ("kensei melee", "melee", 100),
    ("tenka war", "war", 120),
])
def test_wrong_types_at_every_level_of_a_calculator_input(
        command: str, which: str, most: int, good: dict[str, Path], tmp_path: Path) -> None:
    assert run(COMMANDS[command](str(good[which]), good, ""))[0] == 0
    data = json.loads(good[which].read_text("utf-8"))
    path = tmp_path / "input.json"
    refusals = 0
    for mutated in mutations(data, most, seed=len(command)):
        path.write_text(json.dumps(mutated))
        status, _ = sound(COMMANDS[command](str(path), good, ""))
        refusals += status != 0
    assert refusals > most // 2


def test_wrong_types_at_every_level_of_a_game_export(good: dict[str, Path],
                                                     tmp_path: Path) -> None:
    lines = good["export"].read_text("utf-8").splitlines()
    assert run(["referee", "verify", str(good["export"])])[0] == 0
    path = tmp_path / "game.jsonl"
    refusals = 0
    for line_no in (0, 1, 5, 11):
        data = json.loads(lines[line_no])
        for mutated in mutations(data, 60, seed=line_no):
            changed = [*lines[:line_no], json.dumps(mutated), *lines[line_no + 1:]]
            path.write_text("\n".join(changed) + "\n")
            status, _ = sound(["referee", "verify", str(path)])
            refusals += status != 0
            sound(["referee", "explain", str(path), str(max(line_no, 1))])
            sound(["referee", "replay", str(path), "--at", str(max(line_no, 1))])
    for game in ("tenka-meidou", "kensei", "chess"):  # Sekigahara's entries, another game's
        head = json.loads(lines[0])
        head["header"]["game"] = game
        path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
        for action in (["verify"], ["explain", "2"], ["replay", "--at", "2"]):
            assert sound(["referee", action[0], str(path), *action[1:]])[0] != 0
    head = json.loads(lines[0])
    head["header"]["game"] = 5
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    status, message = sound(["game", "import", str(path), "--db", str(tmp_path / "g.sqlite")])
    assert status == 2 and "not a game header: game: Input should be a valid string" in message
    assert refusals >= 100  # a changed entry breaks its hash: nearly every one is refused


# --------------------------------------------------------------------------- data loaders

Loader = Callable[[Path], object]
LOADERS: dict[str, tuple[Loader, str | None]] = {
    "sekigahara board": (seki.load_board, "companion.games.sekigahara:board.yaml"),
    "sekigahara decks": (seki.load_decks, "companion.games.sekigahara:cards.yaml"),
    "sekigahara blocks": (seki.load_blocks, "companion.games.sekigahara:blocks.yaml"),
    "sekigahara rulebook": (load_rules, "companion.games.sekigahara:rules.yaml"),
    "tenka board": (tenka.load_board, "companion.games.tenka_meidou:board.yaml"),
    "tenka components": (tenka.load_components, "companion.games.tenka_meidou:components.yaml"),
    "wiring map": (WiringMap.load, None),
    "tag registry": (TagRegistry.load, None),
}
"""Every loader of a data file a user may correct or give (``--blocks``, ``--board``,
``--wiring``, ``--tags``, ``companion run --config``)."""


def loads_or_refuses(loader: Loader, path: Path) -> str | None:
    """None when the file loads; else the one-line message. Anything but DataFileError is
    a traceback."""
    try:
        with bounded():
            loader(path)
        return None
    except DataFileError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) <= MOST_SHOWN, message
        return message


@pytest.mark.parametrize("name", LOADERS)
def test_every_data_loader_refuses_every_hostile_file_in_one_line(
        name: str, corpus: dict[str, Path]) -> None:
    loader, _ = LOADERS[name]
    loaded = [n for n in [*CORPUS, *SPECIAL] if loads_or_refuses(loader, corpus[n]) is None]
    empty_is_fine = name in ("wiring map", "tag registry")  # nothing wired or registered yet
    assert set(loaded) <= ({"empty", "null", "FIFO"} if empty_is_fine else set())


def _bundled(where: str) -> Any:
    package, name = where.split(":")
    return yaml.safe_load(resources.files(package).joinpath("data", name).read_text("utf-8"))


@pytest.mark.parametrize("name", [n for n, (_, data) in LOADERS.items() if data])
def test_wrong_types_at_every_level_of_a_data_file(name: str, tmp_path: Path) -> None:
    loader, where = LOADERS[name]
    assert where is not None
    data = json.loads(json.dumps(_bundled(where)))  # YAML keys that are numbers stay so
    path = tmp_path / "data.yaml"
    path.write_text(yaml.safe_dump(data))
    assert loads_or_refuses(loader, path) is None
    for mutated in mutations(data, 120, seed=len(name)):
        path.write_text(yaml.safe_dump(mutated))
        loads_or_refuses(loader, path)
    stamped = _replaced(data, next(p for p in _paths(data) if len(p) == 2), date(2001, 12, 14))
    path.write_text(yaml.safe_dump(stamped))
    loads_or_refuses(loader, path)


@pytest.mark.parametrize(("count", "words"), [
    ("9223372036854775808", "less than or equal to 55"), ("1e8", "valid integer"),
    ("1000000", "less than or equal to 55"), (".nan", "not a number"),
    ("2001-12-14", "valid integer"), ("30", "a deck holds 55 (3.3)"),
])
def test_deck_counts_are_bounded_by_the_box(count: str, words: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("ishida:\n  - {clan: ukita, kind: plain, bid: 1, count: " + count + "}\n"
                    "  - {clan: mori, kind: plain, bid: 1, count: 30}\n")
    message = loads_or_refuses(seki.load_decks, path)
    assert message is not None and words in message, message


@pytest.mark.parametrize("top", ["2001-12-14", "5", ".nan", "[1, 2]", "{ishida: 3}"])
def test_a_deck_file_of_the_wrong_shape_is_one_line(top: str, tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text(f"tokugawa: {top}\n" if top.startswith("{") is False else top + "\n")
    assert loads_or_refuses(seki.load_decks, path) is not None


def test_block_counts_are_bounded_by_the_box(tmp_path: Path) -> None:
    path = tmp_path / "blocks.yaml"
    path.write_text("tokugawa:\n  - {clan: date, mon: 2, count: 48}\n"
                    "  - {clan: date, mon: 3, count: 48}\nishida: []\n")
    message = loads_or_refuses(seki.load_blocks, path)
    assert message is not None and "more than 48 blocks" in message


@pytest.mark.parametrize(("key", "value"), [
    ("soldier_pawns_per_colour", "1000000"), ("reinforcement_pawns", "9223372036854775808"),
    ("soldier_pawns_per_colour", "18.0"), ("reinforcement_pawns", "true"),
])
def test_tenka_component_counts_are_bounded_by_the_box(key: str, value: str,
                                                       tmp_path: Path) -> None:
    text = resources.files("companion.games.tenka_meidou").joinpath(
        "data", "components.yaml").read_text("utf-8")
    path = tmp_path / "components.yaml"
    path.write_text("\n".join(f"{key}: {value}" if line.startswith(f"{key}:") else line
                              for line in text.splitlines()))
    message = loads_or_refuses(tenka.load_components, path)
    assert message is not None and message.startswith(f"{path}: {key}: "), message


def test_a_simulator_script_is_bounded(corpus: dict[str, Path]) -> None:
    for name in [*CORPUS, *SPECIAL]:
        try:
            with bounded():
                parse_script(corpus[name])
        except ValueError as exc:
            assert "\n" not in str(exc) and len(str(exc)) <= MOST_SHOWN, exc


# --------------------------------------------------------------------------- memory


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SUBPROCESS_MEMORY, SUBPROCESS_MEMORY))


SUBPROCESS_MEMORY = 1 << 30
"""The address space each subprocess may use: a quarter of a Raspberry Pi 4's memory."""


@pytest.mark.parametrize("argv", [
    ["tenka", "war", "--board", "/dev/zero", "-"],
    ["referee", "verify", "/dev/urandom"],
    ["game", "import", "BIG"],
    ["tenka", "war", "BIG"],
], ids=["board /dev/zero", "verify /dev/urandom", "import big export", "war big"])
def test_what_once_ran_out_of_memory_stays_within_a_limit(argv: list[str],
                                                           tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"[" + b"[]," * 2_600_000 + b"[]]\n")
    argv = [str(big) if a == "BIG" else a for a in argv]
    if argv[0] in ("game", "referee"):
        argv += ["--db", str(tmp_path / "g.sqlite")]
    proc = subprocess.run([sys.executable, "-m", "companion", *argv], input=b"{}",
                          capture_output=True, timeout=60, preexec_fn=_limited,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    err = proc.stderr.decode()
    assert proc.returncode not in (0, 70) and "Traceback" not in err and "Memory" not in err, err


# --------------------------------------------------------------------------- the last guard

BUGGY = '''
from companion.core.descriptor import GameDescriptor

GAME = GameDescriptor(name="zz-buggy", title="Buggy", line="a command with a bug",
                      commands={"zz-buggy": "buggygame:register"})


def register(subparsers):
    def fail(args):
        raise ValueError("a bug\\nover two lines")
    subparsers.add_parser("zz-buggy").set_defaults(handler=fail)
'''


def test_a_bug_no_check_foresaw_is_still_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The README's promise holds even for an exception nobody caught: one line, status 70."""
    (tmp_path / "buggygame").mkdir()
    (tmp_path / "buggygame" / "__init__.py").write_text(BUGGY)
    info = tmp_path / "buggygame-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: buggygame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[companion.games]\nzz-buggy = buggygame:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["zz-buggy"]) == 70
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "companion zz-buggy: internal error (ValueError: a bug over two lines); please report it"]
