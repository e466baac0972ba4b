"""The bill of materials by stage, printed from hardware/bom.yaml.

    .venv/bin/python hardware/tools/bom.py [--bom hardware/bom.yaml]

prints one Markdown table per stage (quantity, part, part number, price each, line total, the
stage's total) and a summary with the running total: the tables in hardware/README.md section 2
are exactly this output (tests/hardware/test_hw_bom.py). Every price is an estimate from the
data file, never a live price.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

BOM_FILE = Path(__file__).resolve().parents[1] / "bom.yaml"


@dataclass(frozen=True)
class Item:
    qty: int
    part: str
    ref: str
    each: float
    role: str = ""
    net: tuple[str, ...] = ()
    """The hub netlist's parts this line buys (hardware/tools/hub_schematic.py refs)."""

    @property
    def total(self) -> float:
        return self.qty * self.each


@dataclass(frozen=True)
class Stage:
    id: int
    title: str
    what: str
    items: tuple[Item, ...]

    @property
    def total(self) -> float:
        return sum(i.total for i in self.items)

    def count(self, role: str) -> int:
        return sum(i.qty for i in self.items if i.role == role)


@dataclass(frozen=True)
class Bom:
    currency: str
    price_note: str
    stages: tuple[Stage, ...]

    def count(self, role: str) -> int:
        return sum(s.count(role) for s in self.stages)

    @property
    def total(self) -> float:
        return sum(s.total for s in self.stages)


def load(path: Path = BOM_FILE) -> Bom:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    stages = tuple(
        Stage(int(s["id"]), str(s["title"]), str(s["what"]),
              tuple(Item(int(i["qty"]), str(i["part"]).strip(), str(i.get("ref", "")),
                         float(i["each"]), str(i.get("role", "")),
                         tuple(str(r) for r in i.get("net", ()))) for i in s["items"]))
        for s in raw["stages"])
    return Bom(str(raw["currency"]), str(raw["price_note"]), stages)


def money(value: float) -> str:
    """$4, $0.35, $1,234: cents only where there are any."""
    if math.isclose(value, round(value)):
        return f"${round(value):,}"
    return f"${value:,.2f}"


def about(value: float) -> str:
    """A total rounded to a sensible step: it is an estimate."""
    step = 5 if value < 200 else 10
    return f"about ${round(value / step) * step:,}"


def stage_table(bom: Bom, stage: Stage) -> str:
    lines = ["| qty | part | part number / search term | each | total |",
             "|---|---|---|---|---|"]
    for i in stage.items:
        lines.append(f"| {i.qty} | {i.part} | {i.ref or '-'} | {money(i.each)} | "
                     f"{money(i.total)} |")
    lines.append(f"| | **{stage.title.split(':')[0]} total** | | | **{about(stage.total)}** "
                 f"({money(stage.total)}, {bom.price_note}) |")
    return "\n".join(lines)


def summary_table(bom: Bom) -> str:
    lines = ["| stage | what | Picos | PN5180s | stage total | running total |",
             "|---|---|---|---|---|---|"]
    running = 0.0
    for s in bom.stages:
        running += s.total
        lines.append(f"| {s.title} | {s.what} | {s.count('mcu')} | {s.count('reader')} | "
                     f"{about(s.total)} | {about(running)} |")
    lines.append(f"| **all** | | **{bom.count('mcu')}** | **{bom.count('reader')}** | | "
                 f"**{about(running)}** ({money(running)}, {bom.price_note}) |")
    return "\n".join(lines)


def report(bom: Bom) -> str:
    parts = []
    for s in bom.stages:
        parts.append(f"{s.title}\n\n{stage_table(bom, s)}")
    parts.append(f"Totals\n\n{summary_table(bom)}")
    return "\n\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bom", type=Path, default=BOM_FILE)
    args = parser.parse_args(argv)
    sys.stdout.write(report(load(args.bom)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
