"""TIRADA DE HONOR (B7), its re-roll by the general (B2.7) and the traits' outcomes (B9.3),
through ``companion kensei melee``: in every case here side b loses one warrior to a's single
wound (a: 2 + 3 = 5 dice, one 6 hits and wounds) and rolls for honour."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _kensei_kit import ids, melee, run, side

Cap = pytest.CaptureFixture[str]
A = side(models_in_melee=3, dice={"combat": [6, 1, 1, 1, 1], "wound": [6]})


def loser(honour: list[int], **b: Any) -> dict[str, Any]:
    """b: 5 warriors (HO 3) with 3 in melee, missing with all 5 dice, unless ``b`` says."""
    keys = {"models_in_melee": 3, **b}
    pool = 5 + (4 if "leader" in b else 0)
    return melee(A, side(dice={"combat": [1] * pool, "honour": honour}, **keys))


def judged(tmp_path: Path, capsys: Cap, honour: list[int], **b: Any) -> dict[str, Any]:
    status, out = run("melee", loser(honour, **b), tmp_path, capsys)
    assert status == 0, out
    assert out["loser"] == "b"
    result: dict[str, Any] = out["b"]["honour"]
    return result


def refused(tmp_path: Path, capsys: Cap, honour: list[int], **b: Any) -> str:
    status, out = run("melee", loser(honour, **b), tmp_path, capsys)
    assert status == 2 and out["error"]["rule"] == "TIRADA DE HONOR", out
    message: str = out["error"]["message"]
    return message


def test_rulebook_example_warriors_fail_on_a_four(tmp_path: Path, capsys: Cap) -> None:
    """TIRADAS DE HONOR (B2.1): "una unidad de guerreros tiene honor 3, tira 1D6 y saca un 4,
    por lo tanto falla". Four warriors left in one rank: fewer than two complete ranks, so
    the unit retreats (2D6 on foot, Used and Retreat markers)."""
    h = judged(tmp_path, capsys, [4], ranks_after=[4])
    assert (h["target"], h["passed"], h["outcome"]) == (3, False, "retreat")
    assert (h["move"], h["markers"], h["rerolled"]) == ("2D6", ["used", "retreat"], False)
    assert h["ho_items"] == [{"id": "base_ho", "mod": 3, "rule": "TIRADA DE HONOR"}]


def test_a_three_passes(tmp_path: Path, capsys: Cap) -> None:
    h = judged(tmp_path, capsys, [3])
    assert (h["passed"], h["outcome"], h["move"], h["markers"]) == (True, "passed", None, [])


def test_two_complete_ranks_fall_back(tmp_path: Path, capsys: Cap) -> None:
    """"La unidad se repliega": 1st and 2nd ranks complete: 2D6 on foot, 3D6 mounted, Used
    but no Retreat marker. Seven warriors, six left in two ranks of three."""
    h = judged(tmp_path, capsys, [5], models=7, ranks_after=[3, 3])
    assert (h["outcome"], h["move"], h["markers"]) == ("fall_back", "2D6", ["used"])
    h = judged(tmp_path, capsys, [5], models=7, ranks_after=[3, 3], mounted=True)
    assert h["move"] == "3D6"


def test_ashigaru_retreat_three_dice(tmp_path: Path, capsys: Cap) -> None:
    """TRATOS, Ashigaru: flee or retreat 3D6."""
    h = judged(tmp_path, capsys, [6], trait="ashigaru", ranks_after=[4])
    assert (h["outcome"], h["move"]) == ("retreat", "3D6")


def test_samurai_choose(tmp_path: Path, capsys: Cap) -> None:
    """TRATOS, Samurai (readings 4 and 5): stay at +1 wound, or fall back 2D6 (mounted too),
    Used and Dishonoured, whatever the ranks."""
    h = judged(tmp_path, capsys, [6], trait="samurai", samurai_choice="stay")
    assert (h["outcome"], h["move"], h["extra_casualties"]) == ("stay", None, 1)
    h = judged(tmp_path, capsys, [6], trait="samurai", samurai_choice="fall_back", mounted=True)
    assert (h["outcome"], h["move"], h["markers"]) == ("fall_back", "2D6",
                                                       ["used", "dishonoured"])
    assert "samurai_choice" in refused(tmp_path, capsys, [6], trait="samurai")


def test_spirits_take_a_wound(tmp_path: Path, capsys: Cap) -> None:
    """TRATOS, Spirit: a failed honour roll means +1 wound."""
    h = judged(tmp_path, capsys, [6], trait="spirit")
    assert (h["outcome"], h["extra_casualties"]) == ("extra_wound", 1)


def test_hold_needs_a_living_leader(tmp_path: Path, capsys: Cap) -> None:
    """"La unidad se mantiene": with a leader, +1 wound instead of moving, never on him. The
    leader is behind (not in front): the unit's HO 3."""
    leader = {"class": "H", "contact": "direct"}
    h = judged(tmp_path, capsys, [4], hold=True, leader=leader)
    assert (h["outcome"], h["move"], h["extra_casualties"]) == ("hold", None, 1)
    assert "hold" in refused(tmp_path, capsys, [4], hold=True)


def test_leader_in_front_lends_his_honour(tmp_path: Path, capsys: Cap) -> None:
    """LÍDER DE UNIDAD (B2.7): in front, the unit uses the leader's HO (a hero's 5)."""
    h = judged(tmp_path, capsys, [5], leader={"class": "H", "contact": "direct",
                                              "in_front": True})
    assert h["target"] == 5 and h["passed"]


def test_dishonoured_and_dead_general(tmp_path: Path, capsys: Cap) -> None:
    """HUIR (Dishonoured: -1 HO) and Muerte del general (-1 HO): 3 - 1 - 1 = 1; a 1 passes.
    A dead general re-rolls nothing (reading 16)."""
    h = judged(tmp_path, capsys, [1], dishonoured=True, general_dead=True)
    assert ids(h["ho_items"]) == {"base_ho": 3, "dishonoured": -1, "general_dead": -1}
    assert h["target"] == 1 and h["passed"]
    assert "re-roll" in refused(tmp_path, capsys, [4, 1], general_dead=True,
                                general_in_range=True)


def test_general_in_range_rerolls_a_failure(tmp_path: Path, capsys: Cap) -> None:
    """Repetir la tirada de honor: a second die only after a failed first one, near the
    living general."""
    h = judged(tmp_path, capsys, [4, 2], general_in_range=True)
    assert (h["dice"], h["rerolled"], h["passed"]) == ([4, 2], True, True)
    assert "re-roll" in refused(tmp_path, capsys, [4, 2])
    assert "nothing to re-roll" in refused(tmp_path, capsys, [2, 2], general_in_range=True)
    assert "one die" in refused(tmp_path, capsys, [4, 4, 2], general_in_range=True)


def test_a_general_killed_in_this_combat_rerolls_nothing(tmp_path: Path, capsys: Cap) -> None:
    """Reading 16: b's leader, the general (an elite here for 2 wounds), dies to a's two
    criticals; the unit rolls on its own HO with no re-roll and no -1 yet."""
    a = side(models_in_melee=3, crits_to_leader=2,
             dice={"combat": [6, 6, 1, 1, 1], "wound": [6, 6]})
    b = side(models_in_melee=3, general_in_range=True, ranks_after=[5],
             leader={"class": "E", "contact": "direct", "in_front": True, "general": True},
             dice={"combat": [1] * 8, "honour": [4, 1]})
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 2 and "re-roll" in out["error"]["message"]
    b["dice"]["honour"] = [4]
    status, out = run("melee", melee(a, b), tmp_path, capsys)
    assert status == 0 and out["b"]["taken"]["loss_count"] == 2
    assert ids(out["b"]["honour"]["ho_items"]) == {"base_ho": 3}


def test_dice_in_the_wrong_number(tmp_path: Path, capsys: Cap) -> None:
    assert "give its die" in refused(tmp_path, capsys, [])
    status, out = run("melee", melee(A, side(models_in_melee=3, dice={
        "combat": [1] * 5}), turn="a") | {"a": {**A, "dice": {**A["dice"], "honour": [3]}}},
        tmp_path, capsys)
    assert status == 2 and out["error"] == {"rule": "TIRADA DE HONOR",
                                            "message": "a.dice.honour: no honour roll is due"}


def test_ranks_after_when_the_outcome_needs_them(tmp_path: Path, capsys: Cap) -> None:
    assert "ranks_after" in refused(tmp_path, capsys, [6])
    assert "4 remain" in refused(tmp_path, capsys, [6], ranks_after=[3, 3])
    h = judged(tmp_path, capsys, [2])  # a passed roll needs no ranks
    assert h["passed"]
