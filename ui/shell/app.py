"""The app shell: one window, one screen at a time, touch and mouse, redraw on change.

Game-neutral: a game package supplies :class:`Screen` objects and, on a desktop with no hub, a
side panel (the virtual table). The loop sleeps in ``pygame.event.wait`` until something happens:
a touch, a wake-up posted from another thread (:meth:`App.wake`, e.g. when the readers saw a
move), or a screen's own timer (a blinking discrepancy). It redraws only then, at most 30 frames a
second. An exception in a screen's action is shown as one line and logged, never as a traceback.

On a desktop the window fits the desktop (:mod:`ui.shell.window`): screens and the panel draw on
one logical picture, the screen at its own size, shown scaled when the window is too small;
clicks and touches are mapped back to the picture's pixels. A kiosk is the panel, unscaled.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

import pygame

from ui.shell import theme as th
from ui.shell.canvas import READ_IN_FULL, Canvas, DragHandler, Target
from ui.shell.pages import full_text
from ui.shell.text import Box, Drawn, Painter
from ui.shell.window import PANEL_MAX, TAB_PX, WindowLayout, fit, window_area

log = logging.getLogger(__name__)

WAKE = pygame.event.custom_type()
FRAME_S = 1 / 30
"""At most 30 frames a second, and only while something changes."""
DESK: th.Colour = (12, 13, 15)
"""The window round the touchscreen and the virtual table."""
TAB_TEXT_PX = th.MIN_TEXT
"""The words of the button that shows or hides the virtual table (14 px lines)."""
POLL_S = 0.01
"""How often an idle app looks for a touch: 10 ms, well under a finger's notice."""


def kiosk_display(size: tuple[int, int]) -> tuple[int, int]:
    """Full screen on a panel: SDL's kmsdrm driver when there is no desktop (a Raspberry Pi
    with no X or Wayland); the panel's size, else ``size``."""
    import os

    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    pygame.display.init()
    info = pygame.display.Info()
    return (info.current_w, info.current_h) if info.current_w > 0 else size


def panel_size(screen: tuple[int, int]) -> tuple[int, int]:
    """The largest virtual table a window may give (it takes what the desktop leaves free, up
    to this: :func:`ui.shell.window.fit`)."""
    del screen  # the same for every touchscreen: it is read at a desk, not on the panel
    return PANEL_MAX


PANEL_THEME = th.Theme((1000, 600), 9.0)
"""The virtual table is read on a desktop monitor at a desk, whatever the touchscreen's size:
text of :data:`ui.shell.theme.MIN_TEXT` and up (14 px lines), 46 px targets."""


def centre_window() -> None:
    """Put the window back in the middle of the desktop after its size changed (the game
    choice, then a game with the virtual table beside it): SDL keeps the top left corner, and
    a window grown from there runs off the screen."""
    with contextlib.suppress(pygame.error, AttributeError, TypeError):  # no such window
        pygame.display.set_window_position((pygame.WINDOWPOS_CENTERED,
                                            pygame.WINDOWPOS_CENTERED))


class Screen(Protocol):
    """One screen of the app."""

    @property
    def name(self) -> str:
        """Recorded with every string the screen draws."""
        ...

    def draw(self, canvas: Canvas) -> None: ...

    def tick_ms(self) -> int | None:
        """Redraw after this many milliseconds even without input (a blink), or None."""
        ...


class Panel(Protocol):
    """Something drawn beside the touchscreen in the same window (the virtual table)."""

    @property
    def name(self) -> str: ...

    def draw(self, canvas: Canvas) -> None: ...

    def tick_ms(self) -> int | None: ...


@dataclass
class FrameRecorder:
    """Writes ``frames/NNNNN.png`` at each change of the touchscreen, ``text.jsonl``, one line
    per string drawn, and ``frames.jsonl``, one line per frame.

    A string's line: ``{"frame": N, "screen": ..., "text": ..., "px": ..., "rect": [x, y, w, h],
    "lines": [[x, y, w, h], ...]}``, plus ``"cut": true`` when ``max_lines`` cut it and
    ``"clipped": true`` when it runs past the surface it was drawn on. ``text`` is the whole
    string; ``px`` its font's pixel height; ``rect`` its box and ``lines`` each line's box, in
    pixels of the touchscreen. A string of the side panel (the virtual table) has its screen
    name (``virtual-table``), ``"panel": true`` and boxes in pixels of the panel; one drawn on
    the window round them, ``"window": true`` and window pixels.

    A frame's line: ``{"frame": N, "size": [w, h], "panel": [w, h] or null, "target": px,
    "targets": [{"label": ..., "rect": [x, y, w, h], "enabled": bool}, ...]}`` with the
    smallest touch target and what can be tapped (``"area": true`` for an invisible tap area
    over something drawn; ``"panel"``/``"window"`` as for strings), from the
    bottom up (a tap goes to the last that holds it). :mod:`ui.shell.legibility` checks the
    three together."""

    directory: Path
    pictures: bool = True
    """Write the PNG frames too (the lint needs only the two JSON lines files; the pictures are
    for people, and cost about a third of a recorded demo's CPU)."""
    frame: int = 0
    _last: bytes = b""

    def __post_init__(self) -> None:
        (self.directory / "frames").mkdir(parents=True, exist_ok=True)
        self._text = (self.directory / "text.jsonl").open("w", encoding="utf-8")
        self._frames = (self.directory / "frames.jsonl").open("w", encoding="utf-8")

    def record(self, surface: pygame.Surface, strings: Sequence[Drawn],
               targets: Sequence[Target] = (), *, target_px: int = 0,
               panel: pygame.Rect | None = None) -> bool:
        """Save the frame if the touchscreen (``surface``) changed; True if it did. ``strings``
        and ``targets`` are the whole window's; ``panel`` is where the side panel sits."""
        digest = hashlib.blake2b(pygame.image.tobytes(surface, "RGB"), digest_size=16).digest()
        if digest == self._last:
            return False
        self._last = digest
        self.frame += 1
        if self.pictures:
            pygame.image.save(surface, str(self.directory / "frames" / f"{self.frame:05d}.png"))
        screen = pygame.Rect(surface.get_abs_offset(), surface.get_size())
        for drawn in strings:
            line = self._string(drawn, _part(pygame.Rect(drawn.surface), screen, panel))
            self._text.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._frames.write(json.dumps({
            "frame": self.frame, "size": list(surface.get_size()),
            "panel": list(panel.size) if panel is not None else None, "target": target_px,
            "targets": [self._target(t, _part(t.rect, screen, panel, by_corner=True))
                        for t in targets]}, ensure_ascii=False) + "\n")
        self._text.flush()
        self._frames.flush()
        return True

    def _string(self, drawn: Drawn, part: tuple[str, pygame.Rect | None]) -> dict[str, object]:
        name, where = part
        dx, dy = where.topleft if where is not None else (0, 0)
        line: dict[str, object] = {
            "frame": self.frame, "screen": drawn.screen, "text": drawn.text, "px": drawn.px,
            "rect": _moved(drawn.rect, dx, dy), "lines": [_moved(b, dx, dy) for b in drawn.lines]}
        if drawn.cut:
            line["cut"] = True
        if drawn.clipped:
            line["clipped"] = True
        if name != "screen":
            line[name] = True
        return line

    def _target(self, target: Target, part: tuple[str, pygame.Rect | None]) -> dict[str, object]:
        name, where = part
        rect = target.rect
        dx, dy = where.topleft if where is not None else (0, 0)
        out: dict[str, object] = {"label": target.label,
                                  "rect": _moved((rect.x, rect.y, rect.w, rect.h), dx, dy),
                                  "enabled": target.action is not None}
        if not target.button:
            out["area"] = True
        if name != "screen":
            out[name] = True
        return out

    def close(self) -> None:
        self._text.close()
        self._frames.close()


def _part(rect: pygame.Rect, screen: pygame.Rect, panel: pygame.Rect | None,
          by_corner: bool = False) -> tuple[str, pygame.Rect | None]:
    """Which part of the window ``rect`` (a surface drawn on, or a target) is in: the
    touchscreen, the side panel, or the window round them; with where that part is."""
    inside: Callable[[pygame.Rect], bool] = (
        (lambda part: part.collidepoint(rect.topleft)) if by_corner else
        (lambda part: part.contains(rect)))
    if inside(screen):
        return "screen", screen
    if panel is not None and inside(panel):
        return "panel", panel
    return "window", None


def _moved(box: Box, dx: int, dy: int) -> list[int]:
    return [box[0] - dx, box[1] - dy, box[2], box[3]]


class App:
    """The window, the current screen, input and the redraw loop."""

    def __init__(self, size: tuple[int, int], *, panel_size: tuple[int, int] | None = None,
                 diagonal_in: float = 7.0, fullscreen: bool = False,
                 title: str = "Table companion", desktop: tuple[int, int] | None = None) -> None:
        """``panel_size``: draw a panel (the virtual table) beside or below the screen, at most
        this large; ``desktop``: the desktop to fit the window in (default: the display's)."""
        pygame.display.init()
        pygame.font.init()
        self.size = size
        self.theme = th.Theme(size, diagonal_in)
        self.panel_theme = PANEL_THEME
        self.fullscreen = fullscreen
        self._panel_max = panel_size
        self._desktop = desktop
        self.panel_open = True
        """The virtual table is shown (its strip's button hides it, to give the screen room)."""
        if fullscreen:
            self.layout = WindowLayout(size, pygame.Rect((0, 0), size), None, 1.0, size)
        else:
            self.layout = self._fit(window_area(desktop))
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        self.display = pygame.display.set_mode(self.layout.window, flags)
        if not fullscreen:
            centre_window()
        if fullscreen and self.display.get_size() != size:  # a panel not of the size asked
            self.layout = fit(size, self.display.get_size(), panel=False,
                              window=self.display.get_size())
        pygame.display.set_caption(title)
        self.window = self._picture()
        """The logical picture: the touchscreen at (0, 0) and its own size, the panel beside or
        below; every target, region and touch is in its pixels."""
        self.painter = Painter()
        self.screen: Screen | None = None
        self.panel: Panel | None = None
        self.banner: str | None = None
        self.reading: str | None = None
        """A cut string opened in full over the screen (a tap on it), until "Close"."""
        self.recorder: FrameRecorder | None = None
        self.running = True
        self.frames_drawn = 0
        self.targets: list[Target] = []
        self.regions: list[tuple[pygame.Rect, DragHandler]] = []
        self.drawn: list[tuple[str, str]] = []
        """The strings of the last frame (screen, text), as drawn."""
        self.placed: list[Drawn] = []
        """The strings of the last frame with their size and place (:class:`Drawn`)."""
        self.on_frame: Callable[[float], None] | None = None
        """Called with the time each frame reached the display (benchmarks)."""
        self.frame_s = 0.0 if pygame.display.get_driver() == "dummy" else FRAME_S
        """The least time between two frames: a display's refresh (30 a second) paces the
        drawing; with no display (headless: tests, the demo) nobody sees a frame early, so
        frames are drawn as soon as something changed (benchmarks that time frames set it)."""
        self._dirty = True
        self._last_draw = 0.0
        self._pressed: Target | None = None
        self._dragging: DragHandler | None = None
        self._finger: int | None = None
        self._wakeup = threading.Event()

    # ------------------------------------------------------------------ the window

    @property
    def panel_rect(self) -> pygame.Rect | None:
        """Where the panel is in the logical picture (None: no panel)."""
        return self.layout.panel

    def _picture(self) -> pygame.Surface:
        """The display itself when it shows the picture pixel for pixel, else an off-screen
        picture that :meth:`draw` scales into the window."""
        if self.layout.direct:
            return self.display
        return pygame.Surface(self.layout.logical).convert()

    def resize(self, window: tuple[int, int]) -> None:
        """The window was resized: the touchscreen keeps its size when it fits, else the whole
        picture is scaled to fit; the panel takes what is left (:func:`ui.shell.window.fit`)."""
        if self.fullscreen or (window == self.layout.window
                               and self.display.get_size() == window):
            return
        current = pygame.display.get_surface()
        if current is None or current.get_size() != window:  # SDL has not resized it itself
            self.display = pygame.display.set_mode(window, pygame.RESIZABLE)
        else:
            self.display = current
        self.layout = self._fit(window, window)
        self.window = self._picture()
        self._dirty = True

    def _fit(self, area: tuple[int, int], window: tuple[int, int] | None = None
             ) -> WindowLayout:
        return fit(self.size, area, panel=self._panel_max is not None,
                   panel_max=self._panel_max or PANEL_MAX, window=window, tab=TAB_PX,
                   closed=not self.panel_open)

    def toggle_panel(self) -> None:
        """Show or hide the virtual table; the window takes the new layout's size on the
        desktop (:func:`ui.shell.window.fit`)."""
        self.panel_open = not self.panel_open
        self.layout = self._fit(window_area(self._desktop))
        self.display = pygame.display.set_mode(self.layout.window, pygame.RESIZABLE)
        centre_window()
        self.window = self._picture()
        self._dirty = True

    def _draw_tab(self, targets: list[Target]) -> None:
        """The strip between the screen and the virtual table, with the button that shows or
        hides it."""
        rect = self.layout.tab
        if rect is None:
            return
        t = self.panel_theme
        canvas = Canvas(self.window.subsurface(rect), self.painter, t, rect.topleft, targets)
        words = ("Hide", "table") if self.panel_open else ("Show", "table")
        label = " ".join(words)
        if rect.height > rect.width:  # a column beside the screen: the words one above the other
            button = pygame.Rect(2, t.gap, rect.width - 4, 2 * t.target)
            canvas.fill(th.PANEL_HI, button, radius=t.gap)
            for i, word in enumerate(words):
                line = round(TAB_TEXT_PX * 0.4)
                canvas.text(word, (button.centerx, button.centery + (2 * i - 1) * line),
                            size=TAB_TEXT_PX, anchor="center", bold=True)
        else:
            button = pygame.Rect(t.gap, 3, 5 * t.target, rect.height - 6)
            canvas.fill(th.PANEL_HI, button, radius=t.gap)
            canvas.text(label, button.center, size=TAB_TEXT_PX, anchor="center", bold=True)
        canvas.tap_area(button, label, self.toggle_panel)

    def _show(self) -> None:
        """Put the picture on the display (scaled when it does not fit pixel for pixel)."""
        if self.layout.direct:
            return
        shown = self.layout.shown
        self.display.fill(DESK)
        if shown.size == self.layout.logical:
            self.display.blit(self.window, shown)
        else:
            self.display.blit(pygame.transform.smoothscale(self.window, shown.size), shown)

    # ------------------------------------------------------------------ navigation

    def show(self, screen: Screen) -> None:
        self.screen = screen
        self.banner = None
        self.reading = None
        self._dirty = True

    def say(self, message: str) -> None:
        """One line across the bottom of the screen until the next change of screen."""
        self.banner = message
        self._dirty = True

    def wake(self) -> None:
        """Ask for a redraw; safe from any thread."""
        with contextlib.suppress(pygame.error):  # the display is already closed
            pygame.event.post(pygame.event.Event(WAKE))
        self._wakeup.set()

    def invalidate(self) -> None:
        self._dirty = True

    # ------------------------------------------------------------------ the loop

    def run(self) -> None:
        while self.running:
            self.pump(self._timeout_ms())

    def pump(self, timeout_ms: int = 0) -> None:
        """Wait up to ``timeout_ms`` for an event, handle all pending ones, redraw if needed.

        Waiting polls SDL's queue every :data:`POLL_S` and otherwise sleeps on a thread event
        that :meth:`wake` sets: SDL's own timed wait spins every millisecond on drivers that
        cannot block (dummy, kmsdrm), which would cost more CPU than the idle budget."""
        events = pygame.event.get()
        deadline = time.monotonic() + timeout_ms / 1000
        while not events and time.monotonic() < deadline:
            self._wakeup.wait(min(POLL_S, max(0.0, deadline - time.monotonic())))
            self._wakeup.clear()
            events = pygame.event.get()
        for event in events:
            self._handle(event)
        if self._dirty or self._timer_due():
            wait = self._last_draw + self.frame_s - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self.draw()

    def _timeout_ms(self) -> int:
        if self._dirty:
            return 1
        tick = self._tick_ms()
        return tick if tick is not None else 60_000

    def _tick_ms(self) -> int | None:
        """The soonest redraw the screen or the panel asks for without input (a blink)."""
        ticks = [part.tick_ms() for part in (self.screen, self.panel) if part is not None]
        return min((t for t in ticks if t is not None), default=None)

    def _timer_due(self) -> bool:
        tick = self._tick_ms()
        return tick is not None and (time.monotonic() - self._last_draw) * 1000 >= tick

    def draw(self) -> None:
        self._dirty = False
        self._last_draw = time.monotonic()
        self.drawn = []
        self.painter.sink = lambda screen, text: self.drawn.append((screen, text))
        self.placed = []
        self.painter.on_text = self.placed.append
        targets: list[Target] = []
        regions: list[tuple[pygame.Rect, DragHandler]] = []
        if self.layout.panel is not None or self.layout.tab is not None:
            self.window.fill(DESK)
        screen_surface = self.window.subsurface(pygame.Rect((0, 0), self.size))
        screen_surface.fill(th.PAPER)
        if self.screen is not None:
            canvas = Canvas(screen_surface, self.painter, self.theme, (0, 0), targets, regions,
                            read_in_full=self._read_in_full)
            self.painter.screen = self.screen.name
            if self.reading is not None:  # instead of the screen, until "Close"
                full_text(canvas, self.reading, self._close_reading)
            else:
                self._guarded(lambda: self.screen.draw(canvas) if self.screen else None)
                targets[:0] = canvas.openers  # under the screen's own targets
                if self.banner:
                    self._draw_banner(canvas, self.banner)
        if self.layout.tab is not None:
            self.painter.screen = self.panel.name if self.panel is not None else "window"
            self._draw_tab(targets)
        if self.panel is not None and self.panel_rect is not None:
            surface = self.window.subsurface(self.panel_rect)
            surface.fill(th.PAPER)
            canvas = Canvas(surface, self.painter, self.panel_theme, self.panel_rect.topleft,
                            targets, regions)
            self.painter.screen = self.panel.name
            panel = self.panel
            self._guarded(lambda: panel.draw(canvas))
        self.targets, self.regions = targets, regions
        self._show()
        pygame.display.flip()
        self.frames_drawn += 1
        if self.on_frame is not None:
            self.on_frame(time.monotonic())
        if self.recorder is not None:
            self.recorder.record(screen_surface, self.placed, targets,
                                 target_px=self.theme.target, panel=self.panel_rect)

    def _draw_banner(self, canvas: Canvas, message: str) -> None:
        t = self.theme
        rect = pygame.Rect(0, canvas.rect.height - t.target, canvas.rect.width, t.target)
        canvas.fill(th.WARN, rect)
        canvas.text(message, (t.gap, rect.centery), size=t.small, anchor="midleft",
                    colour=th.BLACK_SIDE, width=rect.width - 3 * t.target, max_lines=2)
        if self.painter.last_cut:  # over the screen, as the banner is
            canvas.tap_area(pygame.Rect(0, rect.y, rect.width - 2 * t.target, rect.height),
                            READ_IN_FULL + message, partial(self._read_in_full, message))
        canvas.button(pygame.Rect(rect.right - 2 * t.target, rect.y, 2 * t.target, t.target),
                      "OK", self._dismiss_banner, colour=th.PANEL_HI)

    def _dismiss_banner(self) -> None:
        self.banner = None

    def _read_in_full(self, text: str) -> None:
        self.reading = text

    def _close_reading(self) -> None:
        self.reading = None

    def _guarded(self, call: Callable[[], object]) -> None:
        try:
            call()
        except Exception as exc:  # a screen must never take the app down or show a traceback
            log.exception("screen error")
            self.banner = f"Something went wrong: {exc}".splitlines()[0][:160]
            self._dirty = True

    # ------------------------------------------------------------------ input

    def _handle(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif kind in (WAKE, pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWSIZECHANGED):
            self._dirty = True
        elif kind == pygame.MOUSEBUTTONDOWN and event.button == 1 and not event.touch:
            self._press(self.layout.to_logical(event.pos))
        elif kind == pygame.MOUSEMOTION and not event.touch and self._dragging is not None:
            self._motion(self.layout.to_logical(event.pos))
        elif kind == pygame.MOUSEBUTTONUP and event.button == 1 and not event.touch:
            self._release(self.layout.to_logical(event.pos))
        elif kind == pygame.FINGERDOWN and self._finger is None:
            self._finger = event.finger_id
            self._press(self._finger_pos(event))
        elif kind == pygame.FINGERMOTION and event.finger_id == self._finger:
            self._motion(self._finger_pos(event))
        elif kind == pygame.FINGERUP and event.finger_id == self._finger:
            self._finger = None
            self._release(self._finger_pos(event))

    def _finger_pos(self, event: pygame.event.Event) -> tuple[int, int]:
        """A finger's place (SDL gives it as a fraction of the window) in logical pixels."""
        w, h = self.display.get_size()
        return self.layout.to_logical((event.x * w, event.y * h))

    def _press(self, pos: tuple[int, int]) -> None:
        for target in reversed(self.targets):
            if target.rect.collidepoint(pos):
                self._pressed = target
                return
        for rect, handler in reversed(self.regions):
            if rect.collidepoint(pos):
                self._dragging = handler
                self._guarded(partial(handler.press, pos))
                self._dirty = True
                return

    def _motion(self, pos: tuple[int, int]) -> None:
        handler = self._dragging
        if handler is not None:
            self._guarded(lambda: handler.motion(pos))
            self._dirty = True

    def _release(self, pos: tuple[int, int]) -> None:
        handler, self._dragging = self._dragging, None
        if handler is not None:
            self._guarded(lambda: handler.release(pos))
            self._dirty = True
            return
        pressed, self._pressed = self._pressed, None
        if pressed is None or not pressed.rect.collidepoint(pos):
            return
        action = pressed.action
        if action is not None:
            self._guarded(action)
        self._dirty = True

    # ------------------------------------------------------------------ simulated touches

    def touch(self, pos: tuple[int, int], to: tuple[int, int] | None = None) -> None:
        """A finger taps ``pos`` (or drags from ``pos`` to ``to``), both in logical pixels: real
        FINGER events through the event queue, at the window's place for them, as a touchscreen
        sends them."""
        w, h = self.display.get_size()

        def finger(kind: int, at: tuple[int, int]) -> pygame.event.Event:
            x, y = self.layout.to_window(at)
            return pygame.event.Event(kind, touch_id=1, finger_id=1, x=x / w, y=y / h,
                                      dx=0.0, dy=0.0, pressure=1.0)

        pygame.event.post(finger(pygame.FINGERDOWN, pos))
        if to is not None:
            pygame.event.post(finger(pygame.FINGERMOTION, to))
        pygame.event.post(finger(pygame.FINGERUP, to or pos))

    def find(self, label: str) -> Target | None:
        """The target of the last frame with this label (exact, else the first that starts so)."""
        exact = [t for t in self.targets if t.label == label]
        if exact:
            return exact[0]
        return next((t for t in self.targets if t.label.startswith(label)), None)

    def tap(self, label: str) -> bool:
        """Tap the button labelled ``label`` on the last frame; False if none is shown."""
        target = self.find(label)
        if target is None or target.action is None:
            return False
        self.touch(target.rect.center)
        self.pump()
        return True

    def close(self) -> None:
        """Stop recording; the display closes with the process (tests share one)."""
        if self.recorder is not None:
            self.recorder.close()
        self.running = False
