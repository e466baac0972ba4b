"""Every Kensei screen drawn headless at the four panel sizes and linted as a player at arm's
length reads it (:mod:`ui.shell.legibility`): no text under 14 px, no overlap, nothing off the
screen or cut without a way to read it, plain words, no two buttons alike, 9 mm targets. The
frames are kept in /tmp/uicalc/ to be looked at."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kensei_taps import SIZES, example, make, screen, tap

from ui.kensei.app import KenseiApp
from ui.kensei.forms import CalcForm, DuelForm, MeleeForm, ShootForm
from ui.shell import legibility as lg
from ui.shell.app import FrameRecorder

FRAMES = Path("/tmp/uicalc")


def every_page(app: KenseiApp, form: CalcForm) -> set[str]:
    """Each page of ``form``, the section list, a picker and the pad; then its ruling, every
    page of it and a detail. The screens drawn."""
    seen: set[str] = set()
    app.open_calculator(form)
    for _ in form.pages[1:]:
        seen.add(screen(app))
        tap(app, "Next page")
    tap(app, "Page ")
    seen.add(screen(app))
    tap(app, "Back to the form")
    list_button = next(t.label for t in app.app.targets
                       if t.label.split(":")[0].endswith(("dice", "bids")))
    tap(app, list_button)
    seen.add(screen(app))
    tap(app, "Done")
    tap(app, "Rule it")
    seen.add(screen(app))
    while (turn := app.app.find("Next page")) is not None and turn.action is not None:
        tap(app, "Next page")
    why = next(t.label for t in app.app.targets if t.label.startswith("Why: "))
    tap(app, why)
    seen.add(screen(app))
    return seen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_kensei_screen_is_legible(tmp_path: Path, size: tuple[int, int]) -> None:
    record = FRAMES / f"{size[0]}x{size[1]}"
    shutil.rmtree(record, ignore_errors=True)
    app = make(tmp_path, size)
    app.app.recorder = FrameRecorder(record)
    seen = {screen(app)}
    try:
        tap(app, "Calculators")
        seen.add(screen(app))
        melee = example("melee", "input")
        seen |= every_page(app, MeleeForm(melee))
        seen |= every_page(app, ShootForm(example("shoot", "input")))
        seen |= every_page(app, DuelForm(example("duel", "input")))
        app.open_calculator(MeleeForm(melee))
        tap(app, "Weapon: ")
        seen.add(screen(app))
        tap(app, "Back to the form")
        app.open_calculator(MeleeForm(example("melee-error", "input")))
        tap(app, "Rule it")
        seen.add(screen(app))
    finally:
        app.close()
    assert seen == {"start", "kensei-calculators", "kensei-melee", "kensei-shoot",
                    "kensei-duel", "kensei-pad", "kensei-pick", "kensei-ruling",
                    "kensei-detail", "kensei-refusal"}
    problems = lg.check_run(record)
    assert not problems, "\n".join(lg.describe(p, n) for p, n in lg.distinct(problems))
