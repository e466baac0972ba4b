"""Helpers for Kensei's screen tests: the app headless on a scratch database, taps by label,
the docs' worked examples and the CLI's rulings on them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ui.kensei.app import KenseiApp
from ui.tableapp import TableOptions

ROOT = Path(__file__).resolve().parents[3]
BLOCK = re.compile(r"<!-- example (\S+) (input|output) -->\n```json\n(.*?)```", re.S)
SIZES = ((800, 480), (1024, 600), (1280, 720), (720, 1280))


def make(tmp_path: Path, size: tuple[int, int] = (800, 480), seed: int = 0) -> KenseiApp:
    return KenseiApp(TableOptions(size=size, seed=seed, virtual_table=False,
                                  db=tmp_path / "games.sqlite", pin_file=tmp_path / "pin.json",
                                  workdir=tmp_path / "run"))


def tap(app: KenseiApp, label: str, times: int = 1) -> None:
    for _ in range(times):
        app.app.draw()
        target = app.app.find(label)
        assert target is not None, f"no {label!r} among {[t.label for t in app.app.targets]}"
        assert target.action is not None, f"{label!r} is greyed"
        app.app.touch(target.rect.center)
        app.app.pump()


def shown(app: KenseiApp) -> str:
    app.app.draw()
    return " ".join(text for _screen, text in app.app.drawn)


def screen(app: KenseiApp) -> str:
    app.app.draw()
    return app.app.painter.screen


def example(name: str, part: str) -> Any:
    """An example of docs/kensei.md, as the docs test reads it."""
    text = (ROOT / "docs" / "kensei.md").read_text("utf-8")
    found = {(m[1], m[2]): m[3] for m in BLOCK.finditer(text)}
    return json.loads(found[(name, part)])


def cli(kind: str, data: Any) -> tuple[int, dict[str, Any]]:
    """``companion kensei KIND -`` on ``data``: its exit status and printed object."""
    done = subprocess.run([sys.executable, "-m", "companion", "kensei", kind, "-"],
                          input=json.dumps(data), capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=False)
    return done.returncode, json.loads(done.stdout)
