"""The bridge serves Tenka Meidou through the same interface as Sekigahara (issue 11): the real
bridge reads simulated hubs over real pseudo-terminals, and the game-neutral table session hands
what it sees to Tenka Meidou's table checks, which verify a deployment against the dice entered
(5.I.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_helpers import RATE_HZ, WAIT_S

from companion.core.game import Game
from companion.core.table import GameTable
from companion.games.tenka_meidou.components import Colour, Tactic
from companion.games.tenka_meidou.events import Deploy, SoldiersDeployed, StartGame
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.simulator import TenkaGame
from companion.games.tenka_meidou.table import TenkaSessionRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.discrepancy import count_pieces
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
        assert any(line.kind == "command" and "red deployed 2 soldier(s) to" in line.text
                   for line in session.log)
        bridge.wait_for(lambda b: hub.leds.get(antenna) in (None, LedMode.OFF), WAIT_S)
