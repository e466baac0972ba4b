"""Concealment by construction: seeded games played headless through the whole stack, every
string drawn on every frame scanned against what the rules had revealed at that moment (3.1).

A block's identity is its id (never shown), or its face (clan and mon, gun or cavalry, leader),
which may appear only once the rules revealed that block or another of the very same face: a
muster with option A (7.2), the face-up Mori box and Mori arrivals (9.3), an Overrun (7.4), a
deployment (8.2.3), losses (8.7.2)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from ui_helpers import app_options

from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import FACES
from companion.games.sekigahara.engine.state import MORI_BOX
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")
FACE_OF = {b: f.describe() for b, f in FACES.items()}
PATTERN = {b: re.compile(r"\b" + re.escape(text) + r"(?![\w-]| gun| cavalry| leader)")
           for b, text in FACE_OF.items()}


def revealed(events: Iterable[ev.Event]) -> set[str]:
    """The blocks whose face the rules have shown both players so far."""
    shown: set[str] = set()
    for e in events:
        face_up = ((isinstance(e, ev.BlocksPlaced) and e.zone == MORI_BOX)
                   or (isinstance(e, ev.Mustered) and e.option == "A")
                   or isinstance(e, ev.MoriArrived | ev.Overrun))
        if face_up:
            shown |= set(e.blocks)  # type: ignore[union-attr]
        elif isinstance(e, ev.CombatActed):
            shown |= {u for u in (*e.action.get("blocks", ()), *e.action.get("losses", ()))
                      if u in FACES}
        elif isinstance(e, ev.CombatEnded):
            shown |= {b for lost in e.losses.values() for b in lost}
    return shown


def leaks(strings: Iterable[str], shown: set[str]) -> list[str]:
    faces_shown = {FACE_OF[b] for b in shown}
    found = []
    for text in strings:
        if BLOCK_ID.search(text):
            found.append(text)
            continue
        lower = text.lower().replace("ō", "o")  # "Mōri" as printed
        for block, pattern in PATTERN.items():
            if block not in shown and FACE_OF[block] not in faces_shown and pattern.search(lower):
                found.append(f"{text!r} names {FACE_OF[block]}")
                break
    return found


def test_the_scan_catches_a_hidden_face_and_an_id() -> None:
    hidden = next(b for b in FACES if FACES[b].mon == 3)
    assert leaks([f"a {FACE_OF[hidden]} moved"], set())
    assert leaks([f"block {hidden}"], {hidden})
    assert not leaks([f"a {FACE_OF[hidden]} moved"], {hidden})
    assert not leaks(["3 gold blocks moved from Gifu (7.3)"], set())


@pytest.mark.parametrize("seed", [10, 11, 12, 13, 14])
def test_no_hidden_identity_reaches_the_screen(tmp_path: Path, seed: int) -> None:
    options = app_options(tmp_path)
    table_app = TableApp(options)
    found: list[str] = []
    strings = 0

    def scan(_at: float) -> None:
        nonlocal strings
        shown = revealed(table_app.control.events)
        drawn = [text for _screen, text in table_app.app.drawn]
        strings += len(drawn)
        found.extend(leaks(drawn, shown))

    table_app.app.on_frame = scan
    try:
        demo = Demo(table_app, seed)
        demo.play(3)
    finally:
        table_app.close()
    assert strings > 1000
    assert not found, found[:5]


def test_companion_run_headless_demo_records_frames_and_every_string(tmp_path: Path) -> None:
    record = tmp_path / "record"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "run", "--headless", "--demo", "--weeks", "1",
         "--seed", "4", "--record", str(record)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    frames = sorted((record / "frames").glob("*.png"))
    assert len(frames) > 10 and frames[0].name == "00001.png"
    lines = [json.loads(line) for line in (record / "text.jsonl").read_text().splitlines()]
    assert {"frame", "screen", "text", "px", "rect", "lines"} <= set(lines[0])
    assert {d["screen"] for d in lines} >= {"start", "setup", "bidding", "board"}
    assert max(d["frame"] for d in lines) == len(frames)
    assert not [d["text"] for d in lines if BLOCK_ID.search(d["text"])]
