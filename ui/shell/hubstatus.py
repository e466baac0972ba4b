"""The hub strip: what is wrong with the readers, across the top of a play screen.

A play screen (either game) calls :func:`hub_strip` first with its table link's
:meth:`~firmware_bridge.tablelink.TableLink.hub_lines` and lays itself out on the canvas it
returns: nothing is drawn over the board, the board just gives up the strip's height while a hub
is lost, quiet, faulted or replaced (docs/touchscreen.md, "When something is wrong"). The link
wakes the app when the lines change, so the strip comes and goes without a touch.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from ui.shell import theme as th
from ui.shell.canvas import Canvas

SHOWN = 2
"""Problems written out in full; any more are counted."""


def hub_strip(canvas: Canvas, lines: Sequence[str]) -> Canvas:
    """Draw ``lines`` (each a whole sentence, never cut) in a strip at the top of ``canvas``;
    return the canvas below it, or ``canvas`` itself when there is nothing wrong."""
    if not lines:
        return canvas
    t = canvas.theme
    r = canvas.rect
    shown = list(lines[:SHOWN])
    if len(lines) > SHOWN:
        more = len(lines) - SHOWN + 1
        shown[-1] = (f"{more} more reader problems: the hardware check on the start screen "
                     "lists them.")
    width = r.width - 2 * t.gap
    size = t.small
    line_h = canvas.painter.font(size, True).get_height()
    height = t.gap + sum(len(canvas.painter.wrap(s, size, width, True)) * line_h + t.gap // 2
                         for s in shown) + t.gap
    strip = pygame.Rect(0, 0, r.width, min(max(height, t.target), r.height // 2))
    canvas.fill(th.DANGER, strip)
    y = strip.y + t.gap
    for sentence in shown:
        y = canvas.text(sentence, (t.gap, y), size=size, bold=True, colour=th.INK,
                        width=width).bottom + t.gap // 2
    return canvas.sub(pygame.Rect(0, strip.bottom, r.width, r.height - strip.bottom))
