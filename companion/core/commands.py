"""Subcommands registered by several packages, the first registration of a name winning.

Two packages may register the same subcommand name (two games' ``selfplay``, or a plugin that
adds a name already taken). argparse refuses a second subparser of one name with an error that
would stop every command; :func:`first_wins` gives each ``register(subparsers)`` a view of the
subparsers on which a name already taken is skipped with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TypeAlias, cast

if TYPE_CHECKING:
    SubParsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class _FirstWins:
    """The subparsers as one registration sees them (only ``add_parser`` differs)."""

    def __init__(self, action: SubParsers, source: str, owners: dict[str, str]) -> None:
        self._action = action
        self._source = source
        self._owners = owners

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        names = [name, *kwargs.get("aliases", ())]
        taken = next((n for n in names if n in self._action.choices), None)
        if taken is not None:
            owner = self._owners.get(taken, "another registration")
            print(f"companion: command {taken!r} of {self._source} is already registered by "
                  f"{owner}: {owner}'s is used", file=sys.stderr)
            return argparse.ArgumentParser(prog=name, add_help=False)  # filled, then dropped
        self._owners.update(dict.fromkeys(names, self._source))
        return self._action.add_parser(name, **kwargs)

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._action, attribute)


def first_wins(action: SubParsers, source: str, owners: dict[str, str]) -> SubParsers:
    """``action`` for the registration ``source`` (a "module:register" string): a name in
    ``owners`` (name -> source, shared by every registration onto ``action``) is already
    taken, and is skipped with a warning instead of stopping the parser."""
    return cast("SubParsers", _FirstWins(action, source, owners))
