"""What a game tells the hardware bridge about its table: the game-neutral interface.

The bridge (``firmware_bridge``) reads tags under places and turns them into placements of
pieces; it knows no game. A game package that can be played on the reader table provides one
:class:`GameTable`:

* its **places** (:class:`Place`): every zone, box, tray, reserve or pad a reader may watch,
  with the name players read, plus the places no antenna watches (a bag) so a piece the rules put
  there is never reported missing. Every table has a :data:`REGISTRATION` place (the antenna
  tags are registered on);
* its **pieces** (:class:`Piece`): the manifest a tag registry is checked against, each with the
  side it belongs to; players see only a side's colour (``sides``), never a piece's identity;
* how a registering player names a piece (:meth:`GameTable.resolve_piece`);
* **watch rules** (:class:`WatchRules`): a light rule set that follows moves without the engine
  (``companion hardware watch``);
* **session rules** (:class:`SessionRules`) for a running game: where every piece should be,
  whether a change is legal, and what a legal change means: commands (:class:`Ready`), a question
  for the players (:class:`Question`) or a wait for the rest of an action (:class:`Hold`);
* its **hardware data** (:mod:`companion.core.hardware`): where its antennas lie, for the scan
  schedule, and the wiring the build guide prints, both package data of the game.

Games are found by name (:func:`game_table`) through their descriptors
(:mod:`companion.core.descriptor`): a game's ``table`` names its GameTable as an import path,
loaded only when asked for, so the core imports no game. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Protocol, runtime_checkable

from companion.core.descriptor import descriptors
from companion.core.events import Command, Event
from companion.core.hardware import AntennaLayout, DefaultWiring
from companion.core.rules import RuleViolation

REGISTRATION = "registration"
"""The place every table has for registering tags (one antenna, one piece at a time)."""

DEFAULT_GAME = "sekigahara"
"""The game the bridge's commands serve when none is named."""

class PlaceKind(StrEnum):
    LOCATION = "location"
    """A place on the map itself (a location, a zone)."""
    BOX = "box"
    """An off-map box printed on the board."""
    TRAY = "tray"
    """Beside the board: a tray, a reserve, a card pad."""
    REGISTRATION = "registration"
    """The registration antenna."""
    UNWATCHED = "unwatched"
    """No antenna watches it (a bag): pieces there are never reported missing."""


@dataclass(frozen=True)
class Place:
    id: str
    label: str
    """The name players read ("Gifu", "the casualty tray")."""
    kind: PlaceKind
    wide: bool = False
    """Several antennas may watch it together. Trays and boxes always may; a map location only
    when wide (a big zone): otherwise one antenna watches it, at most."""

    @property
    def watched(self) -> bool:
        return self.kind is not PlaceKind.UNWATCHED

    @property
    def one_antenna(self) -> bool:
        """At most one antenna may watch it (a location that is not wide)."""
        return self.kind is PlaceKind.LOCATION and not self.wide


@dataclass(frozen=True)
class Piece:
    """One tagged piece: its id (what the tag registry maps a uid to) and its side's id."""

    id: str
    side: str


@dataclass(frozen=True)
class ProposedMove:
    """A difference between the table and the rules that the rules allow."""

    origin: str
    destination: str
    block_ids: tuple[str, ...]
    """The pieces moved (the name is historical: Sekigahara's pieces are blocks)."""


@runtime_checkable
class MoveRules(Protocol):
    """What the bridge reconciles the table with.

    ``expected_positions`` maps every piece id in play to the place the rules say it is on.
    ``explain_move`` returns None if moving ``block_ids`` from ``origin`` to ``destination`` is
    legal now, else a RuleViolation citing the rule; its message is shown to players and so must
    not reveal a hidden piece's identity.
    """

    def expected_positions(self) -> Mapping[str, str]: ...

    def explain_move(
        self, origin: str, destination: str, block_ids: Sequence[str]
    ) -> RuleViolation | None: ...


class WatchRules(MoveRules, Protocol):
    """Rules that follow the table without the engine: :meth:`apply` adopts a legal move."""

    def apply(self, move: ProposedMove) -> None: ...

    def summary(self) -> str:
        """One line for the start of a watch ("watching 96 blocks in play ...")."""
        ...


@dataclass(frozen=True)
class Ready:
    """The change means exactly these commands (none: the change is right and means no
    command, e.g. Tenka Meidou's reinforcements placed in the War; ``note`` then says so)."""

    commands: tuple[Command, ...]
    note: str | None = None
    """A line for the shared screen's log, if the commands' own lines do not say it all."""


@dataclass(frozen=True)
class Hold:
    """Part of an action seen, the rest awaited; nothing is submitted yet."""

    reason: str


class Option(Protocol):
    @property
    def label(self) -> str:
        """What players read (no hidden identity)."""
        ...


class Question(Protocol):
    """The change is ambiguous: the players choose one option on the touchscreen."""

    @property
    def text(self) -> str: ...

    @property
    def options(self) -> Sequence[Option]: ...

    def answer(self, choice: int) -> tuple[Command, ...]:
        """The commands option ``choice`` means (IndexError or ValueError for a bad one)."""
        ...


Outcome = Ready | Hold | Question


class SessionRules(MoveRules, Protocol):
    """A running game, as the bridge's table session needs it."""

    def commands_for(self, move: ProposedMove) -> Outcome: ...

    def group(self, moves: Sequence[ProposedMove]) -> list[ProposedMove]:
        """The legal moves as the game judges them (e.g. losses from several places as one)."""
        ...

    def destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        """Where these pieces may go now (lit on the table while players choose)."""
        ...

    def flashing(self) -> Sequence[str]:
        """Places to flash now (e.g. the site of a pending battle)."""
        ...

    def describe(self, event: Event) -> str:
        """One line for the shared screen about an accepted event."""
        ...

    def observe(self, seen: Mapping[str, str]) -> None:
        """The pieces the readers see now (piece -> place), told before every reconciliation
        once no piece is in hand. A game whose pieces of one side are interchangeable (Tenka
        Meidou's pawns) re-binds the ids it expects to the ones seen, so that only counts per
        place matter; a game whose pieces are all different ignores it."""
        ...


class GameTable(Protocol):
    """A game's table, as the bridge serves it: see the module docstring."""

    @property
    def name(self) -> str:
        """The registry name (``sekigahara``)."""
        ...

    @property
    def piece_word(self) -> str:
        """What players call a piece ("block", "pawn")."""
        ...

    @property
    def piece_hint(self) -> str:
        """How a registering player may name a piece ("face like 'mori 3', or id")."""
        ...

    @property
    def sides(self) -> Mapping[str, str]:
        """Side id -> the colour players call its pieces ("gold"), in the order counts name
        them."""
        ...

    def places(self) -> Mapping[str, Place]:
        """Every place, watched or not, by id."""
        ...

    def pieces(self) -> Sequence[Piece]:
        """Every tagged piece of the game (the manifest)."""
        ...

    def resolve_piece(self, answer: str, taken: Collection[str]) -> str:
        """The piece a registering player means by ``answer`` (``taken``: pieces that have a
        tag already); ValueError with a message for the player if it names none."""
        ...

    def describe_piece(self, piece: str) -> str:
        """What the piece is, for the registering player holding it ("Mori 3")."""
        ...

    def watch_rules(self, on_table: Mapping[str, str]) -> WatchRules:
        """Rules for following the table without the engine, from the pieces seen now."""
        ...

    def session_rules(self, game: Any) -> SessionRules:
        """The rules of ``game``, this game's running :class:`~companion.core.game.Game`."""
        ...

    def antenna_layout(self) -> AntennaLayout | None:
        """Where the antennas lie (the game's ``data/antennas.yaml``), or None for a game with
        no placement sheet: the bridge then cannot plan a scan schedule, and says so."""
        ...

    def default_wiring(self) -> DefaultWiring | None:
        """The wiring the build guide prints (the game's ``data/wiring.default.yaml``), or None:
        the simulator then spreads the zones over its hubs in order."""
        ...


def table_names() -> list[str]:
    """Every installed game the bridge can serve (those whose descriptor names a table)."""
    return [name for name, game in descriptors().items() if game.table is not None]


@cache
def game_table(name: str = DEFAULT_GAME) -> GameTable:
    """The table of the game ``name`` (``tenka_meidou`` is read as ``tenka-meidou``); KeyError
    if no installed game of that name has a table."""
    game = descriptors().get(name.replace("_", "-"))
    if game is None or game.table is None:
        raise KeyError(f"no game {name!r} with a reader table; games: "
                       f"{', '.join(table_names()) or '(none installed)'}")
    return game.load_table()
