"""The shared screen fails closed (3.1): an event kind shows on it only in the public form it
declares (``views.PUBLIC_FORMS``); a kind that declares none shows nothing of itself."""

from __future__ import annotations

import typing
from typing import Literal

import pytest

from companion.core.game import Rejection
from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine import game as engine_game
from companion.games.sekigahara.engine.feed import feed_line
from companion.games.sekigahara.engine.state import Phase
from companion.games.sekigahara.engine.views import HIDDEN, PUBLIC_FORMS, public_event, side_event


class SpyReported(ev.Event):
    """A made-up event kind naming a concealed block, added without a public form."""

    type: Literal["spy_reported"] = "spy_reported"
    side: Side
    block: str
    location: str


def event_kinds() -> set[type[ev.Event]]:
    union = typing.get_args(ev.SekigaharaEvent)[0]
    return set(typing.get_args(union))


def test_a_new_event_kind_does_not_reach_the_shared_screen() -> None:
    secret = SpyReported(side=Side.TOKUGAWA, block="T07", location="gifu")
    for line in (public_event(secret), feed_line(secret), side_event(secret, Side.ISHIDA)):
        assert "T07" not in line and "gifu" not in line.lower() and "spy" not in line
    assert public_event(secret) == HIDDEN


def test_a_subclass_of_a_public_kind_does_not_inherit_its_form() -> None:
    class Whispered(ev.LocationResolved):
        block: str = "I03"

    assert public_event(Whispered(location="gifu")) == HIDDEN


def test_every_event_kind_of_the_game_declares_its_public_form() -> None:
    assert event_kinds() == set(PUBLIC_FORMS)
    assert len(event_kinds()) == 22


def test_a_declared_kind_shows_its_form() -> None:
    line = public_event(ev.LocationResolved(location="gifu"))
    assert line != HIDDEN and "gifu" in line


def test_a_refusal_from_deeper_rules_never_names_a_block_on_the_shared_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The combat and movement modules know no secret and may name a block in a refusal (the
    referee calculator shows it); through the game the public message is scrubbed and the
    detail kept for the acting side only."""
    def deeper(_state: object, _command: object) -> list[object]:
        raise RuleViolation("8.9.2", "I38 is not a defending block: it cannot be inside")

    game = engine_game.new_game()
    monkeypatch.setattr(engine_game, "refusal", lambda _state, _command: None)
    monkeypatch.setitem(engine_game._HANDLERS, cm.ChooseInside, deeper)
    assert game.state.phase is not Phase.GAME_OVER
    result = game.submit(cm.ChooseInside(side=Side.ISHIDA, inside=True))
    assert isinstance(result, Rejection) and result.rule == "8.9.2"
    assert "I38" not in str(result) and "a block is not a defending block" in str(result)
    assert result.private is not None and "I38" in result.private
