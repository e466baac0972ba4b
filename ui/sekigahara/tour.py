"""A first week on the virtual table, photographed for ``docs/first-game.md``.

:class:`Tour` is the headless demo (:class:`~ui.sekigahara.demo.Demo`: seeded players whose
hands move blocks on the virtual table and whose fingers tap the screen) with a camera: at each
moment the guide explains it saves the whole window (the touchscreen and the virtual table
beside it) as ``NN-name.png``. A test runs it and holds the guide's pictures to it, so the guide
never shows a screen the app no longer draws::

    python -m ui.sekigahara.tour docs/images/first-game     # regenerate the guide's pictures
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pygame

from companion.games.sekigahara.facade import (
    Phase,
    cm,
)
from ui.sekigahara.app import Options, TableApp
from ui.sekigahara.demo import DEMO_SETTLE_S, Demo, DemoError

TOUR_SEED = 14
"""A seed whose first week has a bid, moves, a battle with a card deployed, losses and a retreat."""
TOUR_SIZE = (800, 480)
"""The Raspberry Pi's 7-inch panel."""

SHOTS: tuple[tuple[str, str], ...] = (
    ("start", "the start screen"),
    ("setup-symbols", "set-up: blocks with set-up symbols stand where the map shows them"),
    ("setup-draw", "set-up: a block drawn from the bag onto its location"),
    ("bid", "the bid for initiative, entered face down"),
    ("movement-level", "buying a level of movement"),
    ("lifted", "a stack lifted: its legal destinations are lit"),
    ("battle", "a battle: deploying blocks and cards"),
    ("losses", "the battle's losses to take"),
    ("put-back", "after the battle: blocks back on the map"),
    ("next-week", "the next week begins"),
)
"""The pictures of the guide, in order: file stem and what it shows."""


def shot_names() -> list[str]:
    """The guide's picture files, ``NN-name.png``."""
    return [f"{i:02d}-{name}.png" for i, (name, _) in enumerate(SHOTS, start=1)]


class Tour(Demo):
    """The demo with a camera: see the module docstring."""

    def __init__(self, table_app: TableApp, seed: int, out: Path) -> None:
        super().__init__(table_app, seed)
        self.out = out
        self.taken: dict[str, Path] = {}
        self._battle_seen = False
        self._deployed = False
        self._moving = False
        """A block was deployed in a battle (the battle picture waits for one)."""

    def shoot(self, name: str) -> None:
        """Save the window as it stands now, once per picture name."""
        if name in self.taken:
            return
        self.app.pump()
        self.app.draw()
        index = [n for n, _ in SHOTS].index(name) + 1
        path = self.out / f"{index:02d}-{name}.png"
        window = pygame.display.get_surface()
        assert window is not None  # the app's window is open
        pygame.image.save(window, str(path))
        self.taken[name] = path

    # ------------------------------------------------------------------ the moments

    def start(self) -> None:
        self.app.draw()
        self.shoot("start")
        super().start()

    def _set_out(self) -> None:
        self.shoot("setup-symbols")  # the guide's first step, before the hands do it
        super()._set_out()

    def step(self) -> None:
        state = self.state
        if state.phase is Phase.SETUP and "setup-draw" not in self.taken:
            self.shoot("setup-draw")
        if state.week >= 2 and "next-week" not in self.taken:
            self.shoot("next-week")
        super().step()
        if self._deployed and "battle" not in self.taken:
            self.shoot("battle")

    def _perform(self, c: cm.Command) -> None:
        self._moving = isinstance(c, cm.MoveStack)  # a stack lifted off the map lights its moves
        match c:
            case cm.Bid():
                self.shoot("bid")
            case cm.BuyMovement():
                self.shoot("movement-level")
            case cm.Deploy():
                self._battle_seen = self._deployed = True
            case cm.TakeLosses():
                self.shoot("losses")
        super()._perform(c)

    def _place(self, blocks: tuple[str, ...], zone: str) -> None:
        if "lifted" in self.taken or not self._moving:
            super()._place(blocks, zone)
            return
        table = self.control.readers.simulated
        assert table is not None
        for block in blocks:
            table.lift(block)
        self.wait(lambda: self.control.snapshot().in_hand == len(blocks) and bool(
            self.control.snapshot().lit), "the lift to be read and its destinations lit")
        self.shoot("lifted")
        for block in blocks:
            self.virtual.place(block, zone)
        self.app.pump()

    def _tidy(self) -> None:
        if self._battle_seen and self.control.rules.returning() and "put-back" not in self.taken:
            self.shoot("put-back")  # the screen asks for the deployed blocks back (8.2.1)
        super()._tidy()


def take(out: Path, seed: int = TOUR_SEED) -> list[Path]:
    """Play the tour's first week and save its pictures in ``out``; returns them in order.
    Raises :class:`DemoError` when a moment of the guide did not come up."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    logging.basicConfig(level=logging.ERROR, format="tour: %(message)s")
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="companion-tour-"))
    options = Options(size=TOUR_SIZE, hubs=["sim"], rate_hz=50, seed=seed,
                      settle_s=DEMO_SETTLE_S, db=scratch / "games.sqlite",
                      pin_file=scratch / "pin")
    table_app = TableApp(options)
    try:
        tour = Tour(table_app, seed, out)
        tour.play(1)
        tour.step()  # into week 2
        missing = [name for name, _ in SHOTS if name not in tour.taken]
        if missing:
            raise DemoError(f"seed {seed} never showed: {', '.join(missing)}")
        return [tour.taken[name] for name, _ in SHOTS]
    finally:
        table_app.close()
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.sekigahara.tour",
                                     description="Regenerate the pictures of docs/first-game.md.")
    parser.add_argument("out", type=Path, help="where to write NN-name.png")
    parser.add_argument("--seed", type=int, default=TOUR_SEED)
    args = parser.parse_args(argv)
    try:
        for path in take(args.out, args.seed):
            print(path)
    except DemoError as exc:
        print(f"tour: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
