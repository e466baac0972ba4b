"""Points the rulebook leaves open, as ruled in docs/clarifications.md (C14-C17); C12 and C13 are
tested in test_concealment.py and test_movement_phase.py."""

from __future__ import annotations

from _engine_kit import ISH, TOK, ok, pick, position

from companion.games.sekigahara.components import CardKind, Clan
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.castles import (
    castle_controller,
    castles_controlled,
    resources_controlled,
)
from companion.games.sekigahara.engine.data import BOARD
from companion.games.sekigahara.engine.flow import Emitter
from companion.games.sekigahara.engine.state import RECRUITMENT, Level, Phase
from companion.games.sekigahara.engine.victory import final_score
from companion.games.sekigahara.engine.views import public_view


def test_c14_mustering_in_support_of_a_besieged_disk() -> None:
    """7.2, C14: only the Hideyori disk holds Osaka against Tokugawa blocks; the combat was
    started by blocks on the board, so a Kobayakawa muster there supports it, as a Mori block
    moving in would (test_movement_phase.py: with no friendly unit there, refused)."""
    [koba] = pick(ISH, 1, clan=Clan.KOBAYAKAWA, leader=False)
    besiegers = pick(TOK, 2)
    game = position({RECRUITMENT: [koba], "osaka": besiegers}, active=ISH, level=Level.TOTAL)
    assert game.state.disks  # Hideyori stands at Osaka
    events = ok(game, cm.Muster(side=ISH, location="osaka", blocks=(koba,), option="A"))
    assert any(isinstance(e, ev.Mustered) for e in events)


def test_c15_a_retreat_into_a_siege_already_fought_this_phase_joins_it() -> None:
    """8.8.5, 8.1, C15: Tokugawa besieges Gifu (fought this phase, the castle holds), then
    loses at Sawayama and retreats whence it came, to Gifu: its blocks join the besiegers and
    no second siege opens this phase; next Combat Phase it must declare there again."""
    inside = pick(ISH, 2, clan=Clan.UKITA, mon=1)
    [defender] = pick(ISH, 1, clan=Clan.UESUGI, mon=3)
    besiegers = pick(TOK, 4, clan=Clan.DATE)
    game = position(
        {"gifu": inside + besiegers, "sawayama": [defender]}, level=Level.TOTAL, hands=6,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    ok(game, cm.MoveStack(side=TOK, origin="gifu", paths={b: ("sawayama",) for b in besiegers[:2]}))
    ok(game, cm.EndPhase(side=TOK))
    assert game.state.phase is Phase.COMBAT
    ok(game, cm.DeclareCombat(side=TOK, location="gifu"))
    ok(game, cm.ChooseInside(side=ISH, inside=True))
    ok(game, cm.Finish(side=TOK))  # the siege ends: no Impact, the castle holds
    assert "gifu" in game.state.resolved
    ok(game, cm.DeclareCombat(side=TOK, location="sawayama"))
    ok(game, cm.Finish(side=TOK))
    ok(game, cm.Deploy(side=ISH, card=cm.CardPlay(clan=Clan.UESUGI, kind=CardKind.PLAIN),
                       blocks=(defender,)))
    ok(game, cm.Finish(side=ISH))
    ok(game, cm.TakeLosses(side=TOK, losses=(besiegers[0],)))
    events = ok(game, cm.Retreat(side=TOK, destination="gifu"))
    assert not [e for e in events if isinstance(e, ev.CombatDeclared)]
    assert game.state.pending is None
    assert sum(1 for b in besiegers if game.state.pos[b] == "gifu") == 3
    assert set(inside) <= game.state.inside
    ok(game, cm.EndPhase(side=TOK))  # nothing left to declare this phase


def test_c16_mustering_onto_a_resource_location_takes_control() -> None:
    """4.2, C16: a mustered block is moved onto the location: Tokugawa mustering at Edo takes
    back the Resource Location Ishida had claimed."""
    [box] = pick(TOK, 1, clan=Clan.TOKUGAWA, leader=False)
    game = position({RECRUITMENT: [box], "sunpu": pick(TOK, 1, exclude=[box])},
                    level=Level.TOTAL, extra=[ev.ResourceControlled(location="edo", side=ISH)])
    assert game.state.resource_control["edo"] is ISH
    events = ok(game, cm.Muster(side=TOK, location="edo", blocks=(box,), option="B"))
    assert [e for e in events if isinstance(e, ev.ResourceControlled)]
    assert game.state.resource_control["edo"] is TOK
    assert public_view(game.state).payload.resources["edo"] is TOK


def test_c17_a_castle_held_by_its_disk_alone_is_ishidas() -> None:
    """4.3, 2.2, 3.4, C17: Tokugawa blocks at Osaka, only Hideyori inside: the castle is
    Ishida's for control, the shared screen and the victory points."""
    game = position({"osaka": pick(TOK, 3)}, phase=Phase.COMBAT)
    state = game.state
    assert castle_controller(state, "osaka") is ISH
    assert public_view(state).payload.castles["osaka"] is ISH
    aligned = sum(1 for c in BOARD.castles if c.castle is ISH)
    assert castles_controlled(state, ISH) == aligned
    em = Emitter(state)
    final_score(em)
    [won] = [e for e in em.events if isinstance(e, ev.GameWon)]
    assert won.score[ISH] == 2 * aligned + resources_controlled(state, ISH)
