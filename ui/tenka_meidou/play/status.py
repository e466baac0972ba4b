"""The bar over the board (the phase, whose turn, each player's pawns left, "Menu") and the
details a tap opens: the players (5.I, 3.4) and a zone of the board (4, 3.2)."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from companion.games.tenka_meidou.components import default_board
from companion.games.tenka_meidou.state import Phase
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.shell.pages import Detail
from ui.tenka_meidou.play.state import PlayState
from ui.tenka_meidou.words import SMALLEST, TEXT_COLOUR, card_name, colour_name, short_zone

PHASE_NAME = {Phase.SETUP: "Set-up", Phase.DAIMYO: "Choosing Daimyo cards",
              Phase.DEPLOYMENT: "Deployment", Phase.OVER: "The War is over"}


def status_bar(canvas: Canvas, rect: pygame.Rect, play: PlayState, v: Table) -> None:
    t = canvas.theme
    canvas.fill(th.PANEL, rect)
    who = f" · {colour_name(v.current)}'s turn" if v.current is not None else ""
    head = f"{PHASE_NAME[v.phase]}{who}"
    line = t.target if t.portrait else rect.height
    left = canvas.text(head, (t.gap, rect.y + line // 2), size=t.body, bold=True,
                       anchor="midleft", colour=TEXT_COLOUR[v.current] if v.current else th.INK)
    menu = pygame.Rect(rect.right - 2 * t.target, rect.y, 2 * t.target, t.target)
    if t.portrait:  # the players on a row of their own under the heading
        area = pygame.Rect(t.gap, rect.y + line + 2, rect.width - 2 * t.gap, line - 4)
    else:
        area = pygame.Rect(left.right + 2 * t.gap, rect.y + 2,
                           menu.x - left.right - 3 * t.gap, rect.height - 4)
    cells = row(area, max(1, len(v.players)), t.gap)
    for cell, colour in zip(cells, v.players, strict=False):
        left_ = v.reserve.get(colour, 0) + int(v.phase is not Phase.SETUP
                                               and colour in v.daimyo
                                               and colour not in v.daimyo_at)
        text = (f"{colour_name(colour)} · sword {v.swords[colour]}" if colour in v.swords
                else f"{colour_name(colour)} {left_} left")
        if colour == v.current:
            pygame.draw.rect(canvas.surface, TEXT_COLOUR[colour], cell, width=2,
                             border_radius=4)
        canvas.text(text, cell.center, anchor="center", colour=TEXT_COLOUR[colour],
                    size=canvas.painter.fit_size(text, t.small, cell.width - 6,
                                                 smallest=SMALLEST))
    canvas.tap_area(rect, "Status", lambda: play.show(players_detail(v)))
    # the start screen (hardware check, referee): between turns, never mid-turn
    between = play.mode == "turn" and not play.private
    canvas.button(menu, "Menu", play.leave if between else None, size=t.small)


def players_detail(v: Table) -> Detail:
    lines = [f"Turn order, clockwise: {', '.join(colour_name(c) for c in v.players)}"]
    for colour in v.players:
        parts = [f"{v.reserve.get(colour, 0)} soldiers in reserve"]
        if v.daimyo_at.get(colour):
            parts.append(f"Daimyo on {short_zone(v.daimyo_at[colour])}")
        if colour in v.swords:
            parts.append(f"sword {v.swords[colour]}")
        if colour in v.tactic_used:
            parts.append(f"used {card_name(v.tactic_used[colour])}")
        if colour in v.daimyo:
            card = v.daimyo[colour]
            parts.append("Daimyo card face down" if card is None
                         else f"Daimyo card {card_name(card)} used")
        lines.append(f"{colour_name(colour)}: " + ", ".join(parts))
    return Detail("Players", tuple(lines), ("5.I", "3.4"))


def zone_opener(play: PlayState) -> Callable[[str], Callable[[], None]]:
    """What a tap on a zone of the board does: its detail, from the view as it is then."""
    return lambda zone: lambda: play.show(zone_detail(play.view(), zone))


def zone_detail(v: Table, zone: str) -> Detail:
    board = default_board()
    lines = [f"Large castle {v.castles.get(zone, '?')}"]
    here = [f"{colour_name(c)} {n}" for c, n in v.soldiers.get(zone, {}).items() if n]
    here += [f"{colour_name(c)} Daimyo" for c, z in v.daimyo_at.items() if z == zone]
    lines.append("Pawns: " + (", ".join(here) or "none"))
    borders = [f"{short_zone(z)} ({board.border(zone, z)})" for z in board.neighbours(zone)]
    lines.append("Borders: " + ", ".join(borders))
    return Detail(short_zone(zone), tuple(lines), ("4", "3.2"))
