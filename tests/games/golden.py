"""Golden playthroughs: seeded self-play games kept as event logs, one JSON event per line.

The event log is the source of truth of a game, so a checked-in log pins the rules the way
python-chess's perft counts pin move generation: the random players choose among the engine's
answers in the order given, and any change to what is legal, to the order it is offered in or to
what an event records changes the log. ``test_golden.py`` replays the same seeds and diffs the
logs event by event; it also replays each checked-in log and compares the final state.

A deliberate change of the rules regenerates the logs (then review the diff before committing)::

    python -m tests.games.golden --write
    UPDATE_GOLDEN=1 python -m pytest tests/games/test_golden.py    (the same)
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from companion.core.game import Game, Rejection, replay
from companion.games.kensei import tournament as kensei
from companion.games.kensei.battle.events import KenseiEvent
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import State as BattleState
from companion.games.sekigahara.engine import simulator as sekigahara
from companion.games.sekigahara.engine.game import SekigaharaRules, load_events
from companion.games.tenka_meidou.events import TenkaCommand, TenkaEvent
from companion.games.tenka_meidou.players import RandomPlayer
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase, State

GAMES_DIR = Path(__file__).resolve().parent
UPDATE_ENV = "UPDATE_GOLDEN"


@dataclass(frozen=True)
class Playthrough:
    """One seeded game: ``play(seed)`` gives its events and its final state."""

    game: str
    seed: int
    about: str
    play: Callable[[int], tuple[Sequence[BaseModel], object]]
    parse: Callable[[list[dict[str, Any]]], list[BaseModel]]
    rules: Any

    @property
    def path(self) -> Path:
        return GAMES_DIR / self.game / "golden" / f"seed-{self.seed:04d}.jsonl"

    def replayed(self, events: Sequence[BaseModel]) -> object:
        state: object = replay(self.rules, events)
        return state


def _sekigahara(seed: int) -> tuple[Sequence[BaseModel], object]:
    report = sekigahara.play_game(seed, check=False)
    assert report.game is not None and report.completed, report.error
    return report.game.events, report.game.state


_TENKA_EVENTS: TypeAdapter[list[TenkaEvent]] = TypeAdapter(list[TenkaEvent])


def _tenka(seed: int) -> tuple[Sequence[BaseModel], object]:
    """Tenka Meidou's simulator keeps no game: the same seed is played here as its
    ``play_game`` plays it (``test_golden`` checks the two agree)."""
    rules = TenkaRules()
    game: Game[State, TenkaCommand, TenkaEvent] = Game(rules)
    player = RandomPlayer(random.Random(seed), rules.board, rules.components)
    while game.state.phase is not Phase.OVER:
        result = game.submit(player.command(game.state))
        assert not isinstance(result, Rejection), result
    return game.events, game.state


_KENSEI_EVENTS: TypeAdapter[list[KenseiEvent]] = TypeAdapter(list[KenseiEvent])


def _kensei(seed: int) -> tuple[Sequence[BaseModel], object]:
    """Kensei's battle as the simulator plays it (``simulator.play_battle``), through
    ``tournament.play`` so that the final state is kept (``test_golden`` checks they agree)."""
    game: Game[BattleState, Any, Any] = Game(KenseiRules())
    kensei.play(game, seed)
    return game.events, game.state


def _parse_sekigahara(raw: list[dict[str, Any]]) -> list[BaseModel]:
    return list(load_events(raw))


def _parse_tenka(raw: list[dict[str, Any]]) -> list[BaseModel]:
    return list(_TENKA_EVENTS.validate_python(raw))


def _parse_kensei(raw: list[dict[str, Any]]) -> list[BaseModel]:
    return list(_KENSEI_EVENTS.validate_python(raw))


def _s(seed: int, about: str) -> Playthrough:
    return Playthrough("sekigahara", seed, about, _sekigahara, _parse_sekigahara,
                       SekigaharaRules())


def _t(seed: int, about: str) -> Playthrough:
    return Playthrough("tenka_meidou", seed, about, _tenka, _parse_tenka, TenkaRules())


def _k(seed: int, about: str) -> Playthrough:
    return Playthrough("kensei", seed, about, _kensei, _parse_kensei, KenseiRules())


PLAYTHROUGHS = (
    _s(2, "instant victory in week 3: Tokugawa Ieyasu killed (2.1); 162 events"),
    _s(0, "to the end of week 7 on points (2.2), five sieges (8.9)"),
    _s(21, "battle-heavy: 25 combats, 9 of them sieges, 5 retreats (8.8), points (2.2)"),
    _t(0, "three players, basic game, to the War"),
    _t(6, "four players, advanced game (Daimyo cards, section 9), to the War"),
    _t(9, "three players, advanced game, six cards played"),
    _k(0, "a rout in turn 4 (B3.1), a hidden Kuroi-te troop (B12), offerings, command duels"),
    _k(6, "to the end of turn 5, scenario 1 (B15): 11 melees, 5 shots, 3 retreat rolls"),
    _k(26, "a concession in turn 5, scenario 4 scored from the table's inputs (B15)"),
)


def line(event: BaseModel) -> str:
    """An event as one reviewable line: its JSON with keys sorted."""
    return json.dumps(event.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)


def read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write(playthrough: Playthrough) -> Path:
    events, _ = playthrough.play(playthrough.seed)
    path = playthrough.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line(e) + "\n" for e in events), encoding="utf-8")
    return path


def first_difference(golden: Sequence[str], now: Sequence[str]) -> str | None:
    """None if the logs are the same, else the first differing event with its index and both
    versions (or which log is longer)."""
    for index, (was, got) in enumerate(zip(golden, now, strict=False)):
        if was != got:
            return (f"event {index} differs (of {len(golden)} golden, {len(now)} now)\n"
                    f"  golden: {was}\n  now:    {got}")
    if len(golden) != len(now):
        index = min(len(golden), len(now))
        extra = (golden if len(golden) > len(now) else now)[index]
        which = "golden" if len(golden) > len(now) else "now"
        return (f"the logs agree for {index} events, then only {which} goes on "
                f"({len(golden)} golden, {len(now)} now)\n  {which}: {extra}")
    return None


def updating() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate every golden log")
    args = parser.parse_args(argv)
    status = 0
    for playthrough in PLAYTHROUGHS:
        if args.write:
            print(f"wrote {write(playthrough).relative_to(GAMES_DIR)}")
            continue
        events, _ = playthrough.play(playthrough.seed)
        diff = first_difference(read(playthrough.path), [line(e) for e in events])
        print(f"{playthrough.game} seed {playthrough.seed}: {diff or 'same'}")
        status |= diff is not None
    return status


if __name__ == "__main__":
    raise SystemExit(main())
