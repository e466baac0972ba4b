"""The Sekigahara package's imports form no cycle, read from the sources (ast), every import
counted: module level, inside functions, under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import companion.games.sekigahara as package

PACKAGE = package.__name__
ROOT = Path(package.__file__).parent


def modules(root: Path = ROOT, name: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((name, *parts))] = path
    return found


def imports(path: Path, known: Mapping[str, Path]) -> set[str]:
    """The package's modules ``path`` imports (``from pkg import sub`` names ``pkg.sub``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names} & known.keys()
            found.update(subs)
            if len(subs) < len(node.names) and node.module in known:
                found.add(node.module)
    return found


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), plus any module
    importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known) for name, path in known.items()}


def test_the_sekigahara_package_has_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    made_up = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(made_up) == [["a", "b", "c"], ["e"]]


def test_the_graph_sees_the_engines_imports() -> None:
    edges = graph()
    assert f"{PACKAGE}.zones" in edges[f"{PACKAGE}.engine.session_rules"]
    assert f"{PACKAGE}.engine.feed" in edges[f"{PACKAGE}.engine.session_rules"]
    assert f"{PACKAGE}.engine.session_rules" in edges[f"{PACKAGE}.table"]  # inside a method
