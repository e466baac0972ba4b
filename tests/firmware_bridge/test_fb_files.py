"""Wiring map and tag registry files: round trips and clear errors naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.sekigahara.table import resolve_block
from firmware_bridge.files import ConfigFileError
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simtable import default_registry, default_wiring
from firmware_bridge.wiring import AntennaKey, WiringBuilder, WiringMap


def test_default_files_round_trip(tmp_path: Path) -> None:
    wiring, registry = default_wiring(), default_registry()
    wiring.save(tmp_path / "wiring.yaml")
    registry.save(tmp_path / "tags.yaml")
    assert WiringMap.load(tmp_path / "wiring.yaml") == wiring
    assert TagRegistry.load(tmp_path / "tags.yaml") == registry
    assert len(registry.tags) == 96


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hubs:\n  hub-1:\n    A00: gifuu\n", "hubs: hub-1.A00: unknown zone 'gifuu'"),
        ("hubs:\n  hub-1:\n    B00: gifu\n", "hubs: hub-1.B00: antenna must be A00..A127"),
        ("hubs:\n  hub-1:\n    A00: gifu\n    A01: gifu\n", "gifu is already watched by"),
        ("hubs:\n  'bad hub':\n    A00: gifu\n", "hub id 'bad hub'"),
        ("hubs: [1, 2]\n", "hubs: Input should be a valid dictionary"),
        ("wires: {}\n", "wires: Extra inputs are not permitted"),
        ("hubs: {a: [\n", "is not valid YAML"),
    ],
)
def test_a_malformed_wiring_map_names_the_file_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "wiring.yaml"
    path.write_text(text)
    with pytest.raises(ConfigFileError) as err:
        WiringMap.load(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tags:\n  E004015000000001: I99\n", "unknown block 'I99'"),
        ("tags:\n  e004015000000001: I01\n", "is not a tag uid"),
        ("tags:\n  E004015000000001: I01\n  E004015000000002: I01\n", "already has tag"),
    ],
)
def test_a_malformed_registry_names_the_file_and_field(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "tags.yaml"
    path.write_text(text)
    with pytest.raises(ConfigFileError) as err:
        TagRegistry.load(path)
    assert f"{path}: tags: " in str(err.value)
    assert message in str(err.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="cannot read"):
        WiringMap.load(tmp_path / "nope.yaml")


def test_one_location_one_antenna_but_trays_may_span_several() -> None:
    wiring = WiringMap(hubs={"h": {"A00": "casualties", "A01": "casualties"}})
    assert wiring.antennas_of("casualties") == [AntennaKey("h", 0), AntennaKey("h", 1)]


def test_registration_understands_faces() -> None:
    registry = TagRegistry()
    assert resolve_block("ishida leader", registry.tags.values()).face.is_protagonist
    first = resolve_block("mori 3", registry.tags.values())
    registry = registry.with_tag("E004015000000001", first.id)
    second = resolve_block("mori 3", registry.tags.values())
    assert second.id != first.id and second.face == first.face
    with pytest.raises(ValueError, match="fits several faces"):
        resolve_block("tokugawa", registry.tags.values())
    with pytest.raises(ValueError, match="say a block id"):
        resolve_block("the big one", registry.tags.values())


def test_wiring_builder_assigns_one_antenna_per_zone() -> None:
    builder = WiringBuilder(["gifu", "kiso"])
    a, b = AntennaKey("h", 4), AntennaKey("h", 9)
    assert builder.prompt() == "put one tagged block on Gifu"
    assert builder.observe({a: [], b: []}) is None
    assert builder.observe({a: ["X"], b: []}) == "Gifu is h/A04; lift the block off Gifu"
    assert builder.observe({a: ["X"], b: []}) is None
    assert builder.observe({a: [], b: []}) == "put one tagged block on Kiso"
    message = builder.observe({a: ["X"], b: ["Y"]})
    assert message is not None and "Kiso is h/A09" in message  # h/A04 is already wired
    builder.observe({a: [], b: []})
    assert builder.done
    assert builder.wiring.hubs == {"h": {"A04": "gifu", "A09": "kiso"}}
