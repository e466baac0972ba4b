"""The table screens of a game in progress: set-up, the board, bidding, the battle, the end.

One :class:`PlayScreen` follows the game: which page it shows (and the screen name recorded with
every string drawn) follows the phase in the public view. Commands tapped here go through the
table session like the readers' own, so the feed and the store see them the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.core.game import Rejection
from companion.core.seals import Seal
from companion.core.store import StoreError
from companion.games.sekigahara.components import Side, default_board
from companion.games.sekigahara.facade import (
    Level,
    cm,
    plain_words,
)
from ui.sekigahara import battle, ending, mapview
from ui.sekigahara.control import Snapshot, TableControl, bid_cards
from ui.sekigahara.mapview import MapLayout, draw_board
from ui.sekigahara.menus import ConfirmStep, undo_button
from ui.sekigahara.parts import (
    Detail,
    detail_page,
    feed,
    questions_and_discrepancies,
    sentence,
    side_colour,
    side_name,
    split,
    status_bar,
)
from ui.sekigahara.playlayout import BoardRects, board_rects, status_height
from ui.shell import theme as th
from ui.shell.app import App
from ui.shell.canvas import Canvas, grid, row
from ui.shell.hubstatus import hub_strip
from ui.shell.sealing import draw_seal
from ui.shell.tournament import referee_call

BLINK_MS = 500


@dataclass
class PlayScreen:
    """The game at the table; ``leave`` goes back to the start screen."""

    app: App
    control: TableControl
    leave: Callable[[], None]
    detail: Detail | None = None
    history: Callable[[], ending.History] | None = None
    finished: Callable[[], None] | None = None
    """Called once the game is over (to mark it finished in the store)."""
    seal: Callable[[], Seal | None] | None = None
    """The latest seal of the saved game (shown as each week begins and at the end)."""
    _snap: Snapshot | None = None
    _layouts: dict[tuple[int, int], BoardRects] = field(default_factory=dict)
    _focus: tuple[int, int] | None = None
    """Zoomed on this board point (map units); None: the whole map."""
    _news: tuple[str, bool, int] = ("", False, 0)
    """The page, a stack in hand, the discrepancies open: the whole map comes back when one
    appears (its lit destinations or its blink may lie outside the zoomed view)."""
    _replacing: bool = False
    _challenge: battle.ChallengeEntry = field(default_factory=battle.ChallengeEntry)

    # ------------------------------------------------------------------ Screen

    @property
    def name(self) -> str:
        self._snap = self.control.snapshot()
        if self.detail is not None:
            return "detail"
        return mode(self._snap)

    def tick_ms(self) -> int | None:
        snap = self._snap
        return BLINK_MS if snap is not None and snap.discrepancies else None

    def draw(self, canvas: Canvas) -> None:
        canvas = hub_strip(canvas, self.control.hub_lines())
        snap = self._snap or self.control.snapshot()
        if self.detail is not None:
            detail_page(canvas, self.detail, self.close_detail)
            return
        page = mode(snap)
        if page == "end" and self.finished is not None:
            self.finished()
            self.finished = None
        if page == "end":
            ending.draw(canvas, snap, self.history() if self.history else ending.History(),
                        self.leave, self.seal() if self.seal else None)
            return
        news = (page, bool(snap.in_hand), len(snap.discrepancies))
        old = self._news
        if news[0] != old[0] or (news[1] and not old[1]) or news[2] > old[2]:
            self._focus = None  # a new screen, a stack lifted, a discrepancy: see it all
        self._news = news
        t = canvas.theme
        r = canvas.rect
        if page in ("board", "setup"):
            rects = self._rects(canvas)
            status_bar(canvas, rects.bar, snap, self.open_detail)
            self._map(canvas, rects.map, snap)
            y = self._actions(canvas, rects.side, snap, page)
            undo = pygame.Rect(rects.side.x, y, rects.side.width, t.target)
            if undo.bottom <= rects.side.bottom:
                undo_button(canvas, undo, self.control, self.app.say)
                y = undo.bottom + t.gap
            top = max(rects.feed.y, y + t.gap) if t.portrait else rects.feed.y
            below = referee_call(canvas, pygame.Rect(rects.feed.x, top, rects.feed.width,
                                                     rects.feed.bottom - top))
            if below.height >= t.target:  # upright, a long prompt runs over the rulings
                feed(canvas, below, snap.feed, self.open_detail)
            if self._focus is not None:
                canvas.button(rects.whole, "Whole map", self._whole_map, colour=th.ACCEPT,
                              size=t.small)
            else:  # how the map answers a finger, where "Whole map" stands when zoomed
                canvas.text("Tap the map to zoom in", rects.whole.midleft, size=t.small,
                            colour=th.DIM, anchor="midleft", width=rects.whole.width,
                            max_lines=2)
            canvas.button(rects.key, "Key", self._key, size=t.small)
            canvas.button(rects.menu, "Menu", self.leave, size=t.small)
            return
        bar = pygame.Rect(0, 0, r.width, status_height(t))
        status_bar(canvas, bar, snap, self.open_detail)
        body = pygame.Rect(t.gap, bar.bottom + t.gap, r.width - 2 * t.gap,
                           r.height - bar.bottom - 2 * t.gap)
        left, right = split(body, t.portrait, t.gap, 0.56 if page == "battle" else 0.58,
                            0.62 if page == "bidding" else 0.42)
        if page == "battle":
            battle.draw(canvas, left, snap, self.open_detail)
        else:
            self._bidding(canvas, left, snap)
        menu = pygame.Rect(right.right - 2 * t.target, right.bottom - t.target, 2 * t.target,
                           t.target)
        canvas.button(menu, "Menu", self.leave, size=t.small)
        undo_button(canvas, pygame.Rect(right.x, menu.y, menu.x - right.x - t.gap, t.target),
                    self.control, self.app.say)
        y = self._actions(canvas, pygame.Rect(right.x, right.y, right.width,
                                              menu.y - t.gap - right.y), snap, page)
        feed_rect = referee_call(canvas, pygame.Rect(right.x, y + t.gap, right.width,
                                                     menu.y - y - 2 * t.gap))
        if feed_rect.height > t.target:
            feed(canvas, feed_rect, snap.feed, self.open_detail)

    def _rects(self, canvas: Canvas) -> BoardRects:
        key = (canvas.rect.width, canvas.rect.height)
        rects = self._layouts.get(key)
        if rects is None:
            rects = self._layouts[key] = board_rects(canvas.theme, canvas.rect, default_board())
        return rects

    # ------------------------------------------------------------------ detail pages

    def open_detail(self, detail: Detail) -> None:
        self.detail = detail

    def close_detail(self) -> None:
        self.detail = None

    # ------------------------------------------------------------------ the map

    def _map(self, canvas: Canvas, overview: MapLayout, snap: Snapshot) -> None:
        """The whole map, or zoomed where the players tapped (every location there a full
        target with its name); a tap on the whole map zooms, zoomed it opens the location."""
        public = snap.view.payload
        layout = overview if self._focus is None else overview.zoom(self._focus, public)
        lit = set(snap.lit) | set(snap.prompt.retreat_to)
        setup = snap.prompt.setup
        if setup is not None and setup.zone in default_board().locations:
            lit.add(setup.zone)
        blinking = frozenset(z for d in snap.discrepancies for z in d.zones)
        blink_on = int(time.monotonic() * 1000 / BLINK_MS) % 2 == 0
        draw_board(canvas, layout, public, lit=frozenset(lit), blinking=blinking,
                   blink_on=blink_on, on_area=self._zoom,
                   on_location=self._location_detail if layout.zoomed else None)

    def _zoom(self, focus: tuple[int, int]) -> None:
        self._focus = focus

    def _whole_map(self) -> None:
        self._focus = None

    def _key(self) -> None:
        self.open_detail(Detail(mapview.KEY_TITLE, mapview.KEY, mapview.KEY_RULES))

    def _location_detail(self, location: str) -> None:
        snap = self._snap or self.control.snapshot()
        v = snap.view.payload
        board = default_board()
        loc = board.locations[location]
        stack = v.locations.get(location)
        lines = [f"{stack.ishida if stack else 0} Ishida (gold) and "
                 f"{stack.tokugawa if stack else 0} Tokugawa (black) blocks"]
        if stack and stack.inside:
            lines.append("Inside the castle: " + ", ".join(
                f"{n} {side_name(s)}" for s, n in stack.inside.items()))
        rules: list[str] = []
        if loc.castle is not None:
            held = v.castles.get(location)
            lines.append(f"Castle ({side_name(loc.castle)} at the start); held now by "
                         f"{side_name(held) if held else 'nobody'}")
            rules.append("4.3")
        if loc.resource:
            held = v.resources.get(location)
            by = side_name(held) if held else "nobody"
            lines.append(f"Resource Location, controlled by {by}")
            rules.append("4.2")
        if loc.recruitment:
            lines.append("Recruitment location of " + ", ".join(
                c.value.capitalize() for c in loc.recruitment))
            rules.append("7.2")
        roads = [f"{board.locations[r.other_end(location)].name} ({r.kind.value})"
                 for r in board.roads_from(location)]
        lines.append("Roads to " + ", ".join(roads))
        self.open_detail(Detail(loc.name, tuple(lines), tuple(rules)))

    # ------------------------------------------------------------------ actions column

    def _actions(self, canvas: Canvas, rect: pygame.Rect, snap: Snapshot, page: str) -> int:
        """The set-up step or the prompt, with questions and discrepancies; the next y."""
        y = rect.y
        if page == "setup" and snap.prompt.setup is not None:
            y = self._setup(canvas, pygame.Rect(rect.x, y, rect.width, rect.height), snap)
            y += questions_and_discrepancies(
                canvas, pygame.Rect(rect.x, y, rect.width, rect.bottom - y), snap,
                self._answer, self._accept, self._put_back, open_detail=self.open_detail)
            return y
        used = questions_and_discrepancies(
            canvas, pygame.Rect(rect.x, y, rect.width, rect.bottom - y), snap,
            self._answer, self._accept, self._put_back, open_detail=self.open_detail)
        y += used
        if not used:
            y = self._prompt(canvas, pygame.Rect(rect.x, y, rect.width, rect.height), snap,
                             page)
        return y

    def _prompt(self, canvas: Canvas, rect: pygame.Rect, snap: Snapshot, page: str) -> int:
        """What the engine waits for, with the buttons that answer it; returns the next y."""
        t = canvas.theme
        v = snap.view.payload
        y = rect.y
        if snap.unsaved:
            y = canvas.text(snap.unsaved.capitalize(), (rect.x, y), size=t.small, bold=True,
                            colour=th.DANGER, width=rect.width).bottom
        if snap.in_hand:
            s = "s" if snap.in_hand != 1 else ""
            y = canvas.text(f"{snap.in_hand} block{s} in hand: legal destinations are lit",
                            (rect.x, y), size=t.small, colour=th.LIT, width=rect.width).bottom
        elif snap.settling:
            y = canvas.text("Blocks set down: ruled once they rest", (rect.x, y), size=t.small,
                            colour=th.DIM, width=rect.width).bottom
        for step in snap.prompt.table_steps:  # on the table first: the check waits for it
            y = sentence(canvas, step, (rect.x, y), rect.width, self.open_detail,
                         title="On the table", bold=True, colour=th.LIT).bottom + 2
        for side, what in snap.prompt.waiting.items():
            y = sentence(canvas, f"{side_name(side)}: {what}", (rect.x, y), rect.width,
                         self.open_detail, title="What to do", bold=True,
                         colour=side_colour(side)).bottom + 2
        y += t.gap
        buttons = self._buttons(snap)
        if page == "battle" or v.phase != "movement" or snap.prompt.level is not None:
            columns = 1 if len(buttons) < 3 or rect.width < 6 * t.target else 2
        else:  # a narrow column keeps the degrees' labels whole, one a row
            columns = 1 if rect.width < 6 * t.target else 2
        while -(-len(buttons) // columns) * (t.target + t.gap) > rect.bottom - y and columns < 3:
            columns += 1  # never past the column's foot (Whole map, Menu)
        cells = grid(pygame.Rect(rect.x, y, rect.width, rect.height), len(buttons), columns,
                     t.gap, t.target)
        for cell, (label, action, colour) in zip(cells, buttons, strict=True):
            canvas.button(cell, label, action, colour=colour, size=t.small)
        return cells[-1].bottom + t.gap if cells else y

    def _setup(self, canvas: Canvas, rect: pygame.Rect, snap: Snapshot) -> int:
        t = canvas.theme
        setup = snap.prompt.setup
        assert setup is not None
        bar = pygame.Rect(rect.x, rect.y, rect.width, t.gap * 2)
        canvas.fill(th.PANEL_HI, bar, radius=t.gap)
        done = bar.copy()
        done.width = int(bar.width * setup.done / max(1, setup.total))
        canvas.fill(th.ACCEPT, done, radius=t.gap)
        canvas.text(f"Set-up: step {setup.done} of {setup.total}", (rect.x, bar.bottom + 2),
                    size=t.small, colour=th.DIM)
        long = len(canvas.painter.wrap(setup.step, t.body, rect.width, True)) > 5
        text = sentence(canvas, setup.step, (rect.x, bar.bottom + t.small + 6), rect.width,
                        self.open_detail, title="Set-up", size=t.small if long else t.body,
                        bold=True, max_lines=7 if long else 5)
        return text.bottom + t.gap

    def _buttons(self, snap: Snapshot) -> list[tuple[str, Callable[[], None] | None, th.Colour]]:
        v = snap.view.payload
        side = v.active
        found: list[tuple[str, Callable[[], None] | None, th.Colour]] = []
        if v.phase == "not_started":
            found.append(("Start the game", lambda: self._do(cm.StartGame()), th.ACCEPT))
        if side is None:
            return found
        if v.phase == "movement":
            found += self._movement(snap, side)
        elif v.phase == "combat":
            found += self._combat(snap, side)
        return found

    def _movement(self, snap: Snapshot, side: Side) -> list[
            tuple[str, Callable[[], None] | None, th.Colour]]:
        v = snap.view.payload
        hand = v.hand[side]
        if snap.prompt.level is None and self._replacing:
            return [(f"Replace {n} card{'s' * (n != 1)}", self._buy(side, Level.NONE, n),
                     th.PANEL_HI) for n in range(hand + 1)]
        if snap.prompt.level is None:
            return [
                ("No movement (replace cards)", self._start_replacing, th.PANEL_HI),
                ("Minimal: 1 move, free", self._buy(side, Level.MINIMAL), th.PANEL_HI),
                ("Limited: 1 card", self._buy(side, Level.LIMITED) if hand >= 1 else None,
                 th.PANEL_HI),
                ("Total: 2 cards", self._buy(side, Level.TOTAL) if hand >= 2 else None,
                 th.PANEL_HI),
            ]
        left = snap.prompt.moves_left
        label = ("End movement" if snap.prompt.level == Level.TOTAL.value  # no limit (7.1)
                 else f"End movement ({left} move{'s' * (left != 1)} left)")
        return [(label, lambda: self._do(cm.EndPhase(side=side)), th.ACCEPT)]

    def _start_replacing(self) -> None:
        self._replacing = True

    def _buy(self, side: Side, level: Level, replace: int = 0) -> Callable[[], None]:
        def buy() -> None:
            self._replacing = False
            self._do(cm.BuyMovement(side=side, level=level, replace=replace))
        return buy

    def _combat(self, snap: Snapshot, side: Side) -> list[
            tuple[str, Callable[[], None] | None, th.Colour]]:
        v = snap.view.payload
        b = v.battle
        found: list[tuple[str, Callable[[], None] | None, th.Colour]] = []
        places = {loc.id: loc.name for loc in default_board().locations.values()}
        if b is None:
            for loc in snap.prompt.declarable:
                found.append((f"Attack at {places[loc]}", self._declare(side, loc, False),
                              th.DANGER))
                if loc in snap.prompt.declare_inside:
                    found.append((f"Stay inside at {places[loc]}",
                                  self._declare(side, loc, True), th.PANEL_HI))
            end = None if snap.prompt.must_declare else (lambda: self._do(cm.EndPhase(side=side)))
            found.append(("End combat phase", end, th.ACCEPT))
            return found
        if b.stage == "castle_choice":
            owner = b.attacker.opponent
            return [
                ("Stay inside the castle", lambda: self._do(cm.ChooseInside(side=owner,
                                                                             inside=True)),
                 th.PANEL_HI),
                ("Fight outside", lambda: self._do(cm.ChooseInside(side=owner, inside=False)),
                 th.DANGER),
            ]
        if b.stage == "fighting":
            return battle.buttons(b, self._do, self._challenge, v.hand)
        return found

    def _declare(self, side: Side, location: str, inside: bool) -> Callable[[], None]:
        return lambda: self._do(cm.DeclareCombat(side=side, location=location, inside=inside))

    # ------------------------------------------------------------------ bidding

    def _bidding(self, canvas: Canvas, rect: pygame.Rect, snap: Snapshot) -> None:
        t = canvas.theme
        v = snap.view.payload
        canvas.fill(th.PANEL, rect, radius=t.gap)
        inner = rect.inflate(-2 * t.gap, -2 * t.gap)
        sealed = self.seal() if self.seal else None
        if sealed is not None and sealed.label == f"week {v.week - 1}":
            top = draw_seal(canvas, sealed, inner.topleft, inner.width) + t.gap // 2
            inner = pygame.Rect(inner.x, top, inner.width, inner.bottom - top)
        if v.phase == "choose_first":
            waiting = next(iter(snap.prompt.waiting), None)
            y = canvas.text("Bids revealed: see the feed (6.3)", inner.topleft, size=t.small,
                            colour=th.DIM).bottom + t.gap
            if waiting is not None:
                y = canvas.text(f"{side_name(waiting)} won the bid: who moves first this week?",
                                (inner.x, y), bold=True, width=inner.width).bottom + t.gap
                for cell, first in zip(row(pygame.Rect(inner.x, y, inner.width, t.target * 2),
                                           2, t.gap), Side, strict=True):
                    canvas.button(cell, f"{side_name(first)} moves first",
                                  self._choose(waiting, first), colour=side_colour(first),
                                  text_colour=th.BLACK_SIDE)
            return
        bidder = next((s for s in Side if s not in v.bids_placed), None)
        if bidder is None:
            return
        other = bidder.opponent
        done = [side_name(s) for s in v.bids_placed]
        y = inner.y
        if done:
            y = canvas.text(f"{' and '.join(done)} has bid face down.", (inner.x, y),
                            size=t.small, colour=th.DIM).bottom + 2
        y = canvas.text(f"{side_name(bidder)}: tap the card you laid face down. "
                        f"{side_name(other)}, look away. (6.3)", (inner.x, y), bold=True,
                        colour=side_colour(bidder), width=inner.width).bottom + t.gap
        cards = bid_cards(bidder)
        columns = max(2, inner.width // (3 * t.target))
        while -(-len(cards) // columns) * (t.target + t.gap // 2) > inner.bottom - y and (
                inner.width // (columns + 1) >= 2 * t.target):
            columns += 1
        cells = grid(pygame.Rect(inner.x, y, inner.width, inner.bottom - y), len(cards), columns,
                     t.gap // 2, t.target)
        for cell, (card_id, label) in zip(cells, cards, strict=True):
            canvas.button(cell, label, self._bid(bidder, card_id), size=t.small)

    def _bid(self, side: Side, card: str) -> Callable[[], None]:
        return lambda: self._do(self.control.bid(side, card))

    def _choose(self, side: Side, first: Side) -> Callable[[], None]:
        return lambda: self._do(cm.ChooseFirst(side=side, first=first))

    # ------------------------------------------------------------------ doing

    def _do(self, command: cm.Command, confirmed: bool = False) -> None:
        ask = None if confirmed else self.control.confirm_first(command)
        if ask is not None:  # it cannot be undone: said first (docs/referee.md, Undo)
            self.app.show(ConfirmStep(ask, self.app, self, lambda: self._do(command, True)))
            return
        try:
            result = self.control.submit(command)
        except StoreError as exc:  # nothing applied (8)
            self.app.say(f"Not saved: {exc.message}. Nothing was applied: tap again.")
            return
        if isinstance(result, Rejection):
            self.app.say(f"Not allowed: {plain_words(str(result))}")

    def _answer(self, question: int, choice: int) -> None:
        try:
            result = self.control.answer(question, choice)
        except StoreError as exc:
            self.app.say(f"Not saved: {exc.message}. Nothing was applied: tap again.")
            return
        if isinstance(result, Rejection):
            self.app.say(f"Not allowed: {plain_words(str(result))}")

    def _accept(self, index: int) -> None:
        self.control.accept_table(index)

    def _put_back(self, index: int) -> None:
        self.control.put_back(index)


def mode(snap: Snapshot) -> str:
    """The page a snapshot calls for, also the screen name recorded with its strings."""
    v = snap.view.payload
    if v.phase == "game_over":
        return "end"
    if v.phase in ("setup", "not_started"):
        return "setup"
    if v.phase in ("bid", "choose_first"):
        return "bidding"
    if v.battle is not None and v.battle.stage == "fighting":
        return "battle"
    return "board"
