"""``companion referee explain`` on every entry of seeded Sekigahara games (issue 18): each
names a rule of the rulebook and says what happened in plain words, with no raw event, no
engine id and no "ruled as recorded". The seeds together hold every kind of event the engine
and the combat rules have (a siege, Mōri arriving both ways, an Overrun, a Loyalty Challenge
refuted and not, a retreat into a castle and one that opens a new combat, an instant victory
and a victory on points)."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from companion.core.explain import explain_text
from companion.core.store import CommandRecorder, GameLog, Store
from companion.games.sekigahara import records
from companion.games.sekigahara.combat import (
    CombatKind,
    CombatSetup,
    Deploy,
    Finish,
    Lose,
    PlayedCard,
    apply_action,
    start_combat,
)
from companion.games.sekigahara.combat import events as cev
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import CardKind, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, FACES
from companion.games.sekigahara.engine.simulator import play_game
from companion.games.sekigahara.explain import explain_entry
from companion.games.sekigahara.explain_combat import combat_rulings
from companion.games.sekigahara.rulebook import default_rules

SEEDS = (0, 2, 13, 15, 19, 45)

RAW = {
    "a verdict that says nothing": re.compile(r"ruled as recorded"),
    "a dict or list dump": re.compile(r"\{'|\['|\w=\w|Event\("),
    "a block id": re.compile(r"\b[IT]\d\d\b"),
    "a card id": re.compile(r"\b[IT]-[a-z]+-"),
    "a snake_case id": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "an engine zone": re.compile(r"@"),
    "a side as the engine spells it": re.compile(r"\b(ishida|tokugawa)\b"),
    "a location id": re.compile(r"\b(" + "|".join(BOARD.locations) + r")\b"),
    "a (s) plural": re.compile(r"\(s\)"),
    "many with a singular": re.compile(
        r"(?<![\d.-])\b([02-9]|\d\d+) (block|card|location|unit|castle)\b"),
    "one with a plural": re.compile(
        r"(?<![\d.])\b1 (blocks|cards|locations|units|moves|castles|steps)\b"),
}


def _union(annotated: object) -> set[str]:
    members = typing.get_args(typing.get_args(annotated)[0])
    return {m.model_fields["type"].default for m in members}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, GameLog]:
    path = tmp_path_factory.mktemp("explain") / "games.sqlite"
    logs = {}
    with Store.open(path, durable=False) as store:
        for seed in SEEDS:
            game_id = store.create_game(records.GAME, records.new_header())
            report = play_game(seed, check=False, recorder=CommandRecorder(store, game_id))
            assert report.completed, report.error
            logs[seed] = store.load(game_id)
    return logs


@pytest.fixture(scope="module")
def explained(games: dict[int, GameLog]) -> dict[tuple[int, int], dict[str, typing.Any]]:
    return {(seed, e.seq): explain_entry(log, e.seq)
            for seed, log in games.items() for e in log.entries}


def test_every_entry_names_a_rule_in_plain_words(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    rulebook = default_rules()
    for (seed, n), out in explained.items():
        text = explain_text(out)
        where = f"seed {seed} entry {n}:\n{text}"
        assert out["verdict"] == "upheld", where
        for what, pattern in RAW.items():
            assert not pattern.search(text), f"{what} in {where}"
        cited = [r["rule"] for r in out["rulings"] if r["rule"]]
        assert cited, f"no rule named: {where}"
        for rule in cited:
            assert rule.split()[0] in rulebook, f"rule {rule} is not in the rulebook: {where}"
        for ruling in out["rulings"]:
            assert " " in ruling["text"], f"a bare name, not words: {where}"


def test_the_seeds_explain_every_kind_of_event(games: dict[int, GameLog]) -> None:
    seen = {event["type"] for log in games.values() for e in log.entries
            for event in e.data["events"]}
    assert seen == _union(ev.SekigaharaEvent)
    acted = set()
    for log in games.values():
        for e in log.entries:
            for event in e.data["events"]:
                if event["type"] == "combat_acted":
                    acted.add(event["action"]["type"])
                if event["type"] == "game_won":
                    acted.add("points" if event["score"] else "instant")
    assert acted == {"deploy", "challenge", "finish", "lose", "points", "instant"}


def test_combat_rulings_cover_every_combat_event(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    """Each of the combat rules' own events reads in words: the rule each one cites shows up
    (8.6.1 defection and refutation, 8.5 finishing, 8.7.2 losses, 8.10 cards, 2.1 instant)."""
    rules = {r["rule"] for out in explained.values() for r in out["rulings"]}
    for wanted in ("8.2.1", "8.3.2", "8.5", "8.6.1", "8.7.1", "8.7.2", "8.9.4", "8.10", "2.1"):
        assert wanted in rules, wanted
    names = {m.__name__ for m in typing.get_args(typing.get_args(cev.CombatEvent)[0])}
    source = Path(__file__).parents[3] / "companion/games/sekigahara/explain_combat.py"
    words = source.read_text("utf-8")
    assert {n for n in names if f"cev.{n}(" not in words} == set()


def test_a_level_battle_cites_ties_go_to_the_defender(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    level = [r for out in explained.values() for r in out["rulings"]
             if r["text"].startswith("The battle ends level")]
    assert level, "no level battle in the seeds"
    for ruling in level:
        assert ruling["rule"] == "8.2.1" and "a tie goes to the defender" in ruling["text"]
    decided = [r for out in explained.values() for r in out["rulings"]
               if r["text"].startswith("The battle ends:")]
    assert decided and all(r["rule"] == "8.7.1" for r in decided)


def test_moves_say_what_gave_leadership(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    sources = [r["text"] for out in explained.values() for r in out["rulings"]
               if r["rule"] == "7.3.4"]
    assert any(re.search(r"from \w+ 1-mon leader at \w+", t) for t in sources)
    assert any("capital" in t for t in sources) and any("castle at" in t for t in sources)
    assert all(t.startswith("Leadership +1") and t != "Leadership +1" for t in sources)


def test_every_route_is_weighed_against_its_allowance(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    """A route longer than the shortest ones the move analysis lists (a longer highway route,
    say) is weighed like any other: locations moved against the allowance and its parts."""
    routes = [r["text"] for out in explained.values() for r in out["rulings"]
              if r["rule"] in ("7.3", "7.3.3") and re.search(r"\d+ locations? moved", r["text"])]
    assert routes
    unweighed = [t for t in routes if not re.search(r"against an allowance of \d \(base 1", t)]
    assert not unweighed, unweighed[:3]


def test_bids_musters_retreats_and_the_end_carry_their_arithmetic(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    texts = {r["rule"]: [] for out in explained.values() for r in out["rulings"]}
    for out in explained.values():
        for r in out["rulings"]:
            texts[r["rule"]].append(r["text"])
    assert any(re.search(r"(\d+) beats (\d+), so \w+ wins the bid", t) for t in texts["6.3"])
    assert any("by option A" in t for t in texts["7.2"])
    assert any("one per card Ishida discarded" in t for t in texts["9.3"])
    assert any("arrive at once" in t for t in texts["9.3"])
    assert any("the legal destinations were" in t for t in texts["8.8.2"] + texts["8.8.3"])
    vp = [t for t in texts["2.2"] if "castles x 2" in t]
    for t in vp:
        found = re.search(r"(\d+) castles? x 2 = (\d+) .* x 1 = (\d+) .*= (\d+) victory", t)
        assert found, t
        castles, doubled, resources, total = map(int, found.groups())
        assert doubled == 2 * castles and total == doubled + resources
    assert any(re.search(r"half the hand, rounded down: (\d+) / 2 = \d+", t)
               for t in texts["6.2"])
    assert any(re.search(r"the turn track gives \d+ in week \d+", t) for t in texts["6.2"])


def _battle(ishida: tuple[str, ...]) -> CombatState:
    """Tokugawa attacks with 3 + (3 + 1) + 4 = 11 Impact; Ishida finishes at 0."""
    setup = CombatSetup(kind=CombatKind.BATTLE, attacker=Side.TOKUGAWA,
                        blocks={b: FACES[b] for b in ("T02", "T03", "T25", *ishida)})
    state = start_combat(setup)
    plain = PlayedCard(clan=FACES["T02"].clan, kind=CardKind.PLAIN)
    for action in (Deploy(side=Side.TOKUGAWA, card=plain, blocks=("T02",)),
                   Finish(side=Side.ISHIDA),
                   Deploy(side=Side.TOKUGAWA, card=plain, blocks=("T03",)),
                   Deploy(side=Side.TOKUGAWA, card=plain, blocks=("T25",)),  # Ii: any card, 9.4
                   Finish(side=Side.TOKUGAWA)):
        state, _ = apply_action(state, action)
    return state


def test_losses_and_cards_drawn_show_their_arithmetic() -> None:
    state = _battle(("I21", "I34", "I24"))
    state, _ = apply_action(state, Lose(side=Side.ISHIDA, losses=("I21", "I34")))
    said = {r["text"] for r in combat_rulings(state, state.log)}
    assert ("The battle ends: Impact Ishida 0, Tokugawa 11, Tokugawa has more and wins; "
            "losses: Tokugawa 0 (0 / 7 = 0); Ishida 2 (11 / 7 = 1 + 1 for losing) (one per 7 "
            "Impact suffered)") in said
    assert ("Tokugawa deploys Tokugawa 3-mon with a Tokugawa plain card: 3 mon + 1 same clan "
            "= 4 Impact; Tokugawa's Impact is now 7") in said
    assert ("Cards drawn after the combat: Ishida 0 played + 1 for 2 blocks lost (2 / 2) = 1; "
            "Tokugawa 3 played = 3 (each card played comes back, C7)") in said


def test_losses_are_capped_at_the_units_there() -> None:
    state = _battle(("I21",))
    ended = next(r for r in combat_rulings(state, state.log) if r["rule"] == "8.7.1")
    assert "Ishida 1 (11 / 7 = 1 + 1 for losing, capped at the 1 unit there (C8))" in ended["text"]
