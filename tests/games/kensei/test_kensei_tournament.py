"""Kensei in tournament play (issue 20, items 5 and 7): the public feed's lines, the battle at
a glance, self-play for simulated tables, and the swapped-world test: two battles that differ
only in the command cards in hand and the secret secondary missions give the very same public
lines, glance and board."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _records_kit import ROUTED, TO_THE_END, play_stored

from companion.core.game import Game, Rejection
from companion.core.store import CommandRecorder, Store
from companion.games.kensei import records
from companion.games.kensei.battle import deck
from companion.games.kensei.battle.commands import CommandDuel, DrawCards, Offering
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import SIDES, State, other
from companion.games.kensei.explain_words import SECTIONS, Words, event_rulings
from companion.games.kensei.tournament import FEED, SelfPlay
from tournament.status import Follower, feed_of

SHOWN = "added to a die, the card shown"
"""An "add" offering shows its card (B9.1): its worth is public."""
SECRET = re.compile(r"\b[ab]-\d\d\b|Caza|Espías|Infiltración|Limpiad|Control de bajas|"
                    r"Expulsad|\bNone\b|\(s\)")


def test_the_descriptor_names_the_feed_and_the_records() -> None:
    assert feed_of("kensei") is FEED
    assert FEED.game == records.GAME == "kensei"


def test_a_followed_battle_shows_public_lines_and_a_glance(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        log = store.load(play_stored(store, TO_THE_END))
    follower = Follower(FEED)
    lines: list[dict[str, Any]] = []
    glances = []
    for entry in log.entries:
        lines += follower.advance(entry)
        glances.append(follower.glance())
    assert follower.broken is None and len(lines) > len(log.entries)
    for line in lines:
        assert line["rule"] and line["text"].endswith(f" ({line['rule']})"), line
        assert {p.split()[0] for p in line["rule"].split("; ")} <= set(SECTIONS), line
        if "victory point" in line["text"]:
            continue  # the secondary missions are revealed with the score (B15)
        assert not SECRET.search(line["text"].removesuffix(f" ({line['rule']})")), line
        assert "worth" not in line["text"] or SHOWN in line["text"], line
    drawn = [x["text"] for x in lines if " draws " in x["text"]]
    assert drawn and all(re.search(r"draws \d command cards", t) for t in drawn)
    assert any("rolls the secondary-mission die in secret" in x["text"] for x in lines)
    deploying = next(g for g in glances if g["stage"].startswith("Deployment"))
    assert deploying["waiting_for"] in SIDES
    turn = next(g for g in glances if g["stage"].startswith("Turn 3: "))
    assert "has lost" in turn["score"] and turn["board"]["turn"] == 3
    assert "hands" not in turn["board"] and "hand" not in turn["board"]
    end = glances[-1]
    assert end["winner"] == "b" and re.fullmatch(r".+ \d+ VP, .+ \d+ VP", end["score"])
    assert FEED.result(follower.rebuilt.state) == log.summary.result


def test_self_play_for_a_simulated_table(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        game_id = store.create_game(FEED.game, FEED.header())
        state = FEED.selfplay(TO_THE_END, CommandRecorder(store, game_id))
        assert state.phase == "over" and FEED.result(state) is not None
        store.finish(game_id, str(FEED.result(state)))
        rebuilt = records.check(store.load(game_id))
    assert rebuilt.state == state


def _first_turn(seed: int) -> list[Any]:
    """The seeded battle's commands up to its first initiative roll, its offerings left out:
    they spend cards of a hand."""
    commands: list[Any] = []

    class Kept:
        def record(self, command: Any, events: Any) -> None:
            commands.append(command)

    SelfPlay(seed).play(Game(KenseiRules(), recorder=Kept()))
    kept = [c for c in commands if c.type not in ("command_duel", "offering")]
    rolled = next(i for i, c in enumerate(kept) if c.type == "initiative_roll"
                  and i + 1 < len(kept) and kept[i + 1].type != "initiative_roll")
    return kept[:rolled + 1]


def _swapped(commands: list[Any]) -> list[Any]:
    """The same battle with other hands (other cards, other values, drawn from the same full
    piles) and other secondary missions."""
    out = []
    for command in commands:
        if command.type == "secondary_mission":
            command = command.model_copy(update={"die": command.die % 6 + 1})
        elif isinstance(command, DrawCards):
            free = [c for c in deck.card_ids(command.side) if c not in command.cards]
            free = free[::-1] if deck.card_value(command.cards[0]) < 2 else free
            cards = free[:len(command.cards)]
            under = cards[len(cards) - len(command.under):] if command.under else []
            command = command.model_copy(update={"cards": cards, "under": under})
        out.append(command)
    return out


def _secrets_used(game: Game[State, Any, Any]) -> list[Any]:
    """A re-roll offering and a duel bid from the hand of the side without the initiative,
    whatever that hand holds."""
    state = game.state
    assert state.initiative is not None and state.phase == "activation"
    side = other(state.initiative)
    hand = state.command_decks.side(side).hand
    return [Offering(side=side, card=hand[0], kind="reroll", on="the order roll"),
            CommandDuel(side=side, cards=[hand[1]])]


def _public(commands: list[Any]) -> tuple[list[tuple[str, str | None]], list[str], Any]:
    """Every public line, the referee's words and the last glance of a battle."""
    rules = KenseiRules()
    game: Game[State, Any, Any] = Game(rules)
    lines: list[tuple[str, str | None]] = []
    referee: list[str] = []

    def play(command: Any) -> None:
        before = game.state
        result = game.submit(command)
        assert not isinstance(result, Rejection), (command, result)
        events = list(result.events)
        lines.extend(FEED.lines(before, events))
        state = before
        for event in events:
            referee.extend(r["text"] for r in event_rulings(Words.of(state), state, event))
            state = rules.apply(state, event)

    for command in commands:
        play(command)
    for command in _secrets_used(game):
        play(command)
    return lines, referee, FEED.glance(game.state)


@pytest.mark.parametrize("seed", [TO_THE_END, 11])
def test_swapped_hands_and_missions_give_the_same_public_lines(seed: int) -> None:
    honest = _first_turn(seed)
    swapped = _swapped(honest)
    assert swapped != honest
    lines, referee, glance = _public(honest)
    other_lines, other_referee, other_glance = _public(swapped)
    assert lines == other_lines
    assert glance == other_glance  # the board is the public view
    assert referee != other_referee  # the referee's words do name what differs
    assert any("face down" in text for text, _ in lines)


def test_a_hidden_kuroi_te_troop_is_never_named_until_it_appears(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        log = store.load(play_stored(store, ROUTED))
    held = next(e for entry in log.entries for e in entry.data["events"]
                if e["type"] == "troop_held_back")
    assert held["hidden"]
    follower = Follower(FEED)
    said: list[str] = []
    for entry in log.entries:
        lines = follower.advance(entry)
        if any(e["type"] == "troop_activated" and e["troop"] == held["troop"]
               for e in entry.data["events"]):
            break  # it appears (B12): from now on it is on the table
        said += [x["text"] for x in lines]
    assert any("keeps a troop hidden" in t for t in said)
    hidden = Words.of(follower.rebuilt.state).troop(held["troop"])
    assert all(hidden not in t for t in said), hidden


def test_the_glance_counts_points_lost_as_the_rout_check_does(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite", durable=False) as store:
        log = store.load(play_stored(store, ROUTED))
    follower = Follower(FEED)
    for entry in log.entries:
        routed = next((e for e in entry.data["events"] if e["type"] == "army_routed"), None)
        if routed is not None:
            name = Words.of(follower.rebuilt.state).side(routed["side"])
            said = f"{name} has lost {routed['lost']} of {routed['starting']} points"
            assert said in follower.glance()["score"]
            break
        follower.advance(entry)
    else:
        raise AssertionError("the battle was not routed")
