"""The three kinds of view of a game with hidden information, as distinct types.

A user interface or a log is only ever handed a view, never a state: :class:`PublicView` for the
shared screen (nothing either player may not see), :class:`SideView` for one player's private
screen, :class:`RefereeView` for the referee (everything). Each wraps a game-specific payload
built by that game's view module, which is the only code that decides what a view may hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P")


@dataclass(frozen=True)
class PublicView(Generic[P]):
    """What both players may see."""

    payload: P


@dataclass(frozen=True)
class SideView(Generic[P]):
    """What one side may see: the public view plus its own secrets."""

    side: str
    payload: P


@dataclass(frozen=True)
class RefereeView(Generic[P]):
    """Everything, hidden identities included. Never for the shared screen."""

    payload: P
