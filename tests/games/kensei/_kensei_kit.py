"""Helpers for the Kensei calculator tests: run the CLI through its own ``register`` (the
``companion`` entry point learns ``kensei`` only when the game is registered), and build
inputs from small dictionaries."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.kensei.cli import register


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="companion")
    register(top.add_subparsers(dest="command"))
    return top


def call(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    status: int = args.handler(args)
    return status


def run(kind: str, data: Any, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    """Exit status and printed object of ``companion kensei KIND FILE``."""
    path = tmp_path / f"{kind}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    status = call(["kensei", kind, str(path)])
    return status, json.loads(capsys.readouterr().out)


def run_stdin(kind: str, raw: bytes, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    status = call(["kensei", kind, "-"])
    return status, json.loads(capsys.readouterr().out)


def side(**keys: Any) -> dict[str, Any]:
    """A melee side: five warriors with swords fighting, unless ``keys`` say otherwise."""
    return {"class": "G", "models": 5, "weapon": 4, "order": "fight", **keys}


def melee(a: dict[str, Any], b: dict[str, Any], turn: str = "a") -> dict[str, Any]:
    return {"turn_initiative": turn, "a": a, "b": b}


def shot(shooter: dict[str, Any], target: dict[str, Any], **keys: Any) -> dict[str, Any]:
    return {"shooter": {"class": "G", "weapon": "yumi", "distance_cm": 30, **shooter},
            "target": {"class": "G", "models": 5, "visible": 5, **target}, **keys}


def ids(items: list[dict[str, Any]]) -> dict[str, int]:
    """``{id: amount}`` of a list of pool or modifier items."""
    return {i["id"]: i.get("dice", i.get("mod")) for i in items}
