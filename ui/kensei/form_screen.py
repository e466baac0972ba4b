"""A calculator's form on the touchscreen: a page of large controls at a time (steppers,
toggles, choice buttons, pickers), the dice pad, and "Rule it", which asks
:func:`companion.games.kensei.calculator.adjudicate` and shows the ruling, or the refusal in
plain words with the heading broken (never a traceback)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from companion.games.kensei.calculator import adjudicate
from companion.games.kensei.errors import KenseiError
from ui.kensei import words as w
from ui.kensei.forms import CalcForm, Field, get
from ui.shell import theme as th
from ui.shell.canvas import Canvas, column, grid, row

Ruled = Callable[[dict[str, Any], dict[str, Any]], None]
"""Called with the input and the ruling once the calculator rules."""
ON: th.Colour = (48, 96, 64)
"""A toggle that is on."""


@dataclass
class Refusal:
    message: str
    rule: str | None
    where: tuple[int, Field] | None = None
    """The page and the control the refusal is about, when the form has one."""


def _where(form: CalcForm, message: str) -> tuple[int, Field] | None:
    """The control a refusal's key path names (the longest match), and its page."""
    path = tuple(message.partition(": ")[0].split("."))
    found: tuple[int, Field] | None = None
    for number, page in enumerate(form.pages):
        for f in page.fields:
            if path[:len(f.path)] == f.path and form.shown(f) and (
                    found is None or len(f.path) > len(found[1].path)):
                found = number, f
    return found


def rule_form(form: CalcForm) -> tuple[dict[str, Any], dict[str, Any] | Refusal]:
    """The form's input and the calculator's ruling on it, or its refusal."""
    data = form.value()
    try:
        return data, adjudicate(form.kind, data)
    except KenseiError as exc:
        return data, Refusal(w.plain(exc.message, form.names), exc.rule,
                             _where(form, exc.message))


class FormScreen:
    """See the module docstring. ``ruled`` gets the input and the ruling; ``back`` leaves."""

    def __init__(self, form: CalcForm, back: Callable[[], None], ruled: Ruled,
                 back_label: str = "Back") -> None:
        self.form = form
        self.back = back
        self.ruled = ruled
        self.back_label = back_label
        self.page = 0
        self.pad: Field | None = None
        self.picking: Field | None = None
        self.sections = False
        self.refusal: Refusal | None = None

    @property
    def name(self) -> str:
        if self.pad is not None:
            return "kensei-pad"
        if self.picking is not None:
            return "kensei-pick"
        if self.refusal is not None:
            return "kensei-refusal"
        return f"kensei-{self.form.kind}"

    def tick_ms(self) -> int | None:
        return None

    # ------------------------------------------------------------------ actions

    def turn(self, page: int) -> None:
        self.page = max(0, min(page, len(self.form.pages) - 1))
        self.sections = False

    def rule(self) -> None:
        data, ruling = rule_form(self.form)
        if isinstance(ruling, Refusal):
            self.refusal = ruling
        else:
            self.ruled(data, ruling)

    def _set(self, f: Field, value: Any) -> None:
        self.form.set(f, value)
        self.picking = None

    def _step(self, f: Field, by: int) -> None:
        now = get(self.form.data, f.path)
        if now is None:
            now = f.default(self.form.data) if f.default is not None else f.low
        self._set(f, max(f.low, min(f.high, int(now) + by * f.by)))

    def _toggle(self, f: Field) -> None:
        self._set(f, not get(self.form.data, f.path))

    def _open(self, f: Field) -> None:
        if f.kind == "list":
            self.pad = f
        else:
            self.picking = f

    def _add(self, f: Field, value: int) -> None:
        self.form.set(f, [*(get(self.form.data, f.path) or []), value])

    def _undo(self, f: Field) -> None:
        self.form.set(f, list(get(self.form.data, f.path) or [])[:-1])

    def _clear(self, f: Field) -> None:
        self.form.set(f, [])

    def _roll(self, f: Field) -> None:
        self.form.set(f, self.form.roll(f))

    def _close(self) -> None:
        self.pad = self.picking = None
        self.refusal = None
        self.sections = False

    def _show_sections(self) -> None:
        self.sections = True

    def _go_to(self, page: int, f: Field) -> None:
        """From a refusal to the control it is about (its pad, for dice)."""
        self._close()
        self.turn(page)
        if f.kind in ("list", "pick"):
            self._open(f)

    # ------------------------------------------------------------------ drawing

    def draw(self, canvas: Canvas) -> None:
        if self.refusal is not None:
            self._draw_refusal(canvas, self.refusal)
        elif self.pad is not None:
            self._draw_pad(canvas, self.pad)
        elif self.picking is not None:
            self._draw_pick(canvas, self.picking)
        elif self.sections:
            self._draw_sections(canvas)
        else:
            self._draw_page(canvas)

    def _header(self, canvas: Canvas, title: str, size: int | None = None,
                room: int = 0) -> int:
        """The title, on two lines where the screen is narrow; the y below it."""
        t = canvas.theme
        r = canvas.rect
        size = size or t.title
        bottom = canvas.text(title, (2 * t.gap, t.gap), size=size, bold=True,
                             width=r.width - 4 * t.gap - room, max_lines=2).bottom
        return max(bottom, t.gap + t.target) + t.gap

    def _draw_page(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        form = self.form
        page = form.pages[self.page]
        top = self._header(canvas, f"{form.title} · {page.title}", t.body, 3 * t.target)
        canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, t.gap // 2, 3 * t.target,
                                  t.target),
                      f"Page {self.page + 1} of {len(form.pages)}", self._show_sections)
        if page.note:
            top = canvas.text(page.note, (2 * t.gap, top), size=t.small, colour=th.DIM,
                              width=r.width - 4 * t.gap, max_lines=2).bottom + t.gap
        bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
        area = pygame.Rect(t.gap, top, r.width - 2 * t.gap, bar.y - top - t.gap)
        self._draw_fields(canvas, area, [f for f in page.fields if form.shown(f)])
        cells = row(bar, 4, t.gap)
        canvas.button(cells[0], self.back_label, self.back)
        canvas.button(cells[1], "Previous page",
                      partial(self.turn, self.page - 1) if self.page > 0 else None)
        canvas.button(cells[2], "Next page", partial(self.turn, self.page + 1)
                      if self.page < len(form.pages) - 1 else None)
        canvas.button(cells[3], "Rule it", self.rule, colour=th.ACCEPT)

    def _draw_fields(self, canvas: Canvas, area: pygame.Rect, fields: list[Field]) -> None:
        t = canvas.theme
        cols = 2 if t.portrait else 3
        rows: list[list[Field]] = []
        for f in fields:
            used = sum(g.span for g in rows[-1]) if rows else cols
            if f.wide or used + f.span > cols or rows[-1][0].wide:
                rows.append([f])
            else:
                rows[-1].append(f)
        height = max(t.target, min(int(t.target * 1.3),
                                   (area.height - t.gap * (len(rows) - 1)) // max(1, len(rows))))
        y = area.y
        for line in rows:
            band = pygame.Rect(area.x, y, area.width, height)
            if line[0].wide:
                self._wide(canvas, band, line[0])
            else:
                cells = row(band, cols, t.gap)
                at = 0
                for f in line:
                    cell = cells[at].union(cells[min(cols, at + f.span) - 1])
                    self._cell(canvas, cell, f)
                    at += f.span
            y += height + t.gap

    def _wide(self, canvas: Canvas, band: pygame.Rect, f: Field) -> None:
        t = canvas.theme
        label_w = band.width // 4
        canvas.text(f.label, (band.x, band.centery), size=t.small, anchor="midleft",
                    width=label_w - t.gap, max_lines=2)
        rest = pygame.Rect(band.x + label_w, band.y, band.width - label_w, band.height)
        now = get(self.form.data, f.path)
        if f.kind == "list":
            self._list_button(canvas, rest, f, now)
            return
        if f.path[-1] == "leader":
            now = now.get("class") if isinstance(now, dict) else None
        for cell, (value, label) in zip(row(rest, len(f.options), t.gap), f.options,
                                        strict=True):
            chosen = now == value
            canvas.button(cell, label, partial(self._set, f, value), selected=chosen,
                          colour=ON if chosen else th.PANEL_HI)

    def _list_button(self, canvas: Canvas, rect: pygame.Rect, f: Field, now: Any) -> None:
        values = list(now or [])
        need = self.form.needs(f)
        shown = (" " if f.roll else ", ").join(str(v) for v in values) or "none yet"
        count = f" ({len(values)} of {need})" if need is not None else ""
        ok = need is None or len(values) == need
        canvas.button(rect, f"{f.label}: {shown}{count}", partial(self._open, f),
                      colour=th.PANEL_HI if ok else (96, 70, 40))

    def _cell(self, canvas: Canvas, cell: pygame.Rect, f: Field) -> None:
        now = get(self.form.data, f.path)
        if f.kind == "toggle":
            canvas.button(cell, f"{f.label}: {'yes' if now else 'no'}", partial(self._toggle, f),
                          selected=bool(now), colour=ON if now else th.PANEL_HI)
        elif f.kind == "pick":
            label = dict(f.options).get(now, str(now))
            canvas.button(cell, f"{f.label}: {label}", partial(self._open, f))
        elif f.kind == "list":
            self._list_button(canvas, cell, f, now)
        elif f.kind == "step":
            self._stepper(canvas, cell, f, now)

    def _stepper(self, canvas: Canvas, cell: pygame.Rect, f: Field, now: Any) -> None:
        t = canvas.theme
        side = min(t.target + t.gap, cell.width // 4)
        less = pygame.Rect(cell.x, cell.y, side, cell.height)
        more = pygame.Rect(cell.right - side, cell.y, side, cell.height)
        canvas.fill(th.PANEL, cell, radius=t.gap)
        for rect, sign, by in ((less, "−", -1), (more, "+", 1)):
            canvas.fill(th.PANEL_HI, rect, radius=t.gap)
            canvas.text(sign, rect.center, size=t.title, bold=True, anchor="center")
            canvas.tap_area(rect, f"{f.label} {'less' if by < 0 else 'more'}",
                            partial(self._step, f, by))
        middle = pygame.Rect(less.right, cell.y, more.x - less.right, cell.height)
        value = str(now) if now is not None else (
            f"{f.default(self.form.data)} (class)" if f.default is not None else "0")
        canvas.text(f.label, (middle.centerx, middle.y + 2), size=t.small, colour=th.DIM,
                    anchor="midtop", width=middle.width - 4, max_lines=1)
        canvas.text(value, (middle.centerx, middle.bottom - 2), size=t.body, bold=True,
                    anchor="midbottom")

    def _draw_pick(self, canvas: Canvas, f: Field) -> None:
        t = canvas.theme
        r = canvas.rect
        top = self._header(canvas, f"Choose: {f.label}")
        now = get(self.form.data, f.path)
        count = len(f.options)
        cols = 1 if t.portrait else 2
        rows = (count + cols - 1) // cols
        bottom = r.bottom - t.target - 2 * t.gap
        height = max(t.target, min(int(t.target * 1.2), (bottom - top) // rows - t.gap))
        area = pygame.Rect(2 * t.gap, top, r.width - 4 * t.gap, bottom - top)
        for cell, (value, label) in zip(grid(area, count, cols, t.gap, height), f.options,
                                        strict=True):
            chosen = now == value
            canvas.button(cell, label, partial(self._set, f, value), selected=chosen,
                          colour=ON if chosen else th.PANEL_HI)
        canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, r.bottom - t.target - t.gap,
                                  3 * t.target, t.target), "Back to the form", self._close)

    def _draw_pad(self, canvas: Canvas, f: Field) -> None:
        t = canvas.theme
        r = canvas.rect
        side = f.path[0] if f.path[0] in ("a", "b") else ""
        who = f"{self.form.side(side)}: " if side else ""
        top = self._header(canvas, f"{who}{f.label}")
        values = list(get(self.form.data, f.path) or [])
        need = self.form.needs(f)
        width = r.width - 4 * t.gap
        if need is not None:
            note = f"This roll takes {w.dice(need)}; {len(values)} entered."
        elif f.roll:
            note = (f"{len(values)} entered. Enter them only when the ruling asks, as "
                    "rolled.")
        else:
            note = f"{len(values)} entered, in order."
        y = canvas.text(note, (2 * t.gap, top), size=t.small, colour=th.DIM, width=width,
                        max_lines=2).bottom + t.gap
        y = canvas.text("  ".join(str(v) for v in values) or "none yet", (2 * t.gap, y),
                        size=t.title, bold=True, width=width, max_lines=2).bottom + 2 * t.gap
        bar = pygame.Rect(2 * t.gap, r.bottom - t.target - t.gap, width, t.target)
        keys = list(f.values)
        per_row = 8 if len(keys) > 8 else len(keys)
        lines = (len(keys) + per_row - 1) // per_row
        room = bar.y - t.gap - y
        height = max(t.target, min(int(t.target * 2.2), (room - t.gap * (lines - 1)) // lines))
        pad = pygame.Rect(2 * t.gap, y, width, lines * (height + t.gap) - t.gap)
        for i, cell in enumerate(column(pad, lines, t.gap)):
            chunk = keys[i * per_row:(i + 1) * per_row]
            for key_cell, value in zip(row(cell, per_row, t.gap)[:len(chunk)], chunk,
                                       strict=True):
                canvas.button(key_cell, str(value), partial(self._add, f, value),
                              size=t.title)
        buttons: list[tuple[str, Callable[[], None] | None]] = [
            ("Take back the last", partial(self._undo, f) if values else None),
            ("Clear", partial(self._clear, f) if values else None)]
        if f.roll:
            buttons.append(("Roll for me", partial(self._roll, f)))
        buttons.append(("Done", self._close))
        for cell, (label, action) in zip(row(bar, len(buttons), t.gap), buttons, strict=True):
            canvas.button(cell, label, action,
                          colour=th.ACCEPT if label == "Done" else th.PANEL_HI)

    def _draw_sections(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        top = self._header(canvas, f"{self.form.title}: go to a page")
        pages = self.form.pages
        cols = 1 if t.portrait else 2
        rows = (len(pages) + cols - 1) // cols
        bottom = r.bottom - t.target - 2 * t.gap
        height = max(t.target, min(int(t.target * 1.2), (bottom - top) // rows - t.gap))
        area = pygame.Rect(2 * t.gap, top, r.width - 4 * t.gap, bottom - top)
        for i, (cell, page) in enumerate(zip(grid(area, len(pages), cols, t.gap, height),
                                             pages, strict=True)):
            canvas.button(cell, page.title, partial(self.turn, i), selected=i == self.page)
        canvas.button(pygame.Rect(r.right - 3 * t.target - t.gap, r.bottom - t.target - t.gap,
                                  3 * t.target, t.target), "Back to the form", self._close)

    def _draw_refusal(self, canvas: Canvas, refusal: Refusal) -> None:
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        title = ("The rules do not allow this" if refusal.rule
                 else "The form does not describe a possible table")
        y = self._header(canvas, title)
        y = canvas.text(refusal.message, (2 * t.gap, y), width=width, max_lines=4).bottom
        if refusal.rule:
            y = canvas.text(f"Rule broken: {refusal.rule}", (2 * t.gap, y + 2 * t.gap),
                            bold=True, colour=th.WARN, width=width, max_lines=2).bottom
        canvas.text("Change the form and rule again.", (2 * t.gap, y + 2 * t.gap),
                    size=t.small, colour=th.DIM, width=width)
        bar = pygame.Rect(2 * t.gap, r.bottom - t.target - t.gap, width, t.target)
        left, right = row(bar, 2, 2 * t.gap)
        canvas.button(left, "Back to the form", self._close)
        if refusal.where is not None:
            page, f = refusal.where
            canvas.button(right, f"Change it: {f.label}", partial(self._go_to, page, f),
                          colour=th.ACCEPT)
