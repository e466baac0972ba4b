"""Undo of a mis-tap (issue 15): the last tap is taken back until the other side acts, stored as
a correction the referee sees, and the stored game still verifies and replays without it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_helpers import app_options, shown

from companion.core.store import Store
from companion.games.sekigahara import explain, records
from ui.sekigahara.app import TableApp
from ui.sekigahara.demo import Demo


@pytest.fixture
def table_app(tmp_path: Path) -> Iterator[TableApp]:
    app = TableApp(app_options(tmp_path))
    try:
        yield app
    finally:
        app.close()


def labels(app: TableApp) -> list[str]:
    app.app.draw()
    return [t.label for t in app.app.targets if t.action is not None]


def stored(app: TableApp) -> Store:
    assert app.store is not None
    return app.store


def test_a_bid_is_undone_until_the_other_side_bids(table_app: TableApp, tmp_path: Path) -> None:
    demo = Demo(table_app, seed=1)
    demo.play(1, until=lambda: demo.state.phase.value == "bid")
    bidder = next(s for s in ("Ishida", "Tokugawa") if f"{s}: tap the card" in
                  " ".join(shown(table_app)))
    before = table_app.control.events
    bid = next(label for label in labels(table_app) if "(bid " in label)
    demo.tap(bid)
    assert len(table_app.control.events) > len(before)
    undo = f"Undo: {bidder}'s bid"
    assert undo in labels(table_app)
    demo.tap(undo)
    assert table_app.control.events == before  # the game as it was before the bid
    assert f"Undone: {bidder}'s bid" in shown(table_app)
    # nothing hidden on the shared screen: the card bid is never named
    card = bid.split(" (bid")[0]
    assert not any(card in s for s in shown(table_app) if "Undo" in s)
    # the record: an undo correction naming the bid, and it verifies and replays
    game_id = table_app.game_id
    assert game_id is not None
    log = stored(table_app).load(game_id)
    last = log.entries[-1]
    assert last.kind == "correction" and last.data["action"] == "undo"
    undone = log.entries[last.data["detail"]["entry"] - 1]
    assert undone.data["command"]["type"] == "bid"
    rebuilt = records.check(log)
    assert list(rebuilt.events) == list(table_app.control.events)
    assert rebuilt.undone == [undone.seq]
    ok, said = table_app.verify()
    assert ok, said
    replayed = explain.view_at(log, len(log.entries), "public")
    assert replayed["state"]["bids_placed"] == []
    why = explain.explain_text(explain.explain_entry(log, last.seq))
    assert f"undo by {bidder.lower()}" in why and f"entry {undone.seq} is taken back" in why
    assert f"undone by entry {last.seq}" in explain.explain_text(
        explain.explain_entry(log, undone.seq))
    # bid again, then the other side bids: both bids are shown, the first cannot be undone
    demo.tap(bid)
    other = next(label for label in labels(table_app) if "(bid " in label)
    second = "Tokugawa" if bidder == "Ishida" else "Ishida"
    placed = table_app.control.events
    assert table_app.app.tap(other)  # it cannot be undone: said first, played once confirmed
    assert f"{second}'s bid cannot be undone: both bids are shown." in shown(table_app)
    assert table_app.app.painter.screen == "confirm-step"
    demo.tap("Back")
    assert table_app.control.events == placed and table_app.app.painter.screen == "bidding"
    labels(table_app)
    assert table_app.app.tap(other)
    labels(table_app)
    assert table_app.app.tap("Go ahead")
    assert len(table_app.control.events) > len(placed)
    assert not any(label.startswith("Undo:") for label in labels(table_app))
    demo.tap("Undo")
    assert any("cannot be undone: both bids are shown" in s for s in shown(table_app))
    assert records.check(stored(table_app).load(game_id)).events == list(
        table_app.control.events)


def test_end_movement_is_undone_then_refused_once_the_other_side_acts(
        table_app: TableApp) -> None:
    demo = Demo(table_app, seed=2)
    demo.play(1, until=lambda: demo.state.phase.value == "movement"
              and demo.state.level is not None)
    side = demo.state.active
    assert side is not None
    name = side.value.capitalize()
    before = table_app.control.events
    end = next(label for label in labels(table_app) if label.startswith("End movement"))
    demo.tap(end)
    assert demo.state.phase.value == "combat"
    demo.tap(f"Undo: {name}'s End movement")
    assert table_app.control.events == before and demo.state.phase.value == "movement"
    game_id = table_app.game_id
    assert game_id is not None
    assert records.check(stored(table_app).load(game_id)).events == list(before)
    # the game plays on from there: End movement again, and the record still holds
    demo.tap(end)
    assert demo.state.phase.value == "combat"
    demo.play(1, until=lambda: demo.state.active is not side)
    assert not any(label == f"Undo: {name}'s End movement" for label in labels(table_app))
    log = stored(table_app).load(game_id)
    assert records.check(log).events == list(table_app.control.events)


def test_tenka_a_daimyo_card_chosen_is_undone_and_the_record_holds(tmp_path: Path) -> None:
    from test_ui_tenka_saved import _app as tenka_app

    from companion.games.tenka_meidou import records as tenka_records
    from ui.tenka_meidou.demo import TenkaDemo
    from ui.tenka_meidou.words import card_name, colour_name

    app = tenka_app(tmp_path, tmp_path / "games.sqlite")
    try:
        demo = TenkaDemo(app, seed=2)
        demo.start(players=2, advanced=True)
        app.app.draw()
        assert not any(t.label.startswith("Undo") for t in app.app.targets)  # nothing yet
        before = app.control.events
        chooser = next(c for c in reversed(demo.state.players) if c not in demo.state.daimyo)
        name = colour_name(chooser)
        card = demo.state.daimyo_offer[0]
        demo.tap(f"{name}: show me the Daimyo cards")
        demo.tap(card_name(card))
        assert len(app.control.events) > len(before)
        demo.tap(f"Undo: {name}'s Daimyo choice")
        assert app.control.events == before
        assert demo.state.daimyo == {}
        assert any(line.text == f"Undone: {name}'s Daimyo choice"
                   for line in app.control.snapshot().feed)
        app.app.draw()
        texts = " ".join(text for _s, text in app.app.drawn)
        assert card_name(card) not in texts  # the card chosen is never named in public
        assert app.game_id is not None and app.saved.store is not None
        log = app.saved.store.load(app.game_id)
        assert list(tenka_records.check(log).events) == list(app.control.events)
        ok, said = app.verify()
        assert ok, said
    finally:
        app.close()
