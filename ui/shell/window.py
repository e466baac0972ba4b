"""Where the touchscreen and the virtual table go in a desktop window, and at what scale.

The touchscreen is always laid out at its own size (``--size``): screens, recordings and tests
see the same pixels whatever the desktop. The window shows that picture (and the virtual table
beside or below it) scaled down only when the desktop is too small for it; a tap on the window
is mapped back to those pixels (:meth:`WindowLayout.to_logical`). A kiosk never scales: it is the
panel.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

Size = tuple[int, int]
Point = tuple[int, int]

TAB_PX = 54
"""The strip between the screen and the virtual table: its show/hide button, two short words."""
PANEL_MIN: Size = (488, 420)
"""The smallest virtual table that still shows the board, its trays and readable names."""
PANEL_MAX: Size = (1000, 720)
"""A larger virtual table only spreads the same board thinner."""
DESKTOP_MARGIN: Size = (24, 96)
"""What a desktop keeps for itself: window borders, a title bar, a task bar."""
FALLBACK_DESKTOP: Size = (1366, 768)
"""A small laptop, when the display cannot say its size."""
MAP_ASPECT = 1.45
"""The board's width over its height: how much of a panel's height the map can use."""


UNBOUNDED: Size = (100_000, 100_000)
"""No desktop to fit: the dummy driver draws off screen (headless runs, tests)."""
BARE_DRIVERS = frozenset({"kmsdrm", "fbcon", "directfb"})
"""Drivers with no window manager: the whole display is the window's."""


def desktop_size() -> Size:
    """The first desktop's size, else :data:`FALLBACK_DESKTOP`."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return FALLBACK_DESKTOP
    return sizes[0] if sizes and min(sizes[0]) > 0 else FALLBACK_DESKTOP


def window_area(desktop: Size | None = None) -> Size:
    """The room a new window has: on ``desktop`` (given, e.g. by a test) or on the display's
    own, less what the desktop keeps; the whole display with no window manager; unbounded
    off screen (the dummy driver's desktop is not a screen anyone sees)."""
    if desktop is not None:
        return free_area(desktop)
    driver = pygame.display.get_driver() if pygame.display.get_init() else ""
    if driver in ("dummy", "offscreen"):
        return UNBOUNDED
    if driver in BARE_DRIVERS:
        return desktop_size()
    return free_area(desktop_size())


def free_area(desktop: Size) -> Size:
    """The part of a desktop a new window can take."""
    return max(1, desktop[0] - DESKTOP_MARGIN[0]), max(1, desktop[1] - DESKTOP_MARGIN[1])


@dataclass(frozen=True)
class WindowLayout:
    """The touchscreen at ``screen`` and the panel at ``panel`` (None: no panel) in a logical
    picture of ``logical`` pixels, shown in a window of ``window`` pixels at ``scale``, its top
    left at ``offset`` (the window may be larger than the picture after a resize)."""

    logical: Size
    screen: pygame.Rect
    panel: pygame.Rect | None
    scale: float
    window: Size
    offset: Point = (0, 0)
    tab: pygame.Rect | None = None
    """The strip with the button that shows or hides the panel."""

    @property
    def placement(self) -> str:
        """"beside", "below" or "none" (no panel shown)."""
        if self.panel is None:
            return "none"
        return "beside" if self.panel.x >= self.screen.right else "below"

    @property
    def direct(self) -> bool:
        """The window is the logical picture, pixel for pixel (no scaling, no margin)."""
        return self.scale == 1 and self.offset == (0, 0) and self.window == self.logical

    @property
    def shown(self) -> pygame.Rect:
        """The picture's rectangle in the window."""
        w, h = self.logical
        return pygame.Rect(self.offset, (round(w * self.scale), round(h * self.scale)))

    def to_logical(self, pos: tuple[float, float]) -> Point:
        """A window pixel as a pixel of the logical picture (what screens and the panel see)."""
        return (int((pos[0] - self.offset[0]) / self.scale),
                int((pos[1] - self.offset[1]) / self.scale))

    def to_window(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A logical pixel's centre in the window."""
        return (self.offset[0] + (pos[0] + 0.5) * self.scale,
                self.offset[1] + (pos[1] + 0.5) * self.scale)


def fit(screen: Size, area: Size, *, panel: bool, panel_max: Size = PANEL_MAX,
        window: Size | None = None, tab: int = 0, closed: bool = False) -> WindowLayout:
    """The layout of a touchscreen of ``screen`` pixels (and a panel, if ``panel``) in ``area``.

    The touchscreen keeps its size when it fits beside or above a panel of at least
    :data:`PANEL_MIN`; otherwise the whole picture is scaled down until it fits. The panel
    takes the space that is left, up to ``panel_max``, beside the screen or below it, whichever
    scales less (then whichever shows the larger map). Between them runs a strip ``tab`` pixels
    thick (the button that shows or hides the panel); ``closed``: only that strip, beside the
    screen. ``window``: the window's size when it already exists (after a resize), else a window
    just large enough."""
    sw, sh = screen
    candidates: list[tuple[float, float, Size, pygame.Rect | None, pygame.Rect | None]] = []
    if not panel:
        scale = min(1.0, area[0] / sw, area[1] / sh)
        candidates.append((scale, 0.0, screen, None, None))
    elif closed:
        scale = min(1.0, area[0] / (sw + tab), area[1] / sh)
        candidates.append((scale, 0.0, (sw + tab, sh), None, pygame.Rect(sw, 0, tab, sh)))
    else:
        least = (min(PANEL_MIN[0], panel_max[0]), min(PANEL_MIN[1], panel_max[1]))
        scale = min(1.0, area[0] / (sw + tab + least[0]), area[1] / max(sh, least[1]))
        pw = max(least[0], min(panel_max[0], int(area[0] / scale) - sw - tab))
        ph = max(least[1], min(panel_max[1], int(area[1] / scale)))
        candidates.append((scale, min(pw, ph * MAP_ASPECT), (sw + tab + pw, max(sh, ph)),
                           pygame.Rect(sw + tab, 0, pw, ph),
                           pygame.Rect(sw, 0, tab, max(sh, ph))))
        scale = min(1.0, area[0] / max(sw, least[0]), area[1] / (sh + tab + least[1]))
        pw = max(least[0], min(panel_max[0], int(area[0] / scale)))
        ph = max(least[1], min(panel_max[1], int(area[1] / scale) - sh - tab))
        candidates.append((scale, min(pw, ph * MAP_ASPECT), (max(sw, pw), sh + tab + ph),
                           pygame.Rect(0, sh + tab, pw, ph),
                           pygame.Rect(0, sh, max(sw, pw), tab)))
    scale, _room, logical, panel_rect, tab_rect = max(
        candidates, key=lambda c: (round(c[0], 3), c[1]))
    shown = (max(1, round(logical[0] * scale)), max(1, round(logical[1] * scale)))
    size = window or shown
    offset = (max(0, (size[0] - shown[0]) // 2), max(0, (size[1] - shown[1]) // 2))
    return WindowLayout(logical, pygame.Rect((0, 0), screen), panel_rect, scale, size, offset,
                        tab_rect if tab else None)
