"""A calculator's ruling on the touchscreen: the outcome first, then every roll and modifier
on a line of its own, each a tap from its detail (the heading it is printed under, what it is
for, the reading taken, and the arithmetic it enters)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from companion.games.kensei.calculator import Kind
from ui.kensei import words as w
from ui.shell import theme as th
from ui.shell.canvas import Canvas, row
from ui.shell.pages import Detail, detail_page

WOUNDS = "Tirada de heridas"
CASUALTIES = "RETIRADA DE BAJAS"
LOSER = "UNIDAD DERROTADA"
HONOUR = "TIRADA DE HONOR"
DUEL = "DUELO DE MANDO"
HEADINGS = {
    WOUNDS: "Tirada de heridas (B5.2): successes wound, a natural 6 is a critical, a 1 is "
            "ignored and any other die leaves a Stunned marker.",
    CASUALTIES: "RETIRADA DE BAJAS (B5.2): a model falls for each HR wounds; the rest stay as "
                "wound markers.",
    LOSER: "UNIDAD DERROTADA (B7): the side with more losses loses, a dead leader counting "
           "two; the winner takes the combat initiative.",
    HONOUR: "TIRADA DE HONOR (B7): the loser rolls 1D6 and passes on its HO or less.",
    DUEL: "DUELO DE MANDO (B9.1): the higher sum of the cards bid takes the initiative; a tie "
          "leaves it with the player who held it.",
}


@dataclass(frozen=True)
class Line:
    text: str
    detail: Detail


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _arith(parts: list[int], total: int, unit: str) -> str:
    if not parts:
        return f"{total} {unit}"
    said = " ".join(f"{'+' if n >= 0 else '−'} {abs(n)}" for n in parts).removeprefix("+ ")
    return f"{said} = {total} {unit}"


def _roll_lines(out: dict[str, Any], table: str, who: str, roll: str) -> list[Line]:
    """A pool, its items, the target and its modifiers, the hits, the wounds."""
    mods = w.modifiers()
    lines: list[Line] = []
    parts = [int(i["dice"]) for i in out["pool_items"]]
    pool_sum = _arith(parts, out["pool"], "dice")
    rolled = "one die, a success only on a 6" if out["zero_pool"] else w.dice(out["pool"])
    rules = tuple(w.cite(mods[f"{table}_pool.{i['id']}"]) for i in out["pool_items"])
    lines.append(Line(f"{who}: {roll} roll of {rolled}",
                      Detail(f"{who}: the {roll} roll", (pool_sum,), rules)))
    for item in out["pool_items"]:
        row_ = mods[f"{table}_pool.{item['id']}"]
        lines.append(Line(f"{w.signed(item['dice'])} {'die' if abs(item['dice']) == 1 else 'dice'}"
                          f": {row_.says} ({row_.rule})",
                          Detail(row_.rule, (f"{w.signed(item['dice'])}: {row_.says}",
                                             f"The pool: {pool_sum}"), (w.cite(row_),))))
    for kind, target_key, items_key, count_key in (
            ("hit", "hit_target", "hit_items", "hits"),
            ("wound", "wound_target", "wound_items", "wounds")):
        items = out[items_key]
        sub = "hit" if kind == "hit" else "wound"
        mod_table = f"{table}_{sub}"
        goal = out[target_key]
        sum_line = (f"{goal}+ needed: 4" + "".join(
            f" {'−' if i['mod'] > 0 else '+'} {abs(i['mod'])}" for i in items) + f" = {goal}"
                    if items else f"{goal}+ needed (a 1 always fails, a 6 always succeeds)")
        extra = ""
        if kind == "hit":
            extra = f", {_count(out['criticals'], 'six', 'sixes')}, " \
                    f"{_count(out['fumbles'], 'one', 'ones')}"
        else:
            extra = f", {out['wound_criticals']} critical"
            if "stunned_caused" in out:
                extra += f", {out['stunned_caused']} Stunned, {out['ignored']} ignored"
        head = "Tirada de combate" if table == "melee" else "Tirada de Disparo"
        rule_head = head if kind == "hit" else WOUNDS
        lines.append(Line(f"{who} {kind}s on {goal}+: {out[count_key]}{extra}",
                          Detail(f"{who}: {kind}s", (sum_line,),
                                 tuple(w.cite(mods[f"{mod_table}.{i['id']}"]) for i in items)
                                 or (HEADINGS.get(rule_head, rule_head),))))
        for item in items:
            row_ = mods[f"{mod_table}.{item['id']}"]
            lines.append(Line(f"{w.signed(item['mod'])} to each {sub} die: {row_.says} "
                              f"({row_.rule})",
                              Detail(row_.rule, (f"{w.signed(item['mod'])} to each die: "
                                                 f"{row_.says}", sum_line), (w.cite(row_),))))
    return lines


def _honour_lines(honour: dict[str, Any] | None, who: str) -> list[Line]:
    if honour is None:
        return []
    mods = w.modifiers()
    ho = " ".join(f"{w.signed(i['mod'])}" for i in honour["ho_items"])
    rolled = ", then ".join(str(d) for d in honour["dice"])
    outcome = w.OUTCOMES[honour["outcome"]]
    moves = f" {honour['move']} cm" if honour["move"] else ""
    markers = ", ".join(w.MARKERS[m] for m in honour["markers"])
    text = (f"{who}: honour {rolled} (needs {honour['target']} or less): {outcome}{moves}"
            + (f"; {markers}" if markers else ""))
    lines = [Line(text, Detail(f"{who}: the honour roll", (
        f"HO {ho} = {honour['target']}", f"Rolled {rolled}: {outcome}{moves}",
        f"Markers: {markers or 'none'}"),
        (HEADINGS[HONOUR], *(w.cite(mods[f"honour.{i['id']}"]) for i in honour["ho_items"]))))]
    if honour["extra_casualties"]:
        lines.append(Line(f"{who}: {honour['extra_casualties']} more falls for the failed roll",
                          Detail(HONOUR, (text,), (HEADINGS[HONOUR],))))
    return lines


def _taken_melee(taken: dict[str, Any], who: str) -> Line:
    said = [f"{taken['wounds']} wounds taken, {taken['unit_wounds']} on the unit",
            f"Stunned turned to wounds: {taken['stunned_converted']}, left: "
            f"{taken['stunned_after']}",
            f"Wound markers after: {taken['wound_markers_after']}"]
    if taken["leader_wounds_after"] is not None:
        said.append(f"On the leader: {taken['to_leader']}, protected {taken['protected']}; "
                    f"his wounds now {taken['leader_wounds_after']}"
                    + (", he is killed" if taken["leader_killed"] else ""))
    said.append(f"Losses counted: {taken['loss_count']}")
    fell = taken["casualties"]
    text = f"{who}: {fell} {'model falls' if fell == 1 else 'models fall'}"
    if taken["leader_killed"]:
        text += ", the leader is killed"
    if taken["wiped_out"]:
        text += ", wiped out"
    return Line(text, Detail(f"{who}: casualties", tuple(said),
                             (HEADINGS[WOUNDS], HEADINGS[CASUALTIES])))


def melee_lines(ruling: dict[str, Any], names: dict[str, str] | None
                ) -> tuple[str, dict[str, list[Line]]]:
    """The outcome, and each side's lines."""
    out: dict[str, list[Line]] = {}
    for s in ("a", "b"):
        who = w.side_name(s, names)
        side = ruling[s]
        out[s] = [_taken_melee(side["taken"], who)]  # what happened first, then why
        if side["villager_extra"]:
            out[s].append(Line(f"{who}: {side['villager_extra']} more villagers flee",
                               Detail(LOSER, ("The margin of loss (our reading 10)",),
                                      (HEADINGS[LOSER],))))
        out[s] += _honour_lines(side["honour"], who)
        out[s] += _roll_lines(side, "melee", who, "combat")
    loser, winner = ruling["loser"], ruling["winner"]
    first = w.side_name(ruling["combat_initiative"], names)
    if loser is None:
        head = f"No loser: equal losses. {first} has the combat initiative."
    else:
        counts = [ruling[side]["taken"]["loss_count"] for side in (loser, winner)]
        losses = f"{counts[0]} to {counts[1]}"
        head = (f"{w.side_name(loser, names)} loses {losses}: {w.side_name(winner, names)} "
                f"wins and takes the combat initiative.")
    return head, out


def shoot_lines(ruling: dict[str, Any]) -> tuple[str, dict[str, list[Line]]]:
    if ruling["out_of_range"]:
        return (f"Out of range ({ruling['band']} distance): the shot is spent with no roll.",
                {"shooter": [Line("DISTANCIA DE DISPARO: beyond the weapon's reach",
                                  Detail("DISTANCIA DE DISPARO", (
                                      "El disparo se realiza pero no se hace ninguna tirada.",
                                  )))]})
    lines = _roll_lines(ruling, "shoot", "Shooter", "shooting")
    lines.insert(0, Line(f"Distance band: {ruling['band']}",
                         Detail("DISTANCIA DE DISPARO", (
                             "Short to 20 cm, medium to 40 cm, long beyond (B6).",))))
    taken = ruling["taken"]
    fell = taken["casualties"]
    said = (f"{taken['unit_wounds']} wounds on the unit, {taken['to_leader']} on the leader",
            f"Wounds lost beyond the visible models: {taken['lost_wounds']}",
            f"Wound markers after: {taken['wound_markers_after']}")
    target_lines = [Line(f"Target: {fell} {'model falls' if fell == 1 else 'models fall'}"
                         + (", the leader is killed" if taken["leader_killed"] else ""),
                         Detail("Target: casualties", said, (HEADINGS[CASUALTIES],)))]
    target_lines += _honour_lines(ruling["honour"], "Target")
    if ruling["unloaded_after"]:
        target_lines.append(Line("Shooter: the gunpowder weapon is now unloaded",
                                 Detail("ARMAS DE DISPARO", (
                                     "A gunpowder weapon must be reloaded after a shot (B8).",))))
    hit = ruling["hits"]
    head = f"{hit} {'hit' if hit == 1 else 'hits'}, {ruling['wounds']} wounds: " \
           f"{fell} {'model falls' if fell == 1 else 'models fall'}."
    return head, {"target": target_lines, "shooter": lines}  # what happened first, then why


def duel_lines(ruling: dict[str, Any], names: dict[str, str] | None
               ) -> tuple[str, dict[str, list[Line]]]:
    sums = ruling["sums"]
    holder = w.side_name(ruling["initiative_after"], names)
    head = (f"A tie at {sums['a']}: {holder} keeps the initiative." if ruling["tie"]
            else f"{holder} takes the initiative, {sums['a']} to {sums['b']}.")
    lines = [Line(f"{w.side_name(s, names)} bid {sums[s]} with "
                  f"{ruling['discarded'][s]} {'card' if ruling['discarded'][s] == 1 else 'cards'}"
                  ", now discarded",
                  Detail(DUEL, (f"The cards bid add up to {sums[s]}",), (HEADINGS[DUEL],)))
             for s in ("a", "b")]
    return head, {"duel": lines}


class RulingScreen:
    """The ruling of ``kind`` on ``data``; "Back to the form" and ``done`` leave."""

    def __init__(self, kind: Kind, ruling: dict[str, Any], back: Callable[[], None],
                 names: dict[str, str] | None = None, done: Callable[[], None] | None = None,
                 done_label: str = "Done") -> None:
        self.kind = kind
        self.ruling = ruling
        self.back = back
        self.done = done
        self.done_label = done_label
        self.page = 0
        self.detail: Detail | None = None
        if kind == "melee":
            self.head, self.columns = melee_lines(ruling, names)
        elif kind == "shoot":
            self.head, self.columns = shoot_lines(ruling)
        else:
            self.head, self.columns = duel_lines(ruling, names)

    @property
    def name(self) -> str:
        return "kensei-detail" if self.detail is not None else "kensei-ruling"

    def tick_ms(self) -> int | None:
        return None

    def _open(self, detail: Detail) -> None:
        self.detail = detail

    def _close(self) -> None:
        self.detail = None

    def turn(self, page: int) -> None:
        self.page = page

    def draw(self, canvas: Canvas) -> None:
        if self.detail is not None:
            detail_page(canvas, self.detail, self._close, lambda text: text)
            return
        t = canvas.theme
        r = canvas.rect
        width = r.width - 4 * t.gap
        y = canvas.text(self.head, (2 * t.gap, t.gap), size=t.body, bold=True, colour=th.GOLD,
                        width=width, max_lines=2).bottom + t.gap
        bar = pygame.Rect(t.gap, r.bottom - t.target - t.gap, r.width - 2 * t.gap, t.target)
        area = pygame.Rect(t.gap, y, r.width - 2 * t.gap, bar.y - t.gap - y)
        columns = list(self.columns.values())
        if t.portrait or len(columns) == 1:
            columns = [[line for col in columns for line in col]]
        height = t.target
        per_page = max(1, (area.height + t.gap // 2) // (height + t.gap // 2))
        pages = max(1, max((len(c) + per_page - 1) // per_page for c in columns))
        self.page = max(0, min(self.page, pages - 1))
        for rect, lines in zip(row(area, len(columns), t.gap), columns, strict=True):
            shown = lines[self.page * per_page:(self.page + 1) * per_page]
            for i, line in enumerate(shown):
                cell = pygame.Rect(rect.x, rect.y + i * (height + t.gap // 2), rect.width,
                                   height)
                canvas.fill(th.PANEL, cell, radius=t.gap // 2)
                canvas.text(line.text, (cell.x + t.gap, cell.centery), size=t.small,
                            anchor="midleft", width=cell.width - 2 * t.gap, max_lines=2)
                canvas.tap_area(cell, f"Why: {line.text}", partial(self._open, line.detail))
        cells = row(bar, 4, t.gap)
        canvas.button(cells[0], "Back to the form", self.back)
        canvas.button(cells[1], "Previous page",
                      partial(self.turn, self.page - 1) if self.page > 0 else None)
        canvas.button(cells[2], "Next page",
                      partial(self.turn, self.page + 1) if self.page < pages - 1 else None)
        canvas.button(cells[3], self.done_label, self.done, colour=th.ACCEPT)
