"""Plain words on every Sekigahara screen: seeded headless games are played through the whole
stack and every string drawn is linted for developer words (ids, placeholders, engine constants,
"(s)" plurals, "1 cards", a rule cited twice, "Mori" without its macron), and the hands doing
what the screen says never meet a "table differs" warning."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from ui_helpers import app_options

from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine.data import BOARD
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo

LINT: dict[str, re.Pattern[str]] = {
    "an '(s)' plural": re.compile(r"\(s\)"),
    "a broken plural": re.compile(
        r"(?<![\d.])(?:1 (?:cards|blocks|moves|units)\b"
        r"|(?:0|[2-9]|\d\d+) (?:card|block|move|unit)\b(?!s))"),
    "a rule cited twice": re.compile(r"\((?:rule )?([\dC][\d.]*)\).*\((?:rule )?\1\)"),
    "a location id": re.compile(r"\b(" + "|".join(BOARD.locations) + r")\b"),
    "an engine zone": re.compile(r"@"),
    "an engine constant": re.compile(r"10000|10_000"),
    "Mori without its macron": re.compile(r"\bMori\b"),
    "a lowercase clan": re.compile(r"\b(" + "|".join(
        c.value for c in Clan if c.value not in ("date", "ii")) + r")\b"),
    "a doubled space": re.compile(r"\S  \S"),
    "'none' as a level": re.compile(r"\bnone movement\b"),
}


def lint(strings: set[str]) -> list[str]:
    """What is wrong with these strings, one line each."""
    return sorted(f"{what}: {text!r}" for text in strings for what, rx in LINT.items()
                  if rx.search(text))


def test_the_lint_catches_what_it_is_for() -> None:
    bad = {"draw 3 block(s) for @recruitment", "Tokugawa: 1 cards", "End movement (10000 moves "
           "left)", "declare combat at kiyosu", "no battle (rule 8.2.3) (8.2.3)",
           "Mori double (bid 5)", "Ishida deploys ukita 2-mon  (8.2.3)",
           "Ishida buys none movement for 0 card(s)"}
    found = lint(bad)
    assert {line.split(":")[0] for line in found} == set(LINT)
    assert lint({"Ishida: 1 card · draw 3 · 12 VP", "Mōri double (bid 5)", "3 blocks",
                 "Date 2-mon (8.7.2)", "Combat at Kiyosu ends (8.7)"}) == []


@pytest.fixture
def table_app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TableApp]:
    app = TableApp(replace(app_options(tmp_path), size=request.param))
    try:
        yield app
    finally:
        app.close()


@pytest.mark.parametrize(("table_app", "seed"), [((800, 480), 3), ((720, 1280), 5)],
                         indirect=["table_app"])
def test_every_string_drawn_in_three_weeks_is_in_plain_words(table_app: TableApp,
                                                             seed: int) -> None:
    drawn: set[str] = set()
    app = table_app.app
    app.on_frame = lambda _at: drawn.update(text for _screen, text in app.drawn)
    demo = Demo(table_app, seed)
    demo.play(3)
    assert demo.state.week > 3 or demo.state.winner is not None
    assert any("deployed block" in s for s in drawn) or any("(7.4)" in s for s in drawn), (
        "the seed shows the players a step on the table")
    assert lint(drawn) == []
    assert not [s for s in drawn if s.startswith("The table differs")]
