"""The start screen's tournament setting: the table's tournament URL typed on an on-screen
keyboard (or pasted), joined, or left (docs/tournament.md, "A table in the tournament").

The URL holds the table's password: the screen shows it as dots, and it is saved where only
the table's account can read it (:func:`save`). Nothing here waits for the network: joining
starts the publisher, which connects on its own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from companion.core.paths import config_dir
from ui.shell import theme as th
from ui.shell import tournament
from ui.shell.canvas import Canvas, row

KEYS = ("1234567890", "qwertyuiop", "asdfghjkl-", "zxcvbnm_.:")
SYMBOLS = ("/", "@", "?", "=")
_PASSWORD = re.compile(r"^([a-z]*:/*[^:/@]*:)([^@]*)(.*)$")
"""The password: after the account's colon, up to the ``@`` (typed or not yet)."""


def saved_path() -> Path:
    return config_dir() / "tournament-url"


def saved() -> str | None:
    """The tournament URL the table was last given on this screen, or None."""
    try:
        return saved_path().read_text("utf-8").strip() or None
    except OSError:
        return None


def save(url: str | None) -> None:
    """Keep ``url`` for the next start (readable by this account only), or forget it."""
    path = saved_path()
    if url is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(url + "\n")


def masked(url: str) -> str:
    """The URL with its password as dots (the shared screen never shows it)."""
    found = _PASSWORD.match(url)
    if found is None:
        return url
    return found.group(1) + "•" * len(found.group(2)) + found.group(3)


@dataclass
class TournamentScreen:
    """Type the URL, then "Join"; "Leave the tournament" stops publishing; "Back"."""

    db: Path | None
    back: Callable[[], None]
    typed: str = ""
    shift: bool = False
    problem: str | None = None
    name: str = "tournament"

    def tick_ms(self) -> int | None:
        return 1000 if tournament.LINK is not None else None  # "connected" comes and goes

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        width = r.width - 2 * t.gap
        y = canvas.text("Tournament", (t.gap, t.gap), size=t.title, bold=True,
                        colour=th.GOLD).bottom
        now = tournament.shown() or "This table is not in a tournament"
        y = canvas.text(now, (t.gap, y), size=t.small, colour=th.DIM, width=width,
                        max_lines=1).bottom + t.gap // 2
        field_rect = pygame.Rect(t.gap, y, width, t.target)
        canvas.fill(th.PANEL, field_rect, radius=t.gap // 2)
        shown = masked(self.typed) or "Type the table's URL: mqtt://table-03:password@host/event"
        canvas.text(shown, (field_rect.x + t.gap, field_rect.centery), size=t.small,
                    anchor="midleft", colour=th.INK if self.typed else th.DIM,
                    width=field_rect.width - 2 * t.gap, max_lines=1)
        y = field_rect.bottom + t.gap // 2
        if self.problem:
            y = canvas.text(self.problem, (t.gap, y), size=t.small, colour=th.WARN,
                            width=width, max_lines=1).bottom + t.gap // 2
        bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, width, t.target)
        keys = pygame.Rect(t.gap, y, width, bar.y - t.gap - y)
        self._keyboard(canvas, keys)
        actions: list[tuple[str, Callable[[], None] | None, th.Colour]] = [
            ("Join", self.join if self.typed else None, th.ACCEPT),
            ("Paste", self.paste, th.PANEL_HI)]
        if tournament.LINK is not None:
            actions.append(("Leave the tournament", self.leave, th.PANEL_HI))
        actions.append(("Back", self.back, th.PANEL_HI))
        for cell, (label, action, colour) in zip(row(bar, len(actions), t.gap), actions,
                                                 strict=True):
            canvas.button(cell, label, action, colour=colour, size=t.small)

    def _keyboard(self, canvas: Canvas, rect: pygame.Rect) -> None:
        t = canvas.theme
        rows = [*KEYS, ""]
        height = max(t.target, min(t.target * 3 // 2, (rect.height - (len(rows) - 1)
                                                       * (t.gap // 2)) // len(rows)))
        for n, keys in enumerate(rows):
            line = pygame.Rect(rect.x, rect.y + n * (height + t.gap // 2), rect.width, height)
            if keys:
                labels = [k.upper() if self.shift else k for k in keys]
                for cell, key in zip(row(line, len(labels), t.gap // 2), labels, strict=True):
                    canvas.button(cell, key, self._key(key), size=t.body)
                continue
            last = [("Shift", self.toggle_shift), *[(s, self._key(s)) for s in SYMBOLS],
                    ("Delete", self.delete)]
            for cell, (label, action) in zip(row(line, len(last), t.gap // 2), last,
                                             strict=True):
                canvas.button(cell, label, action, size=t.small,
                              selected=label == "Shift" and self.shift)

    def _key(self, key: str) -> Callable[[], None]:
        def press() -> None:
            self.typed += key
            self.problem = None
        return press

    def toggle_shift(self) -> None:
        self.shift = not self.shift

    def delete(self) -> None:
        self.typed = self.typed[:-1]

    def paste(self) -> None:
        """The clipboard's text (a desktop, or a keyboard's paste), when there is one."""
        try:
            text = pygame.scrap.get_text()
        except pygame.error:
            text = ""
        if not text.strip():
            self.problem = "Nothing to paste"
            return
        self.typed = text.strip()
        self.problem = None

    def join(self) -> None:
        from tournament.url import TournamentUrl, UrlError

        try:
            url = TournamentUrl.for_table(self.typed)
        except UrlError as exc:
            self.problem = str(exc)[:1].upper() + str(exc)[1:]
            return
        tournament.stop()
        tournament.start(self.typed.strip(), self.db)
        try:
            save(self.typed.strip())
        except OSError as exc:
            self.problem = f"Joined {url.account}, but the URL cannot be kept: {exc.strerror}"
            return
        self.typed = ""
        self.back()

    def leave(self) -> None:
        tournament.stop()
        save(None)
        self.back()
