"""Kensei's reader table for the app (B18): the simulated readers, the bridge and the table
session (:class:`~firmware_bridge.tablelink.TableLink` with the Kensei session rules), and the
virtual table drawn beside the screen. Opened with ``--hubs sim``; the battle screens follow
their battle through it (:func:`ui.kensei.battle.open_battle`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.core.game import Game
from companion.games.kensei.battle.rules import KenseiRules
from firmware_bridge.tablelink import TableLink, default_workdir, open_readers
from firmware_bridge.zones import active_table, use_table

if TYPE_CHECKING:
    from companion.core.table import GameTable
    from ui.kensei.virtual_table import VirtualTable
    from ui.tableapp import TableOptions

SIM_HUBS = 2
"""The simulated hubs of Kensei's trays and pads (two 16-antenna hubs)."""
MISSING_S = 0.5
"""A tag gone from its tray is taken as lifted off to the field after this long: the field is
not read, so every deployment is a tag seen nowhere (B18)."""


@dataclass
class ReaderTable:
    link: TableLink
    virtual: VirtualTable
    served: GameTable
    """The table the bridge served before (given back on :meth:`close`)."""

    def close(self) -> None:
        self.link.stop()  # the simulated readers with it
        use_table(self.served)


def at_reader_table(options: TableOptions) -> bool:
    """The battle is played at the simulated reader table: ``--hubs sim`` (the demo, or a
    desktop without the hardware)."""
    return list(options.hubs) == ["sim"]


def open_reader_table(options: TableOptions) -> ReaderTable:
    from ui.kensei.virtual_table import VirtualTable

    served = active_table()
    use_table("kensei")
    workdir = options.workdir or default_workdir("kensei-table-")
    readers = open_readers(options.hubs, options.config, workdir, options.rate_hz,
                           options.seed, sim_hubs=SIM_HUBS)
    link = TableLink(readers, Game(KenseiRules()), settle_s=options.settle_s,
                     debounce_missing_s=MISSING_S).start()
    simulated = readers.simulated
    assert simulated is not None, "the virtual table needs simulated readers"
    return ReaderTable(link, VirtualTable(simulated), served)
