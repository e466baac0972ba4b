"""The table's tournament on the screens (docs/tournament.md, "A table in the tournament").

Game-neutral: ``companion run --tournament URL`` starts the table's publisher
(:mod:`tournament.publisher`, imported only then: the MQTT client is an optional extra) and
sets :data:`LINK`; a start screen shows :func:`shown`, a play screen draws
:func:`referee_call` under its column. The publisher watches the game database itself, so
nothing here waits for the network or is told of each entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas

if TYPE_CHECKING:
    from tournament.publisher import TablePublisher


class _Session(Protocol):
    @property
    def discrepancies(self) -> Sized: ...


class TableLink(Protocol):
    """What :func:`follow` needs of a game's table link (firmware_bridge's ``TableLink``: the
    shell imports no bridge)."""

    on_change: Callable[[], None] | None

    @property
    def session(self) -> _Session: ...

WATCH_S = 0.25
"""How often the publisher looks for entries the app stored."""


class TournamentLink:
    """The running publisher and the "call the referee" state the screens show."""

    def __init__(self, publisher: TablePublisher) -> None:
        self.publisher = publisher
        self.called = False
        self.discrepancies = 0

    def toggle(self) -> None:
        """Call the referee, or (tapped again) say the referee came."""
        if self.called:
            self.publisher.clear_referee()
        else:
            self.publisher.call_referee()
        self.called = not self.called

    def seen(self, discrepancies: int) -> None:
        """The table session's open discrepancies, published in the status when they change."""
        if discrepancies != self.discrepancies:
            self.discrepancies = discrepancies
            self.publisher.set_discrepancies(discrepancies)

    def shown(self) -> str:
        """"Tournament: table-03 at 192.168.1.20, connected" (or "not connected, playing on")."""
        return self.publisher.shown()


LINK: TournamentLink | None = None
"""The table's tournament, when ``companion run`` was given one."""


def start(url: str, db: Path | None) -> TournamentLink:
    """Start publishing to the tournament ``url`` from the game database ``db`` (default: the
    data directory's); UrlError (one line) for a URL that is not a tournament's."""
    global LINK
    from companion.core.paths import default_db_path
    from tournament.publisher import TablePublisher

    publisher = TablePublisher(url, db if db is not None else default_db_path(),
                               watch_s=WATCH_S)
    LINK = TournamentLink(publisher.start())
    return LINK


def follow(link: TableLink) -> None:
    """Tell the tournament, whenever the table changes, how many discrepancies the table
    session has open (the status's ``discrepancies``): wraps ``link.on_change``, so call it
    after that is set. A tournament joined later, on the start screen, is told too."""
    inner = link.on_change

    def changed() -> None:
        if LINK is not None:
            LINK.seen(len(link.session.discrepancies))
        if inner is not None:
            inner()

    link.on_change = changed


def stop() -> None:
    global LINK
    if LINK is not None:
        LINK.publisher.stop()
        LINK = None


def shown() -> str | None:
    return LINK.shown() if LINK is not None else None


def referee_call(canvas: Canvas, rect: pygame.Rect) -> pygame.Rect:
    """In a tournament: the "Call the referee" button ("The referee has been called" until
    tapped again) across the bottom of ``rect``, or at its right end when ``rect`` is one row
    (the feed keeps the rest); returns what is left of ``rect`` (all of it outside a
    tournament)."""
    link = LINK
    t = canvas.theme
    if link is None or rect.height < t.target:
        return rect
    if rect.height < 2 * t.target + t.gap:  # one row: beside what the rect is for
        width = min(rect.width // 3, 7 * t.target // 2)
        button = pygame.Rect(rect.right - width, rect.y, width, rect.height)
        left = pygame.Rect(rect.x, rect.y, max(0, button.x - t.gap - rect.x), rect.height)
    else:
        button = pygame.Rect(rect.x, rect.bottom - t.target, rect.width, t.target)
        left = pygame.Rect(rect.x, rect.y, rect.width, max(0, button.y - t.gap - rect.y))
    if link.called:
        canvas.button(button, "The referee has been called", link.toggle, colour=th.WARN,
                      size=t.small)
    else:
        canvas.button(button, "Call the referee", link.toggle, size=t.small)
    return left
