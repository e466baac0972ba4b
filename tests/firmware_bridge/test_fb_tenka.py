"""The bridge serves Tenka Meidou through the same interface as Sekigahara (issue 11): the real
bridge reads simulated hubs over real pseudo-terminals, and the game-neutral table session hands
what it sees to Tenka Meidou's table checks, which verify a deployment against the dice entered
(5.I.1)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_helpers import RATE_HZ, WAIT_S

from companion.core.events import Event
from companion.core.game import Accepted, Game, Rejection
from companion.core.table import GameTable, Ready, SessionRules
from companion.games.tenka_meidou.components import Colour, Tactic, default_components
from companion.games.tenka_meidou.events import (
    Deploy,
    SoldiersDeployed,
    StartGame,
    TacticPlayed,
    WarFought,
)
from companion.games.tenka_meidou.players import RandomPlayer
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.simulator import TenkaGame
from companion.games.tenka_meidou.table import TenkaSessionRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.discrepancy import ProposedMove, count_pieces
from firmware_bridge.protocol import LedMode
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.zones import active_table, use_table, zone_names

R, B = Colour.RED, Colour.BLUE
CASTLES = {"tsutsujigasaki": 2, "oko": 3, "yoshida_koriyama": 4, "kyoto": 5, "tokuyama": 6,
           "yonezawa": 7, "kasugayama": 8, "odawara": 9, "usuki": 10, "shuri": 11, "kiyosu": 12}
DICE = Deploy(colour=R, rolls=((3, 4, 5),), single=4)  # 3+5: castle 8, kasugayama; 4: 2 pawns


@pytest.fixture
def tenka() -> Iterator[GameTable]:
    before = active_table()
    yield use_table("tenka-meidou")
    use_table(before)


@pytest.fixture
def table(tenka: GameTable, tmp_path: Path) -> Iterator[SimulatedTable]:
    with SimulatedTable.create(tmp_path / "sim", hubs=2, antennas=32, rate_hz=RATE_HZ,
                               seed=7) as sim:
        yield sim


@pytest.fixture
def bridge(table: SimulatedTable) -> Iterator[Bridge]:
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                missing_after_s=0.5) as running:
        running.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield running


def _tenka(rules: SessionRules) -> TenkaSessionRules:
    assert isinstance(rules, TenkaSessionRules)
    return rules


def _game() -> TenkaGame:
    game: TenkaGame = Game(TenkaRules())
    game.submit(StartGame(players=(R, B), castles=CASTLES, tactic_offer=tuple(list(Tactic)[:3])))
    return game


def _follow(table: SimulatedTable, bridge: Bridge) -> TableSession:
    game = _game()
    for colour in ("red", "blue"):
        for n in range(1, 19):
            table.put(f"{colour}-{n:02d}", f"reserve_{colour}")
    session = TableSession(bridge, game).start()
    session.wait_for(lambda s: len(bridge.placements()) == 36 and s.discrepancies == (),
                     WAIT_S)
    return session


def test_the_simulated_table_is_tenka_meidous(tenka: GameTable, table: SimulatedTable) -> None:
    assert set(table.wiring.table().values()) == set(zone_names())
    assert "reserve_red" in zone_names() and "gifu" not in zone_names()
    assert table.registry.uid_of("white-30") is not None
    assert count_pieces(["red-01", "red-02", "blue-daimyo"]) == "two red pawns and a blue pawn"


def test_a_deployment_seen_on_the_table_is_checked_against_the_dice(
    table: SimulatedTable, bridge: Bridge
) -> None:
    with _follow(table, bridge) as session:
        rules = session.rules
        assert isinstance(rules, TenkaSessionRules)
        # pawns leaving the reserve before the dice are entered: a discrepancy, nothing played
        table.put("red-01", "kyoto")
        found = session.wait_for(lambda s: [d for d in s.discrepancies
                                            if d.kind == "illegal_move"], WAIT_S)
        assert "enter the dice" in found[0].text
        table.put("red-01", "reserve_red")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)

        rules.enter_dice(DICE)
        session.refresh()
        hub, antenna = table.antenna("kasugayama")  # the zone the dice name flashes
        bridge.wait_for(lambda b: hub.leds.get(antenna) == LedMode.FAST, WAIT_S)

        # the wrong zone: the dice say kasugayama
        table.put("red-01", "kiyosu")
        table.put("red-02", "kiyosu")
        found = session.wait_for(lambda s: [d for d in s.discrepancies
                                            if d.kind == "illegal_move"], WAIT_S)
        assert "kasugayama" in found[0].text and "rule 5.I.1" in found[0].text
        assert "two red pawns" in found[0].text  # colours and counts only

        # one pawn of two: held, nothing submitted yet
        table.put("red-01", "kasugayama")
        table.put("red-02", "reserve_red")
        session.wait_for(lambda s: any("1 of 2 pawns placed" in line.text for line in s.log),
                         WAIT_S)
        assert not any(isinstance(e, SoldiersDeployed) for e in session.game.events)

        # both: the deployment is submitted and the table is as the rules have it
        table.put("red-02", "kasugayama")
        session.wait_for(lambda s: any(isinstance(e, SoldiersDeployed) for e in s.game.events)
                         and s.discrepancies == (), WAIT_S)
        state = session.game.state
        assert state.on_board("kasugayama", R) == 2 and state.current is B
        assert rules.expected_positions()["red-02"] == "kasugayama"
        assert any(line.kind == "command" and "red deployed 2 soldiers to" in line.text
                   for line in session.log)
        bridge.wait_for(lambda b: hub.leds.get(antenna) in (None, LedMode.OFF), WAIT_S)


@pytest.mark.parametrize("then", ["cancel", "next dice", "a card"])
def test_a_deployment_played_keeps_its_pawns_when_the_screen_moves_on_before_a_reconciliation(
    tenka: GameTable, then: str
) -> None:
    """The session submits a deployment the readers saw (5.I.1), but reconciles again only once
    nothing rests or is in hand; the screen leaves the dice as soon as it is played (cancel), or
    the next player enters theirs. Either must not forget where the accepted pawns went: they
    would read as moved out of turn from then on."""
    game = _game()
    rules = TenkaSessionRules(game)
    rules.enter_dice(DICE)
    outcome = rules.commands_for(
        ProposedMove("reserve_red", "kasugayama", ("red-17", "red-18")))
    assert isinstance(outcome, Ready)
    assert isinstance(game.submit(outcome.commands[0]), Accepted)
    if then == "cancel":
        rules.cancel()
    elif then == "next dice":
        rules.enter_dice(Deploy(colour=B, rolls=((1, 2, 3),), single=2))
    else:
        rules.enter_card(B, Tactic.REBELION)
    expected = rules.expected_positions()
    assert Counter(z for p, z in expected.items() if p.startswith("red-")) == Counter(
        {"kasugayama": 2, "reserve_red": 16})


def _resumed() -> TenkaGame:
    """A game two turns in: red has 2 pawns on Kasugayama (castle 8), blue 1 on Kyoto (5)."""
    game = _game()
    for dice in (DICE, Deploy(colour=B, rolls=((1, 4, 2),), single=2)):
        assert not isinstance(game.submit(dice), Rejection)
    assert game.state.on_board("kyoto", B) == 1
    return game


def test_a_resumed_game_accepts_real_pawns_by_colour_and_flags_a_real_difference(
    table: SimulatedTable, bridge: Bridge
) -> None:
    """Pawns of one colour are interchangeable: the session re-binds the ids it expects to
    those the readers see, so pawns with other numbers than the lowest are accepted; a pawn
    missing is still a discrepancy, with its fix."""
    game = _resumed()
    where = {"red-17": "kasugayama", "red-09": "kasugayama", "blue-18": "kyoto"}
    where.update({f"red-{n:02d}": "reserve_red" for n in (*range(1, 9), *range(10, 17), 18)})
    where.update({f"blue-{n:02d}": "reserve_blue" for n in range(1, 18)})
    for pawn, place in where.items():
        table.put(pawn, place)
    bridge.wait_for(lambda b: len(b.placements()) == 36, WAIT_S)
    with TableSession(bridge, game).start() as session:
        session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)
        rules = session.rules
        assert isinstance(rules, TenkaSessionRules)
        assert rules.expected_positions()["red-17"] == "kasugayama"
        assert {p for p, z in rules.expected_positions().items() if z == "kyoto"} == {"blue-18"}

        # the next turn goes on with the real pawns: red deploys 1 to Kyoto
        session.tell(lambda r: r.enter_dice(Deploy(colour=R, rolls=((1, 4, 2),), single=2)))
        table.put("red-05", "kyoto")
        session.wait_for(lambda s: s.game.state.on_board("kyoto", R) == 1
                         and s.discrepancies == (), WAIT_S)

        # a real difference: a red pawn gone from Kasugayama
        table.lift("red-09")
        found = session.wait_for(lambda s: [d for d in s.discrepancies if d.kind == "missing"],
                                 WAIT_S)
        assert found[0].text == "a red pawn missing from Kasugayama-jō"
        assert found[0].fix == "put it back on Kasugayama-jō"
        table.put("red-09", "kasugayama")
        session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)

        # one too many there: read as moved from the reserve, refused without the dice
        table.put("red-01", "kasugayama")
        found = session.wait_for(lambda s: [d for d in s.discrepancies
                                            if d.kind == "illegal_move"], WAIT_S)
        assert "a red pawn moved from Red's reserve to Kasugayama-jō" in found[0].text
        assert found[0].fix == "put it back on Red's reserve"


def test_a_tactic_card_seen_on_the_table_is_judged_refused_then_put_back_and_accepted(
    table: SimulatedTable, bridge: Bridge
) -> None:
    """Sections 5.I.2 and 7 at the table: the card is entered, its pawns are moved, and the
    pawns the readers saw move are the card's effect, judged by the rules."""
    game = _resumed()  # red's turn: 2 red pawns on Kasugayama-jō
    for pawn in ("red-01", "red-02"):
        table.put(pawn, "kasugayama")
    table.put("blue-01", "kyoto")
    for n in range(3, 19):
        table.put(f"red-{n:02d}", "reserve_red")
    for n in range(2, 19):
        table.put(f"blue-{n:02d}", "reserve_blue")
    with TableSession(bridge, game).start() as session:
        session.wait_for(lambda s: len(bridge.placements()) == 36 and s.discrepancies == (),
                         WAIT_S)

        def done() -> Accepted[Event] | Rejection:
            command, problems = session.tell(lambda r: _tenka(r).card_command(
                bridge.placements()))
            assert command is not None, problems
            return session.submit(command)

        session.tell(lambda r: _tenka(r).enter_card(R, Tactic.EXPLORAR))
        # a card never sends a pawn to another colour's reserve: refused at once (7)
        table.put("red-01", "reserve_blue")
        found = session.wait_for(lambda s: [d for d in s.discrepancies
                                            if d.kind == "illegal_move"], WAIT_S)
        assert found[0].rule == "7" and found[0].fix == "put it back on Kasugayama-jō"
        # Explorar to a zone that is not adjacent: the rules refuse it, citing section 7
        table.put("red-01", "shuri")
        session.wait_for(lambda s: bridge.placements().get("red-01") == "shuri"
                         and not bridge.settling() and s.discrepancies == (), WAIT_S)
        refused = done()
        assert isinstance(refused, Rejection) and refused.rule == "7"
        assert "not adjacent" in refused.message
        assert game.state.on_board("shuri", R) == 0
        # the card is withdrawn: the pawn moved is a discrepancy whose fix puts it back
        session.tell(lambda r: _tenka(r).cancel())
        found = session.wait_for(lambda s: [d for d in s.discrepancies
                                            if d.kind == "illegal_move"], WAIT_S)
        assert found[0].fix == "put it back on Kasugayama-jō"
        assert "a red pawn moved from Kasugayama-jō to Shuri" in found[0].text
        table.put("red-01", "kasugayama")
        session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)

        # Explorar to an adjacent zone: accepted, and the table is as the rules have it
        session.tell(lambda r: _tenka(r).enter_card(R, Tactic.EXPLORAR))
        table.put("red-02", "yonezawa")
        session.wait_for(lambda s: bridge.placements().get("red-02") == "yonezawa"
                         and not bridge.settling() and any(
                             "a card: move its pawns" in line.text for line in s.log), WAIT_S)
        accepted = done()
        assert isinstance(accepted, Accepted)
        assert isinstance(accepted.events[0], TacticPlayed)
        assert game.state.on_board("yonezawa", R) == 1
        assert game.state.on_board("kasugayama", R) == 1
        session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)
        assert any(line.kind == "command" and "red plays explorar" in line.text
                   for line in session.log)
        assert game.state.current is B


def _nearly_over(seed: int, rules: TenkaRules) -> tuple[TenkaGame, Deploy]:
    """A seeded random game up to its last deployment (which starts the War)."""
    player = RandomPlayer(random.Random(seed), rules.board, rules.components, card_chance=0.0)
    game: TenkaGame = Game(rules)
    while True:
        command = player.command(game.state)
        after = rules.handle(game.state, command)
        if any(isinstance(e, WarFought) for e in after):
            assert isinstance(command, Deploy)
            return game, command
        assert not isinstance(game.submit(command), Rejection)


@pytest.mark.parametrize("supply", [30, 3], ids=["supply", "supply-runs-out"])
def test_the_war_is_followed_zone_by_zone_as_reinforcements_are_placed(
    table: SimulatedTable, bridge: Bridge, supply: int
) -> None:
    """Section 5.II.3 at the table, over a whole War of a small seeded game: for the zone being
    resolved the session says and flashes where its winner's reinforcements go, holds until the
    readers see them all arrive, flags a white pawn put in the wrong zone, and goes on to the
    next zone. With a supply of 3 it runs out and pawns come from zones already resolved."""
    components = default_components().model_copy(update={"reinforcement_pawns": supply})
    game, last = _nearly_over(3, TenkaRules(components=components))
    state = game.state
    where: dict[str, str] = {}
    for colour in state.players:
        ids = iter(f"{colour.value}-{n:02d}" for n in range(18, 0, -1))  # other numbers
        for zone, counts in state.soldiers.items():
            where.update({next(ids): zone for _ in range(counts.get(colour, 0))})
        where.update({pawn: f"reserve_{colour.value}" for pawn in ids})
    where.update({f"white-{n:02d}": "reinforcements" for n in range(1, supply + 1)})
    for pawn, place in where.items():
        table.put(pawn, place)
    with TableSession(bridge, game).start() as session:
        rules = _tenka(session.rules)
        session.wait_for(lambda s: len(bridge.placements()) == len(where)
                         and s.discrepancies == (), WAIT_S)
        # the last deployment, seen on the table, starts the War
        deployed = session.tell(lambda r: _tenka(r).enter_dice(last))
        mover = [p for p, z in where.items() if z == f"reserve_{deployed.colour.value}"]
        for pawn in mover[:deployed.soldiers]:
            table.put(pawn, deployed.zone)
        session.wait_for(lambda s: s.game.state.war is not None or None, WAIT_S)
        assert any(line.kind == "command" and line.text.startswith("the War is fought")
                   for line in session.log)
        steps = rules.war_steps()
        assert steps is not None
        sent = sum(s.sent for s in steps)
        assert sent > 3 and (sum(s.from_supply for s in steps) == sent) is (supply == 30)
        done: set[str] = set()
        wrong = True
        while rules.war_at is not None and rules.war_at < len(steps):
            at = rules.war_at
            step = steps[at]
            prompt = rules.war_prompt()
            assert prompt is not None and f"castle {step.value}" in prompt
            assert "castle tokens are not tagged" in prompt
            assert sorted(rules.flashing()) == sorted(step.sends)
            hub, antenna = table.antenna(next(iter(step.sends)))
            bridge.wait_for(lambda b, h=hub, a=antenna: h.leds.get(a) == LedMode.FAST, WAIT_S)
            seen = bridge.placements()
            pool = [p for p, z in sorted(seen.items()) if z == "reinforcements"]
            pool += [p for p, z in sorted(seen.items()) if p.startswith("white")
                     and z in {s.zone for s in steps[:at + 1]}]
            if wrong:  # a white pawn in a zone that gets none: 5.II.3, put it back
                elsewhere = next(z for z in CASTLES if z not in step.sends and z not in done
                                 and z != step.zone)
                origin = seen[pool[0]]
                table.put(pool[0], elsewhere)
                found = session.wait_for(lambda s: [d for d in s.discrepancies
                                                    if d.rule == "5.II.3"], WAIT_S)
                assert found[0].fix.startswith("put it back on")
                table.put(pool[0], origin)
                session.wait_for(lambda s: s.discrepancies == () or None, WAIT_S)
                wrong = False
            pawns = iter(pool)
            for n, (zone, count) in enumerate(step.sends.items()):
                for _ in range(count):
                    table.put(next(pawns), zone)
                if n == 0 and len(step.sends) > 1:  # one zone of two: held
                    session.wait_for(lambda s: any(
                        "white pawns placed (5.II.3)" in line.text for line in s.log), WAIT_S)
                    assert rules.war_at == at
            session.wait_for(lambda s, a=at: rules.war_at != a or None, WAIT_S)
            assert session.discrepancies == ()
            done.add(step.zone)
        assert rules.war_at == len(steps) and rules.flashing() == []
        assert "The War is over on the table" in (rules.war_prompt() or "")
        placed = [line for line in session.log if "reinforcements are in place" in line.text]
        assert len(placed) == sum(1 for s in steps if s.sent)
        whites = Counter(z for p, z in bridge.placements().items() if p.startswith("white"))
        assert whites["reinforcements"] == max(0, supply - sent)
