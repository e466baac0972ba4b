"""The board, decks and block manifest load, validate and keep the invariants the rules need."""

from __future__ import annotations

from collections import Counter, deque
from pathlib import Path

import pytest
import yaml

from companion.games.sekigahara.components import (
    BoxKind,
    CardKind,
    Clan,
    DataFileError,
    Disk,
    RoadKind,
    Side,
    default_blocks,
    default_board,
    default_decks,
    load_blocks,
    load_board,
    load_decks,
)

DATA = Path(__file__).parents[3] / "companion" / "games" / "sekigahara" / "data"


def test_board_graph_is_connected() -> None:
    board = default_board()
    start = next(iter(board.locations))
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in board.neighbours(queue.popleft()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == set(board.locations)


def test_board_counts_match_the_printed_map() -> None:
    board = default_board()
    assert len(board.locations) == 51
    assert len(board.roads) == 62
    assert sum(1 for r in board.roads if r.kind is RoadKind.HIGHWAY) == 19
    assert {loc.id for loc in board.castles} == {
        "osaka",
        "gifu",
        "ueda",
        "aizu",
        "miyazu",
        "kanazawa",
        "anotsu",
        "okazaki",
        "hakone",
    }


def test_capitals_are_kyoto_and_edo_and_are_resources() -> None:
    board = default_board()
    capitals = {loc.id: loc.capital for loc in board.locations.values() if loc.capital}
    assert capitals == {"kyoto": Side.ISHIDA, "edo": Side.TOKUGAWA}
    assert board.locations["kyoto"].resource and board.locations["edo"].resource


def test_every_castle_has_an_alignment_and_disks_sit_at_their_castles() -> None:
    board = default_board()
    for loc in board.castles:
        assert loc.castle in (Side.ISHIDA, Side.TOKUGAWA)
    assert board.locations["osaka"].disk is Disk.HIDEYORI
    assert board.locations["ueda"].disk is Disk.SANADA
    assert sum(1 for loc in board.locations.values() if loc.disk) == 2


def test_recruitment_locations_show_friendly_mon() -> None:
    board = default_board()
    where = {clan: loc.id for loc in board.locations.values() for clan in loc.recruitment}
    assert where == {
        "ukita": "himeji",
        "mori": "himeji",
        "kobayakawa": "osaka",
        "maeda": "kanazawa",
        "fukushima": "kiyosu",
        "tokugawa": "edo",
        "uesugi": "aizu",
        "date": "sendai",
    }


def test_setup_markers_place_the_documented_random_draws() -> None:
    board = default_board()
    random = Counter[Side]()
    for loc in board.locations.values():
        for side, n in loc.setup.random.items():
            random[side] += n
    assert random == {Side.ISHIDA: 10, Side.TOKUGAWA: 8}
    for side in Side:
        assert board.recruitment_box(side).setup.random == {side: 4}
    assert board.mori_box.kind is BoxKind.MORI and board.mori_box.leads_to == "osaka"
    assert board.turn_track.recruitment == (0, 2, 2, 2, 1, 1, 1)


def test_decks_have_55_cards_and_bids_never_tie() -> None:
    decks = default_decks()
    for side, deck in decks.items():
        assert len(deck.cards) == 55
        assert len({c.id for c in deck.cards}) == 55
        assert all(c.side is side for c in deck.cards)
    loyalty = {s: sum(1 for c in d.cards if c.kind is CardKind.LOYALTY) for s, d in decks.items()}
    assert loyalty == {Side.TOKUGAWA: 4, Side.ISHIDA: 3}
    assert {c.bid % 2 for c in decks[Side.TOKUGAWA].cards} == {0}
    assert {c.bid % 2 for c in decks[Side.ISHIDA].cards} == {1}


def test_no_cards_for_ishida_or_ii() -> None:
    clans = {c.clan for d in default_decks().values() for c in d.cards}
    assert Clan.ISHIDA not in clans and Clan.II not in clans


def test_default_block_set_meets_every_known_constraint() -> None:
    blocks = default_blocks()
    assert len(blocks.blocks) == 96
    assert len({b.id for b in blocks.blocks}) == 96
    for side in Side:
        own = blocks.of_side(side)
        assert len(own) == 48
        assert sum(1 for b in own if b.face.setup is None) == 34
    protagonists = [b.face.clan for b in blocks.blocks if b.face.is_protagonist]
    assert sorted(protagonists) == [Clan.ISHIDA, Clan.TOKUGAWA]
    mori_box = [b for b in blocks.blocks if b.face.clan is Clan.MORI and b.face.setup == "triangle"]
    assert len(mori_box) == 5 and sum(1 for b in mori_box if b.face.leader) == 1


def _write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), "utf-8")
    return path


def test_a_manifest_with_a_second_ii_block_is_rejected(tmp_path: Path) -> None:
    raw = yaml.safe_load((DATA / "blocks.yaml").read_text("utf-8"))
    next(e for e in raw["tokugawa"] if e["count"] == 3)["count"] -= 1
    raw["tokugawa"].append({"clan": "ii", "mon": 4, "count": 1})
    with pytest.raises(DataFileError, match=r"2 ii blocks.*\(9\.4\)"):
        load_blocks(_write(tmp_path, "blocks.yaml", raw))


def test_a_manifest_that_misses_a_setup_symbol_is_rejected(tmp_path: Path) -> None:
    raw = yaml.safe_load((DATA / "blocks.yaml").read_text("utf-8"))
    for entry in raw["tokugawa"]:
        if entry.get("setup") == "square" and entry["mon"] == 3:
            entry["count"] = 1
    raw["tokugawa"].append({"clan": "tokugawa", "mon": 3, "count": 1})
    with pytest.raises(DataFileError, match=r"square setup symbol.*prints 4 \(5\.2\.1\)"):
        load_blocks(_write(tmp_path, "blocks.yaml", raw))


def test_a_user_manifest_is_accepted_when_valid(tmp_path: Path) -> None:
    raw = yaml.safe_load((DATA / "blocks.yaml").read_text("utf-8"))
    for entry in raw["ishida"]:
        if entry == {"clan": "ukita", "mon": 2, "count": 3}:
            entry["count"] = 2
    raw["ishida"].append({"clan": "ukita", "mon": 1, "attack": "gun", "count": 1})
    blocks = load_blocks(_write(tmp_path, "mine.yaml", raw))
    assert len(blocks.blocks) == 96


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("locations: [", "not valid YAML"),
        (
            "map_size: [1, 2]\nlocations: {}\nroads: [[a, b, road]]\nboxes: {}\n"
            "turn_track: {weeks: 1, recruitment: [0]}\nimpact_track: {min: 0, max: 1}\n",
            "unknown location 'a'",
        ),
        ("[]", "Input should be"),
    ],
)
def test_malformed_board_files_get_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(DataFileError, match=message):
        load_board(path)


def test_a_card_of_a_clan_from_the_other_deck_is_rejected(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "cards.yaml",
        {"ishida": [{"clan": "maeda", "kind": "plain", "count": 1, "bid": 1}]},
    )
    with pytest.raises(DataFileError, match="not of the ishida deck"):
        load_decks(path)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        load_blocks(tmp_path / "nope.yaml")
