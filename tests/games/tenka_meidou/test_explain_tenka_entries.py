"""``companion referee explain`` on every entry of seeded Tenka Meidou games (issue 18): each
names a section of the rulebook and says what happened in plain words, with no raw event and no
engine id; the dice of a deployment, each zone of the War and every term of the final score
carry their arithmetic. The seeds hold 2, 3 and 4 players, basic and advanced games, all twelve
tactic cards and a War tie broken by the swords."""

from __future__ import annotations

import re
import typing

import pytest
from _tenka_kit import CASTLES, B, R, Y, play_stored

from companion.core.explain import explain_text
from companion.core.store import GameLog, Store
from companion.games.tenka_meidou.components import Tactic, default_board
from companion.games.tenka_meidou.events import TenkaEvent, WarFought
from companion.games.tenka_meidou.explain import explain_entry
from companion.games.tenka_meidou.explain_words import Words, event_rulings
from companion.games.tenka_meidou.rulebook import default_rules
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.war import fight_war

SEEDS = (0, 1, 3, 5, 6, 7, 9, 10)

RAW = {
    "a verdict that says nothing": re.compile(r"ruled as recorded"),
    "a dict or list dump": re.compile(r"\{'|\['|\w=\w|Event\(|Result\("),
    "a snake_case id": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a colour as the engine spells it": re.compile(r"\b(red|blue|yellow|black)\b"),
    "a zone id": re.compile(r"\b(" + "|".join(default_board().zone_ids) + r")\b"),
    "a card id": re.compile(r"\b(" + "|".join(t.value for t in Tactic) + r")\b"),
    "a (s) plural": re.compile(r"\(s\)"),
    "one with a plural": re.compile(
        r"(?<![\d.])\b1 (pawns|soldiers|cards|zones|tokens|reinforcements|players)\b"),
}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, GameLog]:
    path = tmp_path_factory.mktemp("explain") / "games.sqlite"
    with Store.open(path, durable=False) as store:
        return {seed: store.load(play_stored(store, seed)) for seed in SEEDS}


@pytest.fixture(scope="module")
def explained(games: dict[int, GameLog]) -> dict[tuple[int, int], dict[str, typing.Any]]:
    return {(seed, e.seq): explain_entry(log, e.seq)
            for seed, log in games.items() for e in log.entries}


def test_every_entry_names_a_section_in_plain_words(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    sections = {entry.number for entry in default_rules().rules}
    for (seed, n), out in explained.items():
        text = explain_text(out)
        where = f"seed {seed} entry {n}:\n{text}"
        assert out["verdict"] == "upheld", where
        for what, pattern in RAW.items():
            assert not pattern.search(text), f"{what} in {where}"
        cited = [r["rule"] for r in out["rulings"] if r["rule"]]
        assert cited, f"no section named: {where}"
        assert set(cited) <= sections, where


def test_the_seeds_explain_every_kind_of_event_and_card(games: dict[int, GameLog]) -> None:
    members = typing.get_args(typing.get_args(TenkaEvent)[0])
    events = [event for log in games.values() for e in log.entries
              for event in e.data["events"]]
    assert {e["type"] for e in events} == {m.model_fields["type"].default for m in members}
    assert {e["card"] for e in events if e["type"] == "tactic_played"} == {t.value for t in Tactic}
    started = {(len(e["players"]), e["advanced"]) for e in events if e["type"] == "game_started"}
    assert started == {(n, a) for n in (2, 3, 4) for a in (False, True)}


def test_a_deployment_shows_its_dice(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    dice = re.compile(r"the pair (\d) \+ (\d) = (\d+) names .* \(castle (\d+)\); the single die "
                      r"(\d) places (\d).*has (\d+) - (\d+) = (\d+) pawns? left")
    found = 0
    for out in explained.values():
        for ruling in out["rulings"]:
            if ruling["rule"] != "5.I.1":
                continue
            a, b, total, castle, _, _, left, placed, after = map(
                int, dice.search(ruling["text"]).groups())  # type: ignore[union-attr]
            assert a + b == total == castle and left - placed == after
            found += 1
    assert found > 100


def test_the_war_adds_up_zone_by_zone_and_in_the_final_score(
        games: dict[int, GameLog],
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    for seed, log in games.items():
        last = explained[(seed, log.entries[-1].seq)]["rulings"]
        war = next(e for e in log.entries[-1].data["events"] if e["type"] == "war_fought")
        scores = war["result"]["scores"]
        for colour, score in scores.items():
            line = next(r["text"] for r in last
                        if r["rule"] == "6" and r["text"].startswith(f"{colour.capitalize()}:"))
            terms = [int(n) for n in re.findall(r"(\d+)(?= \+| =)", line)]
            assert sum(terms) == score and line.endswith(f"= {score}"), line
        for ruling in (r for r in last if r["text"].split(": power ")[1:]):
            for part in ruling["text"].split(": power ")[1].split("; "):
                numbers = [int(n) for n in re.findall(r"\d+", re.sub(r"\(\d+\)", "", part))]
                assert sum(numbers[:-1]) == numbers[-1], part
    ties = [r for out in explained.values() for r in out["rulings"]
            if r["rule"] == "5.II.1" and " tie at " in r["text"]]
    assert ties and all(re.search(r"sword (\d) beats (\d)$", r["text"]) for r in ties)
    assert any("no small tokens with two players" in r["text"]
               for out in explained.values() for r in out["rulings"])



def test_white_pawns_running_out_is_said() -> None:
    """5.II.3: one player in every zone sends 2 pawns along each of the 16 borders, 32 of the
    30 white pawns: the last 2 come from zones already fought."""
    rules = TenkaRules()
    soldiers = {zone: {R: 1} for zone in CASTLES}
    swords = {R: 3, B: 2, Y: 1}
    result = fight_war(players=(R, B, Y), swords=swords, castles=CASTLES, soldiers=soldiers,
                       daimyo_at={}, board=rules.board, components=rules.components)
    before = State(phase=Phase.DEPLOYMENT, players=(R, B, Y), castles=CASTLES,
                   soldiers=soldiers, swords=swords)
    said = [r["text"] for r in event_rulings(Words(rules), before, WarFought(result=result))]
    short = [t for t in said if t.startswith("The white pawns run out")]
    assert short == ["The white pawns run out as Red reinforces from Usuki-jō: 2 taken from "
                     "zones already fought"]
    assert said.index(short[0]) == said.index(next(
        t for t in said if t.startswith("Red sends reinforcements from Usuki-jō"))) + 1
    assert said[-1] == "Red wins with 77 castle points"
