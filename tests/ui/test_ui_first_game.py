"""docs/first-game.md's pictures are the app's own: the tour regenerates them from a headless
run, and they must still look like what the app draws now."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest

from ui.sekigahara.tour import SHOTS, shot_names, take

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "first-game.md"
PICTURES = ROOT / "docs" / "images" / "first-game"
MOST_CHANGED = 0.03
"""The share of pixels allowed to differ from the committed picture. Two runs draw the same
pixels (measured: 0 of them differ); another battle on the same screen differs in 10 %."""


def _changed(a: pygame.Surface, b: pygame.Surface) -> float:
    """The share of pixels whose colour differs by more than a little."""
    assert a.get_size() == b.get_size()
    small = (a.get_width() // 4, a.get_height() // 4)
    x = pygame.image.tobytes(pygame.transform.smoothscale(a, small), "RGB")
    y = pygame.image.tobytes(pygame.transform.smoothscale(b, small), "RGB")
    pixels = len(x) // 3
    differ = sum(1 for i in range(0, len(x), 3)
                 if max(abs(x[i + k] - y[i + k]) for k in range(3)) > 24)
    return differ / pixels


def test_the_guide_shows_every_picture_in_order() -> None:
    shown = re.findall(r"!\[[^\]]*\]\(images/first-game/([^)]+)\)", GUIDE.read_text())
    assert shown == shot_names()
    assert len(SHOTS) == len(set(shot_names()))


@pytest.mark.slow
def test_the_tour_regenerates_the_guide_pictures(tmp_path: Path) -> None:
    made = take(tmp_path)
    assert [p.name for p in made] == shot_names()
    for path in made:
        fresh = pygame.image.load(str(path))
        committed_path = PICTURES / path.name
        assert committed_path.exists(), f"{path.name}: run python -m ui.sekigahara.tour {PICTURES}"
        committed = pygame.image.load(str(committed_path))
        assert fresh.get_size() == committed.get_size(), path.name
        share = _changed(fresh, committed)
        assert share <= MOST_CHANGED, (
            f"{path.name} differs from the app in {share:.0%} of its pixels: "
            f"python -m ui.sekigahara.tour {PICTURES.relative_to(ROOT)}")
