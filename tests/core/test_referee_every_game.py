"""The referee tools serve every game the same way (issue 18): ``companion referee
verify|replay|explain`` and ``companion game list|export|import`` on a stored game of each
registered game with records, through that game's own rules; one numbering (the store's entry
numbers) in ``replay --at N`` and ``explain N``; and a game the tools have never heard of (a toy
registered here, as Kensei will be) works with no change to them."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import TypeAdapter

from companion.cli import main
from companion.core import descriptor as registry
from companion.core import explain as core_explain
from companion.core import records as core_records
from companion.core import referee_cli
from companion.core.descriptor import GameDescriptor
from companion.core.events import Command, Event
from companion.core.records import GameRecords, NotUndoable, Rebuilt, Undoable
from companion.core.rules import RuleViolation
from companion.core.store import CommandRecorder, GameLog, Store
from companion.games.sekigahara.engine.feed import card_words
from companion.games.tenka_meidou.explain_words import Words
from companion.games.tenka_meidou.rules import TenkaRules

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "tenka_meidou"))
from _tenka_kit import play_stored


def _sekigahara(store: Store) -> int:
    from companion.games.sekigahara import records
    from companion.games.sekigahara.engine.simulator import play_game

    game_id = store.create_game(records.GAME, records.new_header())
    report = play_game(3, check=False, recorder=CommandRecorder(store, game_id))
    assert report.game is not None
    records.finish_if_over(store, game_id, report.game)
    return game_id


def _tenka(store: Store) -> int:
    return play_stored(store, 7)


def _kensei(store: Store) -> int:
    from companion.games.kensei import records
    from companion.games.kensei.tournament import SelfPlay

    game_id, game = records.start(store)
    SelfPlay(3).play(game)
    records.finish_if_over(store, game_id, game)
    return game_id


CARD_ID = re.compile(r"\b[IT]-[a-z]+-")

STORED: dict[str, Callable[[Store], int]] = {"sekigahara": _sekigahara, "tenka-meidou": _tenka,
                                             "kensei": _kensei}
"""A whole stored game of each game with records. A new game that keeps records (Kensei, issue
20) adds its own here: ``test_every_game_with_records_is_tried`` fails until it does."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_game_with_records_is_tried() -> None:
    with_records = {name for name, game in registry.descriptors().items() if game.records}
    assert with_records == set(STORED)


@pytest.mark.parametrize("game", sorted(STORED))
def test_the_same_tools_on_a_stored_game_of_each_game(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, other = str(tmp_path / "games.sqlite"), str(tmp_path / "other.sqlite")
    with Store.open(Path(db), durable=False) as store:
        game_id = STORED[game](store)
        entries = len(store.load(game_id).entries)
    code, out, err = run(capsys, "game", "list", "--json", "--db", db)
    listed = json.loads(out)
    assert code == 0 and [(g["game"], g["entries"]) for g in listed] == [(game, entries)], err
    exported = tmp_path / "game.jsonl"
    assert run(capsys, "game", "export", str(game_id), "-o", str(exported), "--db", db)[0] == 0
    code, out, err = run(capsys, "game", "import", str(exported), "--db", other)
    assert code == 0 and "verified" in out, err
    for source, where in ((str(exported), ()), ("1", ("--db", other))):
        code, out, err = run(capsys, "referee", "verify", source, *where)
        assert code == 0 and out.startswith(f"verified: {entries} entries") and " won (" in out
        for n in (1, entries // 2, entries):
            code, replayed, err = run(capsys, "referee", "replay", source, "--at", str(n),
                                      "--json", *where)
            assert code == 0, err
            code, explained, err = run(capsys, "referee", "explain", source, str(n), "--json",
                                       *where)
            assert code == 0, err
            shown, why = json.loads(replayed), json.loads(explained)
            assert shown["entry"] == why["entry"] == n
            assert shown["what"] == why["what"] and shown["entries"] == entries
            _, text, _ = run(capsys, "referee", "replay", source, "--at", str(n), *where)
            _, page, _ = run(capsys, "referee", "explain", source, str(n), *where)
            assert text.startswith(f"after entry {n} (referee view) of {entries}: {why['what']}")
            assert page.startswith(f"entry {n}: {why['what']} (command, ")
        for argv in (("replay", source, "--at", str(entries + 1)),
                     ("explain", source, str(entries + 1))):
            code, _, err = run(capsys, "referee", *argv, *where)
            assert code == 2 and err == (f"companion: there is no entry {entries + 1}: the "
                                         f"game's entries are numbered 1 to {entries}\n")


def test_replay_at_n_is_the_game_explain_n_leaves(tmp_path: Path) -> None:
    """Entry N in replay is entry N in explain: the game after N is the game before N + 1,
    undo corrections counted like any entry."""
    from companion.games.sekigahara import explain

    with Store.open(tmp_path / "g.sqlite", durable=False) as store:
        log = store.load(_sekigahara(store))
    for n in (16, 17, 60):
        after = explain.view_at(log, n, "referee")
        rebuilt = core_records.readjudicate(
            explain.SekigaharaRules(), explain.COMMANDS, log.entries, upto=n,
            undo=explain.undo_policy)
        assert after["state"] == explain._view(rebuilt.state, "referee")
        following = explain.explain_entry(log, n + 1)
        assert following["entry"] == n + 1 and following["verdict"] == "upheld"


# ---------------------------------------------------------------------- a game new to the tools


class Add(Command):
    type: Literal["add"] = "add"
    player: str
    n: int


class Added(Event):
    type: Literal["added"] = "added"
    player: str
    n: int
    total: int


class TallyRules:
    """Add 1 to 6 to a running total (rule T1); the first past 20 wins."""

    def initial_state(self) -> int:
        return 0

    def handle(self, state: int, command: Add, by: str | None = None) -> list[Added]:
        if not 1 <= command.n <= 6:
            raise RuleViolation("T1", f"add 1 to 6, not {command.n}")
        return [Added(player=command.player, n=command.n, total=state + command.n)]

    def apply(self, state: int, event: Added) -> int:
        return event.total


COMMANDS = TypeAdapter[Any](Add)


def _undo(command: Any, events: Any) -> Undoable | NotUndoable:
    return Undoable(f"{command['player'].capitalize()}'s addition", command["player"])


def _rulings(before: int, produced: list[Added]) -> list[core_explain.Ruling]:
    return [{"rule": "T1", "text": f"{e.player.capitalize()} adds {e.n}: {before} + {e.n} = "
             f"{e.total}"} for e in produced]


def _check(log: GameLog, *, count: int | None = None, head: str | None = None) -> Rebuilt[Any]:
    return core_records.check(log, "tally-toy", "Tally", TallyRules(), COMMANDS, count=count,
                              head=head, undo=_undo)


TOY = GameRecords(
    game="tally-toy", views=("referee",), check=_check,
    standing=lambda log, rebuilt: f"the total is {rebuilt.state}",
    view_at=lambda log, at, view: core_explain.view_at(
        log, at, view, TallyRules(), COMMANDS, _undo, lambda s, v: {"total": s}),
    view_text=lambda shown: f"after entry {shown['entry']}: total {shown['state']['total']}",
    explain_entry=lambda log, n: core_explain.explain_entry(
        log, n, TallyRules(), COMMANDS, _undo, {"add": "T1"}, _rulings,
        said=lambda s, c: f"{c['player'].capitalize()} adds {c['n']}"),
)
"""A game's records, made of the core's parts only, as any new game's are."""


def test_a_game_new_to_the_tools_slots_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    toy = GameDescriptor("tally-toy", "Tally", "a toy", records=f"{__name__}:TOY")
    real = registry.descriptors()
    monkeypatch.setattr(referee_cli, "descriptor",
                        lambda name: toy if name == "tally-toy" else real[name])
    db = tmp_path / "toy.sqlite"
    with Store.open(db, durable=False) as store:
        game_id = store.create_game("tally-toy", {})
        recorder = CommandRecorder(store, game_id)
        total = 0
        for n, player in ((4, "ann"), (6, "bo"), (2, "ann")):
            events = TallyRules().handle(total, Add(player=player, n=n))
            recorder.record(Add(player=player, n=n), events)
            total = events[-1].total
    code, out, err = run(capsys, "referee", "verify", str(game_id), "--db", str(db))
    assert code == 0 and "3 entries" in out and out.rstrip().endswith("the total is 12"), err
    code, out, _ = run(capsys, "referee", "replay", str(game_id), "--at", "2", "--db", str(db))
    assert code == 0 and out.strip() == "after entry 2: total 10"
    code, out, _ = run(capsys, "referee", "explain", str(game_id), "3", "--db", str(db))
    assert code == 0 and out.splitlines() == [
        out.splitlines()[0], "Ann adds 2", "judged under rules T1: upheld: the rules give back "
        "exactly the recorded events", "  [T1] Ann adds 2: 10 + 2 = 12"]
    assert out.startswith("entry 3: Ann's addition (command, ")
    exported = tmp_path / "toy.jsonl"
    assert run(capsys, "game", "export", str(game_id), "-o", str(exported),
               "--db", str(db))[0] == 0
    code, out, err = run(capsys, "game", "import", str(exported), "--db",
                         str(tmp_path / "other.sqlite"))
    assert code == 0 and "3 entries, verified" in out, err


def test_replay_pages_are_plain_words_and_keep_each_view_s_secrets(tmp_path: Path) -> None:
    from companion.games.sekigahara import explain as sekigahara
    from companion.games.tenka_meidou import explain as tenka

    with Store.open(tmp_path / "g.sqlite", durable=False) as store:
        battle, table = store.load(_sekigahara(store)), store.load(_tenka(store))
    bid = next(e for e in battle.entries if e.data["command"]["type"] == "bid")
    card = bid.data["command"]["card"]
    raw = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(ishida|tokugawa|red|blue|yellow|black)\b|@|\{'")
    for view in sekigahara.VIEWS:
        page = sekigahara.view_text(sekigahara.view_at(battle, bid.seq, view))
        assert not raw.search(page), page
        assert page.splitlines()[1].startswith("Week 1, turn A: Turn Order Step")
        named = "Bids face down: " in page
        assert named == (view == "referee") and CARD_ID.search(page) is None
        assert (card_words(card) in page) == (view == "referee")
        assert bool(re.search(r"\(T\d\d\)", page)) == (view in ("tokugawa", "referee"))
    chosen = next(e for e in table.entries if e.data["command"]["type"] == "choose_daimyo")
    colour = chosen.data["command"]["colour"]
    name = Words(TenkaRules()).card(chosen.data["command"]["card"])
    for view in tenka.VIEWS:
        page = tenka.view_text(tenka.view_at(table, chosen.seq, view))
        assert not raw.search(page), page
        assert (name in page) == (view in (colour, "referee")), (view, page)
