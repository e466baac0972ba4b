"""What a game is to the companion: one :class:`GameDescriptor` per game, registered once.

A game package exports ``GAME = GameDescriptor(...)`` from its ``__init__`` and names it in one
line of ``pyproject.toml``::

    [project.entry-points."companion.games"]
    sekigahara = "companion.games.sekigahara:GAME"

Everything that serves several games reads the descriptors: the reader bridge finds a game's
table (:func:`companion.core.table.game_table`), ``companion run`` its screens and the game
choice, ``companion`` its subcommands, ``companion referee verify|replay|explain`` and
``companion game ...`` its records, the hardware tools its data files. The heavy parts are
``"module:attribute"`` strings loaded only when asked for (:meth:`GameDescriptor.load`), so
reading every descriptor imports no engine, screen or bridge, and this module imports no game.

A game needs only what it has: a game with nothing but commands (``companion kensei ...``) is
``GameDescriptor(name, title, line, commands={...})``. docs/architecture.md, "Adding a game".
"""

from __future__ import annotations

import pkgutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module, resources
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from companion.core.records import GameRecords
    from companion.core.table import GameTable

GROUP = "companion.games"
"""The entry point group every game is registered under: name -> ``package:GAME``."""

SHIPPED = "companion.games"
"""The package the shipped games live in (read directly when the install's metadata does not
list them: see :func:`descriptors`)."""


class DescriptorError(ImportError):
    """A game's registration or one of its lazy parts cannot be loaded. An ImportError, so a
    game that cannot load makes only its own commands unavailable."""


@dataclass(frozen=True)
class GameDescriptor:
    """One game, as everything outside it needs to know it.

    The ``"module:attribute"`` strings are loaded only when used (:meth:`load`)."""

    name: str
    """The registry name, lower case with hyphens ("sekigahara", "tenka-meidou"): ``--game``,
    the store's game column, the entry point's name."""
    title: str
    """The game's name for players ("Tenka Meidou")."""
    line: str
    """The one line the game choice shows under the title."""
    commands: Mapping[str, str] = field(default_factory=dict)
    """The game's own subcommands of ``companion``: name -> ``"module:register"``, each
    ``register(subparsers)`` adding that one subcommand."""
    table: str | None = None
    """``"module:attribute"`` of its :class:`~companion.core.table.GameTable` (the reader
    table); None: not played on the readers."""
    ui: str | None = None
    """``"module:run"`` of its touchscreen app, ``run(args, change_game) -> int | None``
    (``companion run``); None: no screens."""
    records: str | None = None
    """``"module:attribute"`` of its :class:`~companion.core.records.GameRecords`: what the
    referee tools and ``companion game`` need to rebuild and check a stored game through this
    game's own rules. None: its games are not stored."""
    referee: str | None = None
    """``"module:register"`` adding the game's own calculators to ``companion referee``
    (``register(subparsers)`` with referee's subparsers: Sekigahara's ``battle``)."""
    hardware: str | None = None
    """The package holding the game's hardware data files (antenna layout, default wiring),
    read by :meth:`hardware_file`."""
    tournament: str | None = None
    """``"module:attribute"`` of what tournament play needs of a game (``tournament.status``):
    its rules, commands and undo policy, its public feed lines and its status at a glance.
    None: its tables publish entries without lines or status."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "commands", MappingProxyType(dict(self.commands)))

    @property
    def key(self) -> str:
        """The name as a Python identifier ("tenka_meidou")."""
        return self.name.replace("-", "_")

    def load(self, part: str) -> Any:
        """The object one of the lazy parts names: ``"table"``, ``"ui"``, ``"records"``,
        ``"referee"`` or ``"command NAME"``. DescriptorError, naming the game and the part,
        when the game has no such part or it cannot be imported."""
        if part.startswith("command "):
            target = self.commands.get(part.removeprefix("command "))
        else:
            target = getattr(self, part, None) if part in _LAZY else None
        if not isinstance(target, str):
            raise DescriptorError(f"{self.title} has no {part}")
        return load_target(target, f"{self.title}'s {part}")

    def load_table(self) -> GameTable:
        table: GameTable = self.load("table")
        return table

    def load_records(self) -> GameRecords:
        records: GameRecords = self.load("records")
        return records

    def hardware_file(self, name: str) -> Traversable:
        """One of the game's hardware data files (``antennas.yaml``), from its package data:
        read it with ``.read_text("utf-8")``. FileNotFoundError naming the game if it has none
        of that name."""
        if self.hardware is None:
            raise FileNotFoundError(f"{self.title} has no hardware data")
        try:
            path = resources.files(self.hardware).joinpath(name)
        except ModuleNotFoundError as exc:
            raise FileNotFoundError(f"{self.title}'s hardware data package {self.hardware!r} "
                                    f"is not installed ({exc})") from None
        if not path.is_file():
            raise FileNotFoundError(f"{self.title} has no hardware file {name!r} "
                                    f"(in {self.hardware})")
        return path

    def read_hardware_file(self, name: str) -> str:
        """The text of one of the game's hardware data files (:meth:`hardware_file`)."""
        return self.hardware_file(name).read_text("utf-8")


_LAZY = ("table", "ui", "records", "referee", "tournament")


def load_target(target: str, what: str) -> Any:
    """The object ``"module:attribute"`` names (``attribute`` may be dotted); DescriptorError
    saying ``what`` it was for when the string is malformed or the import fails."""
    module_name, colon, attribute = target.partition(":")
    if not colon or not module_name or not attribute:
        raise DescriptorError(f"{what}: {target!r} is not 'module:attribute'")
    try:
        found: Any = import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except ImportError as exc:
        raise DescriptorError(f"{what} cannot be loaded: {exc}") from exc
    except AttributeError:
        raise DescriptorError(f"{what}: {module_name} has no {attribute!r}") from None
    return found


_warned: set[str] = set()


def _warn(message: str) -> None:
    """One line on stderr, once a process (the descriptors are read several times a run)."""
    if message not in _warned:
        _warned.add(message)
        print(f"companion: {message}", file=sys.stderr)


def _registered() -> list[tuple[str, str]]:
    """The ``companion.games`` entry points as (name, target), plus the shipped games read from
    their package when no registration points into it: a source tree run without being
    installed, or an install whose metadata predates the group (``pip install -e .`` again
    refreshes it)."""
    found = [(e.name, e.value) for e in entry_points(group=GROUP)]
    if any(value.startswith(f"{SHIPPED}.") for _, value in found):
        return found
    try:
        package = import_module(SHIPPED)
    except ImportError:
        return found
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        target = f"{SHIPPED}.{module.name}"
        try:
            is_game = module.ispkg and hasattr(import_module(target), "GAME")
        except ImportError as exc:
            _warn(f"{target} cannot be loaded: {exc}: skipped")
            continue
        if is_game:
            found.append((module.name.replace("_", "-"), f"{target}:GAME"))
    return found


def descriptors() -> dict[str, GameDescriptor]:
    """Every installed game by name, sorted. A registration that cannot be loaded, or that is
    not a GameDescriptor of its own name, is skipped with one line on stderr (the other games
    still work); when two register the same name, the first wins."""
    games: dict[str, GameDescriptor] = {}
    for name, target in _registered():
        try:
            game = load_target(target, f"game {name!r}")
        except DescriptorError as exc:
            _warn(f"{exc}: skipped")
            continue
        if not isinstance(game, GameDescriptor) or game.name != name:
            what = (f"is named {game.name!r}" if isinstance(game, GameDescriptor)
                    else "is not a GameDescriptor")
            _warn(f"game {name!r} ({target}) {what}: skipped")
            continue
        if name in games:
            if games[name] != game:
                _warn(f"game {name!r} is registered twice: the first is used")
            continue
        games[name] = game
    return dict(sorted(games.items()))


def descriptor(name: str) -> GameDescriptor:
    """The installed game ``name`` (``tenka_meidou`` is read as ``tenka-meidou``); KeyError
    naming the installed games if there is none of that name."""
    games = descriptors()
    found = games.get(name.replace("_", "-"))
    if found is None:
        raise KeyError(f"no game {name!r}; games: {', '.join(games) or '(none installed)'}")
    return found
