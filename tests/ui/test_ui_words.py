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
from ui_helpers import app_options, make_canvas

from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine.data import BOARD
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo
from ui.sekigahara.parts import Detail, sentence

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


@pytest.mark.parametrize(("table_app", "seed", "weeks"),
                         [((800, 480), 3, 3), ((720, 1280), 5, 3), ((1024, 600), 8, 2),
                          ((1280, 720), 9, 2)], indirect=["table_app"])
def test_every_string_drawn_in_seeded_weeks_is_in_plain_words(table_app: TableApp, seed: int,
                                                              weeks: int) -> None:
    drawn: set[str] = set()
    app = table_app.app
    app.on_frame = lambda _at: drawn.update(text for _screen, text in app.drawn)
    demo = Demo(table_app, seed)
    demo.play(weeks)
    assert demo.state.week > weeks or demo.state.winner is not None
    if weeks == 3:
        assert any("deployed block back on" in s for s in drawn), "a battle was fought"
    for label in ("Status", "Osaka"):  # detail pages too
        if app.find(label) is not None:
            demo.tap(label)
            app.draw()
            demo.tap("Back")
    app.draw()
    assert lint(drawn) == []
    assert not [s for s in drawn if s.startswith("The table differs")]


def test_a_cut_sentence_opens_in_full() -> None:
    canvas, _painter = make_canvas((320, 200))
    opened: list[Detail] = []
    text = "Stand the blocks with a set-up symbol where the map prints it (5.2.1): " * 4
    sentence(canvas, text, (0, 0), 300, opened.append, title="Set-up", max_lines=2)
    [target] = [tg for tg in canvas.targets if tg.label == text]
    assert target.action is not None
    target.action()
    assert opened == [Detail("Set-up", (text,), ("5.2.1",))]
    short = "Put it back"
    sentence(canvas, short, (0, 100), 300, opened.append)
    assert not [tg for tg in canvas.targets if tg.label == short]  # nothing cut, no tap
