"""The core imports no game, and Tenka Meidou imports nothing from Sekigahara.

firmware_bridge/ is left out for now: it is being made game-neutral separately (issue 10).
"""

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
           if m.startswith(("companion.games", "firmware_bridge", "ui.sekigahara"))}
    assert not bad
