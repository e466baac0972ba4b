"""Sekigahara's screens reach the game through one module: ``ui/`` imports
:mod:`companion.games.sekigahara.facade` (and the printed components), never the engine's
modules, so the engine's inside can change without touching a screen."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.games.sekigahara.facade as facade
import ui

GAME = "companion.games.sekigahara"
ALLOWED = {f"{GAME}.facade", f"{GAME}.components"}
UI = Path(ui.__file__).parent


def game_imports(source: str) -> set[str]:
    """The Sekigahara modules ``source`` imports (``from pkg import mod`` names ``pkg.mod``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module in (GAME, f"{GAME}.engine"):
                found.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in found if m == GAME or m.startswith(f"{GAME}.")}


def test_the_ui_imports_the_sekigahara_game_through_its_facade_only() -> None:
    stray = {
        f"{path.relative_to(UI.parent)}: {module}"
        for path in sorted(UI.rglob("*.py"))
        for module in game_imports(path.read_text(encoding="utf-8"))
        if module not in ALLOWED and not module.startswith(f"{GAME}.facade.")
    }
    assert stray == set()


def test_the_scan_sees_an_engine_import() -> None:
    source = ("from companion.games.sekigahara.engine import commands as cm\n"
              "def f():\n    from companion.games.sekigahara.engine.state import Phase\n")
    assert game_imports(source) - ALLOWED == {
        f"{GAME}.engine", f"{GAME}.engine.commands", f"{GAME}.engine.state"}


def test_the_facade_declares_what_it_exports() -> None:
    exported = set(facade.__all__)
    assert len(exported) == len(facade.__all__)
    assert all(hasattr(facade, name) for name in exported)
    public = {n for n in vars(facade) if not n.startswith("_") and n != "annotations"}
    assert public == exported
