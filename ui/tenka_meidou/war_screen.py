"""Tenka Meidou after the last pawn is placed: the War zone by zone (5.II) as the table follows
it, then the final score (6).

Both pages draw from the :class:`~ui.tenka_meidou.control.Snapshot` (the public view, the War
at the table) and are given the screen's callables; every zone and every total is one tap from
its arithmetic. The final score opens only once the table is complete: every white pawn placed
and nothing left differing (5.II.3).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from companion.core.seals import Seal
from companion.games.tenka_meidou.components import Colour
from companion.games.tenka_meidou.views import Table
from companion.games.tenka_meidou.war import DAIMYO_POWER, WarResult, ZoneResult
from ui.shell import theme as th
from ui.shell.canvas import Canvas, grid, row
from ui.shell.pages import Detail
from ui.shell.plots import Series, line_chart
from ui.shell.sealing import draw_seal
from ui.tenka_meidou.control import FeedLine, Snapshot, cited
from ui.tenka_meidou.words import PAWN_FILL, SMALLEST, TEXT_COLOUR, colour_name, short_zone

WAR_COLOUR = {"war": th.INK, "waiting": th.DIM, "table": th.WARN, "ruling": th.ACCEPT}
PRIORITY = {"war": 0, "table": 1, "waiting": 2, "ruling": 3}
"""What the players must read first when the panel has no room for every line: what to do,
then what to put right."""
WAR_TITLE = {"war": "The War at the table", "waiting": "Reinforcements placed",
             "table": "The table differs", "ruling": "Reinforcements in place"}


@dataclass(frozen=True)
class Look:
    """How a zone of the War is drawn: its fill, an outline (or None) and its text."""

    fill: th.Colour
    edge: th.Colour | None
    ink: th.Colour


NOBODY = Look(th.PAPER, th.LINE, th.DIM)
"""A zone nobody won: no fill, a thin outline, dim text; never mistaken for a colour."""


def zone_look(winner: Colour | None) -> Look:
    """Each player's zones in the pawns' own colour, darkened under light text (black pawns'
    zones black with a light edge); nobody's zones as :data:`NOBODY`."""
    if winner is None:
        return NOBODY
    if winner is Colour.BLACK:
        return Look(PAWN_FILL[winner], TEXT_COLOUR[winner], th.INK)
    r, g, b = PAWN_FILL[winner]
    return Look((r * 3 // 5, g * 3 // 5, b * 3 // 5), None, th.INK)


def table_complete(snap: Snapshot) -> bool:
    """Every white pawn of the War placed and nothing on the table differing (5.II.3)."""
    return snap.war_left is None and not snap.table


def draw_war(canvas: Canvas, snap: Snapshot, show: Callable[[Detail], None],
             leave: Callable[[], None], to_score: Callable[[], None]) -> None:
    """The War: what to place on the table now, then every zone in the order fought, each in
    its winner's colour; "Final score" once the table is complete."""
    t = canvas.theme
    r = canvas.rect
    v = snap.view
    war = v.war
    assert war is not None
    x, width = t.gap * 2, r.width - 4 * t.gap
    y = canvas.text("The War: zones in ascending castle value (5.II)", (x, t.gap),
                    size=t.body, bold=True, width=width, max_lines=1).bottom
    complete = table_complete(snap)
    columns = 1 if t.portrait else (3 if snap.war_lines else 2)
    rows = -(-len(war.zones) // columns)
    bar = pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target)
    bottom = bar.y - t.gap
    note = "" if complete else waiting_for(snap)
    if note:  # what is missing, above the greyed "Final score" (two lines at most)
        lines = min(2, len(canvas.painter.wrap(note, t.small, width)))
        bottom -= lines * canvas.painter.font(t.small).get_height() + 4
    gap = t.gap // 2
    if snap.war_lines:  # the War at the table: what to place now, and where (5.II.3)
        room = bottom - y - t.gap - rows * t.target - (rows - 1) * gap - t.small - 4
        y = war_table(canvas, pygame.Rect(x, y + t.gap // 2, width, room), snap.war_lines,
                      show) + t.gap // 2
    y = canvas.text("Tap a zone for its arithmetic; a zone in a player's colour is theirs, an "
                    "outlined one nobody's.", (x, y), size=t.small, colour=th.DIM,
                    width=width, max_lines=1).bottom + t.gap // 2
    height = max(t.target, min((bottom - y - (rows - 1) * gap) // rows, int(t.target * 1.3)))
    cells = grid(pygame.Rect(x, y, width, 0), rows * columns, columns, gap, height)
    labels = [zone_line(zone) for zone in war.zones]
    size = t.small  # one size for every zone, on two lines if need be
    inner = cells[0].width - 2 * t.gap
    while size > SMALLEST and any(len(canvas.painter.wrap(label, size, inner)) > 2
                                  for label in labels):
        size -= 1
    for i, (zone, label) in enumerate(zip(war.zones, labels, strict=True)):
        cell = cells[(i % rows) * columns + i // rows]  # down a column, then the next
        look = zone_look(zone.winner)
        canvas.fill(look.fill, cell, radius=t.gap)
        if look.edge is not None:
            pygame.draw.rect(canvas.surface, look.edge, cell, width=2, border_radius=t.gap)
        canvas.text(label, cell.center, size=size, anchor="center", width=inner,
                    max_lines=2, colour=look.ink)
        canvas.tap_area(cell, label, partial(show, zone_detail(war, v, zone)))
    if note:
        canvas.text(note, (x, bottom + t.gap // 2), size=t.small, colour=th.WARN, width=width,
                    max_lines=2)
    left, right = row(bar, 2, t.gap)
    canvas.button(left, "Leave", leave, size=t.small)
    canvas.button(right, "Final score", to_score if complete else None, colour=th.ACCEPT)


def waiting_for(snap: Snapshot) -> str:
    """Why "Final score" is not open yet, in a line."""
    if snap.war_left is not None:
        return f"Final score once the table is complete: {snap.war_left} (5.II.3)"
    return "Final score once the table agrees with the game: see above (5.II.3)"


def war_table(canvas: Canvas, rect: pygame.Rect, lines: tuple[FeedLine, ...],
              show: Callable[[Detail], None]) -> int:
    """The table session's War (5.II.3) in a panel: the prompt, each discrepancy with its fix,
    the white pawns placed, the last zone done, as many as fit in that order; each line a tap
    from its sections. Returns the bottom."""
    t = canvas.theme
    inner = rect.width - 2 * t.gap
    tall = t.target  # each line a finger's tap
    sizes = []
    for line in sorted(lines, key=lambda line: PRIORITY.get(line.kind, len(PRIORITY))):
        wrapped = canvas.painter.wrap(line.text, t.small, inner)[:3]
        sizes.append((line, max(tall, len(wrapped) * (t.small + 3) + 4)))
    shown: list[tuple[FeedLine, int]] = []
    used = t.gap // 2
    for line, height in sizes:
        if used + height > rect.height and shown:
            break
        shown.append((line, height))
        used += height
    box = pygame.Rect(rect.x, rect.y, rect.width, used + t.gap // 2)
    canvas.fill(th.PANEL, box, radius=t.gap)
    y = rect.y + t.gap // 2
    for line, height in shown:
        colour = WAR_COLOUR.get(line.kind, th.INK)
        canvas.text(line.text, (rect.x + t.gap, y + 2), size=t.small, colour=colour,
                    width=inner, max_lines=3, bold=line.kind == "war")
        canvas.tap_area(pygame.Rect(rect.x, y, rect.width, height), line.text,
                        partial(show, Detail(WAR_TITLE.get(line.kind, "The War"),
                                             (line.text,), cited(line))))
        y += height
    return box.bottom


def draw_score(canvas: Canvas, snap: Snapshot, show: Callable[[Detail], None],
               to_war: Callable[[], None], leave: Callable[[], None],
               seal: Seal | None = None) -> None:
    """The final score (6): who wins, each player's large and small castles, the score as the
    zones were fought, and the seal of the game for the score sheet."""
    t = canvas.theme
    r = canvas.rect
    v = snap.view
    war = v.war
    assert war is not None
    winner = war.winner
    y = canvas.text(f"{colour_name(winner)} wins", (t.gap * 2, t.gap), size=t.title,
                    bold=True, colour=TEXT_COLOUR[winner]).bottom
    ranked = sorted(v.players, key=lambda c: (war.scores[c], v.swords.get(c, 0)),
                    reverse=True)
    text = ", ".join(f"{colour_name(c)} {war.scores[c]}" for c in ranked)
    tied = [c for c in ranked[1:] if war.scores[c] == war.scores[winner]]
    if tied:
        text += (f"; tie at {war.scores[winner]}: {colour_name(winner)}'s sword "
                 f"{v.swords[winner]} is higher")
    y = canvas.text(f"Final score: {text} (6)", (t.gap * 2, y), size=t.body,
                    width=r.width - 4 * t.gap, max_lines=2).bottom
    canvas.tap_area(pygame.Rect(0, 0, r.width, y), "Final score",
                    lambda: show(score_detail(war, v)))
    y += t.gap
    for colour in ranked:
        large = sum(z.value for z in war.zones if z.winner == colour)
        small = sum(z.small_value or 0 for z in war.zones if z.second == colour)
        y = canvas.text(f"{colour_name(colour)}: large {large} + small {small} = "
                        f"{war.scores[colour]}, sword {v.swords.get(colour, '-')}",
                        (t.gap * 2, y), size=t.small).bottom
    if seal is not None:
        y = draw_seal(canvas, seal, (t.gap * 2, y + t.gap // 2), r.width - 4 * t.gap)
    chart = pygame.Rect(t.gap * 2, y + t.gap, r.width - 4 * t.gap,
                        r.bottom - y - t.target - 4 * t.gap)
    if chart.height > 3 * t.target:
        labels = [str(z.value) for z in war.zones]
        series = [Series(colour_name(c), TEXT_COLOUR[c], running(war, c)) for c in v.players]
        line_chart(canvas, chart, "Score as the zones are fought", labels, series,
                   y_label="points")
    bar = pygame.Rect(t.gap * 2, r.bottom - t.target - t.gap, r.width - 4 * t.gap, t.target)
    left, right = row(bar, 2, t.gap)
    canvas.button(left, "The War zone by zone", to_war, size=t.small)
    canvas.button(right, "Leave", leave, size=t.small)


def running(war: WarResult, colour: Colour) -> list[float | None]:
    """``colour``'s score after each zone, in the order fought."""
    total = 0
    out: list[float | None] = []
    for z in war.zones:
        total += z.value if z.winner == colour else 0
        total += (z.small_value or 0) if z.second == colour else 0
        out.append(total)
    return out


def zone_line(zone: ZoneResult) -> str:
    """One line per zone on the War screen."""
    head = f"{zone.value} {short_zone(zone.zone)}"
    if zone.winner is None:
        return f"{head}: nobody, set aside"
    line = f"{head}: {colour_name(zone.winner)} {zone.power[zone.winner]}"
    if zone.second is not None:
        line += f" beats {colour_name(zone.second)} {zone.power[zone.second]}"
        if zone.power[zone.winner] == zone.power[zone.second]:
            line += " on the sword"
    return line


def received(war: WarResult, zone: str) -> dict[Colour, int]:
    """Reinforcement pawns put in ``zone`` for each player before it was fought (5.II.3)."""
    got: dict[Colour, int] = {}
    for z in war.zones:
        if z.zone == zone:
            break
        if z.winner is not None and zone in z.reinforcements:
            got[z.winner] = got.get(z.winner, 0) + z.reinforcements[zone]
    return got


def zone_detail(war: WarResult, v: Table, zone: ZoneResult) -> Detail:
    """The arithmetic of one zone: power, ties by sword, tokens, reinforcements sent."""
    place = short_zone(zone.zone)
    place_no = [z.zone for z in war.zones].index(zone.zone) + 1
    lines = [f"Castle {zone.value}, fought {_ordinal(place_no)}: zones go in ascending "
             "castle value (5.II)"]
    if zone.winner is None:
        lines.append("Nobody has pawns here: the token is set aside and nobody scores it")
        return Detail(f"{zone.value} {place}", tuple(lines), ("5.II",))
    extra = received(war, zone.zone)
    order = sorted(zone.power, key=lambda c: (zone.power[c], v.swords.get(c, 0)), reverse=True)
    for colour in order:
        soldiers = v.soldiers.get(zone.zone, {}).get(colour, 0)
        parts = [f"{soldiers} soldier{'s' if soldiers != 1 else ''}"]
        if extra.get(colour):
            parts.append(f"{extra[colour]} reinforcements")
        if v.daimyo_at.get(colour) == zone.zone:
            parts.append(f"Daimyo {DAIMYO_POWER}")
        lines.append(f"{colour_name(colour)}: {' + '.join(parts)} = power "
                     f"{zone.power[colour]} (sword {v.swords.get(colour, '-')}) (5.II.1)")
    for a, b in itertools.pairwise(order):
        if zone.power[a] == zone.power[b]:
            lines.append(f"{colour_name(a)} and {colour_name(b)} tie at {zone.power[a]}: "
                         f"{colour_name(a)}'s sword {v.swords.get(a)} beats "
                         f"{v.swords.get(b)} (5.II.1)")
    winner = colour_name(zone.winner)
    if zone.small_value is not None and zone.second is not None:
        lines.append(f"{winner} takes the large castle {zone.value}; "
                     f"{colour_name(zone.second)} the small castle {zone.small_value} (5.II.2)")
    elif zone.second is not None:
        lines.append(f"{winner} takes the large castle {zone.value}; no small castles with "
                     "2 players (3.4)")
    else:
        lines.append(f"{winner} takes the large castle {zone.value}; nobody else was there "
                     "(5.II.2)")
    if zone.reinforcements:
        sent = ", ".join(f"{n} to {short_zone(z)}" for z, n in zone.reinforcements.items())
        lines.append(f"{winner} sends reinforcements: {sent} (5.II.3)")
    else:
        lines.append(f"{winner} sends no reinforcements: no zone next door still to be fought "
                     f"holds {winner}'s soldiers (5.II.3)")
    return Detail(f"{zone.value} {place}", tuple(lines), ("5.II.1", "5.II.2", "5.II.3"))


def score_detail(war: WarResult, v: Table) -> Detail:
    lines = []
    for colour in v.players:
        large = [z.value for z in war.zones if z.winner == colour]
        small = [z.small_value or 0 for z in war.zones if z.second == colour and z.small_value]
        lines.append(f"{colour_name(colour)}: large {' + '.join(map(str, large)) or '0'}; "
                     f"small {' + '.join(map(str, small)) or '0'}; total {war.scores[colour]}")
    lines.append(f"{colour_name(war.winner)} wins; a tied total goes to the higher sword")
    return Detail("Final score", tuple(lines), ("6",))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
