"""Tenka Meidou games in the store (issue 11): recorded as they are played, resumed by
re-adjudication, refused when the log does not hold, marked finished after the War."""

from __future__ import annotations

from pathlib import Path

import pytest
from _tenka_kit import play_stored

from companion.core.records import readjudicate
from companion.core.store import Store
from companion.games.sekigahara import records as sekigahara_records
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.state import Phase


def test_a_game_is_stored_resumed_and_finished(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        game_id = play_stored(store, seed=3, commands=6)
        assert [g.id for g in store.unfinished(records.GAME)] == [game_id]
        _, game = records.resume(store, game_id)
        assert len(game.events) == 7 and game.state.phase is Phase.DEPLOYMENT
        # another game's unfinished games are not offered to this one, nor this one's to it
        assert store.unfinished(sekigahara_records.GAME) == []
        done = play_stored(store, seed=4)
        assert store.load(done).summary.result is not None and "wins" in str(
            store.load(done).summary.result)
        assert [g.id for g in store.unfinished(records.GAME)] == [game_id]


def test_a_log_that_does_not_hold_is_refused_naming_its_entry(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite") as store:
        game_id = play_stored(store, seed=5, commands=3)
        log = store.load(game_id)
        entry = log.entries[1]
        entry.data["events"] = []  # a turn's outcome dropped after the fact
        with pytest.raises(records.LogRefused) as refused:
            readjudicate(TenkaRules(), records.COMMANDS, log.entries)
        assert refused.value.entry == 2 and "ruled differently" in refused.value.reason
        with pytest.raises(records.LogRefused):
            sekigahara_records.check(store.load(game_id))  # not a game of Sekigahara
