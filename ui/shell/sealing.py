"""The seal on the public screen (docs/referee.md, Seals): at the end of each week and of the
game the table shows a short code of its record, for the players to write on their score
sheet; a referee later checks the record against it (``companion referee verify --seal``)."""

from __future__ import annotations

from collections.abc import Hashable

from companion.core.seals import Seal, SealPoints, last_seal
from companion.core.store import Store, StoreError
from ui.shell import theme as th
from ui.shell.canvas import Canvas

SCORE_SHEET = "Write it on your score sheet: the referee can check the game against it"


def draw_seal(canvas: Canvas, seal: Seal, pos: tuple[int, int], width: int) -> int:
    """The seal in two lines at ``pos`` ("Seal of week 2: K7Q2-M9XD", then what to do with
    it); returns the bottom."""
    t = canvas.theme
    y = canvas.text(str(seal), pos, size=t.body, bold=True, width=width, max_lines=1).bottom
    return canvas.text(SCORE_SHEET, (pos[0], y), size=t.small, colour=th.DIM, width=width,
                       max_lines=2).bottom


class SealWatch:
    """The latest seal of the game being played, computed again only when ``key`` (the number
    of events, say) changes: a seal costs a read of the record and a deliberately slow hash."""

    def __init__(self, points: SealPoints) -> None:
        self.points = points
        self._key: Hashable = None
        self._seal: Seal | None = None

    def latest(self, store: Store | None, game_id: int | None, key: Hashable) -> Seal | None:
        """None for a game not saved, or when its record cannot be read (the table plays on;
        ``referee verify`` says why)."""
        if store is None or game_id is None:
            return None
        if (game_id, key) != self._key:
            try:
                self._seal = last_seal(store.load(game_id), self.points)
            except StoreError:
                self._seal = None
            self._key = (game_id, key)
        return self._seal
