"""The Combat Phase: declarations (8.1), castles and sieges (8.9.1-8.9.3, 8.9.6), Mori at Osaka
(9.3), card replenishment (8.10) and the obligation to declare while sides co-exist."""

from __future__ import annotations

from _engine_kit import ISH, TOK, deploy, finish_and_lose, of_type, ok, pick, position, rejected

from companion.core.game import Rejection
from companion.games.sekigahara.components import CardKind, Clan, Disk
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import CARDS
from companion.games.sekigahara.engine.queries import awaiting, declarable, must_declare
from companion.games.sekigahara.engine.state import DEAD, MORI_BOX, Phase, Stage

TOKS = pick(TOK, 3, clan=Clan.TOKUGAWA, mon=3)


def test_combat_must_be_declared_everywhere_before_the_phase_ends() -> None:
    game = position({"hamamatsu": TOKS[:1] + pick(ISH, 1), "kiso": pick(TOK, 1, clan=Clan.DATE)
                     + pick(ISH, 1, clan=Clan.UKITA)}, phase=Phase.COMBAT)
    assert must_declare(game.state) == ["hamamatsu", "kiso"]
    rejected(game, cm.EndPhase(side=TOK), "8.1")
    rejected(game, cm.DeclareCombat(side=TOK, location="okazaki"), "8.1")
    rejected(game, cm.DeclareCombat(side=ISH, location="kiso"), "8.1")
    ok(game, cm.DeclareCombat(side=TOK, location="kiso"))
    rejected(game, cm.DeclareCombat(side=TOK, location="hamamatsu"), "8.1")  # one at a time
    finish_and_lose(game)  # 0-0: a tie favours the defender; the lone attacker is lost
    assert game.state.pending is None and "kiso" in game.state.resolved
    assert must_declare(game.state) == ["hamamatsu"]


def test_battle_cards_are_replenished_after_it() -> None:
    ish = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    deploy(game, TOK, TOKS[0])
    ok(game, cm.Finish(side=ISH))
    deploy(game, TOK, *TOKS[1:])  # 3 + 4 + 5 = 12 Impact
    assert game.state.table[TOK] == 3 and game.state.hand[TOK] == 3
    finish_and_lose(game)
    # Ishida loses 12 // 7 + 1 = 2 blocks: both gone, no retreat
    assert all(game.state.pos[b] == DEAD for b in ish)
    assert game.state.pending is None and game.state.table[TOK] == 0
    assert game.state.hand[TOK] == 6  # 3 played, 3 drawn back (8.10)
    assert game.state.hand[ISH] == 6 + 1  # one card per two blocks lost (8.10)
    ok(game, cm.EndPhase(side=TOK))


def test_defending_owner_chooses_a_siege_and_the_sides_coexist() -> None:
    two = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT)
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    assert game.state.pending is not None and game.state.pending.stage is Stage.CASTLE_CHOICE
    rejected(game, cm.ChooseInside(side=TOK, inside=True), "8.9.2")
    events = ok(game, cm.ChooseInside(side=ISH, inside=True))
    opened = of_type(events, ev.CombatOpened)[0]
    assert isinstance(opened, ev.CombatOpened) and opened.siege
    deploy(game, TOK, TOKS[0])  # 3 Impact: no loss in a siege (8.9.4 B)
    finish_and_lose(game)
    s = game.state
    assert s.pending is None and set(two) <= s.inside
    assert "gifu" in s.resolved
    # next Tokugawa Combat Phase: the besieger must declare again (8.9.4 E)
    game2 = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT,
                     extra=[ev.StayedInside(location="gifu", side=ISH, inside=True,
                                            combat=False)])
    assert must_declare(game2.state) == []  # already resolved in the extra event's phase
    game3 = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT)
    assert must_declare(game3.state) == ["gifu"]


def test_active_owner_may_stay_inside_and_no_combat_occurs() -> None:
    two = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT, active=ISH)
    assert must_declare(game.state) == [] and declarable(game.state) == ["gifu"]
    events = ok(game, cm.DeclareCombat(side=ISH, location="gifu", inside=True))
    stayed = of_type(events, ev.StayedInside)[0]
    assert isinstance(stayed, ev.StayedInside) and not stayed.combat
    ok(game, cm.EndPhase(side=ISH))


def test_more_than_two_blocks_cannot_stay_inside() -> None:
    three = pick(ISH, 3, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS[:1] + three}, phase=Phase.COMBAT, active=ISH)
    rejected(game, cm.DeclareCombat(side=ISH, location="gifu", inside=True), "8.9.1")
    assert must_declare(game.state) == ["gifu"]
    tok = position({"gifu": TOKS[:1] + three}, phase=Phase.COMBAT)
    events = ok(tok, cm.DeclareCombat(side=TOK, location="gifu"))
    opened = of_type(events, ev.CombatOpened)[0]
    assert isinstance(opened, ev.CombatOpened) and not opened.siege  # no choice: battle


def test_mori_box_appears_in_osaka_when_tokugawa_declares_there() -> None:
    # Hideyori alone holds Osaka; Tokugawa has moved in with three blocks
    game = position({"osaka": TOKS}, phase=Phase.COMBAT)
    box = [b for b, z in game.state.pos.items() if z == MORI_BOX]
    events = ok(game, cm.DeclareCombat(side=TOK, location="osaka"))
    arrived = of_type(events, ev.MoriArrived)[0]
    assert isinstance(arrived, ev.MoriArrived) and sorted(arrived.blocks) == sorted(box)
    assert all(game.state.pos[b] == "osaka" for b in box)
    # Ishida now owns the castle with 5 blocks: they must fight outside, a battle
    opened = of_type(events, ev.CombatOpened)[0]
    assert isinstance(opened, ev.CombatOpened) and not opened.siege


def test_siege_of_a_disk_alone_and_hideyori_captured_wins() -> None:
    # the Mori box already emptied (onto the casualty pile) so that no Mori block appears
    box = tuple(b for b, z in position({}).state.pos.items() if z == MORI_BOX)
    game = position({"osaka": TOKS, DEAD: box}, phase=Phase.COMBAT, hands=6)
    events = ok(game, cm.DeclareCombat(side=TOK, location="osaka"))
    opened = of_type(events, ev.CombatOpened)[0]
    assert isinstance(opened, ev.CombatOpened) and opened.siege and opened.inside == ()
    deploy(game, TOK, *TOKS)  # 12 Impact: one loss, the disk
    finish_and_lose(game)
    assert game.state.disks[Disk.HIDEYORI] is None
    assert game.state.phase is Phase.GAME_OVER and game.state.winner is TOK
    assert game.state.victory is not None and "Hideyori" in game.state.victory


def test_besiegers_must_declare_again_while_the_sides_coexist() -> None:
    two = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT, active=TOK,
                    extra=[ev.StayedInside(location="gifu", side=ISH, inside=True,
                                           combat=False),
                           ev.PhaseBegan(phase=Phase.COMBAT, week=1, turn="B", active=TOK)])
    assert must_declare(game.state) == ["gifu"]
    rejected(game, cm.EndPhase(side=TOK), "8.9.4")
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    ok(game, cm.ChooseInside(side=ISH, inside=False))  # 8.9.2: may now fight outside
    pending = game.state.pending
    assert pending is not None and not pending.siege


def test_combat_actions_are_judged_by_the_combat_rules_without_leaking_blocks() -> None:
    ukita = pick(ISH, 1, clan=Clan.UKITA, mon=1)
    game = position({"hamamatsu": TOKS[:1] + ukita}, phase=Phase.COMBAT, hands=1)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    play = cm.CardPlay(clan=Clan.UKITA, kind=CardKind.PLAIN)
    result = game.submit(cm.Deploy(side=ISH, card=play, blocks=tuple(ukita)))
    assert isinstance(result, Rejection) and result.rule in ("8.5", "C6")
    assert ukita[0] not in result.message and result.private is not None
    wrong = cm.CardPlay(clan=Clan.DATE, kind=CardKind.PLAIN)
    rejected(game, cm.Deploy(side=TOK, card=wrong, blocks=(TOKS[0],)), "8.2.2")
    deploy(game, TOK, TOKS[0])
    assert game.state.hand[TOK] == 0
    ok(game, cm.Finish(side=ISH))
    rejected(game, cm.Deploy(side=TOK, card=play, blocks=(TOKS[1],)), "8.2.2")  # no card left
    rejected(game, cm.Retreat(side=ISH, destination="okazaki"), "8.8.1")


def test_a_named_card_must_be_the_card_claimed() -> None:
    ukita = pick(ISH, 1, clan=Clan.UKITA, mon=1)
    game = position({"hamamatsu": TOKS[:1] + ukita}, phase=Phase.COMBAT)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    date_card = next(c for c, k in CARDS.items() if k.clan is Clan.DATE)
    claimed = cm.CardPlay(clan=Clan.TOKUGAWA, kind=CardKind.PLAIN, card_id=date_card)
    rejected(game, cm.Deploy(side=TOK, card=claimed, blocks=(TOKS[0],)), "8.2.2")
    real = next(c for c, k in CARDS.items()
                if k.clan is Clan.TOKUGAWA and k.kind is CardKind.PLAIN)
    ok(game, cm.Deploy(side=TOK, blocks=(TOKS[0],),
                       card=cm.CardPlay(clan=Clan.TOKUGAWA, kind=CardKind.PLAIN, card_id=real)))


def test_awaiting_says_who_must_act_through_a_combat() -> None:
    two = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS[:1] + two}, phase=Phase.COMBAT)
    assert awaiting(game.state) == {TOK: "declare combat at Gifu"}
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    assert list(awaiting(game.state)) == [ISH]
    ok(game, cm.ChooseInside(side=ISH, inside=False))
    assert list(awaiting(game.state)) == [TOK]  # the attacker deploys first (8.2.1, C6)
    finish_and_lose(game)  # 0-0: the lone attacker is lost, nothing retreats
    assert awaiting(game.state) == {TOK: "declare combat or end the phase"}
