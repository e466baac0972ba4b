"""The board and components as data (sections 2, 3, 4): validated on load, errors name the file
and the field, and a user's corrected board is used by the rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from companion.core.datafiles import DataFileError
from companion.games.tenka_meidou.components import (
    default_board,
    default_components,
    load_board,
    load_components,
)
from companion.games.tenka_meidou.rules import TenkaRules

BOARD = Path(__file__).parents[3] / "companion/games/tenka_meidou/data/board.yaml"


def test_4_the_bundled_board_has_11_zones_and_16_borders() -> None:
    board = default_board()
    assert len(board.zones) == 11
    assert (len(board.adjacency.land), len(board.adjacency.sea)) == (10, 6)
    assert board.neighbours("kyoto") == ("tsutsujigasaki", "kiyosu", "yoshida_koriyama", "oko")
    assert board.neighbours("shuri", "land") == ()  # an island: Cruzar la montaña cannot start
    assert board.border("oko", "kyoto") == "sea"


def test_2_3_components_and_player_count_tables() -> None:
    c = default_components()
    assert c.soldiers_per_colour(False) == 18 and c.soldiers_per_colour(True) == 16
    assert c.reinforcement_pawns == 30
    assert [c.table(n).reinforcements_per_zone for n in (2, 3, 4)] == [1, 2, 2]
    assert [c.table(n).small_castles for n in (2, 3, 4)] == [False, True, True]


def _write(tmp_path: Path, edit: dict[str, object]) -> Path:
    data = yaml.safe_load(BOARD.read_text("utf-8"))
    data.update(edit)
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


@pytest.mark.parametrize(("edit", "words"), [
    ({"adjacency": {"land": [["kyoto", "edo"]], "sea": []}}, "adjacency.land.0: unknown zone"),
    ({"adjacency": {"land": [["kyoto", "oko"]], "sea": [["oko", "kyoto"]]}},
     "adjacency.sea.0: oko-kyoto is already listed"),
    ({"adjacency": {"land": [["oko", "oko"]], "sea": []}}, "cannot border itself"),
    ({"kyoto": "heian"}, "kyoto: unknown zone"),
    ({"colours": ["red"]}, "colours: Extra inputs are not permitted"),
])
def test_a_malformed_board_names_the_file_and_the_field(
        tmp_path: Path, edit: dict[str, object], words: str) -> None:
    path = _write(tmp_path, edit)
    with pytest.raises(DataFileError) as exc:
        load_board(path)
    assert str(path) in str(exc.value) and words in str(exc.value)


def test_a_corrected_board_is_the_one_the_rules_use(tmp_path: Path) -> None:
    """The alternative naming of the two central zones (docs/tenka-meidou.md)."""
    data = yaml.safe_load(BOARD.read_text("utf-8"))
    swap = {"kasugayama": "tsutsujigasaki", "tsutsujigasaki": "kasugayama"}
    data["adjacency"]["land"] = [[swap.get(a, a), swap.get(b, b)]
                                 for a, b in data["adjacency"]["land"]]
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    rules = TenkaRules(board=load_board(path))
    assert rules.board.border("kyoto", "kasugayama") == "land"
    assert rules.board.border("kyoto", "tsutsujigasaki") is None


def test_bad_components_file(tmp_path: Path) -> None:
    path = tmp_path / "components.yaml"
    path.write_text("schema_version: 1\ncolours: [red]\n", "utf-8")
    with pytest.raises(DataFileError, match=r"components\.yaml"):
        load_components(path)
