"""Tenka Meidou (Rumble Nation, 2 to 4 players): its rules, War calculator and reader table.
``GAME`` is what the rest of the companion knows of it (:mod:`companion.core.descriptor`);
keep this module's imports light."""

from companion.core.descriptor import GameDescriptor

GAME = GameDescriptor(
    name="tenka-meidou",
    title="Tenka Meidou",
    line="Rumble Nation · 2 to 4 players · pawns and dice",
    commands={"tenka": "companion.games.tenka_meidou.cli:register"},
    table="companion.games.tenka_meidou.table:TABLE",
    ui="ui.tenka_meidou:UI",
    records="companion.games.tenka_meidou.explain:RECORDS",
    tournament="companion.games.tenka_meidou.tournament:FEED",
    hardware="companion.games.tenka_meidou.data",
)
