"""Concealment of the face-down Daimyo cards (section 9) on the touchscreen: two games that differ
only in which player holds which Daimyo card draw the very same strings and pixels on every
public screen, including after a Daimyo card refused by its own text; the "Play my Daimyo card"
button waits for the Daimyo pawn (clarification TM5); the reason for a refusal is shown to the
card's owner alone, on a page of its own."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest

from companion.games.tenka_meidou.components import Colour, Daimyo, default_components
from companion.games.tenka_meidou.events import Deploy
from companion.games.tenka_meidou.state import RESERVE, PawnMove
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.demo import DEMO_RATE_HZ, DEMO_SETTLE_S, TenkaDemo
from ui.tenka_meidou.words import card_name, colour_name

SEED = 8
PRIVATE = {"daimyo-choice", "daimyo-card"}
"""The pages shown to one player alone (the Daimyo offer, the reason a card was refused)."""
NAMES = {n for c in default_components().daimyo_cards for n in (c.en, c.es)}


@dataclass(frozen=True)
class Look:
    """What the touchscreen shows at one moment: the screen, its strings, its pixels."""

    step: str
    screen: str
    strings: tuple[str, ...]
    pixels: str


def look(app: TenkaApp, step: str) -> Look:
    app.app.draw()
    surface = app.app.window.subsurface(pygame.Rect((0, 0), app.app.size))
    pixels = hashlib.blake2b(pygame.image.tobytes(surface, "RGB"), digest_size=16).hexdigest()
    return Look(step, app.app.painter.screen, tuple(t for _s, t in app.app.drawn), pixels)


def button(app: TenkaApp, label: str) -> bool | None:
    """Whether the button is shown and can be tapped (None: not shown)."""
    app.app.draw()
    target = next((t for t in app.app.targets if t.label == label), None)
    return None if target is None else target.action is not None


def world(tmp_path: Path, swap: bool) -> tuple[list[Look], list[Look], dict[Colour, Daimyo]]:
    """A 2-player advanced game played through the screens and the virtual table: the Daimyo
    cards chosen (``swap``: each chooser takes the other's card), a deployment each, the first
    player's Daimyo card played with a move no card allows (refused), the pawn put back, one
    more deployment. Returns the public looks, the private ones, and who holds what."""
    app = TenkaApp(TenkaOptions(seed=SEED, virtual_table=False, hubs=["sim"],
                                rate_hz=DEMO_RATE_HZ, settle_s=DEMO_SETTLE_S,
                                workdir=tmp_path / "run", db=tmp_path / "games.sqlite"))
    public: list[Look] = []
    private: list[Look] = []

    def seen(step: str) -> None:
        now = look(app, step)
        (private if now.screen in PRIVATE else public).append(now)

    try:
        demo = TenkaDemo(app, seed=SEED)
        demo.start(players=2, advanced=True)
        seen("set up")
        offer = demo.state.daimyo_offer
        cards = (offer[1], offer[0]) if swap else (offer[0], offer[1])
        for card in cards:
            chooser = demo.state.daimyo_chooser()
            assert chooser is not None
            demo.tap(f"{colour_name(chooser)}: show me the Daimyo cards")
            seen(f"{chooser} looks at the offer")
            demo.tap(card_name(card))
            assert demo.state.daimyo.get(chooser) == card
            seen(f"{chooser} has chosen")
        first, second = demo.state.players
        assert demo.state.current == first
        assert button(app, "Play my Daimyo card") is False  # the pawn is in the reserve (TM5)
        demo.perform(Deploy(colour=first, rolls=((1, 2, 3),), single=3, daimyo=True))
        seen("the first deployment, with the Daimyo")
        demo.perform(Deploy(colour=second, rolls=((2, 2, 4),), single=4))
        seen("the second deployment")
        assert button(app, "Play my Daimyo card") is True
        zone = demo.state.daimyo_at[first]
        home = PawnMove(colour=first, origin=zone, destination=RESERVE)
        demo.tap("Play my Daimyo card")
        demo.virtual.carry_out((home,))  # back to the reserve: no Daimyo card does that
        demo.settled()
        seen("the card's pawn moved")
        events = len(demo.control.events)
        demo.tap("Done")
        assert len(demo.control.events) == events  # refused
        seen("the Daimyo card refused")
        demo.tap(f"{colour_name(first)} only: why?")
        seen("the reason, for its owner")
        demo.tap("Hide")
        seen("the reason hidden")
        demo.tap("Cancel")
        seen("back to the turn")
        demo.virtual.carry_out((PawnMove(colour=first, origin=RESERVE, destination=zone),))
        demo.settled()
        seen("the pawn put back")
        demo.perform(Deploy(colour=first, rolls=((3, 3, 5),), single=5))
        seen("a deployment after the refusal")
        held = dict(demo.state.daimyo)
    finally:
        app.close()
    return public, private, held


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory
           ) -> tuple[tuple[list[Look], list[Look], dict[Colour, Daimyo]], ...]:
    return (world(tmp_path_factory.mktemp("a"), swap=False),
            world(tmp_path_factory.mktemp("b"), swap=True))


def test_swapped_daimyo_cards_draw_the_same_strings_and_pixels(
        worlds: tuple[tuple[list[Look], list[Look], dict[Colour, Daimyo]], ...]) -> None:
    (a, _, held_a), (b, _, held_b) = worlds
    assert held_a != held_b and sorted(held_a.values()) == sorted(held_b.values())
    assert [x.step for x in a] == [x.step for x in b] and len(a) >= 10
    for x, y in zip(a, b, strict=True):
        assert (x.screen, x.strings) == (y.screen, y.strings), x.step
        assert x.pixels == y.pixels, x.step


def test_the_refusal_is_public_and_names_no_card(
        worlds: tuple[tuple[list[Look], list[Look], dict[Colour, Daimyo]], ...]) -> None:
    public, _, _ = worlds[0]
    refused = next(x for x in public if x.step == "the Daimyo card refused")
    assert "Not allowed: This Daimyo card cannot be played now (10)" in refused.strings
    assert any(s.endswith(" only: why?") for s in refused.strings)
    for x in public:
        assert not [s for s in x.strings for n in NAMES if n in s], x.step
    later = next(x for x in public if x.step == "a deployment after the refusal")
    assert "Not allowed: This Daimyo card cannot be played now (10)" in later.strings  # the feed


def test_the_reason_is_for_the_owner_alone(
        worlds: tuple[tuple[list[Look], list[Look], dict[Colour, Daimyo]], ...]) -> None:
    for _public, private, held in worlds:
        reason = next(x for x in private if x.step == "the reason, for its owner")
        assert reason.screen == "daimyo-card"
        first = next(c for c in held if reason.strings[0].startswith(colour_name(c)))
        card = next(c for c in default_components().daimyo_cards if c.id == held[first].value)
        assert any(s.startswith(f"{card.en}: ") for s in reason.strings)  # the card, its effect
        assert any(s.startswith("Why not: ") and "(10)" in s for s in reason.strings)
