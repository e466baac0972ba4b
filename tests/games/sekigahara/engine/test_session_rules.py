"""TableRules: the readers' changes judged by the engine's own queries and handlers (no pty).

Movement (7.2, 7.3, 8.9.6, 9.3), draws (5.2.2, 6.2) and combat (8.2.3, 8.7.2, 8.8) against real
engine states; every player-facing string is checked for hidden identities (3.1)."""

from __future__ import annotations

import random
import re

from _engine_kit import ISH, TOK, deploy, ok, pick, position

from companion.core.game import Accepted
from companion.core.rules import RuleViolation
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import Clan, SetupSymbol, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, FACES
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.queries import movable_stacks, retreat_options
from companion.games.sekigahara.engine.session_rules import (
    Hold,
    Outcome,
    Question,
    QuestionKind,
    Ready,
    TableRules,
)
from companion.games.sekigahara.engine.state import BAG, MORI_BOX, RECRUITMENT, Level, Phase
from companion.games.sekigahara.zones import (
    CASUALTIES,
    bag_zone,
    deployment_zone,
    recruitment_zone,
    zone_names,
)
from firmware_bridge.discrepancy import MoveRules, ProposedMove

BLOCK_ID = re.compile(r"\b[IT]\d\d\b")
FACE = re.compile(  # a clan that is not also a side's name, or a face's symbol (3.2)
    r"\b(" + "|".join(c.value for c in Clan if c.value not in set(Side)) + r"|mon|cavalry|gun)\b",
    re.I,
)
TOKS = pick(TOK, 3, clan=Clan.TOKUGAWA, mon=3)


def seeded_movement(seed: int = 5) -> SekigaharaGame:
    """The engine's own setup, drawn at a seeded table as self-play does, up to the first
    Movement Phase; the active side buys Total Movement (7.1)."""
    rng = random.Random(seed)
    table = Table.shuffled(rng)
    player = RandomPlayer(rng, table)
    game = new_game()
    while not (game.state.phase is Phase.MOVEMENT and game.state.level is None):
        result = game.submit(player.command(game.state))
        if isinstance(result, Accepted):
            for event in result.events:
                table.observe(event)
    assert game.state.active is not None
    ok(game, cm.BuyMovement(side=game.state.active, level=Level.TOTAL))
    return game


def outcome(rules: TableRules, origin: str, destination: str, *blocks: str) -> Outcome:
    assert rules.explain_move(origin, destination, blocks) is None
    return rules.commands_for(ProposedMove(origin, destination, tuple(sorted(blocks))))


def violation(rules: TableRules, origin: str, destination: str, *blocks: str) -> RuleViolation:
    found = rules.explain_move(origin, destination, blocks)
    assert found is not None, "legal"
    assert not BLOCK_ID.search(found.message) and not FACE.search(found.message), found.message
    return found


def assert_public(question: Question) -> None:
    for text in (question.text, *(o.label for o in question.options)):
        assert not BLOCK_ID.search(text), text


def test_table_rules_are_the_bridges_move_rules_and_share_its_zone_names() -> None:
    assert isinstance(TableRules(new_game()), MoveRules)
    for side in Side:
        assert recruitment_zone(side) in zone_names()  # the board data's Recruitment Box
        assert deployment_zone(side) in zone_names()


def test_expected_positions_name_the_bridges_zones() -> None:
    game = seeded_movement()
    rules = TableRules(game)
    expected = rules.expected_positions()
    assert len(expected) == len(game.state.pos)
    for block, where in game.state.pos.items():
        side = Side.ISHIDA if block.startswith("I") else Side.TOKUGAWA
        zone = {BAG: bag_zone(side), RECRUITMENT: f"{side.value}_recruitment",
                MORI_BOX: "mori_box"}.get(where, where)
        assert expected[block] == zone


def test_a_stack_move_with_one_route_is_a_move_stack() -> None:
    game = seeded_movement()
    rules = TableRules(game)
    result = outcome(rules, "gifu", "kiso", "I11", "I15")
    assert isinstance(result, Ready)
    [command] = result.commands
    assert isinstance(command, cm.MoveStack) and command.origin == "gifu"
    assert command.paths == {"I11": ("iwamura", "kiso"), "I15": ("iwamura", "kiso")}
    ok(game, command)
    assert rules.expected_positions()["I11"] == "kiso"


def test_two_routes_ask_which_and_the_answer_is_the_move() -> None:
    game = seeded_movement()
    rules = TableRules(game)
    question = outcome(rules, "kyoto", "osaka", "I10", "I44")
    assert isinstance(question, Question) and question.kind is QuestionKind.ROUTE
    assert len(question.options) == 2 and question.side is Side.ISHIDA
    assert_public(question)
    events = ok(game, *question.answer(1))
    assert any(isinstance(e, ev.StackMoved) for e in events)
    try:
        question.answer(2)
    except ValueError as exc:
        assert "0 to 1" in str(exc)
    else:
        raise AssertionError("a choice not offered was accepted")


def test_too_far_and_out_of_turn_are_rejected_citing_the_rule() -> None:
    game = seeded_movement()
    rules = TableRules(game)
    assert violation(rules, "gifu", "edo", "I11", "I15").rule.startswith("7.3")
    assert violation(rules, "edo", "hakone", *[b for b, z in game.state.pos.items()
                                               if z == "edo"][:1]).rule == "6.4"


def test_a_besieged_block_leaving_breaks_8_9_6() -> None:
    inside = pick(ISH, 1)
    game = position(
        {"gifu": inside + pick(TOK, 4)}, active=ISH, level=Level.TOTAL,
        extra=[ev.StayedInside(location="gifu", side=ISH, inside=True, combat=False)],
    )
    assert violation(TableRules(game), "gifu", "sawayama", *inside).rule == "8.9.6"


def _muster_outcome(block: str, dest: str) -> Outcome | RuleViolation:
    game = position({RECRUITMENT: [block], "sunpu": pick(TOK, 1)}, level=Level.TOTAL)
    rules = TableRules(game)
    found = rules.explain_move("tokugawa_recruitment", dest, (block,))
    if found is not None:
        return found
    return rules.commands_for(ProposedMove("tokugawa_recruitment", dest, (block,)))


def test_muster_asks_a_or_b_whatever_the_block() -> None:
    """7.2, 3.1: one block mustered to a friendly recruitment location always asks A or B, so
    the question never tells the opponent its clan (the issue 9 leak: it was asked only when the
    block's clan matched the location's mon)."""
    [date] = pick(TOK, 1, clan=Clan.DATE, leader=False)
    [maeda] = pick(TOK, 1, clan=Clan.MAEDA, leader=False)
    for dest in ("sendai", "edo"):  # sendai has the Date mon, edo does not
        seen = [_muster_outcome(b, dest) for b in (date, maeda)]
        assert all(isinstance(q, Question) and q.kind is QuestionKind.MUSTER_OPTION
                   for q in seen), seen
        first, second = (q for q in seen if isinstance(q, Question))
        assert_public(first)
        assert [o.label for o in first.options] == [o.label for o in second.options]
        assert first.text == second.text
    # answered: option A of a block that does not fit is refused, B is accepted (7.2)
    game = position({RECRUITMENT: [maeda], "sunpu": pick(TOK, 1)}, level=Level.TOTAL)
    question = outcome(TableRules(game), "tokugawa_recruitment", "sendai", maeda)
    assert isinstance(question, Question)
    [a_command], [b_command] = question.answer(0), question.answer(1)
    assert not isinstance(game.submit(a_command), Accepted)
    assert isinstance(game.submit(b_command), Accepted)
    # not a friendly recruitment location: refused, the same words for either block
    refusals = [_muster_outcome(b, "osaka") for b in (date, maeda)]
    assert all(isinstance(r, RuleViolation) and r.rule == "7.2" for r in refusals)
    assert len({str(r) for r in refusals}) == 1


def test_several_blocks_muster_with_option_a_only() -> None:
    date = pick(TOK, 2, clan=Clan.DATE, leader=False)
    game = position({RECRUITMENT: date, "sunpu": pick(TOK, 1)}, level=Level.TOTAL)
    ready = outcome(TableRules(game), "tokugawa_recruitment", "sendai", *date)
    assert isinstance(ready, Ready)
    [command] = ready.commands
    assert isinstance(command, cm.Muster) and command.option == "A"


def test_mori_blocks_come_to_osaka_only_in_an_ishida_movement_phase() -> None:
    game = position({"osaka": pick(ISH, 1)}, active=ISH, level=Level.TOTAL, hands=6)
    mori = sorted((b for b, z in game.state.pos.items() if z == MORI_BOX),
                  key=lambda b: (FACES[b].leader, b))
    rules = TableRules(game)
    result = outcome(rules, "mori_box", "osaka", *mori[:1])
    assert isinstance(result, Ready) and isinstance(result.commands[0], cm.BringMori)
    found = rules.explain_move("mori_box", "kyoto", mori[:1])  # the Mori box is public (9.3)
    assert found is not None and found.rule == "9.3" and not BLOCK_ID.search(found.message)


def test_setup_draws_wait_for_the_whole_draw_and_must_go_where_named() -> None:
    game = new_game()
    ok(game, cm.StartGame())
    due = game.state.draws_due[0]
    side, zone, n = due
    bag_blocks = sorted(b for b, z in game.state.pos.items() if z == BAG and
                        (b.startswith("I") == (side is Side.ISHIDA)))
    rules = TableRules(game)
    where = f"{side.value}_recruitment" if zone == RECRUITMENT else zone
    # 5.2.2: the draws come after the blocks with set-up symbols stand on the map
    assert violation(rules, bag_zone(side), where, *bag_blocks[:n]).rule == "5.2.2"
    rules.observe(rules.setup_places())
    if n > 1:
        assert isinstance(outcome(rules, bag_zone(side), where, *bag_blocks[:1]), Hold)
    result = outcome(rules, bag_zone(side), where, *bag_blocks[:n])
    assert isinstance(result, Ready) and isinstance(result.commands[0], cm.DrawBlocks)
    other = next(loc for loc in ("kiso", "edo") if loc != zone)
    assert violation(rules, bag_zone(side), other, *bag_blocks[:n]).rule == "5.2.2"


def fought(game: SekigaharaGame) -> None:
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    deploy(game, TOK, TOKS[0])
    ok(game, cm.Finish(side=ISH))
    deploy(game, TOK, *TOKS[1:])
    ok(game, cm.Finish(side=TOK))


def test_deployment_to_the_tray_asks_for_the_card_and_trays_are_expected() -> None:
    ish = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    rules = TableRules(game)
    assert rules.battle_site() == "hamamatsu"
    question = outcome(rules, "hamamatsu", "tokugawa_deployment", TOKS[0])
    assert isinstance(question, Question) and question.kind is QuestionKind.CARD
    ok(game, *question.answer(0))
    assert rules.expected_positions()[TOKS[0]] == "tokugawa_deployment"
    assert violation(rules, "kiso", "ishida_deployment", ish[0]).rule == "8.2.3"
    assert violation(rules, "hamamatsu", "tokugawa_deployment", TOKS[1]).rule.startswith("8.")


def test_losses_on_the_casualty_tray_are_take_losses() -> None:
    ish = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    fought(game)
    assert game.state.pending is not None and game.state.pending.combat is not None
    assert combat.awaiting_losses(game.state.pending.combat) is Side.ISHIDA
    rules = TableRules(game)
    assert isinstance(outcome(rules, "hamamatsu", CASUALTIES, ish[0]), Hold)  # two are due
    result = outcome(rules, "hamamatsu", CASUALTIES, *ish)
    assert isinstance(result, Ready)
    [command] = result.commands
    assert isinstance(command, cm.TakeLosses) and set(command.losses) == set(ish)
    assert violation(rules, "tokugawa_deployment", CASUALTIES, TOKS[0]).rule == "8.7.2"
    ok(game, command)
    assert all(rules.expected_positions()[b] == CASUALTIES for b in ish)


def test_the_losers_blocks_to_a_neighbour_are_a_retreat_once_all_have_moved() -> None:
    ish = pick(ISH, 3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    fought(game)
    pending = game.state.pending
    assert pending is not None and pending.combat is not None
    lose = next(a for a in combat.legal_actions(pending.combat) if isinstance(a, combat.Lose))
    ok(game, cm.TakeLosses(side=lose.side, losses=lose.losses))
    while game.state.pending is not None and game.state.pending.combat is not None:
        more = [a for a in combat.legal_actions(game.state.pending.combat)
                if isinstance(a, combat.Lose)]
        ok(game, cm.TakeLosses(side=more[0].side, losses=more[0].losses))
    destinations, _ = retreat_options(game.state)
    survivors = [b for b in ish if game.state.pos[b] == "hamamatsu"]
    assert destinations and survivors
    rules = TableRules(game)
    if len(survivors) > 1:
        assert isinstance(outcome(rules, "hamamatsu", destinations[0], survivors[0]), Hold)
    result = outcome(rules, "hamamatsu", destinations[0], *survivors)
    assert isinstance(result, Ready) and isinstance(result.commands[0], cm.Retreat)
    assert violation(rules, "hamamatsu", destinations[0], TOKS[0]).rule == "8.8.1"
    elsewhere = [n for n in BOARD.neighbours("hamamatsu") if n not in destinations]
    if elsewhere:
        assert violation(rules, "hamamatsu", elsewhere[0], *survivors).rule.startswith("8.8")


def test_an_overrun_block_belongs_on_the_casualty_tray() -> None:
    game = position({"kiso": pick(TOK, 4), "iwamura": pick(ISH, 1)}, level=Level.TOTAL)
    rules = TableRules(game)
    [lone] = pick(ISH, 1)
    result = outcome(rules, "kiso", "iwamura", *pick(TOK, 4))
    assert isinstance(result, Ready)
    ok(game, *result.commands)
    assert rules.expected_positions()[lone] == CASUALTIES  # 7.4: four to one, overrun
    assert violation(rules, CASUALTIES, "iwamura", lone).rule == "7.4"


def test_after_a_battle_deployed_blocks_stay_expected_on_the_tray_until_seen_back() -> None:
    """8.2.1: revealed blocks become concealed again after the battle. The screen asks the
    players to put them back; until the readers see them off the tray that is what is
    expected, never a discrepancy."""
    ish = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    fought(game)
    rules = TableRules(game)
    lost = outcome(rules, "hamamatsu", CASUALTIES, *ish)
    assert isinstance(lost, Ready)
    ok(game, *lost.commands)
    assert game.state.pending is None and all(game.state.pos[b] == "hamamatsu" for b in TOKS)
    seen = {b: "tokugawa_deployment" for b in TOKS} | dict.fromkeys(ish, CASUALTIES)
    rules.observe(seen)
    assert all(rules.expected_positions()[b] == "tokugawa_deployment" for b in TOKS)
    assert rules.table_steps() == [
        "Tokugawa: put your 3 deployed blocks back on Hamamatsu, concealed again (8.2.1)"]
    seen[TOKS[0]] = "hamamatsu"
    rules.observe(seen)
    expected = rules.expected_positions()
    assert expected[TOKS[0]] == "hamamatsu" and expected[TOKS[1]] == "tokugawa_deployment"
    assert rules.table_steps() == [
        "Tokugawa: put your 2 deployed blocks back on Hamamatsu, concealed again (8.2.1)"]
    rules.observe(seen | dict.fromkeys(TOKS, "hamamatsu"))
    assert rules.table_steps() == [] and rules.returning() == {}
    assert all(rules.expected_positions()[b] == "hamamatsu" for b in TOKS)
    # back on the tray once put back: that is no longer what the screen asked for
    assert violation(rules, "hamamatsu", "tokugawa_deployment", TOKS[0]).rule == "8.2.3"


def test_the_loser_retreats_its_deployed_blocks_straight_from_the_tray() -> None:
    """8.8, 8.2.1: a deployed block of the loser may go from its tray to the retreat
    destination directly; it is judged as leaving the battle site."""
    ish = pick(ISH, 4, mon=1)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    ok(game, cm.DeclareCombat(side=TOK, location="hamamatsu"))
    left = {TOK: list(TOKS), ISH: list(ish[:3])}
    while (p := game.state.pending) is not None and (
            holder := combat.initiative(p.combat)) is not None:
        if left[holder]:
            deploy(game, holder, left[holder].pop(0))
        else:
            ok(game, cm.Finish(side=holder))
    while game.state.pending is not None and game.state.pending.combat is not None:
        lose = next(a for a in combat.legal_actions(game.state.pending.combat)
                    if isinstance(a, combat.Lose))
        ok(game, cm.TakeLosses(side=lose.side, losses=lose.losses))
    p = game.state.pending
    assert p is not None and p.retreating is ISH
    survivors = [b for b in ish if game.state.pos[b] == "hamamatsu"]
    [back] = [b for b in survivors if b in ish[:3]]
    rules = TableRules(game)
    rules.observe({back: "ishida_deployment"})
    assert rules.returning() == {back: "hamamatsu"}
    destination = retreat_options(game.state)[0][0]
    others = [b for b in survivors if b != back]
    assert others
    assert isinstance(outcome(rules, "hamamatsu", destination, *others), Hold)
    both = rules.commands_for(ProposedMove("ishida_deployment", destination, (back,)))
    assert isinstance(both, Hold)  # the rest of the stack is still to come (8.8)


def test_an_overrun_block_seen_on_the_map_is_asked_onto_the_casualty_tray() -> None:
    """7.4: the screen asks the players to take the overrun block off; the check waits."""
    game = position({"kiso": pick(TOK, 4), "iwamura": pick(ISH, 1)}, level=Level.TOTAL)
    rules = TableRules(game)
    [lone] = pick(ISH, 1)
    rules.observe({lone: "iwamura"})
    result = outcome(rules, "kiso", "iwamura", *pick(TOK, 4))
    assert isinstance(result, Ready)
    ok(game, *result.commands)
    seen = {lone: "iwamura"} | dict.fromkeys(pick(TOK, 4), "iwamura")
    rules.observe(seen)
    assert rules.expected_positions()[lone] == "iwamura"
    assert rules.table_steps() == [
        "Ishida: move your eliminated block from Iwamura to the casualty tray (7.4)"]
    rules.observe(seen | {lone: CASUALTIES})
    assert rules.expected_positions()[lone] == CASUALTIES and rules.table_steps() == []


def test_set_up_blocks_wait_in_the_game_box_until_they_stand_on_their_symbol() -> None:
    """5.2.1: a block with a set-up symbol comes from the game box; set down anywhere else it
    is refused citing 5.2.1, never a move "from Osaka"."""
    game = new_game()
    ok(game, cm.StartGame())
    rules = TableRules(game)
    rules.observe({})
    osaka = sorted(b for b, z in game.state.pos.items() if z == "osaka")
    assert len(osaka) == 6 and all(rules.expected_positions()[b] == "box" for b in osaka)
    assert rules.setup_to_stand()[("osaka", ISH, SetupSymbol.SQUARE)] == 6
    found = violation(rules, "box", "kyoto", osaka[0])
    assert found.rule == "5.2.1" and "set-up symbol" in found.message
    rules.observe({osaka[0]: "osaka"})
    assert rules.expected_positions()[osaka[0]] == "osaka"
    assert rules.setup_to_stand()[("osaka", ISH, SetupSymbol.SQUARE)] == 5


def test_route_buttons_never_share_a_label() -> None:
    game = seeded_movement()
    rules = TableRules(game)
    side = game.state.active
    assert side is not None
    for origin, blocks in sorted(movable_stacks(game.state, side).items()):
        near = {d for n in BOARD.neighbours(origin) for d in [n, *BOARD.neighbours(n)]}
        for dest in sorted(near):
            if dest == origin or rules.explain_move(origin, dest, blocks) is not None:
                continue
            result = rules.commands_for(ProposedMove(origin, dest, tuple(sorted(blocks))))
            if isinstance(result, Question):
                labels = [o.label for o in result.options]
                assert len(labels) == len(set(labels)), labels


def test_deployed_blocks_are_asked_back_until_the_players_next_buy_movement() -> None:
    """Once the next side buys movement (7.1) a block left on its tray is a difference again,
    and a game resumed later never asks for an old battle's blocks."""
    ish = pick(ISH, 2, clan=Clan.UKITA, mon=3)
    game = position({"hamamatsu": TOKS + ish}, phase=Phase.COMBAT, hands=6)
    fought(game)
    rules = TableRules(game)
    lost = outcome(rules, "hamamatsu", CASUALTIES, *ish)
    assert isinstance(lost, Ready)
    ok(game, *lost.commands)
    assert TableRules(game).returning() == dict.fromkeys(TOKS, "hamamatsu")  # a fresh memory
    ok(game, cm.EndPhase(side=TOK))
    assert rules.returning() == dict.fromkeys(TOKS, "hamamatsu")  # the phase ended with it
    while game.state.phase is not Phase.MOVEMENT:
        ok(game, cm.EndPhase(side=game.state.active))
    ok(game, cm.BuyMovement(side=game.state.active, level=Level.MINIMAL))
    assert TableRules(game).returning() == {} and rules.returning() == {}
