"""The hardware check screen (game-neutral): every hub, its firmware, every antenna with the
place it reads (named by the game served: :func:`firmware_bridge.zones.zone_name`), its tag
count and read rate; dead antennas, faults and lost hubs flagged. The lines are
``companion hardware check``'s (:func:`firmware_bridge.flows.check_report`); an antenna's line
is drawn in columns."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import check_report
from ui.shell import theme as th
from ui.shell.canvas import Canvas
from ui.shell.pages import pager

ANTENNA = re.compile(r"^\s+(A\d\d) (.*?)\s+(\d+) tags\s+([\d.]+) reads/s(?:\s+<-- (.*))?$")
"""An antenna's line of the check: id, place, tags, reads a second, what is wrong."""


def flagged(line: str) -> bool:
    return "<--" in line or "LOST" in line or "refused" in line or "did not answer" in line


def plain(line: str) -> str:
    """A line of the check in the screen's words: a simulated hub's pipe by its name (a real
    port, ``/dev/...``, stays whole), the bridge's reasons without underscores."""
    line = PIPE.sub(lambda m: m.group(0).rsplit("/", 1)[-1], line.strip())
    return SNAKE.sub(lambda m: m.group(0).replace("_", " "), line)


PIPE = re.compile(r"(?<!\S)/(?!dev/)\S+/(?=[^\s/:]+)[^\s/:]+")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def summary(lines: list[str]) -> str:
    """Hubs, antennas and dead antennas, counted from the check's lines."""
    hubs = sum(1 for line in lines if line.startswith("hub ") and " on " in line)
    antennas = [m for m in map(ANTENNA.match, lines) if m is not None]
    dead = sum(1 for m in antennas if m.group(5) and "DEAD" in m.group(5))
    unmapped = sum(1 for m in antennas if m.group(2).startswith("(not in the wiring"))
    text = f"{hubs} hub{'s' if hubs != 1 else ''}, {len(antennas)} antennas"
    text += f", {dead} dead" if dead else ", none dead"
    if unmapped:
        text += f", {unmapped} spare (not in the wiring map)"
    return text


@dataclass
class HardwareScreen:
    """Hubs, antennas, tag counts and read rates; dead antennas flagged."""

    bridge: Callable[[], Bridge]
    """The bridge now serving."""
    back: Callable[[], None]
    name: str = "hardware"
    page: int = 0

    def tick_ms(self) -> int | None:
        return 1000  # read rates change while the screen is up

    def draw(self, canvas: Canvas) -> None:
        t = canvas.theme
        r = canvas.rect
        lines, problems = check_report(self.bridge(), None)
        head = ("All readers answer" if not problems else
                f"{problems} problem{'s' if problems != 1 else ''} found")
        y = canvas.text(f"Hardware check: {head}", (t.gap, t.gap), size=t.body, bold=True,
                        colour=th.ACCEPT if not problems else th.WARN).bottom
        y = canvas.text(summary(lines), (t.gap, y), size=t.small, colour=th.DIM).bottom + 4
        width = r.width - 2 * t.gap
        step = t.small + 4
        heights = [step if ANTENNA.match(line) else
                   len(canvas.painter.wrap(line, t.small, width)[:2]) * step for line in lines]
        bottom = r.bottom - t.target - 2 * t.gap
        pages: list[list[int]] = [[]]
        used = 0
        for i, height in enumerate(heights):
            if pages[-1] and y + used + height > bottom:
                pages.append([])
                used = 0
            pages[-1].append(i)
            used += height
        self.page = min(self.page, len(pages) - 1)
        found_here = [m for m in (ANTENNA.match(lines[i]) for i in pages[self.page]) if m]
        font = canvas.painter.font(t.small, False)
        place_w = max((font.size(m.group(2))[0] for m in found_here), default=0)
        counts_w = max((font.size(f"{m.group(3)} tags, {m.group(4)} reads/s")[0]
                        for m in found_here), default=0)
        first = t.gap + 3 * t.small
        second = max(t.gap + width * 5 // 12, first + place_w + 2 * t.gap)
        columns = (first, second, max(t.gap + width * 7 // 12, second + counts_w + 2 * t.gap))
        for i in pages[self.page]:
            line = lines[i]
            colour = th.WARN if flagged(line) else th.INK
            found = ANTENNA.match(line)
            if found is None:
                canvas.text(plain(line), (t.gap, y), size=t.small, colour=colour, width=width,
                            max_lines=2)
            else:
                antenna, place, tags, rate, note = found.groups()
                canvas.text(antenna, (t.gap + t.gap, y), size=t.small, colour=th.DIM)
                canvas.text(place, (columns[0], y), size=t.small, colour=colour)
                canvas.text(f"{tags} tags, {rate} reads/s", (columns[1], y), size=t.small,
                            colour=colour)
                if note:
                    canvas.text(note, (columns[2], y), size=t.small, colour=th.WARN,
                                width=r.right - columns[2] - t.gap, max_lines=1)
            y += heights[i]
        pager(canvas, self.page, len(pages), self._turn, "Back", self.back)

    def _turn(self, page: int) -> None:
        self.page = page
