"""The shared screen fails closed (3.1): an event kind shows on it only in the public form it
declares (``views.PUBLIC_FORMS``); a kind that declares none shows nothing of itself."""

from __future__ import annotations

import typing
from typing import Literal

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.feed import feed_line
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
