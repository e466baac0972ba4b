"""Sieges: 8.9.1-8.9.5, 9.1 (Hideyori at Osaka), 9.2 (Sanada at Ueda), 8.10 after a siege."""

from __future__ import annotations

import pytest
from _combat_kit import (
    GUN,
    ISH,
    TOK,
    dep,
    face,
    finish,
    lose,
    play,
    siege,
    violation,
)

from companion.core.rules import RuleViolation
from companion.games.sekigahara.combat import (
    BlockDeployed,
    Challenge,
    CombatKind,
    CombatSetup,
    apply_action,
    combat_result,
    initiative,
    is_resolved,
    start_combat,
)
from companion.games.sekigahara.components import Disk

HIDEYORI = (Disk.HIDEYORI,)
SANADA = (Disk.SANADA,)
TOKUGAWA_FORCE = {f"t{n}": face("tokugawa", mon) for n, mon in enumerate((3, 3, 3, 2, 1), 1)}


def osaka(**defenders: object):  # type: ignore[no-untyped-def]
    return siege(TOK, castle="osaka", disks=HIDEYORI, **TOKUGAWA_FORCE, **defenders)  # type: ignore[arg-type]


def deploy_all(s, *blocks: str):  # type: ignore[no-untyped-def]
    return play(s, *(dep(TOK, b, clan="tokugawa") for b in blocks), finish(TOK))


def setup_error(**kwargs: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        start_combat(CombatSetup.model_validate(kwargs))
    return info.value


def test_8_9_1_at_most_two_blocks_inside() -> None:
    blocks = {"t1": face("date", 2), "i1": face("mori", 1), "i2": face("mori", 1),
              "i3": face("mori", 1)}
    exc = setup_error(kind="siege", attacker="tokugawa", blocks=blocks,
                      inside=["i1", "i2", "i3"])
    assert exc.rule == "8.9.1"


def test_8_9_2_the_whole_defending_force_is_inside_and_none_in_a_battle() -> None:
    blocks = {"t1": face("date", 2), "i1": face("mori", 1), "i2": face("mori", 1)}
    exc = setup_error(kind="siege", attacker="tokugawa", blocks=blocks, inside=["i1"])
    assert exc.rule == "8.9.2"
    exc = setup_error(kind="battle", attacker="tokugawa", blocks=blocks, inside=["i1"])
    assert exc.rule == "8.9.2"


def test_8_9_3_disks_only_in_sieges_at_their_own_castle() -> None:
    blocks = {"t1": face("date", 2), "i1": face("mori", 1)}
    exc = setup_error(kind="battle", attacker="tokugawa", blocks=blocks, disks=["hideyori"])
    assert exc.rule == "8.9.3"
    exc = setup_error(kind="siege", attacker="tokugawa", blocks=blocks, inside=["i1"],
                      castle="ueda", disks=["hideyori"])
    assert exc.rule == "9.1"
    exc = setup_error(kind="siege", attacker="tokugawa", blocks=blocks, inside=["i1"],
                      castle="osaka", disks=["sanada"])
    assert exc.rule == "9.2"
    exc = setup_error(kind="siege", attacker="tokugawa", blocks=blocks, inside=["i1"],
                      castle="kyoto")
    assert exc.rule == "4.3"


def test_8_9_4_attacker_deploys_at_will_defender_never_acts() -> None:
    s = osaka(i1=face("mori", 2))
    s = play(s, dep(TOK, "t1", clan="tokugawa"), dep(TOK, "t2", clan="tokugawa"))
    assert initiative(s) is TOK and s.impact.tokugawa == 3 + 4
    exc = violation(s, dep(ISH, "i1", clan="mori"))
    assert exc.rule == "8.9.4" and "plays no cards" in exc.message
    assert violation(s, finish(ISH)).rule == "8.9.4"
    s = play(s, finish(TOK))
    r = combat_result(s)
    assert r.losses == {TOK: 0, ISH: 1}
    assert r.castle_falls is False and r.winner is ISH
    assert r.cards_drawn == {TOK: 2, ISH: 1}
    assert violation(s, lose(ISH, "hideyori")).rule == "9.1"
    s = play(s, lose(ISH, "i1"))
    assert is_resolved(s) and combat_result(s).instant_victory is None


def test_8_9_4_less_than_seven_harms_nobody() -> None:
    s = deploy_all(osaka(i1=face("mori", 2)), "t1", "t4")
    r = combat_result(s)
    assert r.impact == {TOK: 6, ISH: 0}
    assert r.losses == {TOK: 0, ISH: 0}
    assert r.castle_falls is False
    assert r.cards_drawn == {TOK: 2, ISH: 0}


def test_8_9_5_no_special_attack_and_no_loyalty_challenge_in_a_siege() -> None:
    s = siege(TOK, t1=face("date", 1, GUN), t2=face("date", 1, GUN), i1=face("mori", 2))
    s = play(s, dep(TOK, "t1", clan="date"), dep(TOK, "t2", clan="date", kind="special"))
    last = [e for e in s.log if isinstance(e, BlockDeployed)][-1]
    assert last.impact.total == 2 and last.rule == "8.9.5"
    exc = violation(s, Challenge(side=ISH, refuted=False))
    assert exc.rule == "8.9.5"


def test_9_1_osaka_falls_and_hideyori_is_captured() -> None:
    s = deploy_all(osaka(i1=face("mori", 2), i2=face("ukita", 1)), "t1", "t2", "t3", "t4", "t5")
    r = combat_result(s)
    assert r.impact[TOK] == 3 + 4 + 5 + 5 + 5
    assert r.losses == {TOK: 0, ISH: 3}
    assert r.castle_falls is True and r.winner is TOK
    assert r.lost[ISH] == ["i1", "i2", "hideyori"]
    assert r.instant_victory is TOK
    assert r.cards_drawn == {TOK: 5, ISH: 2}
    s, events = apply_action(s, lose(ISH, "i2", "hideyori", "i1"))
    assert events[0].rule == "9.1"
    assert "Toyotomi Hideyori disk" in events[0].ruling().text


def test_9_1_hideyori_is_always_the_last_unit_lost() -> None:
    s = deploy_all(osaka(i1=face("mori", 2), i2=face("ukita", 1)), "t1", "t2", "t3")
    r = combat_result(s)
    assert r.losses[ISH] == 1 and r.lost[ISH] == []
    assert violation(s, lose(ISH, "hideyori")).rule == "9.1"
    s = deploy_all(osaka(i1=face("mori", 2), i2=face("ukita", 1)), "t1", "t2", "t3", "t4")
    r = combat_result(s)
    assert r.losses[ISH] == 2 and r.lost[ISH] == ["i1", "i2"]
    assert r.castle_falls is False and r.instant_victory is None


def test_9_2_sanada_may_take_any_loss_instead_of_a_block() -> None:
    def ueda():  # type: ignore[no-untyped-def]
        s = siege(TOK, castle="ueda", disks=SANADA, **TOKUGAWA_FORCE,
                  i1=face("mori", 2), i2=face("ukita", 1))
        return deploy_all(s, "t1", "t2")

    s = ueda()
    r = combat_result(s)
    assert r.losses == {TOK: 0, ISH: 1}
    assert r.cards_drawn == {TOK: 2, ISH: 1}  # assumed on a block until chosen
    s, events = apply_action(s, lose(ISH, "sanada"))
    assert events[0].rule == "9.2"
    assert combat_result(s).cards_drawn == {TOK: 2, ISH: 0}  # no card for a disk (8.10)
    s = play(ueda(), lose(ISH, "i2"))
    assert combat_result(s).cards_drawn == {TOK: 2, ISH: 1}


def test_8_9_4_d_the_castle_falls_when_blocks_and_disk_are_destroyed() -> None:
    s = siege(TOK, castle="ueda", disks=SANADA, **TOKUGAWA_FORCE, i1=face("mori", 2))
    s = deploy_all(s, "t1", "t2", "t3", "t4")
    r = combat_result(s)
    assert r.losses[ISH] == 2 and r.castle_falls is True and r.winner is TOK
    assert r.instant_victory is None
    assert r.cards_drawn[ISH] == 1


def test_siege_setup_validates_the_castle_kind() -> None:
    blocks = {"t1": face("date", 2), "i1": face("mori", 1)}
    setup = CombatSetup(kind=CombatKind.SIEGE, attacker=TOK, blocks=blocks,
                        inside=frozenset({"i1"}))
    assert start_combat(setup).kind is CombatKind.SIEGE


def test_8_1_and_3_4_a_combat_needs_both_sides_and_disks_are_gold() -> None:
    exc = setup_error(kind="battle", attacker="tokugawa", blocks={"i1": face("mori", 1)})
    assert exc.rule == "8.1"
    exc = setup_error(kind="battle", attacker="tokugawa", blocks={"t1": face("date", 1)})
    assert exc.rule == "8.1"
    exc = setup_error(kind="siege", attacker="tokugawa", blocks={"t1": face("date", 1)})
    assert exc.rule == "8.1"
    blocks = {"i1": face("mori", 1), "t1": face("date", 1)}
    exc = setup_error(kind="siege", attacker="ishida", blocks=blocks, inside=["t1"],
                      castle="osaka", disks=["hideyori"])
    assert exc.rule == "3.4"
    exc = setup_error(kind="battle", attacker="ishida",
                      blocks={"hideyori": face("mori", 1), "t1": face("date", 1)})
    assert exc.rule == "3.4"
    # a castle holding only its disk can still be besieged
    s = start_combat(CombatSetup.model_validate(
        {"kind": "siege", "attacker": "tokugawa", "blocks": {"t1": face("date", 1)},
         "castle": "ueda", "disks": ["sanada"]}))
    assert s.kind is CombatKind.SIEGE
