"""Tenka Meidou's screens: start, set-up, the Daimyo choice, the board with each deployment turn
and card, the War zone by zone, the final score.

Every screen draws from :meth:`TenkaControl.snapshot` (the public view and the feed), never
from the game's state. Every ruling is one tap from the summary of the section it cites.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pygame

from companion.core.game import Rejection
from companion.games.tenka_meidou.components import Colour, Daimyo, Tactic, default_board
from companion.games.tenka_meidou.rulebook import cite, default_rules
from companion.games.tenka_meidou.state import Phase
from companion.games.tenka_meidou.views import Table
from ui.shell import theme as th
from ui.shell.canvas import Canvas, column, grid, row
from ui.shell.hubstatus import hub_strip
from ui.shell.pages import Detail, detail_page, pager, split
from ui.shell.saving import game_entries, undo_button
from ui.tenka_meidou.boardview import draw_board
from ui.tenka_meidou.control import FeedLine, Plan, Roll, Snapshot, TenkaControl, refusal
from ui.tenka_meidou.war_screen import draw_score, draw_war
from ui.tenka_meidou.words import (
    CARD_TEXT,
    PAWN_FILL,
    SMALLEST,
    TEXT_COLOUR,
    card_name,
    colour_name,
    short_zone,
    words,
)

PHASE_NAME = {Phase.SETUP: "Set-up", Phase.DAIMYO: "Choosing Daimyo cards",
              Phase.DEPLOYMENT: "Deployment", Phase.OVER: "The War is over"}
FEED_COLOUR = {"ruling": th.INK, "rejected": th.DANGER, "table": th.WARN}
FEED_TITLE = {"ruling": "Ruling", "rejected": "Not allowed", "table": "The table differs"}


def open_line(show: Callable[[Detail], None], line: FeedLine) -> Callable[[], None]:
    return lambda: show(Detail(FEED_TITLE.get(line.kind, "Note"), (line.text,),
                               (line.rule,) if line.rule else ()))


def feed(canvas: Canvas, rect: pygame.Rect, lines: tuple[FeedLine, ...],
         show: Callable[[Detail], None]) -> None:
    """The rulings feed, newest first; each line a tap from its section's summary."""
    t = canvas.theme
    canvas.fill(th.PANEL, rect, radius=t.gap)
    y = rect.y + t.gap // 2
    for line in reversed(lines):
        wrapped = canvas.painter.wrap(line.text, t.small, rect.width - 2 * t.gap)[:2]
        height = max(t.target, len(wrapped) * (t.small + 2) + 4)  # a finger's tap each
        if y + height > rect.bottom:
            break
        canvas.text(line.text, (rect.x + t.gap, y + 2), size=t.small,
                    colour=FEED_COLOUR.get(line.kind, th.INK), width=rect.width - 2 * t.gap,
                    max_lines=2)
        canvas.tap_area(pygame.Rect(rect.x, y, rect.width, height), line.text,
                        open_line(show, line))
        y += height
        pygame.draw.line(canvas.surface, th.LINE, (rect.x + t.gap, y - 1),
                         (rect.right - t.gap, y - 1))


# ---------------------------------------------------------------------------- start, set-up

@dataclass
class StartScreen:
    new_game: Callable[[], None] | None
    resume: Callable[[], None] | None
    rules: Callable[[], None] | None = None
    readers: str = ""
    """One line on the readers: the simulator or the hubs found."""
    problem: str | None = None
    """Why games cannot be saved now (the store), said on the screen."""
    retry: Callable[[], None] | None = None
    without_saving: Callable[[], None] | None = None
    hardware: Callable[[], None] | None = None
    referee: Callable[[], None] | None = None
    """Behind the referee PIN."""
    change_game: Callable[[], None] | None = None
    """Back to the game choice (when more than one game is installed)."""
    saved_games: Callable[[], None] | None = None
    """The Saved games page (ui.shell.saving), when an unfinished game is saved."""
    name: str = "start"

    def tick_ms(self) -> int | None:
        return None

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        y = canvas.text("Tenka Meidou", (r.centerx, t.gap * 3), size=t.title * 3 // 2,
                        bold=True, anchor="midtop").bottom
        y = canvas.text("Rumble Nation · 2 to 4 players · pawns, dice and castles",
                        (r.centerx, y + t.gap), size=t.small, colour=th.DIM,
                        anchor="midtop").bottom
        if self.readers:
            y = canvas.text(f"Readers: {self.readers}", (r.centerx, y), size=t.small,
                            colour=th.DIM, anchor="midtop").bottom
        if self.problem:
            y = canvas.text(f"Games cannot be saved: {self.problem}", (r.centerx, y),
                            size=t.small, anchor="midtop", colour=th.WARN,
                            width=r.width - 4 * t.gap).bottom
        width = min(r.width - 4 * t.gap, 8 * t.target)
        entries = game_entries(self.resume, self.new_game, self.retry, self.without_saving,
                               self.saved_games)
        if self.rules is not None:
            entries.append(("The rules in short", self.rules, th.PANEL_HI))
        if self.hardware is not None:
            entries.append(("Hardware check", self.hardware, th.PANEL_HI))
        if self.referee is not None:
            entries.append(("Referee", self.referee, th.PANEL_HI))
        if self.change_game is not None:
            entries.append(("Change game", self.change_game, th.PANEL))
        top = y + 2 * t.gap
        height = min(int(t.target * 1.4), (r.bottom - top - t.gap - t.gap * (len(entries) - 1))
                     // len(entries))
        area = pygame.Rect(r.centerx - width // 2, top, width,
                           len(entries) * (height + t.gap) - t.gap)
        for cell, (label, action, colour) in zip(column(area, len(entries), t.gap), entries,
                                                 strict=True):
            canvas.button(cell, label, action, colour=colour)


@dataclass
class SetupScreen:
    """Who plays (2-4 colours, in seating order clockwise from the first player) and whether
    it is the advanced game with Daimyo (sections 1, 3, 9)."""

    start: Callable[[tuple[Colour, ...], bool], None]
    back: Callable[[], None]
    seats: list[Colour] = field(default_factory=list)
    advanced: bool = False
    name: str = "setup"

    def tick_ms(self) -> int | None:
        return None

    def toggle(self, colour: Colour) -> None:
        if colour in self.seats:
            self.seats.remove(colour)
        elif len(self.seats) < 4:
            self.seats.append(colour)

    def flip(self) -> None:
        self.advanced = not self.advanced

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        x = 2 * t.gap
        width = r.width - 4 * t.gap
        y = canvas.text("New game of Tenka Meidou", (x, t.gap), size=t.title, bold=True).bottom
        y = canvas.text("Tap the colours playing, starting with the first player and going "
                        "clockwise round the table (1, 3).", (x, y + t.gap // 2), size=t.small,
                        width=width).bottom + t.gap
        height = int(t.target * 1.3)
        for cell, colour in zip(row(pygame.Rect(x, y, width, height), 4, t.gap), Colour,
                                strict=True):
            seat = self.seats.index(colour) + 1 if colour in self.seats else None
            label = colour_name(colour) + (f" · seat {seat}" if seat else "")
            ink = th.INK if colour in (Colour.RED, Colour.BLUE, Colour.BLACK) else th.BLACK_SIDE
            canvas.button(cell, label, partial(self.toggle, colour),
                          colour=PAWN_FILL[colour] if seat else th.PANEL_HI,
                          text_colour=ink if seat else TEXT_COLOUR[colour], selected=bool(seat))
        y += height + t.gap
        order = ", ".join(colour_name(c) for c in self.seats) or "nobody yet"
        count = f"{len(self.seats)} player{'s' if len(self.seats) != 1 else ''}"
        y = canvas.text(f"{count}: {order}", (x, y), size=t.body,
                        width=width).bottom + t.gap
        label = ("Advanced game with Daimyo: on" if self.advanced
                 else "Advanced game with Daimyo: off")
        canvas.button(pygame.Rect(x, y, width, t.target), label, self.flip,
                      selected=self.advanced)
        y += t.target + t.gap
        canvas.text("The app shuffles the castle tokens and deals the card offers; lay them "
                    "out as the board shows (3.2, 3.3).", (x, y), size=t.small, colour=th.DIM,
                    width=width, max_lines=2)
        bar = pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target)
        left, right = row(bar, 2, t.gap)
        canvas.button(left, "Back", self.back)
        ready = 2 <= len(self.seats) <= 4
        canvas.button(right, "Start the game",
                      partial(self.start, tuple(self.seats), self.advanced) if ready else None,
                      colour=th.ACCEPT)


@dataclass
class RulesScreen:
    """Every section's summary (the project's words), a page at a time."""

    back: Callable[[], None]
    page: int = 0
    name: str = "rules"

    def tick_ms(self) -> int | None:
        return None

    def turn(self, page: int) -> None:
        self.page = page

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        bottom = r.bottom - t.target - 2 * t.gap
        pages: list[list[str]] = [[]]
        y = 0
        for entry in default_rules().rules:
            text = entry.cite()
            height = len(canvas.painter.wrap(text, t.small, width)) * (t.small + 1) + t.gap
            if pages[-1] and y + height > bottom - t.body - 2 * t.gap:
                pages.append([])
                y = 0
            pages[-1].append(text)
            y += height
        self.page = max(0, min(self.page, len(pages) - 1))
        canvas.text(f"The rules in short ({self.page + 1} of {len(pages)}): our own words; the "
                    "printed rulebook is the authority", (2 * t.gap, t.gap), size=t.small,
                    bold=True, width=width, max_lines=2)
        y = t.gap + 2 * t.small + t.gap
        for text in pages[self.page]:
            y = canvas.text(text, (2 * t.gap, y), size=t.small, width=width).bottom + t.gap
        pager(canvas, self.page, len(pages), self.turn, "Back", self.back)


# ---------------------------------------------------------------------------- the game

@dataclass
class Turn:
    """What the player on turn has entered so far."""

    dice: list[int] = field(default_factory=list)
    first: Roll | None = None
    """The first roll when all three were re-rolled (5.I.1)."""
    daimyo: bool = False
    plan: Plan | None = None
    single: int | None = None
    card: Tactic | None = None
    daimyo_card: bool = False
    rejection: Rejection | None = None
    events_at: int = 0
    """The game's events when the dice were entered: more, and the deployment was played."""

    @property
    def rolls(self) -> tuple[Roll, ...]:
        final: Roll = (self.dice[0], self.dice[1], self.dice[2])
        return (self.first, final) if self.first is not None else (final,)


@dataclass
class PlayScreen:
    """The game from the Daimyo choice to the final score."""

    control: TenkaControl
    leave: Callable[[], None]
    finished: Callable[[], None] | None = None
    """Called once when the War has been fought (the app marks the stored game finished)."""
    detail: Detail | None = None
    mode: str = "turn"
    """turn, dice, place, tactic, card (deployment); war, score (after the War)."""
    private: bool = False
    """The Daimyo offer shown to the chooser alone (section 9)."""
    turn: Turn = field(default_factory=Turn)
    _snap: Snapshot | None = None
    _over: bool = False

    @property
    def name(self) -> str:
        if self.detail is not None:
            return "detail"
        phase = self._view().phase
        if phase is Phase.DAIMYO:
            return "daimyo-choice" if self.private else "daimyo-turn"
        if self.private:
            return "daimyo-card"
        if phase is Phase.OVER:
            return "score" if self.mode == "score" else "war"
        return {"turn": "board"}.get(self.mode, self.mode)

    def tick_ms(self) -> int | None:
        return None

    def _view(self) -> Table:
        return self.control.snapshot().view

    def show(self, detail: Detail) -> None:
        self.detail = detail

    def close_detail(self) -> None:
        self.detail = None

    def reset(self) -> None:
        self.mode, self.turn, self.private, self.detail = "turn", Turn(), False, None
        self._over = self.control.game.state.phase is Phase.OVER

    # ------------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        canvas = hub_strip(canvas, self.control.link.hub_lines())
        snap = self._snap = self.control.snapshot()
        if self.mode == "place" and len(self.control.events) > self.turn.events_at:
            self._back()  # the readers saw the pawns the dice name: the deployment is played
        if snap.view.phase is Phase.OVER and not self._over:
            self._over = True
            if self.finished is not None:
                self.finished()
        canvas.painter.screen = self.name
        if self.detail is not None:
            detail_page(canvas, self.detail, self.close_detail, cite)
            return
        v = snap.view
        if self.private and v.phase is Phase.DAIMYO:
            self._offer_page(canvas, v)
            return
        if self.private and self.mode == "card" and self.turn.rejection is not None:
            self._reason_page(canvas, v)
            return
        if v.phase is Phase.OVER:
            if self.mode not in ("war", "score"):
                self.mode = "war"
            if self.mode == "score":
                draw_score(canvas, snap, self.show, self._to_war, self.leave)
            else:
                draw_war(canvas, snap, self.show, self.leave, self._to_score)
            return
        t = canvas.theme
        r = canvas.rect
        bar = pygame.Rect(0, 0, r.width, t.target * (2 if t.portrait else 1))
        self._status(canvas, bar, v)
        body = pygame.Rect(t.gap, bar.bottom + t.gap, r.width - 2 * t.gap,
                           r.height - bar.bottom - 2 * t.gap)
        board, side = split(body, t.portrait, t.gap, 0.62, top_share=0.5)
        lit = frozenset({self.turn.plan.zone}) if self.turn.plan is not None else frozenset()
        draw_board(canvas, board, v.castles, v.soldiers, v.daimyo_at, lit=lit,
                   on_zone=self._zone_opener)
        used = self._actions(canvas, side, snap)
        if snap.unsaved:  # nothing was applied; the app retries every second
            used = canvas.text(snap.unsaved[:1].upper() + snap.unsaved[1:], (side.x, side.y + used),
                               size=t.small, colour=th.DANGER, width=side.width,
                               max_lines=2).bottom - side.y
        feed_rect = pygame.Rect(side.x, side.y + used + t.gap, side.width,
                                side.bottom - side.y - used - t.gap)
        if feed_rect.height >= t.target:
            feed(canvas, feed_rect, snap.feed, self.show)

    def _status(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> None:
        t = canvas.theme
        canvas.fill(th.PANEL, rect)
        who = f" · {colour_name(v.current)}'s turn" if v.current is not None else ""
        head = f"{PHASE_NAME[v.phase]}{who}"
        line = t.target if t.portrait else rect.height
        left = canvas.text(head, (t.gap, rect.y + line // 2), size=t.body, bold=True,
                           anchor="midleft",
                           colour=TEXT_COLOUR[v.current] if v.current else th.INK)
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
        canvas.tap_area(rect, "Status", lambda: self.show(self._status_detail(v)))
        # the start screen (hardware check, referee): between turns, never mid-turn
        between = self.mode == "turn" and not self.private
        canvas.button(menu, "Menu", self.leave if between else None, size=t.small)

    def _status_detail(self, v: Table) -> Detail:
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

    def _zone_opener(self, zone: str) -> Callable[[], None]:
        return lambda: self.show(self._zone_detail(zone))

    def _zone_detail(self, zone: str) -> Detail:
        v = self._view()
        board = default_board()
        lines = [f"Large castle {v.castles.get(zone, '?')}"]
        here = [f"{colour_name(c)} {n}" for c, n in v.soldiers.get(zone, {}).items() if n]
        here += [f"{colour_name(c)} Daimyo" for c, z in v.daimyo_at.items() if z == zone]
        lines.append("Pawns: " + (", ".join(here) or "none"))
        borders = [f"{short_zone(z)} ({board.border(zone, z)})" for z in board.neighbours(zone)]
        lines.append("Borders: " + ", ".join(borders))
        return Detail(short_zone(zone), tuple(lines), ("4", "3.2"))

    # ------------------------------------------------------------------ the action area

    def _actions(self, canvas: Canvas, rect: pygame.Rect, snap: Snapshot) -> int:
        """Draw what the player may do now; the height used."""
        v = snap.view
        if v.phase is Phase.DAIMYO:
            return self._daimyo_choice(canvas, rect, v)
        if v.current is None:
            return 0
        draw = {"turn": self._turn_menu, "dice": self._dice, "place": self._place,
                "tactic": self._tactics, "card": self._card}[self.mode]
        return draw(canvas, rect, v)

    def _heading(self, canvas: Canvas, rect: pygame.Rect, text: str,
                 colour: th.Colour = th.INK) -> int:
        t = canvas.theme
        return canvas.text(text, (rect.x, rect.y), size=t.body, bold=True, colour=colour,
                           width=rect.width, max_lines=3).bottom + t.gap // 2

    def _daimyo_choice(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        chooser = next((c for c in reversed(v.players) if c not in v.daimyo), None)
        if chooser is None:
            return 0
        name = colour_name(chooser)
        if not self.private:
            y = self._heading(canvas, rect, f"{name} chooses a Daimyo card, face down (9)",
                              TEXT_COLOUR[chooser])
            y = canvas.text("Everyone else looks away.", (rect.x, y), size=t.small,
                            width=rect.width).bottom + t.gap
            canvas.button(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.3)),
                          f"{name}: show me the Daimyo cards", self._reveal_offer,
                          colour=th.ACCEPT)
            y += int(t.target * 1.3) + t.gap
            return undo_button(canvas, pygame.Rect(rect.x, y, rect.width, t.target),
                               self.control.undo_offer(), self.control.undo_or_say,
                               self.control.say) - rect.y
        return 0  # the offer itself is a page of its own (:meth:`_offer_page`)

    def _offer_page(self, canvas: Canvas, v: Table) -> None:
        """The Daimyo offer for the chooser's eyes alone (9): each card with its effect (10)."""
        t = canvas.theme
        r = canvas.rect
        chooser = next((c for c in reversed(v.players) if c not in v.daimyo), None)
        if chooser is None:
            self.private = False
            return
        x, width = 2 * t.gap, r.width - 4 * t.gap
        y = canvas.text(f"{colour_name(chooser)} only: tap the Daimyo card you take (9)",
                        (x, t.gap), size=t.body, bold=True, colour=TEXT_COLOUR[chooser],
                        width=width, max_lines=2).bottom
        y = canvas.text("Each works from your Daimyo pawn's zone, once in the game (10)",
                        (x, y), size=t.small, colour=th.DIM, width=width,
                        max_lines=2).bottom + t.gap // 2
        offer = self.control.daimyo_offer(chooser)
        bar = pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target)
        columns = 1 if t.portrait or len(offer) < 3 else 2
        rows = max(1, -(-len(offer) // columns))
        gap = t.gap // 2
        height = max(t.target, min((bar.y - t.gap - y - (rows - 1) * gap) // rows,
                                   3 * t.target))
        cells = grid(pygame.Rect(x, y, width, 0), len(offer), columns, gap, height)
        inner = cells[0].width - 2 * t.gap if cells else width
        room = height - t.body - t.gap
        size = next((n for n in (t.body, t.small) if all(
            len(canvas.painter.wrap(CARD_TEXT.get(c.value, ""), n, inner)) * (n + 1) <= room
            for c in offer)), t.small)
        for cell, card in zip(cells, offer, strict=True):
            canvas.fill(th.PANEL_HI, cell, radius=t.gap)
            pygame.draw.rect(canvas.surface, th.ACCEPT, cell, width=2, border_radius=t.gap)
            top = canvas.text(card_name(card), (cell.x + t.gap, cell.y + t.gap // 2),
                              size=t.body, bold=True, width=inner, max_lines=1).bottom
            lines = max(1, (cell.bottom - top - t.gap // 2) // (size + 1))
            canvas.text(CARD_TEXT.get(card.value, ""), (cell.x + t.gap, top), size=size,
                        width=inner, max_lines=lines, colour=th.INK)
            canvas.tap_area(cell, card_name(card), partial(self._choose, chooser, card))
        canvas.button(bar, "Hide the cards", self._hide_offer)

    def _hide_offer(self) -> None:
        self.private = False

    def _reveal_offer(self) -> None:
        self.private = True

    def _choose(self, colour: Colour, card: Daimyo) -> None:
        self.control.choose_daimyo(colour, card)
        self.private = False

    def _turn_menu(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        colour = v.current
        assert colour is not None
        y = rect.y + self._heading(canvas, rect, f"{colour_name(colour)}: roll, or play a card "
                                   "instead (5.I)", TEXT_COLOUR[colour]) - rect.y
        undo = self.control.put_back()
        if undo:
            y = canvas.text("First put back what moved: " + "; ".join(undo),
                            (rect.x, y), size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=3).bottom + t.gap // 2
        locked = bool(v.swords)
        buttons: list[tuple[str, Callable[[], None] | None]] = [
            ("Roll the dice", self._to_dice)]
        if colour not in v.tactic_used and v.tactic_offer:
            buttons.append(("Play a tactic card", None if locked else self._to_tactics))
        face_down = colour in v.daimyo and v.daimyo[colour] is None
        waiting = face_down and colour not in v.daimyo_at  # the card works from its zone (TM5)
        if face_down:
            buttons.append(("Play my Daimyo card",
                            None if locked or waiting else self._to_daimyo))
        height = int(t.target * 1.2)
        for label, action in buttons:
            canvas.button(pygame.Rect(rect.x, y, rect.width, height), label, action,
                          colour=th.ACCEPT if label == "Roll the dice" else th.PANEL_HI)
            y += height + t.gap // 2
        if locked:
            y = canvas.text("No more cards: a player has placed every pawn (5.I.2)",
                            (rect.x, y), size=t.small, colour=th.DIM, width=rect.width).bottom
        elif waiting:
            y = canvas.text(f"The Daimyo card needs {colour_name(colour)}'s Daimyo pawn on "
                            "the board: roll and send it with your soldiers (TM5)", (rect.x, y),
                            size=t.small, colour=th.DIM, width=rect.width, max_lines=3).bottom
        return y - rect.y

    def _to_dice(self) -> None:
        self.mode, self.turn = "dice", Turn()

    def _to_tactics(self) -> None:
        self.mode, self.turn = "tactic", Turn()

    def _to_daimyo(self) -> None:
        self.mode, self.turn = "card", Turn(daimyo_card=True)
        colour = self._view().current
        if colour is not None:
            self.control.enter_card(colour, None)

    def _back(self) -> None:
        if self.mode in ("place", "card"):
            self.control.cancel()
        self.mode, self.turn = "turn", Turn()

    # dice ------------------------------------------------------------------

    def _dice(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        colour = v.current
        assert colour is not None
        turn = self.turn
        y = rect.y + self._heading(canvas, rect, f"{colour_name(colour)}: enter the three dice "
                                   "as rolled (5.I.1)", TEXT_COLOUR[colour]) - rect.y
        if turn.first is not None:
            first = "-".join(map(str, turn.first))
            y = canvas.text(f"First roll {first}, all three re-rolled: the new roll counts",
                            (rect.x, y), size=t.small, colour=th.DIM, width=rect.width).bottom
        slots = row(pygame.Rect(rect.x, y, min(rect.width, 3 * t.target + 2 * t.gap), t.target),
                    3, t.gap)
        for i, slot in enumerate(slots):
            canvas.fill(th.INK if i < len(turn.dice) else th.PANEL, slot, radius=t.gap)
            if i < len(turn.dice):
                canvas.text(str(turn.dice[i]), slot.center, size=t.title, bold=True,
                            colour=th.BLACK_SIDE, anchor="center")
        clear = pygame.Rect(slots[-1].right + t.gap, y, rect.right - slots[-1].right - t.gap,
                            t.target)
        if clear.width >= t.target:
            canvas.button(clear, "Clear", self._clear if turn.dice else None, size=t.small)
        y += t.target + t.gap
        if len(turn.dice) < 3:
            cells = grid(pygame.Rect(rect.x, y, rect.width, 0), 6, 3, t.gap // 2,
                         int(t.target * 1.1))
            for face, cell in enumerate(cells, start=1):
                canvas.button(cell, str(face), partial(self._die, face), size=t.title)
            y = cells[-1].bottom + t.gap
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), "Back", self._back,
                          size=t.small)
            return y + t.target - rect.y
        options = row(pygame.Rect(rect.x, y, rect.width, t.target), 2, t.gap)
        canvas.button(options[0], "Re-roll all three", self._reroll if turn.first is None
                      else None, size=t.small)
        daimyo_free = colour in v.daimyo and colour not in v.daimyo_at
        if daimyo_free:
            canvas.button(options[1], f"Daimyo goes too: {'yes' if turn.daimyo else 'no'}",
                          self._flip_daimyo, size=t.small, selected=turn.daimyo)
        else:
            canvas.button(options[1], "Back", self._back, size=t.small)
        y += t.target + t.gap // 2
        y = canvas.text("Which die do you keep apart? The other two name the zone:",
                        (rect.x, y), size=t.small, width=rect.width).bottom + 2
        reasons: list[str] = []
        for single in sorted(set(turn.dice)):
            plan = self.control.plan(colour, turn.rolls, single, turn.daimyo)
            if isinstance(plan, Rejection):
                label, action = f"Keep {single} apart: not allowed", None
                if (said := f"{plan.message} ({plan.rule})") not in reasons:
                    reasons.append(said)
            else:
                pawns = plan.soldiers + int(plan.daimyo)
                label = (f"Keep {single} apart: castle {plan.value} {short_zone(plan.zone)}, "
                         f"{pawns} pawn{'s' if pawns != 1 else ''}")
                action = partial(self._pick, single, plan)
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), label, action,
                          colour=th.ACCEPT, size=t.small)
            y += t.target + t.gap // 2
        if turn.rejection is not None:  # the table session refused the dice
            reasons.append(refusal(turn.rejection))
        for said in reasons:
            y = canvas.text(said, (rect.x, y), size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=3).bottom + 2
        return y - rect.y

    def _die(self, face: int) -> None:
        if len(self.turn.dice) < 3:
            self.turn.dice.append(face)

    def _clear(self) -> None:
        self.turn.dice.clear()
        self.turn.rejection = None

    def _reroll(self) -> None:
        t = self.turn
        t.first, t.dice, t.rejection = (t.dice[0], t.dice[1], t.dice[2]), [], None

    def _flip_daimyo(self) -> None:
        self.turn.daimyo = not self.turn.daimyo

    def _pick(self, single: int, plan: Plan) -> None:
        colour = self._view().current
        assert colour is not None
        turn = self.turn
        rejected = self.control.enter_dice(colour, turn.rolls, single, turn.daimyo)
        if rejected is not None:
            turn.rejection = rejected
            return
        turn.single, turn.plan, turn.events_at = single, plan, len(self.control.events)
        self.mode = "place"

    # placing the pawns -------------------------------------------------------

    def _place(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        turn = self.turn
        assert turn.plan is not None and v.current is not None
        plan = turn.plan
        plural = "s" if plan.soldiers != 1 else ""
        what = f"{plan.soldiers} {colour_name(v.current)} soldier{plural}"
        if plan.daimyo:
            what += " and the Daimyo"
        y = rect.y + self._heading(canvas, rect, f"Place {what} on {short_zone(plan.zone)} "
                                   f"(castle {plan.value})", TEXT_COLOUR[v.current]) - rect.y
        y = canvas.text(plan.text, (rect.x, y), size=t.small, width=rect.width,
                        max_lines=3).bottom
        canvas.tap_area(pygame.Rect(rect.x, rect.y, rect.width, max(t.target, y - rect.y)),
                        plan.text,
                        lambda: self.show(Detail("The dice", (plan.text,), ("5.I.1",))))
        y += t.gap // 2
        snap = self._snap
        problems = snap.problems if snap else ()
        if problems:
            y = canvas.text(f"The table differs: {'; '.join(problems)} (5.I.1)", (rect.x, y),
                            size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=4).bottom + t.gap // 2
        elif snap is not None and snap.table:
            y = canvas.text(f"The readers see: {'; '.join(snap.table)}", (rect.x, y),
                            size=t.small, colour=th.WARN, width=rect.width,
                            max_lines=4).bottom + t.gap // 2
        elif snap is not None and snap.waiting:
            y = canvas.text(f"The readers see {snap.waiting}", (rect.x, y), size=t.small,
                            colour=th.DIM, width=rect.width).bottom + t.gap // 2
        left, right = row(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.2)), 2, t.gap)
        canvas.button(left, "Change the dice", self._redo_dice, size=t.small)
        canvas.button(right, "Done: the pawns are placed", self._deploy, colour=th.ACCEPT,
                      size=t.small)
        return y + int(t.target * 1.2) - rect.y

    def _redo_dice(self) -> None:
        self.mode, self.turn.plan = "dice", None
        self.control.cancel()

    def _deploy(self) -> None:
        turn = self.turn
        v = self._view()
        assert turn.single is not None and v.current is not None
        result = self.control.deploy(v.current, turn.rolls, turn.single, turn.daimyo)
        if result is None:
            self._back()

    # cards -----------------------------------------------------------------

    def _tactics(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        assert v.current is not None
        y = rect.y + self._heading(canvas, rect, f"{colour_name(v.current)}: which tactic card? "
                                   "Once a game (5.I.2)", TEXT_COLOUR[v.current]) - rect.y
        for card in v.tactic_offer:
            canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), card_name(card),
                          partial(self._pick_card, card), size=t.small)
            y += t.target + t.gap // 2
        canvas.button(pygame.Rect(rect.x, y, rect.width, t.target), "Back", self._back,
                      size=t.small)
        return y + t.target - rect.y

    def _pick_card(self, card: Tactic) -> None:
        self.mode, self.turn = "card", Turn(card=card)
        colour = self._view().current
        if colour is not None:
            self.control.enter_card(colour, card)

    def _card(self, canvas: Canvas, rect: pygame.Rect, v: Table) -> int:
        t = canvas.theme
        turn = self.turn
        colour = v.current
        assert colour is not None
        if turn.card is not None:
            title = f"{colour_name(colour)} plays {card_name(turn.card)}"
            text = CARD_TEXT.get(turn.card.value, "")
        else:  # the card stays face down on the shared screen until it is accepted (9)
            title = f"{colour_name(colour)} plays the Daimyo card"
            text = "Do what your Daimyo card says; it is turned face up once accepted (10)."
        y = rect.y + self._heading(canvas, rect, title, TEXT_COLOUR[colour]) - rect.y
        if text:
            y = canvas.text(text, (rect.x, y), size=t.small, width=rect.width,
                            max_lines=3).bottom + 2
        y = canvas.text("Move the pawns on the table as the card says, then tap Done.",
                        (rect.x, y), size=t.small, colour=th.DIM, width=rect.width,
                        max_lines=2).bottom + t.gap // 2
        if turn.rejection is not None:
            why = turn.rejection
            said = refusal(why)  # the public message only, never ``why.private``
            box = canvas.text(said, (rect.x, y), size=t.small, colour=th.DANGER,
                              width=rect.width, max_lines=3)
            canvas.tap_area(pygame.Rect(rect.x, box.y, rect.width, max(box.height, t.target)),
                            f"Section {why.rule}",
                            open_line(self.show, FeedLine("rejected", said, why.rule)))
            y = box.bottom + 2
            if why.private is not None:  # the reason would name the face-down card (9)
                canvas.button(pygame.Rect(rect.x, y, rect.width, t.target),
                              f"{colour_name(colour)} only: why?", self._reveal_reason,
                              size=t.small)
                y += t.target + 2
            undo = self.control.put_back()
            if undo:
                y = canvas.text("Put back: " + "; ".join(undo), (rect.x, y), size=t.small,
                                colour=th.WARN, width=rect.width, max_lines=2).bottom
            y += t.gap // 2
        left, right = row(pygame.Rect(rect.x, y, rect.width, int(t.target * 1.2)), 2, t.gap)
        canvas.button(left, "Cancel", self._back, size=t.small)
        canvas.button(right, "Done: the pawns are moved", self._play_card, colour=th.ACCEPT,
                      size=t.small)
        return y + int(t.target * 1.2) - rect.y

    def _play_card(self) -> None:
        v = self._view()
        assert v.current is not None
        result = self.control.play_card(v.current, self.turn.card)
        if result is None:
            self._back()
        elif isinstance(result, Rejection):
            self.turn.rejection = result

    def _reveal_reason(self) -> None:
        self.private = True

    def _reason_page(self, canvas: Canvas, v: Table) -> None:
        """Why the face-down Daimyo card was refused, for its owner alone (9, 10)."""
        t = canvas.theme
        r = canvas.rect
        colour = v.current
        why = self.turn.rejection
        assert colour is not None and why is not None
        x, width = 2 * t.gap, r.width - 4 * t.gap
        y = canvas.text(f"{colour_name(colour)} only: your Daimyo card", (x, t.gap),
                        size=t.title, bold=True, colour=TEXT_COLOUR[colour], width=width,
                        max_lines=2).bottom + t.gap
        card = self.control.daimyo_card(colour)
        reason = words(why.private or why.message)
        if card is not None:
            y = canvas.text(f"{card_name(card)}: {CARD_TEXT.get(card.value, '')}", (x, y),
                            size=t.body, width=width, max_lines=3).bottom + t.gap
            reason = reason.removeprefix(f"{card_name(card)}: ")
        y = canvas.text(f"Why not: {reason} ({why.rule})", (x, y), size=t.body,
                        colour=th.DANGER, width=width, max_lines=4).bottom + t.gap
        canvas.text("Hide this before the others look again.", (x, y), size=t.small,
                    colour=th.DIM, width=width)
        canvas.button(pygame.Rect(x, r.bottom - t.target - t.gap, width, t.target),
                      "Hide", self._hide_offer, colour=th.ACCEPT)

    def _to_score(self) -> None:
        self.mode = "score"

    def _to_war(self) -> None:
        self.mode = "war"
