"""Sekigahara: the block wargame of the 1600 campaign (2 players), its rules engine, referee
calculator and reader table. ``GAME`` is what the rest of the companion knows of it
(:mod:`companion.core.descriptor`); keep this module's imports light."""

from companion.core.descriptor import GameDescriptor

GAME = GameDescriptor(
    name="sekigahara",
    title="Sekigahara",
    line="2 players · blocks, cards and castles",
    commands={"selfplay": "companion.games.sekigahara.selfplay:register"},
    table="companion.games.sekigahara.table:TABLE",
    ui="ui.sekigahara:UI",
    records="companion.games.sekigahara.explain:RECORDS",
    referee="companion.games.sekigahara.referee:add_calculators",
    tournament="companion.games.sekigahara.tournament:FEED",
    hardware="companion.games.sekigahara.data",
)
