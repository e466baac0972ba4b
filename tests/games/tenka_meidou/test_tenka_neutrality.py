"""The core, the hardware bridge and the app shell import no game (issue 11), and Tenka Meidou
imports nothing from Sekigahara. Every import counts, function-local ones included (the scan
walks the whole syntax tree); the bridge finds the game it serves through
:func:`companion.core.table.game_table`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _imports(package: Path) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(str(path.relative_to(ROOT)), a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add((str(path.relative_to(ROOT)), node.module))
    return found


def test_the_core_imports_neither_game() -> None:
    core = ROOT / "companion" / "core"
    assert core.is_dir()
    bad = {(f, m) for f, m in _imports(core) if m.startswith("companion.games")}
    assert not bad


def test_the_bridge_imports_neither_game() -> None:
    bridge = ROOT / "firmware_bridge"
    imports = _imports(bridge)
    assert any(m.startswith("companion.core") for _, m in imports)  # the scan sees imports
    bad = {(f, m) for f, m in imports if m.startswith(("companion.games", "ui"))}
    assert not bad


def test_the_scan_sees_function_local_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text("def f():\n    from companion.games.sekigahara import x\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert ("pkg/m.py", "companion.games.sekigahara") in _imports(package)
    finally:
        ROOT = saved


def test_the_games_are_found_through_the_core_registry() -> None:
    from companion.core.table import game_table, table_names

    assert {"sekigahara", "tenka-meidou"} <= set(table_names())
    assert game_table("sekigahara").piece_word == "block"
    assert game_table("tenka-meidou").piece_word == "pawn"


def test_tenka_meidou_imports_nothing_from_sekigahara() -> None:
    package = ROOT / "companion" / "games" / "tenka_meidou"
    imports = _imports(package)
    assert any(m.startswith("companion.core") for _, m in imports)  # the scan sees imports
    assert not {(f, m) for f, m in imports if m.startswith("companion.games.sekigahara")}


def test_the_app_shell_imports_neither_game_nor_the_bridge() -> None:
    """ui/shell is the touchscreen shell every game's screens run in (ui/<game>/ holds those)."""
    shell = ROOT / "ui" / "shell"
    imports = _imports(shell)
    assert any(m.startswith("pygame") for _, m in imports)  # the scan sees imports
    bad = {(f, m) for f, m in imports
           if m.startswith(("companion.games", "firmware_bridge", "ui.sekigahara",
                            "ui.tenka_meidou"))}
    assert not bad
