"""Perft (``benchmarks/perft.py``): the commands each engine offers from fixed positions, to the
depth pinned in ``tests/games/<game>/perft.yaml``, and every offered command accepted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perft", ROOT / "benchmarks" / "perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["perft"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


perft = _load()
POSITIONS = perft.POSITIONS


@pytest.fixture(scope="module")
def states() -> dict[str, Any]:
    return {f"{p.game} {p.name}": p.build() for p in POSITIONS}


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: f"{p.game}-{p.name}")
def test_the_counts_from_a_position_are_the_pinned_ones(
    position: Any, states: dict[str, Any]
) -> None:
    game, name = position.game, position.name
    counts = position.perft(states[f"{game} {name}"], position.depth)
    assert counts == perft.pinned(game)[name], (
        f"{game} {name}: now {counts}, pinned {perft.pinned(game)[name]} "
        "(a deliberate change is pinned with benchmarks/perft.py --write)")


@pytest.mark.parametrize("name", ["set-up", "leaders", "muster"])
def test_every_move_and_muster_offered_in_a_movement_phase_is_accepted(
    name: str, states: dict[str, Any]
) -> None:
    """The depth-1 positions are too wide to count deeper here, so each offered command is
    played once: the queries and the rules agree."""
    assert perft.refused(states[f"sekigahara {name}"]) == []


def test_every_position_is_pinned_and_nothing_else() -> None:
    for game in ("sekigahara", "tenka_meidou"):
        assert sorted(perft.pinned(game)) == sorted(p.name for p in POSITIONS if p.game == game)


def test_the_positions_are_what_they_say(states: dict[str, Any]) -> None:
    seki = perft.sekigahara_commands
    setup = states["sekigahara set-up"]
    assert setup.week == 1 and setup.level.value == "total"
    leaders = states["sekigahara leaders"]
    assert perft._leaders_move(leaders)  # routes that need the hidden leader are counted
    assert any(c.type == "move_stack" and c.force_marches for c in seki(leaders)["moves"])
    assert perft._muster(states["sekigahara muster"])
    assert perft._battle(states["sekigahara battle"])
    kinds = {c.type for c in seki(states["sekigahara battle"])["combat actions"]}
    assert kinds == {"deploy", "finish"}
    placement = states["tenka_meidou placement"]
    assert placement.advanced and len(placement.players) == 4
    war = perft.tenka_perft(states["tenka_meidou war"], 1)
    assert war["wars1"] == war["deploys"] > 0  # every deployment places the last pawns


def test_card_plays_are_offered_only_from_a_hand_with_cards(states: dict[str, Any]) -> None:
    """The combat module offers cards by clan and kind without knowing the hands; the engine
    refuses a card from an empty hand (8.2.2), so perft offers none, and a refused offer
    stops the count instead of being counted."""
    battle = states["sekigahara battle"]
    empty = battle.copy()
    empty.hand = dict.fromkeys(battle.hand, 0)
    cardless = perft.sekigahara_commands(empty)["combat actions"]
    assert cardless and all(c.type == "finish" or c.card is None for c in cardless)
    offered = [perft._command(a) for a in perft.combat.legal_actions(empty.pending.combat)]
    refusals = [c for c in offered if c not in cardless]
    assert refusals
    for command in refusals:
        with pytest.raises(perft.RuleViolation, match="no card in hand"):
            perft.SEKIGAHARA.judge(empty, command)


def test_the_docs_show_the_pinned_counts() -> None:
    pages = {"sekigahara": "engine.md", "tenka_meidou": "tenka-meidou.md"}
    for position in POSITIONS:
        text = (ROOT / "docs" / pages[position.game]).read_text(encoding="utf-8")
        row = perft.doc_row(position, perft.pinned(position.game)[position.name])
        assert row in text, f"docs/{pages[position.game]} should show {row}"
