"""Kensei (Zenit Miniatures), a miniatures skirmish game of feudal Japan: the referee's
calculators for melee, shooting and the command duel (docs/kensei.md).

The players assert every table premise and give every die as rolled; the calculators do the
rulebook's arithmetic, itemising each modifier with the heading it is printed under.
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
"""The referee's calculators (``companion kensei melee|shoot|duel``) and their screens
(``companion run --game kensei``: :mod:`ui.kensei`); the reader table's trays and pads
(:mod:`companion.games.kensei.table`)."""
