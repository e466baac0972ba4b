"""Deployment and Impact: 8.2.2, 8.2.4, 8.3.2, 8.3.3, 8.4.1 (C3), 8.4.2, 9.4, 9.5."""

from __future__ import annotations

from _combat_kit import (
    CAV,
    GUN,
    ISH,
    TOK,
    battle,
    dep,
    face,
    finish,
    leader,
    play,
    violation,
)

from companion.games.sekigahara.combat import BlockDeployed, apply_action


def deployed(state: object) -> list[BlockDeployed]:
    return [e for e in state.log if isinstance(e, BlockDeployed)]  # type: ignore[attr-defined]


def test_8_3_2_base_impact_is_the_mon() -> None:
    s = battle(ISH, i1=face("ukita", 3), t1=face("date", 2))
    s = play(s, dep(ISH, "i1", clan="ukita"))
    assert s.impact.ishida == 3
    assert deployed(s)[-1].impact.total == 3
    assert deployed(s)[-1].rule == "8.3.2"


def test_8_3_3_the_rulebook_example_scores_four() -> None:
    # a 2-mon Tokugawa block after two other Tokugawa blocks scores 2 + 2 = 4
    s = battle(
        TOK, t1=face("tokugawa", 1), t2=face("tokugawa", 3), t3=face("tokugawa", 2),
        i1=face("mori", 1),
    )
    s = play(s, dep(TOK, "t1", clan="tokugawa"), finish(ISH), dep(TOK, "t2", clan="tokugawa"),
             dep(TOK, "t3", clan="tokugawa"))
    last = deployed(s)[-1]
    assert (last.impact.base, last.impact.clan_bonus, last.impact.total) == (2, 2, 4)
    assert last.rule == "8.3.3"
    assert s.impact.tokugawa == 1 + 4 + 4


def test_8_4_1_c3_worked_example_scores_six() -> None:
    s = battle(
        TOK, t1=face("tokugawa", 3), i1=face("uesugi", 1, GUN), i2=face("mori", 2),
        i3=face("mori", 1, GUN),
    )
    s = play(
        s,
        dep(TOK, "t1", clan="tokugawa"),
        dep(ISH, "i1", clan="uesugi"),  # plain card: no gun points
        dep(ISH, "i2", clan="mori"),  # 1 + 2 = 3: the tie favours the defender
        finish(TOK),
        dep(ISH, "i3", clan="mori", kind="special"),
    )
    first, second, third = deployed(s)[1:]
    assert first.impact.total == 1 and first.impact.special_attack == 0
    assert second.impact.total == 2
    assert third.impact.model_dump() == {
        "base": 1, "clan_bonus": 1, "special_attack": 4, "total": 6
    }
    assert third.rule == "8.4.1"
    assert s.impact.ishida == 9


def test_8_4_1_special_card_on_a_block_without_the_symbol_scores_no_attack() -> None:
    s = battle(ISH, i1=face("mori", 2), i2=face("mori", 1, CAV), t1=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="mori", kind="special"))
    assert s.impact.ishida == 2
    s = battle(ISH, i1=face("mori", 1, CAV), t1=face("date", 1, CAV), t2=face("date", 1, CAV))
    s = play(s, dep(ISH, "i1", clan="mori", kind="special"), dep(TOK, "t1", clan="date"),
             dep(TOK, "t2", clan="date", kind="special"))
    # 1 mon + 1 same clan + 2 cavalry + 2 for the earlier (plain) cavalry block
    assert deployed(s)[-1].impact.total == 6
    assert s.impact.tokugawa == 1 + 6


def test_8_4_1_gun_does_not_count_cavalry() -> None:
    s = battle(ISH, i1=face("mori", 1, GUN), i2=face("ukita", 1, CAV), t1=face("date", 3))
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", clan="date"),
             dep(ISH, "i2", clan="ukita", kind="special"))
    assert deployed(s)[-1].impact.total == 3


def test_8_4_2_double_card_two_blocks_second_gets_clan_bonus_no_attack() -> None:
    s = battle(ISH, i1=face("ukita", 2), i2=face("ukita", 1, GUN), t1=face("date", 1))
    s, events = apply_action(s, dep(ISH, "i1", "i2", clan="ukita", kind="double"))
    blocks = [e for e in events if isinstance(e, BlockDeployed)]
    assert [(e.block, e.impact.total, e.deployment) for e in blocks] == [
        ("i1", 2, 0), ("i2", 2, 0)
    ]
    assert blocks[1].impact.special_attack == 0
    assert blocks[0].rule == "8.4.2"
    assert s.impact.ishida == 4
    assert s.cards_played.ishida == 1


def test_8_4_2_double_card_one_block_and_three_rejected() -> None:
    s = battle(ISH, i1=face("ukita", 2), i2=face("ukita", 1), i3=face("ukita", 1),
               t1=face("date", 1))
    assert play(s, dep(ISH, "i1", clan="ukita", kind="double")).impact.ishida == 2
    exc = violation(s, dep(ISH, "i1", "i2", "i3", clan="ukita", kind="double"))
    assert exc.rule == "8.4.2"


def test_8_4_2_double_with_mismatched_second_block_rejected() -> None:
    s = battle(ISH, i1=face("ukita", 2), i2=face("mori", 1), t1=face("date", 1))
    assert violation(s, dep(ISH, "i1", "i2", clan="ukita", kind="double")).rule == "8.2.2"


def test_8_4_2_double_on_the_ishida_block_deploys_it_alone() -> None:
    s = battle(ISH, i1=face("ishida", 1, leader=True), i2=face("mori", 1), t1=face("date", 1))
    assert violation(s, dep(ISH, "i2", "i1", clan="mori", kind="double")).rule == "8.4.2"
    assert play(s, dep(ISH, "i1", clan="mori", kind="double")).impact.ishida == 1


def test_8_2_2_card_must_match_the_block_clan() -> None:
    s = battle(ISH, i1=face("ukita", 2), t1=face("date", 1))
    exc = violation(s, dep(ISH, "i1", clan="mori"))
    assert exc.rule == "8.2.2"
    assert "ukita" in exc.message


def test_8_2_2_card_of_the_other_deck_rejected() -> None:
    s = battle(ISH, i1=face("ishida", 1, leader=True), t1=face("date", 1))
    assert violation(s, dep(ISH, "i1", clan="date")).rule == "8.2.2"


def test_8_2_2_loyalty_card_never_deploys() -> None:
    s = battle(ISH, i1=face("mori", 2), t1=face("date", 1))
    assert violation(s, dep(ISH, "i1", clan="mori", kind="loyalty")).rule == "8.2.2"


def test_8_2_2_one_block_per_plain_card() -> None:
    s = battle(ISH, i1=face("mori", 2), i2=face("mori", 1), t1=face("date", 1))
    assert violation(s, dep(ISH, "i1", "i2", clan="mori")).rule == "8.2.2"
    assert violation(s, dep(ISH, "i1", "i1", clan="mori", kind="double")).rule == "8.2.2"


def test_8_2_2_no_block_deployed_twice_nor_card_played_twice() -> None:
    s = battle(TOK, t1=face("date", 1), t2=face("date", 1), i1=face("mori", 1))
    s = play(s, dep(TOK, "t1", clan="date", card_id="T-date-plain-1"), finish(ISH))
    assert violation(s, dep(TOK, "t1", clan="date")).rule == "8.2.2"
    exc = violation(s, dep(TOK, "t2", clan="date", card_id="T-date-plain-1"))
    assert exc.rule == "8.2.2" and "T-date-plain-1" in exc.message
    assert play(s, dep(TOK, "t2", clan="date", card_id="T-date-plain-2")).impact.tokugawa == 3


def test_8_2_3_only_own_known_blocks() -> None:
    s = battle(ISH, i1=face("mori", 2), t1=face("date", 1))
    assert violation(s, dep(ISH, "t1", clan="date")).rule == "8.2.3"
    assert violation(s, dep(ISH, "zz", clan="mori")).rule == "8.2.3"


def test_8_2_4_leaders_deploy_without_card_until_the_first_card() -> None:
    s = battle(
        ISH, i1=face("mori", 1, leader=True), i2=face("ukita", 1, leader=True),
        i3=face("ukita", 2), i4=face("kobayakawa", 1, leader=True), t1=face("date", 3),
    )
    s = play(s, leader(ISH, "i1"), dep(TOK, "t1", clan="date"), leader(ISH, "i2"))
    assert s.impact.ishida == 2
    assert deployed(s)[-1].rule == "8.2.4"
    s = play(s, dep(ISH, "i3", clan="ukita"))  # 2 + 1 for the Ukita leader
    assert s.impact.ishida == 5
    assert s.cards_played.ishida == 1
    s = play(s, finish(TOK))
    exc = violation(s, leader(ISH, "i4"))
    assert exc.rule == "8.2.4"


def test_8_2_4_cardless_needs_a_single_leader() -> None:
    s = battle(ISH, i1=face("mori", 1, leader=True), i2=face("mori", 2), t1=face("date", 1))
    assert violation(s, leader(ISH, "i2")).rule == "8.2.4"
    assert violation(s, dep(ISH, "i1", "i2", kind="none")).rule == "8.2.4"


def test_9_4_ii_block_takes_any_tokugawa_card_but_no_loyalty() -> None:
    s = battle(TOK, t1=face("ii", 4), i1=face("mori", 1))
    assert play(s, dep(TOK, "t1", clan="fukushima", kind="special")).impact.tokugawa == 4
    assert violation(s, dep(TOK, "t1", clan="fukushima", kind="loyalty")).rule == "8.2.2"
    assert violation(s, dep(TOK, "t1", clan="ii")).rule == "9.4"
    assert violation(s, dep(TOK, "t1", clan="mori")).rule == "8.2.2"


def test_9_5_ishida_block_takes_any_ishida_card() -> None:
    s = battle(ISH, i1=face("ishida", 1, leader=True), t1=face("date", 1))
    assert play(s, dep(ISH, "i1", clan="uesugi")).impact.ishida == 1
    assert violation(s, dep(ISH, "i1", clan="ishida")).rule == "9.5"
