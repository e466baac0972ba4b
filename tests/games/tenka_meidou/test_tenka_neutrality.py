"""The core, the hardware bridge and the app shell import no game (issue 11), and Tenka Meidou
imports nothing from Sekigahara. Every import counts, function-local ones included (the scan
walks the whole syntax tree); the bridge finds the game it serves through
:func:`companion.core.table.game_table`.

Nor does an installed package load anything by file path (issue 16): a path built from
``__file__``, a module loaded from a file, ``sys.path`` changed, or a path into the checkout
(``hardware/...``) would find nothing in a wheel install. A game's data travels as package data
(``importlib.resources``), reached through its GameTable."""

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


_FILE_LOADERS = {"spec_from_file_location", "SourceFileLoader", "run_path", "exec_module"}


def _path_loads(package: Path) -> set[tuple[str, str]]:
    """(file, what) for every way a module reaches files by path rather than as a package."""
    found: set[tuple[str, str]] = set()
    for path in package.rglob("*.py"):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Name) and node.id == "__file__":
                found.add((where, "__file__"))
            elif isinstance(node, ast.Attribute) and node.attr in _FILE_LOADERS:
                found.add((where, node.attr))
            elif (isinstance(node, ast.Attribute) and node.attr == "path"
                  and isinstance(node.value, ast.Name) and node.value.id == "sys"):
                found.add((where, "sys.path"))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value.startswith(("hardware/", "../", "hardware\\"))):
                found.add((where, node.value))
    return found


def test_no_package_loads_a_file_by_path() -> None:
    for package in ("companion", "firmware_bridge", "ui", "tournament"):
        assert (ROOT / package).is_dir()
        assert not _path_loads(ROOT / package), package


def test_the_path_scan_sees_the_old_bridge_loading_the_hardware_tools(tmp_path: Path) -> None:
    """What the bridge did before issue 16 (firmware_bridge/schedule.py loaded the placement
    sheet and the air-time model from hardware/tools) fails the scan."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "schedule.py").write_text(
        "import importlib.util\nfrom pathlib import Path\n"
        'TOOLS = Path(__file__).resolve().parents[1] / "hardware" / "tools"\n'
        'spec = importlib.util.spec_from_file_location("_airtime", TOOLS / "airtime.py")\n')
    (package / "simtable.py").write_text('DEFAULT = "hardware/wiring.default.yaml"\n')
    (package / "fine.py").write_text("from importlib import resources\n"
                                     'TEXT = resources.files("pkg").joinpath("data")\n')
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _path_loads(package)
    finally:
        ROOT = saved
    assert found == {("pkg/schedule.py", "__file__"),
                     ("pkg/schedule.py", "spec_from_file_location"),
                     ("pkg/simtable.py", "hardware/wiring.default.yaml")}


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


def test_the_tournament_imports_no_game_screen_or_bridge_and_nothing_imports_it() -> None:
    """tournament/ serves every game through the core's descriptors; the core, the games and
    the bridge never import it (the touchscreen shell does, only when a table joins one)."""
    imports = _imports(ROOT / "tournament")
    assert any(m.startswith("companion.core") for _, m in imports)  # the scan sees imports
    bad = {(f, m) for f, m in imports
           if m.startswith(("companion.games", "ui", "firmware_bridge"))}
    assert not bad
    for package in ("companion", "firmware_bridge"):
        assert not {(f, m) for f, m in _imports(ROOT / package) if m.startswith("tournament")}


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
