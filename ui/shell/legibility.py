"""Lint what a recorded run drew (``--record DIR``): can a player at the table read every string?

Pure functions over the records :class:`ui.shell.app.FrameRecorder` writes: ``text.jsonl`` (one
string drawn: its text, font pixel height ``px``, ``rect`` and each line's box) and
``frames.jsonl`` (one frame: the screen's size, the smallest touch target, what can be tapped).
A :class:`Problem` is one of:

- ``small``: a string whose font is under :data:`MIN_PX` pixels high;
- ``overlap``: two strings of a frame whose lines cover each other by more than
  :data:`SLACK_PX` pixels both ways (boxes of whole lines, so a wrapped block's empty corner
  never counts);
- ``off-screen``: a string running past the screen (or past the part of it drawn on);
- ``cut``: a string cut short (``max_lines``, or ending in "..."/"…") with no tap target over
  it to open the rest: the topmost target there (``frames.jsonl`` lists them from the bottom
  up) must not be the string's own button, whose tap does the button's action (a tap area
  with the string's words, a feed line opening its detail, does open it);
- ``words``: an id, a placeholder or an engine word (``@``, braces, ``None``, ``10000``,
  snake_case, a pawn's id ("black-01"), a game's name in lower case as its id is spelt
  ("kiyosu"), ``(s)``, "1 cards", a rule cited twice, "Mori" for Mōri, "blue's" for a player);
- ``same-label``: two buttons of a frame that say the same thing (tap areas over drawn things,
  such as a feed line opening its detail, are not buttons);
- ``small-target``: a tap target under the screen's touch target size (9 mm).

``python -m ui.shell.legibility DIR`` prints one line per problem (the first frame it was seen
on and on how many frames) and exits 1 if there is any.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIN_PX = 14
"""The smallest font height read from a chair at arm's length (issue 15)."""
SLACK_PX = 2
"""Lines that touch by this much (anti-aliasing, a tight line height) do not overlap."""

Box = tuple[int, int, int, int]
Record = dict[str, Any]


@dataclass(frozen=True)
class Problem:
    kind: str
    frame: int
    screen: str
    text: str
    detail: str = ""

    def key(self) -> tuple[str, str, str, str]:
        """What makes two problems the same on different frames."""
        return self.kind, self.screen, self.text, self.detail


AT = "placeholder '@'"
URL_SCREENS = frozenset({"tournament"})
"""Screens where a URL is typed (ui.shell.tournament_screen): its ``@`` is the URL's own."""

WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (AT, re.compile(r"@")),
    ("placeholder brace", re.compile(r"[{}]")),
    ("'None'", re.compile(r"\bNone\b")),
    ("engine constant", re.compile(r"\b(?:10000|9999|99999)\b")),
    ("snake_case id", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")),
    ("pawn id", re.compile(r"\b(?:red|blue|yellow|black|white|green)-\d+\b")),
    ("'(s)' plural", re.compile(r"\w\(s\)")),
    ("broken plural", re.compile(
        r"(?<![\d.,/-])\b1 (?:[a-z]+ )?(?:cards|blocks|pawns|soldiers|points|moves|tags|hubs|"
        r"antennas|zones|castles|entries|commands|corrections|weeks|turns|disks|losses|hits|"
        r"steps|problems|readers|players|tokens|dice|scans|frames|pieces|units)\b")),
    ("'Mori' without macron", re.compile(r"\bMori\b")),
    ("player id as a name", re.compile(r"\b(?:red|blue|green|yellow|white|black)'s\b")),
)
CITATION = re.compile(r"\(([^()]*)\)")
ELLIPSIS = ("...", "…")


def proper_names() -> frozenset[str]:
    """The installed games' proper names in lower case (places, and the clans or kinds that
    name their pieces), as ids are spelt: one of them written in lower case is an id that
    reached the screen ("kiyosu"). Read through the neutral game registry
    (:func:`companion.core.table.game_table`), so the shell imports no game."""
    from companion.core.table import PlaceKind, game_table, table_names

    names: set[str] = set()
    for game in table_names():
        table = game_table(game)
        for place in table.places().values():
            if place.kind in (PlaceKind.LOCATION, PlaceKind.BOX):  # trays have plain names
                names |= {place.id, *place.label.lower().split()}
        for piece in table.pieces():
            names.add(table.describe_piece(piece.id).split(" ")[0].lower())
    return frozenset(n for n in names if n.isalpha() and n not in ENGLISH)


ENGLISH = frozenset({"date", "ii", "of", "the", "bay", "sea", "mountains", "lake", "box", "ninja",
                     "a", "an", "on", "in", "at", "to", "and", "recruitment", "red", "blue",
                     "yellow", "black", "white", "green", "gold"})
"""Lower-case words of the games' names that are also plain English."""


def word_problems(text: str, names: frozenset[str] = frozenset()) -> list[str]:
    """What in ``text`` is not plain words for the players; ``names`` (:func:`proper_names`)
    are never written in lower case."""
    found = [name for name, pattern in WORDS if pattern.search(text)]
    lowered = sorted(set(re.findall(r"\b[a-z]+\b", text)) & names)
    if lowered:
        found.append(f"lower-case id: {', '.join(lowered)}")
    cited: list[str] = []
    for group in CITATION.findall(text):
        if re.search(r"\d+\.", group):  # a rule citation: "(rule 8.2.3)", "(8.5, 9.1)"
            cited += re.findall(r"\d+(?:\.(?:\d+|[IVX]+|[a-z]))+", group)
    doubled = sorted({c for c in cited if cited.count(c) > 1})
    if doubled:
        found.append(f"rule cited twice: {', '.join(doubled)}")
    return found


def _overlap(a: Sequence[int], b: Sequence[int]) -> tuple[int, int]:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w, h


def _lines(record: Record) -> list[Sequence[int]]:
    lines = record.get("lines")
    return list(lines) if lines else [record["rect"]]


def overlaps(a: Record, b: Record, slack: int = SLACK_PX) -> bool:
    """Whether any line of ``a`` covers a line of ``b`` by more than ``slack`` pixels both
    ways. The same string drawn twice a pixel or two apart (a shadow) is one string."""
    if a["text"] == b["text"] and all(abs(p - q) <= slack for p, q in zip(
            a["rect"], b["rect"], strict=True)):
        return False
    for la in _lines(a):
        for lb in _lines(b):
            w, h = _overlap(la, lb)
            if w > slack and h > slack:
                return True
    return False


def _part(record: Record) -> str:
    """Where a string or target was drawn: the touchscreen, the side panel or the window."""
    return "panel" if record.get("panel") else "window" if record.get("window") else "screen"


def _inside(box: Sequence[int], bounds: Sequence[int], slack: int = 1) -> bool:
    return (box[0] >= -slack and box[1] >= -slack and box[0] + box[2] <= bounds[0] + slack
            and box[1] + box[3] <= bounds[1] + slack)


def _covers(target: Record, record: Record) -> bool:
    """Whether a tap on ``target`` lands on the string (its first line's middle)."""
    x, y, w, h = _lines(record)[0]
    tx, ty, tw, th = (int(v) for v in target["rect"])
    cx, cy = x + w // 2, y + h // 2
    return tx <= cx < tx + tw and ty <= cy < ty + th


def check_frame(strings: Sequence[Record], frame: Record | None = None,
                min_px: int = MIN_PX, names: frozenset[str] = frozenset()) -> list[Problem]:
    """The problems of one frame: its strings (``text.jsonl`` lines) and, if known, the frame
    (``frames.jsonl`` line: size, targets)."""
    problems: list[Problem] = []
    number = strings[0]["frame"] if strings else (frame or {}).get("frame", 0)
    targets: list[Record] = list((frame or {}).get("targets", ()))

    def add(kind: str, record: Record, detail: str = "") -> None:
        problems.append(Problem(kind, number, record["screen"], record["text"], detail))

    for record in strings:
        if record.get("px", min_px) < min_px:
            add("small", record, f"{record['px']} px")
        bounds = None
        if frame is not None and not record.get("window"):
            bounds = frame.get("panel") if record.get("panel") else frame.get("size")
        if record.get("clipped") or (bounds and not all(
                _inside(box, bounds) for box in _lines(record))):
            add("off-screen", record, f"at {list(record['rect'])}")
        text = record["text"].rstrip()
        if record.get("cut") or text.endswith(ELLIPSIS):
            under = [t for t in targets if t.get("enabled", True)
                     and _part(t) == _part(record) and _covers(t, record)]
            top = under[-1] if under else None
            if top is None or (top["label"] == record["text"] and not top.get("area")):
                add("cut", record, "cut by max_lines" if record.get("cut") else "ends in ...")
        for found in word_problems(record["text"], names):
            if not (found == AT and record["screen"] in URL_SCREENS):
                add("words", record, found)
    for part in ("screen", "panel", "window"):
        group = sorted((r for r in strings if _part(r) == part), key=lambda r: r["rect"][0])
        for i, a in enumerate(group):
            right = a["rect"][0] + a["rect"][2]
            for b in group[i + 1:]:
                if b["rect"][0] >= right:
                    break
                if overlaps(a, b):
                    add("overlap", a, f"with {b['text']!r} ({b['screen']})")
    if frame is not None:
        problems += _target_problems(number, frame, strings)
    return problems


def _target_problems(number: int, frame: Record, strings: Sequence[Record]) -> list[Problem]:
    problems: list[Problem] = []
    screen = next((r["screen"] for r in strings if _part(r) == "screen"), "")
    minimum = frame.get("target", 0)
    enabled = [t for t in frame.get("targets", ()) if t.get("enabled", True)
               and _part(t) == "screen"]
    seen: dict[str, list[Sequence[int]]] = defaultdict(list)
    for target in enabled:
        if not target.get("area"):
            seen[target["label"]].append(target["rect"])
        w, h = target["rect"][2], target["rect"][3]
        if minimum and min(w, h) < minimum - 1:
            problems.append(Problem("small-target", number, screen, target["label"],
                                    f"{w}x{h} px, under {minimum}"))
    for label, rects in seen.items():
        if len(rects) > 1 and label:
            problems.append(Problem("same-label", number, screen, label,
                                    f"{len(rects)} buttons"))
    return problems


def read(directory: Path) -> tuple[list[Record], dict[int, Record]]:
    """The strings of a recorded run and its frames by number (none for an older record)."""
    text = directory / "text.jsonl"
    strings = [json.loads(line) for line in text.read_text(encoding="utf-8").splitlines()
               if line.strip()]
    frames: dict[int, Record] = {}
    path = directory / "frames.jsonl"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                frames[record["frame"]] = record
    return strings, frames


def check(strings: Iterable[Record], frames: dict[int, Record] | None = None,
          min_px: int = MIN_PX, names: frozenset[str] = frozenset()) -> list[Problem]:
    """Every problem of every frame, in frame order."""
    by_frame: dict[int, list[Record]] = defaultdict(list)
    for record in strings:
        by_frame[record["frame"]].append(record)
    frames = frames or {}
    problems: list[Problem] = []
    for number in sorted(set(by_frame) | set(frames)):
        problems += check_frame(by_frame.get(number, []), frames.get(number), min_px, names)
    return problems


def check_run(directory: Path, min_px: int = MIN_PX,
              names: frozenset[str] | None = None) -> list[Problem]:
    """Every problem of a recorded run; ``names`` defaults to the games' :func:`proper_names`."""
    strings, frames = read(directory)
    return check(strings, frames, min_px, proper_names() if names is None else names)


def distinct(problems: Iterable[Problem]) -> Iterator[tuple[Problem, int]]:
    """Each problem once (its first frame) with the number of frames it was on."""
    first: dict[tuple[str, str, str, str], Problem] = {}
    count: dict[tuple[str, str, str, str], int] = defaultdict(int)
    for problem in problems:
        first.setdefault(problem.key(), problem)
        count[problem.key()] += 1
    for key, problem in first.items():
        yield problem, count[key]


def describe(problem: Problem, frames: int = 1) -> str:
    where = f"frame {problem.frame}" + (f" (+{frames - 1} more)" if frames > 1 else "")
    detail = f": {problem.detail}" if problem.detail else ""
    return f"{where} {problem.screen}: {problem.kind}{detail}: {problem.text!r}"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m ui.shell.legibility DIR  (a companion run --record DIR)",
              file=sys.stderr)
        return 2
    directory = Path(args[0])
    if not (directory / "text.jsonl").exists():
        print(f"legibility: no text.jsonl in {directory}", file=sys.stderr)
        return 2
    problems = list(distinct(check_run(directory)))
    for problem, frames in problems:
        print(describe(problem, frames))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
