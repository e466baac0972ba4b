"""At the table: wiring map and tag registry for this board; a deployment checked from what
the readers saw against the dice (5.I.1), a card against the pawns that moved (7, 10)."""

from __future__ import annotations

from collections import Counter

import pytest
from _tenka_kit import B, R, mv, start
from pydantic import ValidationError

from companion.core.datafiles import DataFileError
from companion.core.hardware import DefaultWiring, check_places
from companion.games.tenka_meidou.components import default_board
from companion.games.tenka_meidou.events import Deploy
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.table import (
    SUPPLY,
    PawnRegistry,
    WarStep,
    check_card,
    check_deployment,
    default_wiring,
    places,
    rebind,
    white_counts,
)

RULES = TenkaRules()
STATE = RULES.apply(RULES.initial_state(), RULES.start(RULES.initial_state(), start((R, B))))
RESERVE_RED = frozenset(f"red-{n:02d}" for n in range(1, 19))


def test_the_default_wiring_watches_every_zone_and_reserve() -> None:
    watched = {p for antennas in default_wiring().hubs.values() for p in antennas.values()}
    assert set(default_board().zone_ids) <= watched
    assert {"reserve_red", "reserve_blue", "reserve_yellow", "reserve_black"} <= watched
    with pytest.raises(DataFileError, match="not places of this game: edo"):  # a user's too
        check_places("wiring.yaml", DefaultWiring(hubs={"hub-1": {"A00": "edo"}}).zones(),
                     places())


def test_the_tag_registry_knows_this_games_pawns() -> None:
    PawnRegistry(tags={"E0040000AAAA0001": "red-01", "E0040000AAAA0002": "white-30",
                       "E0040000AAAA0003": "blue-daimyo"})
    with pytest.raises(ValidationError, match="unknown pawn 'red-19'"):
        PawnRegistry(tags={"E0040000AAAA0001": "red-19"})
    with pytest.raises(ValidationError, match="already has tag"):
        PawnRegistry(tags={"E0040000AAAA0001": "red-01", "E0040000AAAA0002": "red-01"})


def test_5_I_1_a_deployment_matches_the_dice_zone_and_count() -> None:
    before = {"reserve_red": RESERVE_RED}
    # 3, 4, 5 kept as 3+5 and 4: 2 soldiers on the castle 8 (kasugayama)
    after = {"reserve_red": RESERVE_RED - {"red-01", "red-02"},
             "kasugayama": frozenset({"red-01", "red-02"})}
    dice = Deploy(colour=R, rolls=((3, 4, 5),), single=4)
    assert check_deployment(RULES, STATE, dice, before, after) == []
    wrong_zone = {"reserve_red": RESERVE_RED - {"red-01", "red-02"},
                  "kiyosu": frozenset({"red-01", "red-02"})}
    assert "kasugayama" in check_deployment(RULES, STATE, dice, before, wrong_zone)[0]
    one_short = {"reserve_red": RESERVE_RED - {"red-01"}, "kasugayama": frozenset({"red-01"})}
    assert check_deployment(RULES, STATE, dice, before, one_short)
    wrong_turn = Deploy(colour=B, rolls=((3, 4, 5),), single=4)
    assert "rule 5.I" in check_deployment(RULES, STATE, wrong_turn, before, after)[0]


def test_7_a_cards_effect_against_the_pawns_that_moved() -> None:
    before = {"kyoto": frozenset({"red-01", "blue-01", "blue-02"}), "oko": frozenset()}
    after = {"kyoto": frozenset(), "oko": frozenset({"red-01", "blue-01", "blue-02"})}
    decoy = (mv(R, "kyoto", "oko"), mv(B, "kyoto", "oko", 2))
    assert check_card(decoy, before, after) == []
    half = {"kyoto": frozenset({"blue-02"}), "oko": frozenset({"red-01", "blue-01"})}
    assert "the readers saw" in check_card(decoy, before, half)[0]
    lost = {"kyoto": frozenset(), "oko": frozenset({"red-01", "blue-01"})}
    assert "1 blue soldier no longer seen in kyoto" in check_card(decoy, before, lost)


def test_interchangeable_pawns_are_rebound_to_what_the_readers_see() -> None:
    slots = Counter({"kyoto": 2, "reserve": 1})
    previous = {"red-01": "kyoto", "red-02": "kyoto", "red-03": "reserve"}
    # other numbers in the right places: bound as seen
    seen = {"red-03": "kyoto", "red-02": "kyoto", "red-01": "reserve"}
    assert rebind(slots, ["red-01", "red-02", "red-03"], previous, seen) == seen
    # a pawn out of its place: bound to the place lacking one (read as a move from there)
    seen = {"red-01": "kyoto", "red-02": "oko", "red-03": "reserve"}
    assert rebind(slots, ["red-01", "red-02", "red-03"], previous, seen)["red-02"] == "kyoto"
    # a pawn no reader sees fills the place lacking one (read as missing there)
    seen = {"red-01": "kyoto", "red-03": "kyoto"}
    assert rebind(slots, ["red-01", "red-02", "red-03"], previous, seen) == {
        "red-01": "kyoto", "red-03": "kyoto", "red-02": "reserve"}
    # a pawn out of play (an advanced game's 17th soldier) may stand in for one in play
    seen = {"red-17": "kyoto", "red-02": "kyoto", "red-03": "reserve"}
    assert rebind(slots, ["red-01", "red-02", "red-03", "red-17"], previous, seen) == seen



def test_5_II_3_white_pawns_per_place_as_the_war_goes_and_when_the_supply_runs_out() -> None:
    steps = [WarStep("tsutsujigasaki", 2, R, {"oko": 2}, 2),
             WarStep("oko", 3, R, {"usuki": 2, "kyoto": 1}, 3),
             WarStep("usuki", 4, B, {"kyoto": 2}, 0)]  # the supply of 5 is out
    assert white_counts(steps, 0, 5, {}) == Counter({SUPPLY: 5})
    assert white_counts(steps, 2, 5, {}) == Counter({"oko": 2, "usuki": 2, "kyoto": 1})
    # usuki's 2 come from zones already resolved, whichever the players took them from
    for seen, left in (({"oko": 2}, {"oko": 2}), ({"usuki": 2}, {"usuki": 2}),
                       ({"oko": 1, "usuki": 1}, {"oko": 1, "usuki": 1})):
        assert white_counts(steps, 3, 5, seen) == Counter({"kyoto": 3, **left})
