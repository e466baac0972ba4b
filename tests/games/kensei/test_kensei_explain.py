"""``companion referee verify|replay|explain`` on stored Kensei battles (issue 20, item 7):
every entry of three seeded battles (a rout, five whole turns, a concession) explained in
plain words, each citing a section of the digest and the Spanish heading, with the arithmetic
of the order rolls and the melees; no raw dump, no engine id, no "None", no "(s)". Secrets
(hands, card values, secondary missions, a hidden troop) stay out of the public words."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest
from _records_kit import CONCEDED, ROUTED, TO_THE_END, play_stored

from companion.cli import main
from companion.core.explain import explain_text
from companion.core.store import GameLog, Store
from companion.games.kensei.battle import deck
from companion.games.kensei.battle import events as kev
from companion.games.kensei.battle.examples import buke, kuge
from companion.games.kensei.battle.state import State
from companion.games.kensei.explain import explain_entry
from companion.games.kensei.explain_words import SECTIONS, Words, event_rulings

SEEDS = (ROUTED, TO_THE_END, CONCEDED)

RAW = {
    "a dict or list dump": re.compile(r"\{'|\['|\w=\w|Event\(|\{\"|\}"),
    "a snake_case id": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a troop id": re.compile(r"\b[ab]\d+\b"),
    "a card id": re.compile(r"\b[ab]-\d\d\b"),
    "None": re.compile(r"\bNone\b"),
    "a (s) plural": re.compile(r"\(s\)"),
    "one with a plural": re.compile(
        r"(?<![\d.])\b1 (orders|hits|wounds|dice|casualties|troops|models|cards|command cards|"
        r"markers|wound markers|criticals|fumbles|points|victory points)\b"),
    "a side as the engine spells it": re.compile(r"\b(side|army) [ab]\b|\b[ab]'s\b"),
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, int]]:
    path = tmp_path_factory.mktemp("explain") / "games.sqlite"
    with Store.open(path, durable=False) as store:
        return path, {seed: play_stored(store, seed) for seed in SEEDS}


@pytest.fixture(scope="module")
def logs(db: tuple[Path, dict[int, int]]) -> dict[int, GameLog]:
    path, ids = db
    with Store.open(path, readonly=True) as store:
        return {seed: store.load(game_id) for seed, game_id in ids.items()}


@pytest.fixture(scope="module")
def explained(logs: dict[int, GameLog]) -> dict[tuple[int, int], dict[str, typing.Any]]:
    return {(seed, e.seq): explain_entry(log, e.seq)
            for seed, log in logs.items() for e in log.entries}


def cited(rule: str) -> list[str]:
    """The sections a ruling cites ("B9.1 USANDO ...; B14 NIVEL ..." -> ["B9.1", "B14"])."""
    return [part.split()[0] for part in rule.split("; ")]


def test_every_entry_is_explained_in_plain_words_citing_a_rule(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    for (seed, n), out in explained.items():
        text = explain_text(out)
        where = f"seed {seed} entry {n}:\n{text}"
        assert out["verdict"] == "upheld", where
        for what, pattern in RAW.items():
            found = pattern.search("\n".join(text.splitlines()[1:]))  # past the entry's time
            assert not found, f"{what} ({found.group(0) if found else ''}) in {where}"
        rules = [r["rule"] for r in out["rulings"] if r["rule"]]
        assert rules and len(rules) == len(out["rulings"]), f"a ruling cites no rule: {where}"
        for rule in rules:
            assert set(cited(rule)) <= set(SECTIONS), where
            heading = rule.split(" ", 1)[1].split(";")[0] if " " in rule else ""
            texts = " ".join(r["text"] for r in out["rulings"])
            assert heading, where
            assert f"under {heading}" not in texts and f", {heading})" not in texts, \
                f"{rule} cited twice: {where}"


def test_the_seeds_explain_every_kind_of_event_they_hold(
        logs: dict[int, GameLog],
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    kinds = {e["type"] for log in logs.values() for entry in log.entries
             for e in entry.data["events"]}
    assert {"melee_fought", "shot_fired", "order_rolled", "army_routed", "conceded",
            "duel_revealed", "retreat_rolled", "battle_scored"} <= kinds
    said = "\n".join(explain_text(out) for out in explained.values())
    assert "is in total retreat and the battle ends" in said
    assert "concedes the battle and loses it" in said


def test_an_order_roll_adds_up(explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    roll = re.compile(r": 1D6 (\d)((?: [+−] \d \([^)]*\))+) = (-?\d+): (.*)$")
    found = 0
    for out in explained.values():
        for ruling in out["rulings"]:
            if not ruling["rule"].endswith("TIRADA DE ÓRDENES"):
                continue
            die, terms, total, then = roll.search(ruling["text"]).groups()  # type: ignore[union-attr]
            values = [int(v.replace("− ", "-").replace("+ ", ""))
                      for v in re.findall(r"[+−] \d", terms)]
            assert int(die) + sum(values) == int(total), ruling["text"]
            want = ("a natural 1, a fumble: one order" if die == "1" else
                    "one order" if int(total) <= 3 else "two orders")
            assert then.startswith(want), ruling["text"]
            assert ("and ki" in then) == (die != "1" and int(total) >= 6
                                          and "in retreat" not in then), ruling["text"]
            found += 1
    assert found > 40


def test_a_melee_is_itemised_from_its_ruling(
        logs: dict[int, GameLog],
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    pools = 0
    for (seed, n), out in explained.items():
        events = [e for e in out.get("events", []) if e["type"] == "melee_fought"]
        if not events:
            continue
        ruling = events[0]["ruling"]
        lines = [r["text"] for r in out["rulings"] if r["rule"] == "B5.1 Tirada de combate"]
        assert len(lines) == 2, (seed, n)
        for line, side in zip(lines, ("a", "b"), strict=True):
            pool = re.match(r"[^:]+: (.*?) = (−?\d+)(?: dice| die)?[;:]", line)
            assert pool is not None, line
            terms = [int(t.replace("− ", "-").replace("+ ", ""))
                     for t in re.findall(r"(?:^|[+−] )\d+(?= \()", pool.group(1))]
            total = int(pool.group(2).replace("−", "-"))
            assert sum(terms) == total == ruling[side]["pool"], line
            assert ("rolls one die, which succeeds on a 6 only" in line) == (total <= 0)
            assert f"{ruling[side]['hits']} hit" in line
            pools += 1
        honour = [r for r in out["rulings"] if r["rule"] == "B7 TIRADA DE HONOR"]
        assert len(honour) == sum(1 for s in "ab" if ruling[s]["honour"])
        loser = [r["text"] for r in out["rulings"] if r["rule"] == "B7 RESOLUCIÓN DEL COMBATE"]
        assert ("loses the melee to" in loser[0]) == (ruling["loser"] is not None)
    assert pools > 40


def test_the_score_lists_every_victory_point(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    scored = 0
    for (seed, _), out in explained.items():
        event = next((e for e in out.get("events", []) if e["type"] == "battle_scored"), None)
        if event is None:
            continue
        begun = explained[(seed, 1)]["events"][0]
        names = {s: army["list"]["name"] for s, army in begun["armies"].items()}
        for side, name in names.items():
            line = next(r["text"] for r in out["rulings"] if r["rule"].startswith("B15 ")
                        and r["text"].startswith(f"{name}: "))
            vp = event["vp"][side]
            terms = [int(t) for t in re.findall(r"(?:: |\+ )(\d+) \(", line)]
            assert sum(terms) == vp and len(terms) == len(event["lines"][side]), line
            assert line.endswith(f"= {vp} victory point{'s' if vp != 1 else ''}" if vp
                                 else "no victory points"), line
            scored += bool(vp)
    assert scored >= 2


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_replay_and_explain_through_the_cli(
        db: tuple[Path, dict[int, int]], logs: dict[int, GameLog],
        capsys: pytest.CaptureFixture[str]) -> None:
    path, ids = db
    game_id, log = str(ids[TO_THE_END]), logs[TO_THE_END]
    code, out, err = run(capsys, "referee", "verify", game_id, "--db", str(path))
    assert code == 0 and out.startswith("verified:") and f"{len(log.entries)} entries" in out
    assert "Seal of the game" in out or "seal of the game" in out, out

    drawn = next(e for e in log.entries if e.data["command"]["type"] == "draw_cards")
    secret = next(e for e in log.entries if e.data["command"]["type"] == "secondary_mission")
    for at in (drawn.seq, secret.seq):
        code, out, _ = run(capsys, "referee", "replay", game_id, "--at", str(at), "--view",
                           "public", "--json", "--db", str(path))
        shown = json.loads(out)
        assert code == 0 and shown["entry"] == at
        assert not re.search(r"\b[ab]-\d\d\b", out)  # no card of a hand
        assert shown["state"]["secondary"][secret.data["command"]["side"]] in ("rolled", None)
    code, out, _ = run(capsys, "referee", "replay", game_id, "--at", str(drawn.seq), "--view",
                       drawn.data["command"]["side"], "--json", "--db", str(path))
    assert code == 0 and drawn.data["command"]["cards"][0] in out  # the player's own hand
    code, out, _ = run(capsys, "referee", "replay", game_id, "--at", str(drawn.seq + 40),
                       "--db", str(path))
    assert code == 0 and f"after entry {drawn.seq + 40} (referee view)" in out
    assert "Kuge" in out and "None" not in out and "(s)" not in out

    melee = next(e.seq for e in log.entries if e.data["command"]["type"] == "melee")
    code, out, _ = run(capsys, "referee", "explain", game_id, str(melee), "--db", str(path))
    assert code == 0 and "judged under rules B5, B7, B8: upheld" in out
    assert "[B5.1 Tirada de combate]" in out and "[B7 RESOLUCIÓN DEL COMBATE]" in out
    code, out, _ = run(capsys, "referee", "explain", game_id, str(len(log.entries)), "--db",
                       str(path), "--json")
    assert code == 0 and any(r["rule"].startswith("B15") for r in json.loads(out)["rulings"])
    code, _, err = run(capsys, "referee", "replay", game_id, "--at", "1", "--view", "ishida",
                       "--db", str(path))
    assert code == 2 and "public, a, b, referee" in err


def _state() -> State:
    return State(armies={"a": kuge(), "b": buke()})


def test_public_words_never_name_a_secret() -> None:
    state = _state()
    words = Words.of(state)
    secret_events: list[typing.Any] = [
        deck.CardsDrawn(side="a", cards=("a-22", "a-03", "a-10", "a-16"), under=()),
        deck.HandDiscarded(side="b", cards=("b-21", "b-02")),
        deck.DuelBid(side="a", cards=("a-23",)),
        deck.OfferingMade(side="b", card="b-22", kind="reroll", roll="order a1"),
        deck.CommanderActivated(side="a", cards=("a-21", "a-15")),
        kev.SecondaryRolled(side="b", die=3),
        kev.TroopHeldBack(side="a", troop="a3", hidden=True),
    ]
    troop = words.troop("a3")
    for event in secret_events:
        public = " ".join(r["text"] for r in event_rulings(words, state, event, public=True))
        referee = " ".join(r["text"] for r in event_rulings(words, state, event))
        for secret in ("worth", "3", "Infiltración", troop):
            assert secret not in public, (event, public)
        assert public != referee  # the referee's words name what is hidden
    assert "Infiltración de élite" in " ".join(
        r["text"] for r in event_rulings(words, state, kev.SecondaryRolled(side="b", die=3)))
    shown = event_rulings(words, state, deck.OfferingMade(side="b", card="b-22", kind="add",
                                                          roll="order a1", value=3),
                          public=True)
    assert "a card worth 3 added to a die" in shown[0]["text"]  # an add card is shown


def test_an_order_roll_in_words() -> None:
    state = _state()
    rolled = kev.OrderRolled(side="a", troop="a2", die=4,
                             items=(kev.OrderItem(id="leader_ini", value=3, rule="LÍDER DE UNIDAD"),
                                    kev.OrderItem(id="banner", value=1, rule="HATA-JURUSHI")),
                             total=8, orders=2, fumble=False, ki=True)
    [ruling] = event_rulings(Words.of(state), state, rolled)
    assert ruling["rule"] == "B3.3 TIRADA DE ÓRDENES"
    assert ruling["text"] == (f"{kuge().list.name}'s Yari Ashigaru: 1D6 4 + 3 (the leader's "
                              "INI, leading the unit) + 1 (the Hata-Jurushi) = 8: two orders "
                              "and ki")


def test_every_kind_of_event_has_its_own_words() -> None:
    """No event falls through to a bare type name: each member of the event union is matched
    by name in the words module (the seeds above do not hold every kind)."""
    import inspect

    from companion.games.kensei import explain_words
    from companion.games.kensei.battle.commands import MarkerName
    from companion.games.kensei.battle.events import KenseiEvent
    from companion.games.kensei.explain_words import MARKER_NAMES

    source = inspect.getsource(explain_words)
    members = typing.get_args(typing.get_args(KenseiEvent)[0])
    assert len(members) > 30
    for member in members:
        module = "deck" if member.__module__.endswith(".deck") else "kev"
        assert f"{module}.{member.__name__}" in source, member.__name__
    assert set(typing.get_args(MarkerName)) == set(MARKER_NAMES)
    state = _state()
    words = Words.of(state)
    marker = event_rulings(words, state, kev.MarkerSet(troop="a2", marker="parapeted", on=True))
    assert marker == [{"rule": "B1.1 MARCADORES", "text": f"A Parapeted marker is placed on "
                       f"{kuge().list.name}'s Yari Ashigaru by hand"}]


def test_replay_shows_a_hidden_troop_to_its_army_and_the_referee_only(
        logs: dict[int, GameLog]) -> None:
    from companion.games.kensei.explain import view_at, view_text

    log = logs[ROUTED]
    held = next((entry.seq, e) for entry in log.entries for e in entry.data["events"]
                if e["type"] == "troop_held_back")
    at, event = held
    assert event["hidden"]
    state = view_at(log, at, "referee")["state"]
    name = next(t["name"] for t in state["troops"] if t["id"] == event["troop"])
    pages = {view: view_text(view_at(log, at, view)) for view in ("public", "a", "b", "referee")}
    owner = event["side"]
    assert name not in pages["public"] and name not in pages["a" if owner == "b" else "b"]
    assert f"{name}: " in pages[owner] and "only this army sees it" in pages[owner]
    assert f"{name}: " in pages["referee"] and "in the reserve" in pages["referee"]
    assert re.search(r"\d troops? off the table", pages["public"])


def test_a_retreat_honour_roll_adds_up(
        explained: dict[tuple[int, int], dict[str, typing.Any]]) -> None:
    rolled = re.compile(r"honour roll ([\d, then,re-rolledbygh]+?) against (\d+) \(HO\)"
                        r"((?: [+−] \d \([^)]*\))*) = (\d+) or less; it (passes|fails)")
    found = 0
    for out in explained.values():
        for ruling in out["rulings"]:
            if "carries a Retreat marker" not in ruling["text"]:
                continue
            match = rolled.search(ruling["text"])
            assert match is not None, ruling["text"]
            dice, ho, terms, target, verdict = match.groups()
            mods = [int(v.replace("− ", "-").replace("+ ", ""))
                    for v in re.findall(r"[+−] \d", terms)]
            assert int(ho) + sum(mods) == int(target), ruling["text"]
            last = int(re.findall(r"\d", dice)[-1])
            assert (last <= int(target)) == (verdict == "passes"), ruling["text"]
            found += 1
    assert found >= 2
