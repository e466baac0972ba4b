"""The self-play invariants catch what they are for: a block id planted in the public view, a
block index that disagrees with the blocks' positions. And the engine keeps its block index
right through whole games, applying each event once."""

from __future__ import annotations

from _engine_kit import ISH, TOK, ok, pick, position

from companion.core.game import Game
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import apply_event
from companion.games.sekigahara.engine.data import ISHIDA_LEADER
from companion.games.sekigahara.engine.flow import Emitter
from companion.games.sekigahara.engine.game import SekigaharaRules
from companion.games.sekigahara.engine.invariants import holds_block_id, violations
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.sekigahara.engine.state import DEAD, Level, State, index_agrees, index_of

LEAK = "the public view holds a block id"
DISAGREE = "the blocks by zone disagree with the blocks' positions"


def _midgame() -> State:
    report = play_game(3, check=False)
    assert report.game is not None
    return Game(SekigaharaRules(), report.game.events[:120]).state


def test_a_block_id_planted_in_the_public_view_is_caught() -> None:
    state = _midgame()
    assert violations(state) == []
    leaked = state.copy()
    leaked.victory = f"{ISHIDA_LEADER} killed (2.1)"  # free text the shared screen shows
    assert LEAK in violations(leaked)
    assert LEAK not in violations(leaked, views=False)


def test_the_leak_scan_finds_an_id_only_as_a_word_of_its_own() -> None:
    for text in ('"I07"', "I07", "lost T41.", "{'x': T10}", "a I99", '["T05","x"]'):
        assert holds_block_id(text), text
    for text in ("XI07", "I0", "I7", "T410", "I07a", "ishida 07", "rule 2.1", "_T05", "é T1"):
        assert not holds_block_id(text), text


def test_a_block_index_out_of_step_with_the_positions_is_caught() -> None:
    state = _midgame()
    stale = state.copy()
    stale.pos[ISHIDA_LEADER] = DEAD  # written past State.place: the index is not told
    assert not index_agrees(stale) and DISAGREE in violations(stale)
    doubled = state.copy()
    zone = doubled.pos[ISHIDA_LEADER]
    other = next(z for z in doubled.at if z != zone)
    doubled.at[other] = doubled.at[other] | {ISHIDA_LEADER}  # in two zones at once
    assert not index_agrees(doubled)
    emptied = state.copy()
    emptied.at["nowhere"] = frozenset()
    assert not index_agrees(emptied)
    moved = state.copy()
    moved.place(ISHIDA_LEADER, DEAD)
    assert index_agrees(moved) and moved.at == index_of(moved.pos)


def test_the_block_index_equals_a_full_scan_after_every_event_of_whole_games() -> None:
    for seed in (4, 5):
        report = play_game(seed, check=False)
        assert report.game is not None
        state = State()
        for event in report.game.events:
            state = apply_event(state, event)
            assert state.at == index_of(state.pos), event.type
            assert index_agrees(state)
        assert state == report.game.state


def test_a_state_built_from_positions_alone_gets_its_index() -> None:
    state = State(pos={"I01": "kyoto", "T01": "edo", "I02": "kyoto"})
    assert state.at == {"kyoto": frozenset({"I01", "I02"}), "edo": frozenset({"T01"})}


class CountingRules(SekigaharaRules):
    """The Sekigahara rules, counting how often an event is applied outside a ruling."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, state: State, event: ev.Event) -> State:
        self.applied += 1
        return super().apply(state, event)


def test_a_command_s_events_are_applied_once_while_ruling_not_again_by_the_game() -> None:
    game = position({"kyoto": pick(ISH, 2), "edo": pick(TOK, 2)}, level=Level.LIMITED)
    rules = CountingRules()
    played = Game(rules, game.events)
    rules.applied = 0
    ok(played, cm.EndPhase(side=TOK))
    assert rules.applied == 0
    rebuilt = State()
    for event in played.events:
        rebuilt = apply_event(rebuilt, event)
    assert rebuilt == played.state


def test_events_not_emitted_from_the_state_ruled_on_are_applied_as_usual() -> None:
    state = position({"kyoto": pick(ISH, 1)}).state
    em = Emitter(state)
    em.emit(ev.CardsDrawn(side=ISH, count=1, rule="test"))
    assert em.events.leads_from(state) and not em.events.leads_from(state.copy())
    em.events.append(ev.CardsDrawn(side=TOK, count=1, rule="test"))  # added, not emitted
    assert not em.events.leads_from(state)
