"""The code in the README and docs/*.md runs as written.

* Every ```python block runs, the blocks of one file in order in one namespace (a later example
  may use what an earlier one made); a block of ``>>>`` lines runs as a doctest, its printed
  output compared. A block that cannot run on its own (a sketch with ``...``, one that needs live
  hardware) says so on the line before it: ``<!-- not-run: the reason -->``.
* Every ``companion ...`` command shown in any other code block names a real subcommand and
  real flags: checked against the parser the command builds (``companion.cli.build_parser``),
  without running it. ``python3 dev.py run ARGS`` is ``companion run ARGS``.
"""

from __future__ import annotations

import argparse
import doctest
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"<!--\s*not-run:\s*(\S.*?)\s*-->")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    code: str
    not_run: str | None

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path) -> Iterator[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    n = 0
    while n < len(lines):
        fence = re.match(r"^(`{3,})(\S*)\s*$", lines[n])
        if not fence:
            n += 1
            continue
        end = next(i for i in range(n + 1, len(lines)) if lines[i].startswith(fence.group(1)))
        before = next((lines[i] for i in range(n - 1, -1, -1) if lines[i].strip()), "")
        marker = NOT_RUN.search(before)
        yield Block(path, n + 1, fence.group(2), "\n".join(lines[n + 1:end]) + "\n",
                    marker.group(1) if marker else None)
        n = end + 1


ALL = [b for path in DOCS for b in blocks(path)]
PYTHON = [b for b in ALL if b.lang in ("python", "py", "pycon")
          or (not b.lang and b.code.lstrip().startswith(">>>"))]


def run(block: Block, namespace: dict[str, Any]) -> None:
    if block.code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block.code, namespace, block.where,
                                                   str(block.path), block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append, clear_globs=False)
        assert runner.failures == 0, f"{block.where}: doctest failed\n" + "".join(report)
    else:
        exec(compile(block.code, block.where, "exec"), namespace)


@pytest.mark.parametrize("path", sorted({b.path for b in PYTHON}),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_python_examples_of_a_page_run(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, Any] = {"__name__": f"docs_{path.stem}"}
    for block in (b for b in PYTHON if b.path == path and b.not_run is None):
        try:
            run(block, namespace)
        except AssertionError:
            raise
        except Exception as exc:
            raise AssertionError(f"{block.where}: {type(exc).__name__}: {exc}") from exc


def test_every_python_example_runs_or_says_why_not() -> None:
    skipped = [b for b in PYTHON if b.not_run is not None]
    assert all(len(b.not_run or "") >= 10 for b in skipped), "say why a block does not run"
    assert len(skipped) < len(PYTHON)


# ------------------------------------------------------------------ shell commands
COMMAND = re.compile(r"(?:^|&&|\$)\s*(companion|python3? dev\.py run)\s+(.*)")


def commands() -> Iterator[tuple[str, list[str]]]:
    """(where, words after ``companion``) for each command line in a non-Python block."""
    for block in ALL:
        if block in PYTHON or block.lang in ("json", "yaml"):
            continue
        for offset, text in enumerate(block.code.splitlines(), start=1):
            for part in text.split("&&"):
                found = COMMAND.search(part.split(" #")[0])
                if not found:
                    continue
                words = re.split(r"\s{2,}", found.group(2).strip())[0].split()
                if found.group(1) != "companion" and (not words or words[0].startswith("-")):
                    words = ["run", *words]
                yield f"{block.where}+{offset}", words


COMMANDS = list(commands())


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def unknown_words(words: list[str]) -> list[str]:
    """The subcommands and flags of ``companion WORDS`` that its parser does not know."""
    top = _subparsers(build_parser([words[0]]))
    if words[0] not in top:
        return [words[0]]
    parser, wrong = top[words[0]], []
    flag: argparse.Action | None = None
    for word in words[1:]:
        bare = word.strip("[]")
        named = [w for w in bare.split("|") if re.fullmatch(r"[a-z][a-z-]*", w)]
        choices = _subparsers(parser)
        if flag is not None and flag.choices is not None:  # a flag's value among its choices
            wrong += [w for w in named if w not in flag.choices]
            flag = None
        elif choices and not bare.startswith("-"):
            wrong += [w for w in named if w not in choices]
            parser = choices.get(named[0], parser) if named else parser
        elif re.fullmatch(r"--?[a-z][a-z-]*", bare):
            flag = parser._option_string_actions.get(bare)
            wrong += [] if flag else [bare]
    return wrong


def test_the_commands_shown_in_the_docs_exist() -> None:
    assert len(COMMANDS) > 20  # the pages show the commands; the scan found them
    wrong = {where: bad for where, words in COMMANDS if (bad := unknown_words(words))}
    assert wrong == {}, ("a subcommand or flag the docs show does not exist (a command missing "
                         "altogether: is the environment installed from this pyproject.toml?)")


def test_a_made_up_subcommand_or_flag_is_caught() -> None:
    assert unknown_words(["referee", "battle", "FILE", "--blocks", "M"]) == []
    assert unknown_words(["game", "list|export", "ID|import", "FILE"]) == []
    assert unknown_words(["referee", "judge", "FILE"]) == ["judge"]
    assert unknown_words(["run", "--headless", "[--fullscreen]"]) == ["--fullscreen"]
    assert unknown_words(["tourney"]) == ["tourney"]
    assert unknown_words(["referee", "replay", "F", "--vue", "public"]) == ["--vue"]


def test_a_block_marked_not_run_is_found_with_its_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n\n<!-- not-run: needs a hub -->\n```python\nhub()\n```\n"
                    "```python\nx = 1\n```\n", encoding="utf-8")
    found = list(blocks(page))
    assert [(b.line, b.not_run, b.code) for b in found] == [
        (4, "needs a hub", "hub()\n"), (7, None, "x = 1\n")]
    assert os.fspath(page).endswith("page.md")
