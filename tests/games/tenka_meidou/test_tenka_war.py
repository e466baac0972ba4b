"""The War phase (section 5.II) and the final score (section 6)."""

from __future__ import annotations

from typing import Any

from _tenka_kit import CASTLES, rulebook_example

from companion.games.tenka_meidou.calculator import adjudicate
from companion.games.tenka_meidou.components import default_board, default_components


def war(data: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return adjudicate(data, default_board(), kw.get("components", default_components()))


def zone(result: dict[str, Any], zone_id: str) -> dict[str, Any]:
    return next(z for z in result["zones"] if z["zone"] == zone_id)


def test_5_II_the_rulebooks_worked_example() -> None:
    """Section 6's example (Isabel = red, sword 3; Pedro = blue, 2; Miguel = yellow, 1), on the
    reconstruction in docs/tenka-meidou.md: zones 2 to 5 go exactly as the rulebook tells."""
    result = war(rulebook_example())
    two, three, four, five = result["zones"][:4]
    # Zone 2: Miguel wins, Pedro second takes 1; Miguel reinforces zones 5 and 12, 2 each.
    assert (two["value"], two["winner"], two["second"], two["small_value"]) == (
        2, "yellow", "blue", 1)
    assert two["reinforcements"] == {"kyoto": 2, "kiyosu": 2}  # the zones valued 5 and 12
    # Zone 3: Isabel and Miguel tie; Isabel's sword wins; Miguel takes 1; Isabel sends 2 to 4, 5.
    assert (three["winner"], three["second"], three["small_value"]) == ("red", "yellow", 1)
    assert three["reinforcements"] == {"yoshida_koriyama": 2, "kyoto": 2}
    # Zone 4: all three have the same soldiers; Isabel's reinforcements make 3; Pedro's sword
    # beats Miguel's for second, small castle 2; Isabel reinforces zone 5.
    assert (four["winner"], four["second"], four["small_value"]) == ("red", "blue", 2)
    assert four["reinforcements"] == {"kyoto": 2}
    # Zone 5: Miguel has more soldiers, Isabel ties with reinforcements and wins by sword;
    # Miguel takes 2; Isabel has no soldiers in an adjacent unresolved zone.
    assert (five["winner"], five["second"], five["small_value"]) == ("red", "yellow", 2)
    assert five["reinforcements"] == {}
    assert result["scores"] == {"red": 38, "blue": 34, "yellow": 14}
    assert result["winner"] == "red"
    assert [z["value"] for z in result["zones"]] == list(range(2, 13))


def test_5_II_empty_zone_is_set_aside_and_nobody_scores_it() -> None:
    result = war(rulebook_example())
    assert zone(result, "usuki") == {"zone": "usuki", "value": 10, "winner": None,
                                     "second": None, "small_value": None, "reinforcements": {}}
    assert any(r["rule"] == "5.II" and "usuki" in r["text"] for r in result["rulings"])


def test_5_II_2_no_small_castle_when_alone_or_with_two_players() -> None:
    alone = war(rulebook_example())
    assert zone(alone, "shuri")["small_value"] is None
    two = {"players": ["red", "blue"], "swords": {"red": 1, "blue": 2}, "castles": CASTLES,
           "soldiers": {"kyoto": {"red": 3, "blue": 1}}}
    result = war(two)
    assert zone(result, "kyoto")["second"] == "blue"  # reported even in a 2-player game
    assert zone(result, "kyoto")["small_value"] is None
    assert result["scores"] == {"red": 5, "blue": 0}


def test_5_II_3_two_players_send_one_reinforcement_per_zone() -> None:
    data = {"players": ["red", "blue"], "swords": {"red": 2, "blue": 1}, "castles": CASTLES,
            "soldiers": {"oko": {"red": 1}, "kyoto": {"red": 1, "blue": 2},
                         "yoshida_koriyama": {"red": 1}}}
    result = war(data)
    assert zone(result, "oko")["reinforcements"] == {"kyoto": 1, "yoshida_koriyama": 1}
    # kyoto: red 1 + 1 (oko) + 1 (yoshida_koriyama) = 3 beats blue's 2
    assert zone(result, "kyoto")["winner"] == "red"


def test_5_II_1_tie_for_first_goes_to_the_higher_sword() -> None:
    data = {"players": ["red", "blue", "yellow", "black"],
            "swords": {"red": 1, "blue": 4, "yellow": 2, "black": 3}, "castles": CASTLES,
            "soldiers": {"kyoto": {"red": 2, "blue": 2, "black": 2, "yellow": 1}}}
    kyoto = zone(war(data), "kyoto")
    assert (kyoto["winner"], kyoto["second"], kyoto["small_value"]) == ("blue", "black", 2)


def test_9_a_daimyo_counts_two_and_alone_still_fights_and_draws_reinforcements() -> None:
    data = {"players": ["red", "blue", "yellow"], "swords": {"red": 1, "blue": 2, "yellow": 3},
            "castles": CASTLES,
            "soldiers": {"oko": {"red": 1}, "kyoto": {"blue": 3}},
            "daimyo": {"red": "kyoto", "blue": "usuki"}}
    result = war(data)
    # oko (3): red wins and reinforces kyoto, where only red's Daimyo stands: 2 + 2 = 4 > 3
    assert zone(result, "oko")["reinforcements"] == {"kyoto": 2}
    assert zone(result, "kyoto")["winner"] == "red"
    # usuki (10): blue's Daimyo alone holds it
    assert zone(result, "usuki")["winner"] == "blue"


def test_5_II_3_an_empty_supply_takes_pawns_from_resolved_zones() -> None:
    short = default_components().model_copy(update={"reinforcement_pawns": 3})
    result = war(rulebook_example(), components=short)
    assert result["zones"] == war(rulebook_example())["zones"]  # the count is never reduced
    assert any("supply is out" in r["text"] for r in result["rulings"])


def test_6_a_tied_total_goes_to_the_higher_sword() -> None:
    data = {"players": ["red", "blue"], "swords": {"red": 1, "blue": 2}, "castles": CASTLES,
            "soldiers": {"shuri": {"blue": 1}, "usuki": {"blue": 1},
                         "kiyosu": {"red": 1}, "odawara": {"red": 1}}}
    result = war(data)  # blue 11 + 10, red 12 + 9
    assert result["scores"]["red"] == result["scores"]["blue"] == 21
    assert result["winner"] == "blue"
    assert "higher sword" in result["rulings"][-1]["text"]


def test_docs_example_two_players_with_daimyo() -> None:
    """docs/tenka-meidou.md, worked example 2 (examples/two-player-daimyo.json)."""
    import json
    from importlib import resources

    text = resources.files("companion.games.tenka_meidou").joinpath(
        "examples", "two-player-daimyo.json").read_text("utf-8")
    result = war(json.loads(text))
    won = [(z["zone"], z["winner"], z["second"], z["small_value"], z["reinforcements"])
           for z in result["zones"] if z["winner"]]
    assert won == [
        ("oko", "red", "blue", None, {"kyoto": 1, "yoshida_koriyama": 1}),
        ("yoshida_koriyama", "red", None, None, {"kyoto": 1}),  # red's Daimyo alone (TM1)
        ("kyoto", "blue", "red", None, {}),                     # blue 3 + Daimyo 2 > red 1+1+1
    ]
    assert (result["scores"], result["winner"]) == ({"red": 7, "blue": 5}, "red")
