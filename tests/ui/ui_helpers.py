"""Helpers for the drawing components' tests: a recording painter, a leak scan, a real game
position played by seeded random players."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import re
from pathlib import Path

import pygame

from companion.games.sekigahara.components import Clan, Side
from companion.games.sekigahara.engine.players import play_until
from ui.sekigahara.app import Options
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.text import Painter
from ui.tableapp import GameTableApp

BLOCK_ID = re.compile(r"\b[IT]\d{2}\b")
CLAN_WORDS = {c.value for c in Clan} - {s.value for s in Side}
"""Clan names that are not also a side's name."""


def leaks(strings: list[str]) -> list[str]:
    """The strings that name a block: an id, a clan (not a side), a mon count."""
    found = []
    for text in strings:
        plain = text.lower().replace("mōri box", "box").replace("ō", "o")  # "Mōri" too
        words = set(re.findall(r"[a-z]+", plain))
        if BLOCK_ID.search(text) or words & CLAN_WORDS or re.search(r"\d[- ]mon\b", text):
            found.append(text)
    return found


class RecordingPainter(Painter):
    """A painter that also keeps where each string was drawn (canvas pixels)."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[str] = []
        self.sink = lambda _screen, text: self.drawn.append(text)
        self.placed: list[tuple[str, pygame.Rect]] = []

    def text(self, surface: pygame.Surface, text: str, pos: tuple[int, int], **kw: object
             ) -> pygame.Rect:
        rect = super().text(surface, text, pos, **kw)  # type: ignore[arg-type]
        offset = surface.get_abs_offset()
        self.placed.append((text, rect.move(offset)))
        return rect


def make_canvas(size: tuple[int, int]) -> tuple[Canvas, RecordingPainter]:
    painter = RecordingPainter()
    surface = pygame.Surface(size)
    surface.fill(th.PAPER)
    return Canvas(surface, painter, th.Theme(size)), painter


def app_options(tmp_path: Path, rate_hz: int = 50) -> Options:
    """A table app on the simulator, headless, its files in ``tmp_path``; a short settle (the
    tests' hands never pause on the way)."""
    return Options(hubs=["sim"], rate_hz=rate_hz, virtual_table=False, settle_s=0.25,
                   pin_file=tmp_path / "pin.json", workdir=tmp_path / "run",
                   db=tmp_path / "games.sqlite")


__all__ = ["app_options", "play_until"]


def shown(table_app: GameTableApp) -> list[str]:
    """Every string of a fresh frame of the touchscreen, as drawn."""
    table_app.app.draw()
    return [text for _screen, text in table_app.app.drawn]


def screen(table_app: GameTableApp) -> str:
    """The name of the screen a fresh frame draws."""
    table_app.app.draw()
    return table_app.app.painter.screen
