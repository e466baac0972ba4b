"""Retreats (8.8.1-8.8.5) and Overruns at every moment they can occur (7.4, C1)."""

from __future__ import annotations

from _engine_kit import ISH, TOK, deploy, finish_and_lose, of_type, ok, pick, position, rejected

from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import MORI_LEADER
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.queries import must_declare, retreat_options
from companion.games.sekigahara.engine.state import DEAD, RECRUITMENT, Level, Phase, Stage

TOKS = pick(TOK, 3, clan=Clan.TOKUGAWA, mon=3)
UKITA = pick(ISH, 3, clan=Clan.UKITA, mon=1)


def _attack_from_okazaki(
    extra_places: dict[str, list[str]], defenders: list[str]
) -> SekigaharaGame:
    """Tokugawa moves 3 blocks Okazaki -> Kiyosu onto ``defenders`` and declares combat."""
    places = {"okazaki": TOKS, "kiyosu": defenders, **extra_places}
    game = position(places, level=Level.TOTAL, hands=6)
    ok(game, cm.MoveStack(side=TOK, origin="okazaki", paths={b: ("kiyosu",) for b in TOKS}))
    ok(game, cm.EndPhase(side=TOK))
    ok(game, cm.DeclareCombat(side=TOK, location="kiyosu"))
    return game


def test_defender_retreats_away_from_enemy_and_the_attack_route() -> None:
    game = _attack_from_okazaki({"gifu": pick(TOK, 1, clan=Clan.DATE)}, UKITA)
    deploy(game, TOK, TOKS[0])  # 3 Impact: Ishida loses one block (the loser's extra one)
    finish_and_lose(game)
    pending = game.state.pending
    assert pending is not None and pending.stage is Stage.RETREAT and pending.retreating is ISH
    assert retreat_options(game.state) == (["kuwana"], False)  # 8.8.3
    rejected(game, cm.Retreat(side=ISH, destination="gifu"), "8.8.3")
    rejected(game, cm.Retreat(side=TOK, destination="kuwana"), "8.8.1")
    events = ok(game, cm.Retreat(side=ISH, destination="kuwana"))
    assert of_type(events, ev.Retreated)
    assert sum(1 for b in UKITA if game.state.pos[b] == "kuwana") == 2
    assert game.state.resource_control["kuwana"] is ISH  # a retreat moves blocks onto it


def test_defender_with_no_clear_way_may_retreat_anywhere() -> None:
    blockers = {"gifu": pick(TOK, 1, clan=Clan.DATE), "kuwana": pick(TOK, 1, clan=Clan.MAEDA)}
    game = _attack_from_okazaki(blockers, UKITA)
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    assert retreat_options(game.state) == (["gifu", "kuwana", "okazaki"], False)


def test_attacker_retreats_whence_it_came() -> None:
    game = _attack_from_okazaki({}, UKITA[:1])
    finish_and_lose(game)  # 0-0: the defender wins the tie (8.2.1)
    assert retreat_options(game.state) == (["okazaki"], False)  # 8.8.2
    rejected(game, cm.Retreat(side=TOK, destination="kuwana"), "8.8.2")
    ok(game, cm.Retreat(side=TOK, destination="okazaki"))


def test_castle_harbours_up_to_two_blocks_of_its_holder() -> None:
    four = pick(ISH, 4, clan=Clan.UKITA, mon=1)
    game = position({"gifu": TOKS + four}, phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))  # 4 defenders: a battle
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    destinations, castle = retreat_options(game.state)
    assert castle and "sawayama" in destinations
    remaining = [b for b in four if game.state.pos[b] == "gifu"]
    rejected(game, cm.Retreat(side=ISH, destination="sawayama", into_castle=tuple(remaining)),
             "8.8.4")
    ok(game, cm.Retreat(side=ISH, destination="sawayama", into_castle=tuple(remaining[:2])))
    s = game.state
    assert set(remaining[:2]) <= s.inside and s.pos[remaining[2]] == "sawayama"
    assert game.state.castle_owner["gifu"] is ISH  # besieged (8.9.6)


def test_attacker_cannot_use_the_castle_harbour() -> None:
    game = position({"gifu": TOKS[:1] + pick(ISH, 3, clan=Clan.UKITA, mon=1)},
                    phase=Phase.COMBAT)
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    finish_and_lose(game)  # the attacker loses and its lone block with it: nothing retreats
    assert game.state.pending is None


def test_retreat_into_enemy_units_starts_a_battle_with_the_retreaters_attacking() -> None:
    blockers = {"gifu": pick(TOK, 1, clan=Clan.DATE), "kuwana": pick(TOK, 1, clan=Clan.MAEDA)}
    game = _attack_from_okazaki(blockers, UKITA)
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    events = ok(game, cm.Retreat(side=ISH, destination="gifu"))
    declared = of_type(events, ev.CombatDeclared)[0]
    assert isinstance(declared, ev.CombatDeclared) and declared.from_retreat
    assert declared.attacker is ISH and declared.location == "gifu"
    # Gifu is an Ishida castle but Date was there first: the defender owns it, 1 block -> choice
    pending = game.state.pending
    assert pending is not None and pending.owner is TOK and pending.stage is Stage.CASTLE_CHOICE


def test_retreat_joins_a_combat_still_to_be_declared() -> None:
    # Gifu: two Date blocks and three Kobayakawa, combat not yet declared there
    blockers = {"gifu": pick(TOK, 2, clan=Clan.DATE) + pick(ISH, 3, clan=Clan.KOBAYAKAWA,
                                                            mon=1),
                "kuwana": pick(TOK, 1, clan=Clan.MAEDA)}
    game = _attack_from_okazaki(blockers, UKITA)
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    events = ok(game, cm.Retreat(side=ISH, destination="gifu"))
    assert not of_type(events, ev.CombatDeclared)  # 8.8.5: added to the forces in conflict
    assert game.state.pending is None and "gifu" in must_declare(game.state)


def test_overrun_after_a_retreat() -> None:
    lone = pick(TOK, 1, clan=Clan.DATE)
    five = pick(ISH, 5, clan=Clan.UKITA, mon=1) + pick(ISH, 1, clan=Clan.KOBAYAKAWA, mon=1)
    # Gifu castle is held by a lone Maeda block (no Overrun there, 7.4.3); Kuwana has none
    game = _attack_from_okazaki({"kuwana": lone, "gifu": pick(TOK, 1, clan=Clan.MAEDA)}, five)
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    hand = game.state.hand[TOK]
    events = ok(game, cm.Retreat(side=ISH, destination="kuwana"))  # 5 vs 1: Overrun (7.4.1)
    overrun = of_type(events, ev.Overrun)
    assert overrun and game.state.pos[lone[0]] == DEAD
    # 8.10: the card played comes back; C1: no card for a single block lost
    assert game.state.hand[TOK] == hand + 1


def test_overrun_by_mustering() -> None:
    box = pick(TOK, 1, clan=Clan.TOKUGAWA, mon=2)
    here = pick(TOK, 3, clan=Clan.DATE)
    enemy = pick(ISH, 1)
    game = position({RECRUITMENT: box, "edo": here + enemy}, level=Level.TOTAL)
    events = ok(game, cm.Muster(side=TOK, location="edo", blocks=tuple(box), option="A"))
    assert of_type(events, ev.Overrun) and game.state.pos[enemy[0]] == DEAD


def test_overrun_by_mori_arrival() -> None:
    intruder = pick(TOK, 1)
    game = position({"osaka": intruder}, active=ISH, level=Level.TOTAL, hands=6)
    box = sorted(b for b, z in game.state.pos.items() if z == "@mori")
    others = [b for b in box if b != MORI_LEADER]
    events = ok(game, cm.BringMori(blocks=tuple(others)))
    assert of_type(events, ev.Overrun) and game.state.pos[intruder[0]] == DEAD


def test_no_overrun_against_a_castle_holder_but_insiders_lend_strength() -> None:
    holders = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    eight = pick(TOK, 8, exclude=[])
    game = position({"sawayama": eight[:4], "gifu": holders}, level=Level.TOTAL)
    events = ok(game, cm.MoveStack(side=TOK, origin="sawayama",
                                   paths={b: ("gifu",) for b in eight[:4]}))
    assert not of_type(events, ev.Overrun)  # 7.4.3: Ishida holds Gifu castle
    # a besieging force outside is overrun with the help of the blocks inside the castle
    besieger = pick(TOK, 1, clan=Clan.DATE)
    inside = pick(ISH, 2, clan=Clan.KOBAYAKAWA, mon=1)
    game = position(
        {"gifu": besieger + inside, "sawayama": pick(ISH, 2, clan=Clan.UKITA, mon=1)},
        active=ISH, level=Level.TOTAL,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    movers = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    events = ok(game, cm.MoveStack(side=ISH, origin="sawayama",
                                   paths={b: ("gifu",) for b in movers}))
    assert of_type(events, ev.Overrun) and game.state.pos[besieger[0]] == DEAD


def test_retreat_into_a_friendly_besieged_castle_joins_it() -> None:
    besieged = pick(ISH, 2, clan=Clan.KOBAYAKAWA, mon=1)
    besiegers = pick(TOK, 2, clan=Clan.DATE)
    defenders = pick(ISH, 3, clan=Clan.UKITA, mon=1)
    game = position(
        {"gifu": besieged + besiegers, "kyoto": TOKS, "sawayama": defenders,
         "tsuruga": pick(TOK, 1, clan=Clan.MAEDA)},
        level=Level.TOTAL, hands=6,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    ok(game, cm.MoveStack(side=TOK, origin="kyoto", paths={b: ("sawayama",) for b in TOKS}))
    ok(game, cm.EndPhase(side=TOK))
    ok(game, cm.DeclareCombat(side=TOK, location="sawayama"))
    deploy(game, TOK, TOKS[0])
    finish_and_lose(game)
    events = ok(game, cm.Retreat(side=ISH, destination="gifu"))
    assert not of_type(events, ev.CombatDeclared)  # 8.8.5: no new battle now
    retreated = [b for b in defenders if game.state.pos[b] == "gifu"]
    assert len(retreated) == 2 and set(retreated + besieged) <= game.state.inside
    # four Ishida blocks now: the next declaration there is a battle (8.9.6)
    assert "gifu" in must_declare(game.state)
