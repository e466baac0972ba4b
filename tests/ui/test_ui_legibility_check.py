"""The legibility record and its checker (issue 15, item 9): ``--record`` writes each string's
font height and box in screen pixels, and :mod:`ui.shell.legibility` finds small, overlapping,
cut, off-screen and developer-worded strings in it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from ui.shell import legibility as lg
from ui.shell import theme as th
from ui.shell.app import App, FrameRecorder
from ui.shell.canvas import READ_IN_FULL, Canvas
from ui.shell.text import Drawn, Painter

Record = dict[str, Any]


def string(text: str, rect: list[int], px: int = 16, frame: int = 1, screen: str = "board",
           **extra: object) -> Record:
    return {"frame": frame, "screen": screen, "text": text, "px": px, "rect": rect,
            "lines": [rect], **extra}


def kinds(strings: list[Record], frame: Record | None = None) -> list[str]:
    frames = {1: frame} if frame is not None else None
    return [p.kind for p in lg.check(strings, frames)]


FRAME: Record = {"frame": 1, "size": [800, 480], "panel": None, "target": 48, "targets": []}


# ------------------------------------------------------------------ the checker

def test_good_strings_pass() -> None:
    strings = [string("Ishida: move, muster or end the phase", [10, 10, 300, 16]),
               string("Kiyosu", [10, 30, 60, 16]),  # 4 px below: no overlap
               string("Tokugawa discards 1 card (7.3.3)", [10, 50, 300, 16]),
               string("3 blocks (rule 8.2.3), then 8.5 (8.5.1)", [400, 50, 300, 16])]
    assert lg.check(strings, {1: FRAME}) == []


def test_a_string_under_14_px_is_small() -> None:
    problems = lg.check([string("Kuwana", [10, 10, 40, 8], px=8)])
    assert [(p.kind, p.text, p.detail) for p in problems] == [("small", "Kuwana", "8 px")]
    assert kinds([string("Kuwana", [10, 10, 40, 14], px=14)]) == []


def test_overlapping_strings_are_found_but_touching_ones_are_not() -> None:
    over = [string("Nihonmatsu", [100, 100, 80, 16]), string("Shirakawa", [150, 108, 70, 16])]
    problems = lg.check(over)
    assert [(p.kind, p.text) for p in problems] == [("overlap", "Nihonmatsu")]
    assert "Shirakawa" in problems[0].detail
    touching = [string("Nihonmatsu", [100, 100, 80, 16]), string("Shirakawa", [150, 114, 70, 16])]
    assert kinds(touching) == []  # 2 px of line height: anti-aliasing, not an overlap
    shadow = [string("Osaka", [100, 100, 40, 16]), string("Osaka", [101, 101, 40, 16])]
    assert kinds(shadow) == []


def test_a_wrapped_block_overlaps_only_where_its_lines_are() -> None:
    block = string("a long sentence wrapped\nshort", [100, 100, 200, 32])
    block["lines"] = [[100, 100, 200, 16], [100, 116, 40, 16]]
    beside = string("3", [200, 118, 10, 14])  # in the block's box, right of its short line
    assert kinds([block, beside]) == []
    on_it = string("3", [120, 118, 10, 14])
    assert kinds([block, on_it]) == ["overlap"]


def test_panel_strings_never_overlap_screen_strings() -> None:
    a = string("Kiyosu", [100, 100, 60, 16])
    b = string("Kiyosu: 3 blocks", [100, 100, 120, 16], screen="virtual-table", panel=True)
    assert kinds([a, b]) == []


def test_the_window_round_the_screen_is_a_part_of_its_own() -> None:
    tab = string("Virtual table", [820, 10, 120, 16], screen="virtual-table", window=True)
    assert kinds([tab, string("Menu", [820, 10, 60, 16])], FRAME) == ["off-screen"]  # Menu's


def test_a_string_off_the_screen_or_clipped() -> None:
    assert kinds([string("Final score", [760, 10, 80, 16])], FRAME) == ["off-screen"]
    assert kinds([string("Final score", [10, 10, 80, 16], clipped=True)]) == ["off-screen"]
    assert kinds([string("Final score", [10, 10, 80, 16])], FRAME) == []


def test_a_cut_string_needs_a_tap_that_opens_it() -> None:
    cut = string("The table differs: a gold block moved from Kiyosu", [10, 400, 300, 32],
                 cut=True)
    assert kinds([cut], FRAME) == ["cut"]
    own_button = {**FRAME, "targets": [
        {"label": cut["text"], "rect": [0, 390, 400, 60], "enabled": True}]}
    assert kinds([cut], own_button) == ["cut"]  # a tap does the button's action
    opener = {**FRAME, "targets": [
        {"label": READ_IN_FULL + cut["text"], "rect": [10, 392, 300, 48], "enabled": True,
         "area": True}]}
    assert kinds([cut], opener) == []
    under_a_button = {**FRAME, "targets": [*opener["targets"], *own_button["targets"]]}
    assert kinds([cut], under_a_button) == ["cut"]  # the button is on top
    dots = string("Ishida loses Kobayakawa…", [10, 10, 300, 16])
    assert kinds([dots], FRAME) == ["cut"]


@pytest.mark.parametrize("text", [
    "Ishida: draw 2 blocks for @recruitment", "{side} moves", "winner: None",
    "End movement (10000 moves left)", "declare combat at kiyosu", "field_battle",
    "Ishida: draw 2 block(s)", "Tokugawa: 1 cards", "Ishida: 1 gold blocks",
    "deployed blocks stand on the map again (rule 8.2.3) (8.2.3)",
    "Ishida has finished (8.5) (8.5)", "5 gold blocks in the Mori box", "blue's Daimyo pawn",
    "Ishida loses kobayakawa 1-mon", "Put back: black-01",
])
def test_developer_words_are_found(text: str) -> None:
    problems = lg.check([string(text, [10, 10, 300, 16])], names=lg.proper_names())
    assert [p.kind for p in problems] == ["words"], text


@pytest.mark.parametrize("text", [
    "Week 1 of 7", "Ishida: 1 card · draw 45 · 11 VP", "Tokugawa discards 1 card (7.3.3)",
    "1 block in the Mōri box", "Week 1 has ended", "combat at Kiyosu (8.1, 8.2)",
    "blue wins", "Date 2-mon", "Yellow 1 beats Red 1 on the sword", "1 gold block",
    "The black pawns", "Ishida buys 11 cards", "Osaka (5.II.3)",
])
def test_plain_words_pass(text: str) -> None:
    assert lg.check([string(text, [10, 10, 300, 16])], names=lg.proper_names()) == []


def test_two_buttons_with_the_same_words() -> None:
    targets = [{"label": "via Sōma", "rect": [0, 0, 200, 48], "enabled": True},
               {"label": "via Sōma", "rect": [0, 60, 200, 48], "enabled": True},
               {"label": "Kiyosu", "rect": [300, 0, 20, 20], "enabled": True, "area": True}]
    problems = lg.check([], {1: {**FRAME, "targets": targets}})
    assert sorted((p.kind, p.text) for p in problems) == [("same-label", "via Sōma"),
                                                          ("small-target", "Kiyosu")]


def test_the_command_line_prints_each_problem_once_and_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [string("Kuwana", [10, 10, 40, 8], px=8, frame=n) for n in (1, 2, 3)]
    (tmp_path / "text.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert lg.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["frame 1 (+2 more) board: small: 8 px: 'Kuwana'"]
    (tmp_path / "text.jsonl").write_text(json.dumps(string("Kuwana", [10, 10, 60, 16])) + "\n")
    assert lg.main([str(tmp_path)]) == 0
    assert lg.main([str(tmp_path / "nowhere")]) == 2


# ------------------------------------------------------------------ the record

def test_px_and_rect_are_where_the_string_was_drawn_on_a_subsurface() -> None:
    window = pygame.Surface((800, 480))
    sub = window.subsurface(pygame.Rect(100, 50, 400, 300))
    placed: list[Drawn] = []
    painter = Painter(screen="board", on_text=placed.append)
    rect = painter.text(sub, "Sekigahara", (20, 30), size=30, colour=th.INK)
    font = painter.font(30)
    assert len(placed) == 1
    drawn = placed[0]
    assert drawn.px == font.get_height() == 20
    width, height = font.render("Sekigahara", True, th.INK).get_size()
    assert drawn.rect == (120, 80, width, height) == tuple(rect.move(100, 50))
    assert drawn.lines == (drawn.rect,)
    assert not drawn.cut and not drawn.clipped
    ink = pygame.Rect(drawn.rect)  # the pixels really changed there, and nowhere else
    changed = [(x, y) for x in range(0, 800, 2) for y in range(0, 480, 2)
               if window.get_at((x, y))[:3] != (0, 0, 0)]
    assert changed and all(ink.collidepoint(p) for p in changed)


def test_a_wrapped_cut_string_records_each_line_and_the_cut() -> None:
    surface = pygame.Surface((300, 200))
    placed: list[Drawn] = []
    painter = Painter(on_text=placed.append)
    text = "one two three four five six seven eight nine ten eleven twelve"
    painter.text(surface, text, (0, 0), size=24, colour=th.INK, width=120, max_lines=2)
    drawn = placed[0]
    assert drawn.text == text and drawn.cut and painter.last_cut
    assert len(drawn.lines) == 2
    first, second = drawn.lines
    assert second[1] == first[1] + first[3]  # one under the other
    painter.text(surface, "right edge", (290, 0), size=24, colour=th.INK)
    assert placed[1].clipped


def test_the_app_records_screen_pixels_targets_and_the_panel(tmp_path: Path) -> None:
    class Screen:
        name = "start"

        def tick_ms(self) -> int | None:
            return None

        def draw(self, canvas: Canvas) -> None:
            inner = canvas.sub(pygame.Rect(40, 30, 300, 200))
            inner.text("Kiyosu", (10, 20), size=30)
            canvas.button(pygame.Rect(400, 300, 200, 60), "New game", lambda: None)

    class Panel:
        name = "virtual-table"

        def tick_ms(self) -> int | None:
            return None

        def draw(self, canvas: Canvas) -> None:
            canvas.text("Game box", (5, 6), size=24)

    app = App((800, 480), panel_size=(640, 480))
    app.recorder = FrameRecorder(tmp_path)
    try:
        app.show(Screen())
        app.panel = Panel()
        app.draw()
    finally:
        app.close()
    lines = [json.loads(x) for x in (tmp_path / "text.jsonl").read_text().splitlines()]
    by_text = {x["text"]: x for x in lines}
    kiyosu = by_text["Kiyosu"]
    assert kiyosu["screen"] == "start" and kiyosu["px"] == 20
    assert kiyosu["rect"][:2] == [50, 50] and "panel" not in kiyosu
    box = by_text["Game box"]
    assert box["screen"] == "virtual-table" and box["panel"] is True
    assert box["rect"][:2] == [5, 6]  # in the panel's pixels
    frame = json.loads((tmp_path / "frames.jsonl").read_text())
    assert frame["size"] == [800, 480] and frame["panel"] == [640, 480]
    assert frame["target"] == app.theme.target
    on_screen = [t for t in frame["targets"] if not t.get("panel") and not t.get("window")]
    assert on_screen == [{"label": "New game", "rect": [400, 300, 200, 60], "enabled": True}]
    ours = {"Kiyosu", "New game", "Game box"}  # the window round them has its own strings
    assert [p for p in lg.check_run(tmp_path) if p.text in ours] == []


def test_a_cut_banner_opens_in_full_and_closes() -> None:
    app = App((800, 480))
    words = ("The table differs: a gold block moved from Nihonmatsu to Ishida's deployment "
             "tray while no battle is being fought, so stand the deployed blocks on the map "
             "again where they were before the battle began (8.2.3)")

    class Blank:
        name = "board"

        def tick_ms(self) -> int | None:
            return None

        def draw(self, canvas: Canvas) -> None:
            canvas.button(pygame.Rect(0, 0, 800, 480), "Whole screen", lambda: None)

    try:
        app.show(Blank())
        app.say(words)
        app.draw()
        banner = next(d for d in app.placed if d.text == words)
        assert banner.cut
        opener = app.find(READ_IN_FULL + words)
        assert opener is not None
        assert app.tap(READ_IN_FULL + words)
        app.draw()
        assert app.reading == words
        full = next(d for d in app.placed if d.text == words)
        assert not full.cut and full.px >= lg.MIN_PX
        assert app.find("Whole screen") is None  # the screen under it cannot be tapped
        assert app.tap("Close")
        app.draw()
        assert app.reading is None and app.find("Whole screen") is not None
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720), (720, 1280)])
def test_small_text_and_button_labels_are_at_least_14_px(size: tuple[int, int]) -> None:
    theme = th.Theme(size)
    painter = Painter()
    assert painter.font(theme.small).get_height() >= lg.MIN_PX
    placed: list[Drawn] = []
    painter.on_text = placed.append
    canvas = Canvas(pygame.Surface(size), painter, theme)
    canvas.button(pygame.Rect(0, 0, 3 * theme.target, theme.target),
                  "Which route did the stack take from Sendai to Mito?", lambda: None)
    assert placed[0].px >= lg.MIN_PX


def test_a_cut_string_stays_inside_its_width() -> None:
    """The cut mark goes inside the width: a long last line drops words for it."""
    painter = Painter()
    surface = pygame.Surface((400, 200))
    text = "Ishida: move your eliminated block from Kiyosu to the casualty tray (7.4) " * 3
    for width in (120, 180, 287):
        rect = painter.text(surface, text, (0, 0), size=21, colour=(255, 255, 255),
                            width=width, max_lines=2)
        assert painter.last_cut and rect.width <= width
