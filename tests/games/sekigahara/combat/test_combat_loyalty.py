"""Loyalty Challenges: 8.6.1, 8.6.2, 8.6.3, C2, C4, C5, C7."""

from __future__ import annotations

from _combat_kit import (
    GUN,
    ISH,
    TOK,
    battle,
    challenge,
    dep,
    face,
    finish,
    leader,
    play,
    violation,
)

from companion.games.sekigahara.combat import (
    BlockDeployed,
    BlocksDefected,
    Challenge,
    ChallengeRefuted,
    apply_action,
    challenge_window,
    combat_result,
    initiative,
)


def test_8_6_1_refuted_challenge_keeps_the_block_and_costs_the_challenger_a_card() -> None:
    s = battle(ISH, i1=face("mori", 3), t1=face("date", 2), t2=face("date", 3))
    s = play(s, dep(ISH, "i1", clan="mori"))
    assert challenge_window(s) is TOK
    s, events = apply_action(s, challenge(TOK, refuted=True))
    assert [e.type for e in events] == ["loyalty_challenged", "challenge_refuted"]
    assert isinstance(events[1], ChallengeRefuted) and events[1].rule == "8.6.1"
    assert (s.impact.ishida, s.impact.tokugawa) == (3, 0)
    assert (s.cards_played.ishida, s.cards_played.tokugawa) == (1, 1)
    assert challenge_window(s) is None


def test_8_6_1_unrefuted_challenge_moves_the_block_and_its_impact() -> None:
    s = battle(ISH, i1=face("mori", 3), i2=face("ukita", 1), t1=face("date", 2))
    s = play(s, dep(ISH, "i1", clan="mori"))
    assert initiative(s) is TOK
    s, events = apply_action(s, challenge(TOK, refuted=False))
    defected = events[1]
    assert isinstance(defected, BlocksDefected)
    assert (defected.impact_lost, defected.impact_gained, defected.rule) == (3, 3, "8.6.1")
    assert (s.impact.ishida, s.impact.tokugawa) == (0, 3)
    assert initiative(s) is ISH  # recomputed after the defection
    assert events[-1].type == "initiative_passed"
    s = play(s, finish(ISH), finish(TOK))
    r = combat_result(s)
    assert r.defected == ["i1"]
    assert r.winner is TOK and r.losses == {ISH: 1, TOK: 0}


def test_8_6_1_only_the_opponent_challenges() -> None:
    s = battle(ISH, i1=face("mori", 3), t1=face("date", 2))
    exc = violation(s, dep(ISH, "i1", clan="mori"), challenge(ISH, refuted=False))
    assert exc.rule == "8.6.1"


def test_8_6_2_c4_defector_drops_its_special_attack_points() -> None:
    s = battle(ISH, i1=face("mori", 2), t1=face("date", 1, GUN))
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", clan="date", kind="special"))
    assert s.impact.tokugawa == 3
    s, events = apply_action(s, challenge(ISH, refuted=False))
    defected = events[1]
    assert isinstance(defected, BlocksDefected)
    assert (defected.impact_lost, defected.impact_gained, defected.rule) == (3, 1, "8.6.2")
    assert (s.impact.ishida, s.impact.tokugawa) == (3, 0)


def test_c4_a_single_card_defector_keeps_its_same_clan_bonus() -> None:
    """C4 (8.6.1, 8.6.2): a Mori 3-mon deployed after a Mori 2-mon scores 3 + 1 same clan; when it
    defects, the whole 4 leaves Ishida and goes to Tokugawa (no Special Attack to drop)."""
    s = battle(ISH, i1=face("mori", 2), i2=face("mori", 3), t1=face("date", 3))
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", clan="date"),
             dep(ISH, "i2", clan="mori"))
    assert (s.impact.ishida, s.impact.tokugawa) == (2 + 4, 3)
    s, events = apply_action(s, challenge(TOK, refuted=False))
    defected = events[1]
    assert isinstance(defected, BlocksDefected)
    assert (defected.impact_lost, defected.impact_gained, defected.rule) == (4, 4, "8.6.1")
    assert (s.impact.ishida, s.impact.tokugawa) == (2, 3 + 4)


def test_8_6_3_double_deployment_defects_whole_with_the_second_blocks_bonus() -> None:
    s = battle(
        ISH, i1=face("mori", 3), t1=face("date", 2), t2=face("date", 1), t3=face("date", 1)
    )
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", "t2", clan="date", kind="double"))
    assert s.impact.tokugawa == 2 + 2
    s, events = apply_action(s, challenge(ISH, refuted=False))
    defected = events[1]
    assert isinstance(defected, BlocksDefected)
    assert defected.blocks == ("t1", "t2") and defected.rule == "8.6.3"
    assert (s.impact.ishida, s.impact.tokugawa) == (3 + 4, 0)
    # the Date blocks now fight for ishida: a later Date deployment gets no bonus from them (C5)
    s = play(s, dep(TOK, "t3", clan="date"))
    assert s.impact.tokugawa == 1
    s = play(s, finish(TOK), finish(ISH))
    r = combat_result(s)
    assert r.defected == ["t1", "t2"]
    assert r.losses == {ISH: 0, TOK: 2}  # 7 Impact suffered, plus one for losing
    assert r.cards_drawn == {ISH: 1 + 1, TOK: 2 + 1}


def test_c2_a_double_deployment_is_refuted_by_one_card() -> None:
    s = battle(ISH, i1=face("mori", 3), t1=face("date", 2), t2=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", "t2", clan="date", kind="double"))
    s, events = apply_action(s, challenge(ISH, refuted=True))
    assert events[1].rule == "C2"
    assert s.impact.tokugawa == 4


def test_c4_impact_already_scored_is_never_recalculated() -> None:
    s = battle(ISH, i1=face("mori", 2), i2=face("mori", 1), t1=face("date", 4))
    s = play(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", clan="date"),
             dep(ISH, "i2", clan="mori"))
    assert s.impact.ishida == 2 + 2
    s = play(s, challenge(TOK, refuted=False))
    # i2 takes the 2 it scored (1 mon + 1 for i1); i1's 2 stays with ishida
    assert (s.impact.ishida, s.impact.tokugawa) == (2, 4 + 2)


def test_c5_a_defected_gun_block_feeds_the_challengers_gun_attacks_only() -> None:
    s = battle(
        TOK, t1=face("maeda", 1, GUN), t2=face("maeda", 1, GUN), t3=face("maeda", 3),
        i1=face("mori", 1, GUN), i2=face("mori", 3),
    )
    s = play(s, dep(TOK, "t1", clan="maeda"), challenge(ISH, refuted=False))
    assert (s.impact.tokugawa, s.impact.ishida) == (0, 1)
    s = play(s, dep(TOK, "t3", clan="maeda"))  # no +1: the other Maeda block left
    assert s.impact.tokugawa == 3
    s = play(s, dep(ISH, "i1", clan="mori", kind="special"))
    last = [e for e in s.log if isinstance(e, BlockDeployed)][-1]
    assert last.impact.total == 1 + 2 + 2  # the defected Maeda gun block counts for ishida
    s = play(s, dep(TOK, "t2", clan="maeda", kind="special"))
    last = [e for e in s.log if isinstance(e, BlockDeployed)][-1]
    assert (last.impact.clan_bonus, last.impact.special_attack) == (1, 2)  # t3 only, no t1


def test_c7_a_finished_side_may_still_challenge() -> None:
    s = battle(ISH, i1=face("mori", 3), t1=face("date", 2), t2=face("date", 2))
    s = play(s, finish(ISH), dep(TOK, "t1", clan="date"))
    s, events = apply_action(s, challenge(ISH, refuted=False))
    assert events[0].rule == "C7"
    assert (s.impact.ishida, s.impact.tokugawa) == (2, 0)
    assert initiative(s) is TOK  # still permanently tokugawa's


def test_c7_the_challenge_must_come_immediately() -> None:
    s = battle(ISH, i1=face("mori", 1), i2=face("mori", 1), t1=face("date", 2))
    exc = violation(s, dep(ISH, "i1", clan="mori"), finish(TOK), challenge(TOK, refuted=False))
    assert exc.rule == "C7"
    exc = violation(s, dep(ISH, "i1", clan="mori"), dep(TOK, "t1", clan="date"),
                    challenge(TOK, refuted=False))
    assert exc.rule == "8.6.1"
    exc = violation(s, dep(ISH, "i1", clan="mori"), challenge(TOK, refuted=True),
                    challenge(TOK, refuted=False))
    assert exc.rule == "C7"
    assert violation(s, challenge(TOK, refuted=False)).rule == "C7"


def test_8_2_4_c7_a_cardless_leader_cannot_be_challenged() -> None:
    s = battle(ISH, i1=face("mori", 1, leader=True), t1=face("date", 2))
    s = play(s, leader(ISH, "i1"))
    assert challenge_window(s) is None
    exc = violation(s, Challenge(side=TOK, refuted=False))
    assert exc.rule == "8.2.4"
