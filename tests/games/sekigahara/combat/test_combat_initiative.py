"""Initiative: 8.5 and C6, with a full battle of several initiative swings."""

from __future__ import annotations

from _combat_kit import CAV, GUN, ISH, TOK, battle, dep, face, finish, lose, play, violation

from companion.games.sekigahara.combat import (
    InitiativePassed,
    combat_result,
    initiative,
    is_finished,
    is_resolved,
    legal_actions,
)


def swinging_battle():  # type: ignore[no-untyped-def]
    return battle(
        ISH,
        i1=face("mori", 2), i2=face("mori", 1, GUN), i3=face("ukita", 3), i4=face("ukita", 1, CAV),
        t1=face("date", 3), t2=face("date", 2), t3=face("maeda", 1, GUN), t4=face("fukushima", 2),
    )


def test_8_5_full_battle_with_initiative_swings() -> None:
    s = swinging_battle()
    assert initiative(s) is ISH
    steps = [
        (dep(ISH, "i1", clan="mori"), (2, 0), TOK),
        (dep(TOK, "t1", clan="date"), (2, 3), ISH),
        (dep(ISH, "i2", clan="mori", kind="special"), (6, 3), TOK),  # 1 + 1 mori + 2 gun
        (dep(TOK, "t2", clan="date"), (6, 6), ISH),  # tie: the defender leads
        (dep(ISH, "i3", clan="ukita"), (9, 6), TOK),
        (dep(TOK, "t3", clan="maeda", kind="special"), (9, 9), ISH),  # 1 + 2 gun
        (finish(ISH), (9, 9), TOK),
        (dep(TOK, "t4", clan="fukushima"), (9, 11), TOK),
    ]
    for action, (ishida, tokugawa), holder in steps:
        s = play(s, action)
        assert (s.impact.ishida, s.impact.tokugawa) == (ishida, tokugawa), action
        assert initiative(s) is holder, action
    passes = [e for e in s.log if isinstance(e, InitiativePassed)]
    assert [p.to for p in passes] == [TOK, ISH, TOK, ISH, TOK, ISH, TOK]
    assert passes[-1].permanent
    assert not is_finished(s)
    s = play(s, finish(TOK))
    assert is_finished(s) and not is_resolved(s)
    r = combat_result(s)
    assert r.winner is TOK
    assert r.losses == {ISH: 2, TOK: 1}
    assert r.cards_drawn == {ISH: 3 + 1, TOK: 4 + 0}
    s = play(s, lose(ISH, "i1", "i3"), lose(TOK, "t4"))
    assert is_resolved(s)
    assert combat_result(s).lost == {ISH: ["i1", "i3"], TOK: ["t4"]}


def test_8_5_only_the_initiative_holder_deploys_or_finishes() -> None:
    s = swinging_battle()
    exc = violation(s, dep(TOK, "t1", clan="date"))
    assert exc.rule == "8.5" and "ishida holds the initiative" in exc.message
    assert violation(s, finish(TOK)).rule == "8.5"


def test_8_5_the_side_behind_deploys_until_it_leads() -> None:
    s = swinging_battle()
    s = play(s, dep(ISH, "i4", clan="ukita"), dep(TOK, "t1", clan="date"))
    # 1-3: ishida stays behind after one more block, so deploys again
    s = play(s, dep(ISH, "i1", clan="mori"))
    assert (s.impact.ishida, initiative(s)) == (3, ISH)  # 3-3 favours the defender
    s = play(s, dep(ISH, "i3", clan="ukita"))
    assert (s.impact.ishida, initiative(s)) == (3 + 4, TOK)


def test_8_5_a_finished_side_cannot_resume() -> None:
    s = play(swinging_battle(), finish(ISH))
    assert initiative(s) is TOK
    s = play(s, dep(TOK, "t1", clan="date"))
    assert initiative(s) is TOK  # permanent, although tokugawa leads
    exc = violation(s, dep(ISH, "i1", clan="mori"))
    assert exc.rule == "8.5" and "finished" in exc.message


def test_8_5_nothing_happens_after_the_battle() -> None:
    s = play(swinging_battle(), finish(ISH), finish(TOK))
    assert initiative(s) is None
    assert violation(s, dep(TOK, "t1", clan="date")).rule == "8.5"
    assert violation(s, finish(ISH)).rule == "8.5"


def test_8_5_a_side_with_nothing_left_must_still_finish() -> None:
    s = battle(ISH, i1=face("mori", 2), t1=face("date", 1))
    s = play(s, dep(ISH, "i1", clan="mori"), finish(TOK))
    assert not is_finished(s)
    assert [type(a).__name__ for a in legal_actions(s)] == ["Finish"]
    s = play(s, finish(ISH))
    assert is_finished(s)


def test_c6_ties_favour_the_defender_and_attacker_acts_first() -> None:
    s = battle(TOK, t1=face("date", 2), i1=face("mori", 2), i2=face("mori", 1))
    assert initiative(s) is TOK  # 0-0: the attacker is behind
    s = play(s, dep(TOK, "t1", clan="date"), dep(ISH, "i1", clan="mori"))
    assert (s.impact.tokugawa, s.impact.ishida) == (2, 2)
    assert initiative(s) is TOK
    s = play(s, finish(TOK), finish(ISH))
    assert combat_result(s).winner is ISH
    assert combat_result(s).losses == {TOK: 1, ISH: 0}
