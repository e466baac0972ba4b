"""Losses and their consequences: 8.7.1, 8.7.2, C8, 8.10, 2.1 (9.5)."""

from __future__ import annotations

from itertools import combinations
from math import comb

from _combat_kit import (
    ISH,
    TOK,
    battle,
    challenge,
    dep,
    face,
    finish,
    leader,
    lose,
    play,
    violation,
)

from companion.games.sekigahara.combat import (
    CombatState,
    InstantVictory,
    apply_action,
    awaiting_losses,
    combat_result,
    is_resolved,
    legal_actions,
    loss_choice,
    losses_due,
)


def rulebook_example():  # type: ignore[no-untyped-def]
    s = battle(
        TOK, t1=face("date", 3), t2=face("maeda", 2),
        i1=face("mori", 3), i2=face("ukita", 3), i3=face("kobayakawa", 3),
    )
    return play(
        s, dep(TOK, "t1", clan="date"), dep(ISH, "i1", clan="mori"), dep(TOK, "t2", clan="maeda"),
        dep(ISH, "i2", clan="ukita"), finish(TOK), dep(ISH, "i3", clan="kobayakawa"), finish(ISH),
    )


def test_8_7_1_rulebook_example_five_against_the_winner_nine_against_the_loser() -> None:
    s = rulebook_example()
    r = combat_result(s)
    assert r.impact == {TOK: 5, ISH: 9}
    assert r.winner is ISH
    assert r.losses == {TOK: 2, ISH: 0}
    assert r.cards_drawn == {TOK: 2 + 1, ISH: 3 + 0}
    assert losses_due(s) == {TOK: 2, ISH: 0}


def test_c8_losses_never_exceed_the_force_present() -> None:
    s = battle(ISH, i1=face("ukita", 3), i2=face("ukita", 3), i3=face("ukita", 3),
               i4=face("ukita", 3), t1=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="ukita"), dep(TOK, "t1", clan="date"), finish(TOK),
             dep(ISH, "i2", clan="ukita"), dep(ISH, "i3", clan="ukita"),
             dep(ISH, "i4", clan="ukita"), finish(ISH))
    assert s.impact.ishida == 3 + 4 + 5 + 6
    assert combat_result(s).losses == {ISH: 0, TOK: 1}  # 18 // 7 + 1 = 3, but one block


def test_c8_defected_blocks_count_in_the_force() -> None:
    s = battle(ISH, i1=face("ukita", 3), i2=face("ukita", 3), i3=face("ukita", 3),
               t1=face("date", 1), t2=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="ukita"), dep(TOK, "t1", clan="date"),
             challenge(ISH, refuted=False), finish(TOK), dep(ISH, "i2", clan="ukita"),
             dep(ISH, "i3", clan="ukita"), finish(ISH))
    assert s.impact.ishida == 3 + 1 + 4 + 5
    r = combat_result(s)
    assert r.losses == {ISH: 0, TOK: 2}  # 13 // 7 + 1 = 2: t1 (defected) and t2
    assert r.lost[TOK] == ["t1", "t2"]  # both forced


def test_8_7_2_attacker_first_then_defender_in_the_order_of_the_rule() -> None:
    s = battle(
        ISH, i1=face("ukita", 2), i2=face("ukita", 2), i3=face("mori", 1),
        t1=face("date", 3), t2=face("date", 3), t3=face("maeda", 2), t4=face("maeda", 1),
    )
    s = play(
        s,
        dep(ISH, "i1", clan="ukita"),  # 2-0
        dep(TOK, "t1", clan="date"),  # 2-3
        dep(ISH, "i2", clan="ukita"),  # 5-3 (2 + 1)
        challenge(TOK, refuted=False),  # i2 defects: 2-6
        dep(ISH, "i3", clan="mori"),  # 3-6
        finish(ISH),
        dep(TOK, "t3", clan="maeda"),  # 3-8
        finish(TOK),
    )
    assert (s.impact.ishida, s.impact.tokugawa) == (3, 8)
    assert combat_result(s).losses == {ISH: 2, TOK: 0}
    assert awaiting_losses(s) is ISH
    assert violation(s, lose(TOK, "t4")).rule == "8.7.2"
    assert violation(s, lose(ISH, "i1")).rule == "8.7.2"  # wrong count
    exc = violation(s, lose(ISH, "i1", "i3"))  # the defector i2 must go first
    assert exc.rule == "8.7.2" and "defected" in exc.message
    assert violation(s, lose(ISH, "i2", "t1")).rule == "8.7.2"
    assert violation(s, lose(ISH, "i2", "i2")).rule == "8.7.2"
    assert violation(s, lose(ISH, "i2", "hideyori")).rule == "8.9.3"
    assert sorted(a.losses for a in legal_actions(s)) == [("i2", "i1"), ("i2", "i3")]
    s, events = apply_action(s, lose(ISH, "i2", "i3"))
    assert events[0].rule == "8.7.2"
    assert "ukita 2-mon" in events[0].ruling().text  # identities revealed
    assert is_resolved(s)
    assert violation(s, lose(TOK, "t1")).rule == "8.7.2"


def test_8_7_2_deployed_before_undeployed() -> None:
    s = battle(TOK, t1=face("date", 3), t2=face("maeda", 2), t3=face("maeda", 1),
               i1=face("mori", 3), i2=face("ukita", 3), i3=face("kobayakawa", 3))
    s = play(s, dep(TOK, "t1", clan="date"), dep(ISH, "i1", clan="mori"),
             dep(TOK, "t2", clan="maeda"), dep(ISH, "i2", clan="ukita"), finish(TOK),
             dep(ISH, "i3", clan="kobayakawa"), finish(ISH))
    assert combat_result(s).losses[TOK] == 2
    assert combat_result(s).lost[TOK] == ["t1", "t2"]
    exc = violation(s, lose(TOK, "t1", "t3"))
    assert exc.rule == "8.7.2" and "deployed" in exc.message
    assert is_resolved(play(s, lose(TOK, "t2", "t1")))


def test_8_7_1_losses_are_taken_after_the_battle() -> None:
    s = battle(ISH, i1=face("ukita", 2), t1=face("date", 1))
    assert violation(s, lose(ISH, "i1")).rule == "8.7.1"


def test_8_10_replenishment_counts_cards_played_not_cards_shown() -> None:
    s = battle(
        ISH, i1=face("mori", 1, leader=True), i2=face("ukita", 2), i3=face("ukita", 1),
        t1=face("date", 3), t2=face("date", 2),
    )
    s = play(
        s,
        leader(ISH, "i1"),  # no card (8.2.4)
        dep(TOK, "t1", clan="date"),
        challenge(ISH, refuted=True),  # ishida's challenge card is played, tokugawa's shown
        dep(ISH, "i2", "i3", clan="ukita", kind="double"),  # one card, 1 + 2 + 2 = 5
        dep(TOK, "t2", clan="date"),
        challenge(ISH, refuted=True),
        finish(ISH),
        finish(TOK),
    )
    assert (s.impact.ishida, s.impact.tokugawa) == (5, 6)
    r = combat_result(s)
    assert r.losses == {ISH: 1, TOK: 0}
    assert r.cards_drawn == {ISH: 1 + 2 + 0, TOK: 2}
    s = play(s, lose(ISH, "i1"))
    assert s.replenished is not None and s.replenished.ishida == 3


def test_8_10_one_card_per_two_blocks_lost() -> None:
    s = battle(ISH, i1=face("ukita", 3), i2=face("ukita", 3), i3=face("ukita", 3),
               t1=face("date", 1), t2=face("date", 1), t3=face("date", 1), t4=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="ukita"), finish(TOK), dep(ISH, "i2", clan="ukita"),
             dep(ISH, "i3", clan="ukita"), finish(ISH))
    r = combat_result(s)
    assert r.impact[ISH] == 12
    assert r.losses == {ISH: 0, TOK: 2}
    assert r.cards_drawn == {ISH: 3, TOK: 0 + 1}


def test_2_1_ishida_mitsunari_forced_loss_is_a_tokugawa_victory() -> None:
    s = battle(ISH, i1=face("ishida", 1, leader=True), t1=face("date", 3))
    s = play(s, leader(ISH, "i1"), dep(TOK, "t1", clan="date"), finish(ISH), finish(TOK))
    r = combat_result(s)
    assert r.losses == {ISH: 1, TOK: 0}
    assert r.instant_victory is TOK
    assert any(x.rule == "2.1" and "Ishida Mitsunari" in x.text for x in r.rulings)


def test_2_1_tokugawa_ieyasu_forced_by_the_loss_order_is_an_ishida_victory() -> None:
    s = battle(TOK, t1=face("tokugawa", 1, leader=True), t2=face("date", 2), i1=face("mori", 3))
    s = play(s, leader(TOK, "t1"), dep(ISH, "i1", clan="mori"), finish(TOK), finish(ISH))
    r = combat_result(s)
    assert r.losses == {TOK: 1, ISH: 0}
    assert r.lost[TOK] == ["t1"]  # deployed blocks go before the undeployed t2
    assert r.instant_victory is ISH


def test_2_1_no_victory_while_the_choice_is_open_then_the_choice_decides() -> None:
    s = battle(TOK, t1=face("tokugawa", 1, leader=True), t2=face("date", 1), i1=face("mori", 3))
    s = play(s, leader(TOK, "t1"), dep(ISH, "i1", clan="mori"), dep(TOK, "t2", clan="date"),
             finish(TOK), finish(ISH))
    assert combat_result(s).instant_victory is None
    assert combat_result(play(s, lose(TOK, "t2"))).instant_victory is None
    s, events = apply_action(s, lose(TOK, "t1"))
    assert [e.winner for e in events if isinstance(e, InstantVictory)] == [ISH]
    assert combat_result(s).instant_victory is ISH


def test_2_1_both_protagonists_eliminated_ishida_wins() -> None:
    s = battle(
        ISH, i1=face("ishida", 1, leader=True), i2=face("ukita", 3), i3=face("ukita", 3),
        t1=face("tokugawa", 1, leader=True), t2=face("date", 3), t3=face("date", 3),
    )
    s = play(
        s, leader(ISH, "i1"), leader(TOK, "t1"), dep(ISH, "i2", clan="ukita"),
        dep(TOK, "t2", clan="date"), dep(ISH, "i3", clan="ukita"), dep(TOK, "t3", clan="date"),
        finish(ISH), finish(TOK),
    )
    r = combat_result(s)
    assert r.impact == {ISH: 8, TOK: 8}
    assert r.losses == {ISH: 2, TOK: 1}
    assert r.instant_victory is None
    s = play(s, lose(ISH, "i1", "i2"))
    assert combat_result(s).instant_victory is TOK
    s = play(s, lose(TOK, "t1"))
    r = combat_result(s)
    assert r.instant_victory is ISH
    assert [x.text for x in r.rulings if x.rule == "2.1"][-1].startswith("Tokugawa Ieyasu")


def _big_battle() -> CombatState:
    """24 blocks a side, none deployed: Tokugawa finishes, Ishida deploys three Ukita 3-mon
    blocks (3 + 4 + 5 = 12 Impact) and finishes: Tokugawa loses 2 of its 24 undeployed blocks,
    Ishida (the attacker, ahead) none."""
    blocks = {f"i{n}": face("ukita", 3) for n in range(24)}
    blocks |= {f"t{n}": face("date", 2) for n in range(24)}
    s = battle(ISH, **blocks)
    return play(s, dep(ISH, "i0", clan="ukita"), finish(TOK), dep(ISH, "i1", clan="ukita"),
                dep(ISH, "i2", clan="ukita"), finish(ISH))


def test_8_7_2_loss_choices_are_offered_lazily() -> None:
    """8.7.2: "choose k of these", never the list of every combination."""
    s = _big_battle()
    choice = loss_choice(s)
    assert choice is not None and choice.side is TOK
    assert (choice.forced, choice.pick, len(choice.pool)) == ((), 2, 24)
    assert len(legal_actions(s)) == len(choice) == comb(24, 2)
    listed = list(choice)
    assert [a.losses for a in listed] == [tuple(c) for c in combinations(choice.pool, 2)]
    assert [choice[i] for i in range(len(choice))] == listed
    assert choice[-1] == listed[-1] and choice[3:6] == listed[3:6]
    assert choice.allows(("t5", "t0")) and not choice.allows(("t5",))
    assert choice.extends(("t5",)) and not choice.extends(("t5", "i0"))
    for action in (listed[0], choice[len(choice) // 2], listed[-1]):
        apply_action(s, action)  # each one the rules accept


def test_8_7_2_a_huge_loss_choice_is_never_built() -> None:
    """Ten Ukita 3-mon blocks deliver 75 Impact: Tokugawa loses 11 of its 24 undeployed blocks,
    2.5 million selections; indexing unranks one directly, nothing is listed."""
    blocks = {f"i{n}": face("ukita", 3) for n in range(24)}
    blocks |= {f"t{n}": face("date", 1) for n in range(24)}
    s = play(battle(ISH, **blocks), dep(ISH, "i0", clan="ukita"), finish(TOK), *[
        dep(ISH, f"i{n}", clan="ukita") for n in range(1, 10)], finish(ISH))
    choice = loss_choice(s)
    assert choice is not None and choice.pick == 11 and len(choice) == comb(24, 11)
    middle = choice[len(choice) // 2]
    assert len(middle.losses) == len(choice.forced) + choice.pick
    apply_action(s, middle)
