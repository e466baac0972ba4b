"""Kensei's first screens: the home screen (a new battle, the calculators, the saved battles,
the game choice) and the choice of calculator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas, column

Action = Callable[[], None]
LINE = "Zenit Miniatures · 2 players · a miniatures skirmish"


@dataclass(frozen=True)
class Entry:
    label: str
    action: Action | None
    why_not: str = ""
    """Said under a button that cannot be tapped now: why."""
    colour: th.Colour = th.PANEL_HI


def _menu(canvas: Canvas, title: str, line: str, entries: list[Entry]) -> None:
    t = canvas.theme
    r = canvas.rect
    y = canvas.text(title, (r.centerx, t.gap * 2), size=t.title * 3 // 2, bold=True,
                    anchor="midtop").bottom
    y = canvas.text(line, (r.centerx, y + t.gap // 2), size=t.small, colour=th.DIM,
                    anchor="midtop", width=r.width - 4 * t.gap, max_lines=2).bottom + 2 * t.gap
    width = min(r.width - 4 * t.gap, 9 * t.target)
    small = canvas.painter.font(t.small).get_height()
    per = [t.target + (small + t.gap // 2 if e.why_not else 0) for e in entries]
    room = r.bottom - y - t.gap * len(entries)
    height = max(t.target, min(int(t.target * 1.3), (room - sum(per) + len(per) * t.target)
                               // len(entries)))
    for entry in entries:
        cell = pygame.Rect(r.centerx - width // 2, y, width, height)
        canvas.button(cell, entry.label, entry.action, colour=entry.colour)
        y = cell.bottom + t.gap // 2
        if entry.why_not:
            y = canvas.text(entry.why_not, (r.centerx, y), size=t.small, colour=th.WARN,
                            anchor="midtop", width=width, max_lines=2).bottom
        y += t.gap


@dataclass
class HomeScreen:
    """"New battle" opens the battle screens when they are installed, and says so when not;
    "Saved battles" is greyed, with its reason, only when there is nothing to open."""

    new_battle: Action | None
    calculators: Action
    saved_battles: Action | None
    change_game: Action | None = None
    no_battle: str = "The battle screens are not installed yet: the calculators work."
    no_saved: str = "No battle has been saved yet."
    problem: str | None = None
    """Why battles cannot be saved now (the store), said on the screen."""
    name: str = "start"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        entries = [
            Entry("New battle", self.new_battle,
                  "" if self.new_battle is not None else self.no_battle, th.ACCEPT),
            Entry("Calculators: melee, shooting, command duel", self.calculators),
            Entry("Saved battles", self.saved_battles,
                  "" if self.saved_battles is not None else (self.problem or self.no_saved))]
        if self.change_game is not None:
            entries.append(Entry("Change game", self.change_game, colour=th.PANEL))
        _menu(canvas, "Kensei", LINE, entries)


@dataclass
class CalculatorsScreen:
    """The three calculators (issue 20, item 3): the rulebook's arithmetic, every modifier
    with its heading; the players assert the table and give the dice as rolled."""

    melee: Action
    shoot: Action
    duel: Action
    back: Action
    name: str = "kensei-calculators"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text("Calculators", (2 * t.gap, t.gap * 2), size=t.title, bold=True).bottom
        y = canvas.text("You say what is on the table and the dice as rolled (or let the app "
                        "roll); the calculator does the rulebook's arithmetic and names the "
                        "heading of every modifier.", (2 * t.gap, y + t.gap), size=t.small,
                        colour=th.DIM, width=r.width - 4 * t.gap, max_lines=3).bottom + t.gap
        bottom = r.bottom - t.target - 2 * t.gap
        width = min(r.width - 4 * t.gap, 9 * t.target)
        count = 3
        height = max(t.target, min(int(t.target * 1.4), (bottom - y - 2 * t.gap) // count))
        area = pygame.Rect(r.centerx - width // 2, y, width, count * (height + t.gap) - t.gap)
        labels = (("Melee (COMBATE CUERPO A CUERPO)", self.melee),
                  ("Shooting (DISPARAR)", self.shoot),
                  ("Command duel (DUELO DE MANDO)", self.duel))
        for cell, (label, action) in zip(column(area, count, t.gap), labels, strict=True):
            canvas.button(cell, label, action)
        canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, r.bottom - t.target - t.gap,
                                  3 * t.target, t.target), "Back", self.back)
