"""Kensei (Zenit Miniatures), a miniatures battle of feudal Japan on an open table: the
companion is the referee's assistant and bookkeeper (docs/kensei.md).

The players assert everything spatial and give every die; the companion checks army lists,
keeps the order of play, the markers, the command deck, honour and the score
(:mod:`companion.games.kensei.battle`), keeps hands and secret missions off the shared
screen, and does the calculators' arithmetic, itemising each modifier with the heading it is
printed under.
"""

from companion.core.descriptor import GameDescriptor

GAME = GameDescriptor(
    name="kensei",
    title="Kensei",
    line="Zenit Miniatures · 2 players · a miniatures skirmish",
    commands={"kensei": "companion.games.kensei.cli:register"},
    table="companion.games.kensei.table:TABLE",
    ui="ui.kensei:UI",
    records="companion.games.kensei.explain:RECORDS",
    tournament="companion.games.kensei.tournament:FEED",
    hardware="companion.games.kensei.data",
)
"""The battle, the lists and the calculators (``companion kensei ...``), their screens
(``companion run --game kensei``: :mod:`ui.kensei`), the reader table's trays and pads
(:mod:`companion.games.kensei.table`), the records and the tournament feed."""
