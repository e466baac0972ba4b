"""The calculators' headless tour (``companion run --game kensei --headless --demo``, until the
battle screens bring their seeded battle): the home screen, each calculator filled with the
rulebook's worked examples (docs/kensei.md), ruled, one modifier opened, and a refusal."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from ui.kensei.app import KenseiApp
from ui.kensei.forms import CalcForm, DuelForm, MeleeForm, ShootForm
from ui.tableapp import TableOptions

NINE_WARRIORS: dict[str, Any] = {
    "turn_initiative": "b",
    "a": {"class": "G", "models": 9, "weapon": 4, "order": "charge", "charge_outside_zoc": True,
          "ranks": [5, 5], "models_in_melee": 4,
          "leader": {"class": "H", "contact": "direct", "in_front": True}},
    "b": {"class": "G", "models": 8, "trait": "ashigaru", "weapon": 1,
          "order": "fight_reaction", "ranks": [4, 4], "models_in_melee": 4,
          "general_in_range": True, "ranks_after": [4]},
}
"""The rulebook's charge of nine warriors (B5.1; docs/kensei.md, "A melee"), without dice."""
NINE_WARRIORS_DICE = {"a": {"combat": [6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 6],
                            "wound": [6, 5, 4, 3, 2, 1]},
                      "b": {"combat": [6, 4, 3, 2, 1, 1], "wound": [5, 2], "honour": [5, 4]}}
TEPPO: dict[str, Any] = {
    "shooter": {"class": "G", "weapon": "teppo", "distance_cm": 35, "models_with_los": 4},
    "target": {"class": "E", "models": 2, "visible": 2, "armour": True, "mounted": True,
               "trait": "samurai", "in_cover": True, "samurai_choice": "fall_back",
               "leader": {"class": "H", "in_front": True}},
    "dice": {"shoot": [6, 6, 5, 5, 2, 1], "wound": [6, 5, 4, 1], "honour": [6]}}
DUEL: dict[str, Any] = {"initiative": "a", "caller": "b", "bids": {"a": [2, 1], "b": [3, 0]},
                        "battle_points": 400}


def _rule(app: KenseiApp, form: CalcForm) -> bool:
    """Rule ``form`` through its screen; True when a ruling (not a refusal) is shown."""
    app.open_calculator(form)
    app.app.draw()
    app.app.tap("Rule it")
    app.app.draw()
    return app.app.painter.screen == "kensei-ruling"


def run_tour(options: TableOptions, seed: int = 0, record: Path | None = None,
             pictures: bool = True) -> int:
    """0 when every worked example was ruled on the screens and the refusal was shown."""
    options.virtual_table = False
    options.seed = seed
    scratch: Path | None = None
    if options.db is None:  # a tour is not a battle to keep
        scratch = Path(tempfile.mkdtemp(prefix="companion-demo-"))
        options.db = scratch / "games.sqlite"
    try:
        ok = _tour(options, seed, record, pictures)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"demo: seed {seed}, the Kensei calculators' tour: "
          f"{'every example ruled' if ok else 'a screen did not follow'}")
    return 0 if ok else 1


def _tour(options: TableOptions, seed: int, record: Path | None, pictures: bool) -> bool:
    app = KenseiApp(options)
    if record is not None:
        from ui.shell.app import FrameRecorder

        app.app.recorder = FrameRecorder(record, pictures)
    ok = True
    try:
        app.app.draw()
        app.app.tap("Calculators: melee, shooting, command duel")
        app.app.draw()
        melee = MeleeForm({**NINE_WARRIORS}, seed=seed)
        for side, dice in NINE_WARRIORS_DICE.items():
            melee.data[side]["dice"] = dict(dice)
        ok &= _rule(app, melee)
        target = next((t for t in app.app.targets if t.label.startswith("Why: +1 die")), None)
        if target is not None and target.action is not None:
            target.action()
            app.app.draw()
        ok &= _rule(app, ShootForm(TEPPO, seed=seed))
        ok &= _rule(app, DuelForm(DUEL, seed=seed))
        used = MeleeForm({"a": {"used": True}}, seed=seed)
        ok &= not _rule(app, used) and app.app.painter.screen == "kensei-refusal"
        app.show_start()
        app.app.draw()
    finally:
        app.close()
    return ok
