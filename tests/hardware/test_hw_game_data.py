"""Each game's hardware data in its package (data/antennas.yaml, data/wiring.default.yaml) is
what the placement sheet generates now (``placement_sheet.py --write-data``), and is validated
on load, naming the file and the field."""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import game_data
import pytest

from companion.core.datafiles import DataFileError
from companion.core.descriptor import GameDescriptor
from companion.core.hardware import load_antenna_layout, load_default_wiring
from companion.core.table import game_table

_generated = functools.cache(game_data.generated)  # the layout takes a second or two


@pytest.mark.parametrize("path", sorted(_generated(), key=str))
def test_the_checked_in_files_are_what_the_placement_sheet_generates(path: Path) -> None:
    assert path.read_text("utf-8") == _generated()[path], (
        f"{path} is stale: run python hardware/tools/placement_sheet.py --write-data")


def test_every_game_serves_its_data_through_its_table() -> None:
    for name in ("sekigahara", "tenka-meidou"):
        table = game_table(name)
        layout, wiring = table.antenna_layout(), table.default_wiring()
        assert layout is not None and wiring is not None
        watched = {p.id for p in table.places().values() if p.watched}
        assert set(layout.zones) == watched == wiring.zones()
        wired = [zone for hub in wiring.hubs.values() for zone in hub.values()]
        assert all(wired.count(zone) == len(spots) for zone, spots in layout.zones.items())


def test_tenka_meidou_has_coordinates_of_its_own() -> None:
    seki, tenka = game_table("sekigahara").antenna_layout(), game_table(
        "tenka-meidou").antenna_layout()
    assert seki is not None and tenka is not None
    assert all(tenka.zones[z] != seki.zones[z] for z in set(seki.zones) & set(tenka.zones))


FAKE = GameDescriptor(name="fakegame", title="Fake game", line="a test",
                      hardware="fakegame_hw.data")


@pytest.fixture
def fake_game(tmp_path: Path) -> Iterator[Path]:
    data = tmp_path / "fakegame_hw" / "data"
    data.mkdir(parents=True)
    (data.parent / "__init__.py").write_text("")
    (data / "__init__.py").write_text("")
    sys.path.insert(0, str(tmp_path))
    yield data
    sys.path.remove(str(tmp_path))
    sys.modules.pop("fakegame_hw", None)
    sys.modules.pop("fakegame_hw.data", None)


def test_a_spot_of_an_unknown_zone_is_refused(fake_game: Path) -> None:
    (fake_game / "antennas.yaml").write_text(
        "zones:\n  gifu: [{sheet: map, x: 1, y: 2, diameter: 50}]\n")
    assert load_antenna_layout(FAKE, {"gifu"}).zones["gifu"][0].y == 2
    with pytest.raises(DataFileError, match=r"antennas\.yaml: not places of this game: gifu"):
        load_antenna_layout(FAKE, {"osaka"})


def test_a_bad_field_is_named(fake_game: Path) -> None:
    (fake_game / "antennas.yaml").write_text(
        "zones:\n  gifu: [{sheet: map, x: 1, y: 2, diameter: 0}]\n")
    with pytest.raises(DataFileError, match=r"antennas\.yaml: zones\.gifu\.0\.diameter"):
        load_antenna_layout(FAKE, {"gifu"})
    (fake_game / "wiring.default.yaml").write_text("hubs:\n  hub-1:\n    B00: gifu\n")
    with pytest.raises(DataFileError, match=r"wiring\.default\.yaml: hubs: hub-1\.B00"):
        load_default_wiring(FAKE, {"gifu"})
