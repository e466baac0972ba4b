"""Swapped worlds (3.1, 7.3.4, C12, C18): exchange two never-revealed blocks of one side and every
public output must stay the same: the public view (keys in the same order), the log lines, the
rejection messages, the board's lit destinations and the route questions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from _engine_kit import ISH, TOK, pick, position

from companion.core.game import Accepted
from companion.games.sekigahara.components import Clan
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, ISHIDA_LEADER, TOKUGAWA_LEADER
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.queries import explain_stack_move, legal_destinations
from companion.games.sekigahara.engine.session_rules import Question, TableRules
from companion.games.sekigahara.engine.state import Level
from companion.games.sekigahara.engine.views import public_event, public_view
from firmware_bridge.discrepancy import ProposedMove

Placements = Mapping[str, Sequence[str]]


def swapped(placements: Placements, a: str, b: str) -> dict[str, list[str]]:
    """The same position with blocks ``a`` and ``b`` exchanged."""
    other = {a: b, b: a}
    return {zone: [other.get(x, x) for x in blocks] for zone, blocks in placements.items()}


def public_outputs(game: SekigaharaGame, commands: Iterable[cm.Command],
                   by: str | None = None) -> list[str]:
    """What the shared screen shows as ``commands`` are submitted: the public view, then per
    command its rejection (rule and message) or its log lines."""
    shown = [public_view(game.state).payload.model_dump_json()]
    for command in commands:
        result = game.submit(command, by)
        if isinstance(result, Accepted):
            shown += [public_event(e) for e in result.events]
        else:
            shown.append(f"{result.rule}: {result.message}")
        shown.append(public_view(game.state).payload.model_dump_json())
    return shown


def move(origin: str, blocks: Sequence[str], *path: str, side: object = TOK) -> cm.MoveStack:
    return cm.MoveStack(side=side, origin=origin, paths={b: tuple(path) for b in blocks})


def test_the_public_view_is_built_in_board_order() -> None:
    """The locations' key order once followed block ids: its first key was where Ishida
    Mitsunari stood. Swapping each protagonist with a plain block of its side changes nothing."""
    [plain_i] = pick(ISH, 1)
    [plain_t] = pick(TOK, 1)
    world = {"kyoto": [plain_i], "sawayama": [ISHIDA_LEADER],
             "edo": [TOKUGAWA_LEADER], "sunpu": [plain_t]}
    other = swapped(swapped(world, ISHIDA_LEADER, plain_i), TOKUGAWA_LEADER, plain_t)
    for phase_level in (None, Level.TOTAL):
        views = [public_view(position(w, level=phase_level).state).payload.model_dump_json()
                 for w in (world, other)]
        assert views[0] == views[1]
    keys = list(public_view(position(world).state).payload.locations)
    assert keys == [loc for loc in BOARD.locations if loc in keys]


LEADER = pick(TOK, 1, clan=Clan.DATE, leader=True)[0]
P1, P2 = pick(TOK, 2, leader=False)
LEADER_AT_SUNPU = {"sunpu": [LEADER, P1], "kiso": [P2]}
NO_LEADER_AT_SUNPU = swapped(LEADER_AT_SUNPU, LEADER, P2)


def _both(commands: Sequence[cm.Command]) -> tuple[list[str], list[str]]:
    return tuple(  # type: ignore[return-value]
        public_outputs(position(w, level=Level.TOTAL), commands)
        for w in (LEADER_AT_SUNPU, NO_LEADER_AT_SUNPU)
    )


def test_a_move_that_does_not_need_the_leader_does_not_use_it() -> None:
    """7.3.4, C12: one location by a plain block beside a hidden leader is logged without
    "leadership" and reads as it would with no leader there."""
    with_leader, without = _both([move("sunpu", [P1], "hamamatsu")])
    assert with_leader == without
    assert not any("leadership" in line for line in with_leader)
    game = position(LEADER_AT_SUNPU, level=Level.TOTAL)
    game.submit(move("sunpu", [P1], "hamamatsu"))
    [moved] = [e for e in game.events if isinstance(e, ev.StackMoved)]
    assert moved.leadership is False


def test_rejections_never_mention_a_hidden_leader() -> None:
    """Too far even with the leader (4 locations: base 1, highway +1, leadership +1 = 3): the
    public message is the one without a leader, in both worlds; the private detail tells the
    mover what the leader would have allowed."""
    too_far = move("sunpu", [P1], "hamamatsu", "okazaki", "kiyosu", "kuwana")
    with_leader, without = _both([too_far])
    assert with_leader == without
    assert not any("leadership" in line for line in with_leader)
    game = position(LEADER_AT_SUNPU, level=Level.TOTAL)
    refused = game.submit(too_far)
    assert not isinstance(refused, Accepted)
    assert refused.private is not None and "leadership" in refused.private


def test_a_move_that_needs_the_leader_declares_it() -> None:
    """7.3.4, C10: three locations need the leader (base 1, highway +1): accepted "with
    leadership" where the leader stands, refused citing 7.3.3 (and no leader) elsewhere."""
    three = move("sunpu", [P1], "hamamatsu", "okazaki", "kiyosu")
    with_leader, without = _both([three])
    assert any("with leadership: 1 to kiyosu" in line for line in with_leader)
    refusal = next(line for line in without if line.startswith("7.3"))
    assert "leadership" not in refusal


def test_lit_destinations_routes_and_explanations_ignore_a_hidden_leader() -> None:
    """The board's LEDs, the route question and an illegal move's reason read the same in
    both worlds; the mover's own query still lists the routes the leader opens, marked."""
    games = [position(w, level=Level.TOTAL) for w in (LEADER_AT_SUNPU, NO_LEADER_AT_SUNPU)]
    lit = [TableRules(g).destinations("sunpu", [P1]) for g in games]
    assert lit[0] == lit[1]
    broke = [position(w, level=Level.TOTAL, hands=2)  # no card left for a force march
             for w in (LEADER_AT_SUNPU, NO_LEADER_AT_SUNPU)]
    reasons = [explain_stack_move(g.state, TOK, "sunpu", "kuwana", (P1,)).reason for g in broke]
    assert reasons[0] == reasons[1] and reasons[0] is not None
    assert "leadership" not in reasons[0]
    for dest in ("okazaki", "kiyosu"):  # kiyosu: a force march card, or the leader instead
        outcomes = [TableRules(g).commands_for(ProposedMove("sunpu", dest, (P1,)))
                    for g in games]
        assert outcomes[0] == outcomes[1]
    [question, _] = outcomes
    assert isinstance(question, Question)
    march, led = question.options
    assert "force march" in march.label and "Leadership" in led.label
    own = legal_destinations(games[0].state, TOK, "sunpu", (P1,), force_march=False)
    assert own["kiyosu"] and all(r.needs_leader for r in own["kiyosu"])
    assert not any(r.needs_leader for r in own["okazaki"])
    assert "kiyosu" not in legal_destinations(games[1].state, TOK, "sunpu", (P1,),
                                              force_march=False)
    # the leadership answer is accepted where the leader stands, refused (7.3.3) elsewhere
    assert isinstance(games[0].submit(led.commands[0]), Accepted)
    refused = games[1].submit(led.commands[0])
    assert not isinstance(refused, Accepted) and refused.rule == "7.3.3"


def test_a_command_in_the_opponents_name_learns_nothing() -> None:
    """C18: Tokugawa's device sending Ishida moves gets one refusal, whatever Ishida has where
    (it used to read "no road joins ..." or "not an ishida block at ...")."""
    [a, b] = pick(ISH, 2)
    world = {"sawayama": [a], "kyoto": [b]}
    other = swapped(world, a, b)
    commands: list[cm.Command] = [
        move("sawayama", [a], "gifu", side=ISH),
        move("sawayama", [a], "aizu", side=ISH),
        cm.EndPhase(side=ISH),
        cm.BringMori(blocks=(a,)),
    ]
    seen = [public_outputs(position(w, active=ISH, level=Level.TOTAL), commands, by="tokugawa")
            for w in (world, other)]
    assert seen[0] == seen[1]
    assert all(line.startswith("C18: tokugawa cannot give a command for ishida")
               for line in seen[0][1::2])
    game = position(world, active=ISH, level=Level.TOTAL)
    refused = game.submit(cm.EndPhase(side=ISH), "referee")
    assert not isinstance(refused, Accepted) and refused.rule == "C18"
    assert isinstance(game.submit(move("sawayama", [a], "gifu", side=ISH), "ishida"), Accepted)


def test_a_move_needing_a_leader_and_a_force_march_is_asked_whoever_stands_there() -> None:
    """7.3.3, 7.3.4, C12 (issue 18: 38 cases in 60 games): Sunpu to Kuwana on the highway is
    four locations, base 1 + highway 1 + a leader's Leadership 1 + a force march 1. The table
    used to ask the route only where the leader stood and call it a 7.3.3 violation elsewhere,
    so the move told whether a leader was in the stack. Now the same question is asked in both
    worlds, and the answer is accepted where the leader stands, refused (7.3.3) elsewhere: the
    public refusal is the one without a leader, the reason is told to the mover alone."""
    games = [position(w, level=Level.TOTAL) for w in (LEADER_AT_SUNPU, NO_LEADER_AT_SUNPU)]
    for dest in ("kuwana", "kiyosu"):  # kiyosu: three locations, the leader's +1 alone
        outcomes = [TableRules(g).commands_for(ProposedMove("sunpu", dest, (P1,)))
                    for g in games]
        assert outcomes[0] == outcomes[1]
        assert isinstance(outcomes[0], Question)
    kuwana = TableRules(games[0]).commands_for(ProposedMove("sunpu", "kuwana", (P1,)))
    assert isinstance(kuwana, Question)
    [both] = [o for o in kuwana.options if "leader declared, a force march" in o.label]
    [command] = both.commands
    assert isinstance(command, cm.MoveStack) and command.force_marches == ((P1,),)
    shown = [public_outputs(g, [command]) for g in games]
    assert any("with leadership" in line for line in shown[0])
    refused = games[1].submit(command)
    assert not isinstance(refused, Accepted) and refused.rule == "7.3.3"
    assert "leader" not in refused.message.lower()
    assert refused.private is not None and "no leader of yours" in refused.private
